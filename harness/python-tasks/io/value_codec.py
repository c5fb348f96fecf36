"""Values as plain data: what crosses the sandbox's boundary in both directions.

JSON with tags for what JSON lacks: a tuple is {"T": [...]}, a set {"S": [...]},
a frozenset {"Z": [...]}, a dict {"D": [[key, value], ...]}, bytes {"B": base64},
a complex {"C": [re, im]}, a non-finite float {"F": "inf"}, an int of more than
BIG_INT_BITS bits {"X": hex} (decimal conversion of big ints is quadratic), a numpy
value {"N": [dtype, shape, flat items]}, a range {"R": [start, stop, step]}, a dict's keys,
values or items view {"K": [...]}, {"V": [...]}, {"P": [[key, value], ...]}, what an iterator
(a generator, map, zip…) yielded once drained by the driver {"I": [...]}, and, where the caller
names them, objects the check's own setup code made {"G": name}. A value whose encoding is longer than
LARGE characters is sent as its fingerprint {"H": sha256, "n": length} instead
(HumanEval/15's outputs are megabytes each): a hash of a normal form in which
values Python holds equal (1, 1.0, True; a set in any order) read the same. Ints, finite floats, strings, booleans,
None and lists are JSON's own (Python's json keeps int and float apart).
Only these exact types are encoded: an instance of any other class, or of a
subclass of a builtin, is refused, so the judge never meets the program's objects.
"""
import array
import binascii
import collections
import json
import math
import sys

import hashlib

MAX_DEPTH = 200
# The standard library's dicts by another name (collections.Counter, OrderedDict, defaultdict) equal a dict with
# the same items, and EvalPlus's Mbpp/88 expects a Counter: they are sent as dicts. Taken when this module is
# imported, before the program runs, so that a program cannot name its own class here.
DICT_LIKE = (collections.Counter, collections.OrderedDict, collections.defaultdict)
BIG_INT_BITS = 8000
LARGE = 256 * 1024


KEYS_VIEW, VALUES_VIEW, ITEMS_VIEW = type({}.keys()), type({}.values()), type({}.items())


class NotPlainData(Exception):
    """The value holds something that is not a builtin value."""


class Iterated:
    """What an iterator yielded, drained by the driver under the call's time limit; decoded as an iterator over it."""

    def __init__(self, items):
        self.items = items


def drained(value):
    """A builtin iterator (generator, map, zip, itertools…) as what it yields, run to its end; anything else as it is."""
    kind = type(value)
    if kind.__module__ in ('builtins', 'itertools') and hasattr(kind, '__next__') and hasattr(kind, '__iter__'):
        return Iterated(list(value))
    return value


def encode(value, depth=0, refs=None):
    """`refs` maps id(object) to the name the check's setup code bound it to: such objects travel as {"G": name}."""
    if depth > MAX_DEPTH:
        raise NotPlainData('nested too deeply')
    if refs is not None and id(value) in refs:
        return {'G': refs[id(value)]}
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return value if value.bit_length() <= BIG_INT_BITS else {'X': format(value, 'x')}
    if kind is float:
        return value if math.isfinite(value) else {'F': repr(value)}
    if kind is list:
        return [encode(item, depth + 1, refs) for item in value]
    if kind is tuple:
        return {'T': [encode(item, depth + 1, refs) for item in value]}
    if kind is set:
        return {'S': [encode(item, depth + 1, refs) for item in value]}
    if kind is frozenset:
        return {'Z': [encode(item, depth + 1, refs) for item in value]}
    if kind is dict or kind in DICT_LIKE:
        return {'D': [[encode(key, depth + 1, refs), encode(item, depth + 1, refs)] for key, item in dict.items(value)]}
    if kind is bytes:
        return {'B': binascii.b2a_base64(value, newline=False).decode('ascii')}
    if kind is complex:
        return {'C': [encode(value.real, depth + 1), encode(value.imag, depth + 1)]}
    if kind is range:
        return {'R': [encode(value.start, depth + 1), encode(value.stop, depth + 1), encode(value.step, depth + 1)]}
    if kind is KEYS_VIEW:
        return {'K': [encode(item, depth + 1, refs) for item in value]}
    if kind is VALUES_VIEW:
        return {'V': [encode(item, depth + 1, refs) for item in value]}
    if kind is ITEMS_VIEW:
        return {'P': [[encode(key, depth + 1, refs), encode(item, depth + 1, refs)] for key, item in value]}
    if kind is Iterated:
        return {'I': [encode(item, depth + 1, refs) for item in value.items]}
    numpy = sys.modules.get('numpy')
    if numpy is not None and kind.__module__ == 'numpy' and (kind is numpy.ndarray or issubclass(kind, numpy.generic)):
        array = numpy.asarray(value)
        if array.dtype.kind not in 'biufc':
            raise NotPlainData(f'a numpy value of dtype {array.dtype}')
        items = [encode(item, depth + 1) for item in array.reshape(-1).tolist()]
        return {'N': [array.dtype.str, list(array.shape) if kind is numpy.ndarray else None, items]}
    raise NotPlainData(f'an object of type {kind.__module__}.{kind.__qualname__}')


