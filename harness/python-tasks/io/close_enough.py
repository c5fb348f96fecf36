"""np.allclose(out, expected, rtol, atol) as EvalPlus calls it, with numpy where it is installed and
the same rule in plain Python where it is not (a machine with only Python still judges HumanEval+):
|out - expected| <= atol + rtol * |expected| for every element, a scalar set against every element
of a sequence, NaN never close, an infinity close only to itself; anything but numbers is an error."""
import math

try:
    import numpy
    numpy.ndarray  # a folder of stray numpy files imports as an empty namespace package: no numpy
except (ImportError, AttributeError):
    numpy = None


def allclose(out, expected, rtol, atol):
    if numpy is not None:
        return bool(numpy.allclose(out, expected, rtol=rtol, atol=atol))
    return all(close(a, b, rtol, atol) for a, b in pairs(out, expected))


def pairs(out, expected):
    out_items, expected_items = is_sequence(out), is_sequence(expected)
    if not out_items and not expected_items:
        yield number(out), number(expected)
        return
    out = list(out) if out_items else [out]
    expected = list(expected) if expected_items else [expected]
    if len(out) != len(expected) and 1 not in (len(out), len(expected)):
        raise ValueError(f'shapes of {len(out)} and {len(expected)} elements cannot be compared')
    for index in range(max(len(out), len(expected))):
        yield from pairs(out[index % len(out)], expected[index % len(expected)])


def is_sequence(value):
    return isinstance(value, (list, tuple)) or (numpy is not None and isinstance(value, numpy.ndarray))


def number(value):
    if isinstance(value, (bool, int, float, complex)):
        return value
    raise TypeError(f'{type(value).__name__} is not a number')


def close(a, b, rtol, atol):
    if isinstance(a, complex) or isinstance(b, complex):
        if cmath_nan(a) or cmath_nan(b):
            return False
    elif math.isnan(a) or math.isnan(b):
        return False
    if a == b:
        return True
    if math.isinf(abs(a)) or math.isinf(abs(b)):
        return False
    return abs(a - b) <= atol + rtol * abs(b)


def cmath_nan(value):
    return isinstance(value, complex) and (math.isnan(value.real) or math.isnan(value.imag))