def dumps(value):
    return json.dumps(encode(value), separators=(',', ':'), allow_nan=False)


def dumps_bounded(value):
    """The encoding, or the fingerprint when the encoding is longer than LARGE."""
    if not larger_than(value, LARGE):
        text = dumps(value)
        if len(text) <= LARGE:
            return text
    return json.dumps({'H': fingerprint(value)})


def larger_than(value, budget):
    """Whether the encoding would be longer than about `budget` characters, found without writing it."""
    pending = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is str or kind is bytes:
            budget -= len(item) + 2
        elif kind is int:
            budget -= item.bit_length() // 3 + 2
        elif kind is list or kind is tuple or kind is set or kind is frozenset:
            budget -= len(item) + 6
            if budget < 0:
                return True
            pending.extend(item)
        elif kind is dict or kind in DICT_LIKE:
            budget -= 2 * len(item) + 6
            if budget < 0:
                return True
            pending.extend(dict.keys(item))
            pending.extend(dict.values(item))
        else:
            budget -= 24
        if budget < 0:
            return True
    return False


def fingerprint(value):
    numbers = flat_numbers(value)
    if numbers is not None:
        # A list of a million numbers (HumanEval/130) at C speed: ints below 2**53 and floats as doubles,
        # which equal numbers share (2 and 2.0, True and 1).
        return 'a' + hashlib.sha256(numbers).hexdigest()
    if plain_sequence_sample(value):
        # repr runs at C speed (Mbpp/255 returns 1.6 million tuples of 77 strings); for lists, tuples, strs and
        # ints, equal reprs mean equal values. The normal form is kept for everything else.
        return 'r' + hashlib.sha256(repr(value).encode('utf-8', 'surrogatepass')).hexdigest()
    digest = hashlib.sha256()
    feed(value, lambda text: digest.update(text.encode('utf-8', 'surrogatepass')), 0)
    return digest.hexdigest()


def flat_numbers(value):
    """The value as packed doubles when it is a list of ints (below 2**53), floats and bools, else None."""
    if type(value) is not list or not value or not set(map(type, value)) <= {int, float, bool}:
        return None
    try:
        if not (-(2**53) < min(value) and max(value) < 2**53):
            return None
        return b'L' + array.array('d', value).tobytes()
    except (OverflowError, TypeError, ValueError):
        return None


def plain_sequence_sample(value, budget=2000):
    """Whether a sample of the value's nodes (each container's first and last items, breadth first) holds only lists, tuples, strs and ints."""
    pending = collections.deque([value])
    while pending and budget > 0:
        item = pending.popleft()
        budget -= 1
        kind = type(item)
        if kind is list or kind is tuple:
            if len(item) <= 4:
                pending.extend(item)
            else:
                pending.extend((item[0], item[1], item[len(item) // 2], item[-2], item[-1]))
        elif kind is int:
            if item.bit_length() > BIG_INT_BITS:
                return False  # repr of a big int is quadratic, and refused beyond 4300 digits
        elif kind is not str:
            return False
    return True


def normal(value, depth):
    parts = []
    feed(value, parts.append, depth)
    return ''.join(parts)


def feed(value, write, depth):
    """Writes a text that two values Python holds equal share (for the kinds value_codec encodes)."""
    if depth > MAX_DEPTH:
        raise NotPlainData('nested too deeply')
    kind = type(value)
    if kind is list or kind is tuple:
        write('L[' if kind is list else 'T[')
        for item in value:
            feed(item, write, depth + 1)
            write(',')
        write(']')
        return
    write(normal_scalar(value, depth))


def normal_scalar(value, depth):
    kind = type(value)
    if value is None:
        return 'n'
    if kind is bool or kind is int:
        return 'i' + format(int(value), 'x')
    if kind is float:
        return 'i' + format(int(value), 'x') if value.is_integer() else 'f' + repr(value)
    if kind is complex:
        return normal_scalar(value.real, depth) if value.imag == 0 else f'c{normal_scalar(value.real, depth)},{normal_scalar(value.imag, depth)}'
    if kind is str:
        return 's' + json.dumps(value)
    if kind is bytes:
        return 'b' + value.hex()
    if kind is set or kind is frozenset:
        return 'S[' + ','.join(sorted(normal(item, depth + 1) for item in value)) + ']'
    if kind is dict or kind in DICT_LIKE:
        return 'D[' + ','.join(sorted(normal(key, depth + 1) + ':' + normal(item, depth + 1) for key, item in dict.items(value))) + ']'
    numpy = sys.modules.get('numpy')
    if numpy is not None and kind.__module__ == 'numpy' and (kind is numpy.ndarray or issubclass(kind, numpy.generic)):
        return 'A' + normal(numpy.asarray(value).tolist(), depth + 1)
    raise NotPlainData(f'an object of type {kind.__module__}.{kind.__qualname__}')


class Fingerprint:
    """A large value, known by its fingerprint only."""

    def __init__(self, digest):
        self.digest = digest


def decode(data, depth=0, names=None):
    """Only what `encode` writes; anything else is malformed (ValueError). {"G": name} is read from `names`
    (the namespace the check's setup code ran in), and only where it is given."""
    if depth > MAX_DEPTH + 2:
        raise ValueError('nested too deeply')
    kind = type(data)
    if data is None or kind is bool or kind is str or kind is int or kind is float:
        return data
    if kind is list:
        return [decode(item, depth + 1, names) for item in data]
    if kind is dict and depth == 0 and set(data) == {'H'} and type(data['H']) is str:
        return Fingerprint(data['H'])
    if kind is not dict or len(data) != 1:
        raise ValueError(f'not a tagged value: {kind.__name__}')
    (tag, body), = data.items()
    if tag == 'X' and type(body) is str:
        return int(body, 16)
    if tag == 'F' and body in ('inf', '-inf', 'nan'):
        return float(body)
    if tag == 'B' and type(body) is str:
        return from_base64(body)
    if tag == 'G' and type(body) is str and names is not None and body in names:
        return names[body]
    if type(body) is not list:
        raise ValueError(f'tag {tag!r} needs a list')
    items = lambda: [decode(item, depth + 1, names) for item in body]  # noqa: E731
    if tag == 'T':
        return tuple(items())
    if tag == 'S':
        return set(items())
    if tag == 'Z':
        return frozenset(items())
    if tag == 'D':
        pairs = [decode_pair(pair, depth + 1, names) for pair in body]
        return dict(pairs)
    if tag == 'C' and len(body) == 2:
        return complex(decode(body[0], depth + 1), decode(body[1], depth + 1))
    if tag == 'R' and len(body) == 3:
        start, stop, step = (decode(item, depth + 1) for item in body)
        if not all(type(bound) is int for bound in (start, stop, step)):
            raise ValueError('a range needs three ints')
        return range(start, stop, step)
    if tag == 'K':
        return dict.fromkeys(items()).keys()
    if tag == 'V':
        return dict(enumerate(items())).values()
    if tag == 'P':
        return dict(decode_pair(pair, depth + 1, names) for pair in body).items()
    if tag == 'I':
        return iter(items())
    if tag == 'N' and len(body) == 3:
        import numpy

        dtype, shape, items = body
        if type(dtype) is not str or dtype[1:2] not in ('b', 'i', 'u', 'f', 'c') or type(items) is not list:
            raise ValueError(f'numpy dtype {dtype!r} is not a number')
        array = numpy.array([decode(item, depth + 1) for item in items], dtype=numpy.dtype(dtype))
        return array[0] if shape is None and array.size == 1 else array.reshape(shape)
    raise ValueError(f'unknown tag {tag!r}')


def from_base64(text):
    # binascii, not base64: the drivers import this module in every run, and base64's import costs a millisecond.
    try:
        return binascii.a2b_base64(text, strict_mode=True)
    except TypeError:  # before Python 3.11
        import base64

        return base64.b64decode(text, validate=True)


def decode_pair(pair, depth, names=None):
    if type(pair) is not list or len(pair) != 2:
        raise ValueError('a dict entry is not a [key, value] pair')
    return decode(pair[0], depth, names), decode(pair[1], depth, names)


def loads(text, names=None):
    return decode(json.loads(text), names=names)


def exact_key(value, refs=None):
    """The encoding with every set's items in one order: two values share it exactly when they have the same
    types and contents (a dict's order counts, 1 and 1.0 differ). Decodable like any encoding."""
    return json.dumps(in_one_order(encode(value, refs=refs)), separators=(',', ':'), allow_nan=False)


def in_one_order(data):
    if type(data) is list:
        return [in_one_order(item) for item in data]
    if type(data) is not dict:
        return data
    (tag, body), = data.items()
    if type(body) is not list:
        return data
    body = [in_one_order(item) for item in body]
    if tag in ('S', 'Z'):
        body.sort(key=lambda item: json.dumps(item, separators=(',', ':')))
    return {tag: body}
