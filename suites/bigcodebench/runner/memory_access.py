"""Takes away from the program what it needs to write raw memory, for a task whose canonical solution does without.

Writing the checks' memory in place needs two things: a way to write at an address, and the address.
Calibration decides per task whether its canonical solution and tests run without these (calibration.ts,
`rawMemory`); where they do, before the program exists:
- ctypes loses what writes, reads or calls at an address (memmove, memset, string_at, cast,
  pythonapi, function pointers, libraries, from_address and from_buffer: the audit hook refuses
  their events from anyone), and numpy.ctypeslib what builds arrays on pointers; ctypes, _ctypes,
  cffi and numpy.ctypeslib cannot be imported afresh;
- numpy's as_strided refuses a view that reaches past the memory of the array it is made from;
- /proc/self/maps and the other files that show where the process's memory is cannot be opened
  (tamper_guard.py's audit hook);
- id(), and hash() and repr() of objects whose type keeps object's own, give values that are
  unique and stable but say nothing of where an object is (a keyed hash of the address).
What stays: the types of _ctypes, which object.__subclasses__() still reaches; an object with a
hand-made __array_interface__, which numpy reads in C; the addresses other reprs print (functions,
code objects); memory_digest.py sees what a write through them changes in the checks.
"""
import builtins
import hashlib
import secrets
import sys

BLOCKED_IMPORTS = frozenset(('ctypes', '_ctypes', 'ctypes.util', 'ctypes.wintypes', 'cffi', '_cffi_backend', 'numpy.ctypeslib'))
BLOCKED_EVENTS = frozenset((
    'ctypes.addressof', 'ctypes.call_function', 'ctypes.cdata', 'ctypes.cdata/buffer', 'ctypes.dlopen', 'ctypes.dlsym',
    'ctypes.dlsym/handle', 'ctypes.string_at', 'ctypes.wstring_at',
))
# What of ctypes and _ctypes reaches an address: raw copies, casts, function pointers, libraries, pointers.
CTYPES_NAMES = (
    'memmove', 'memset', 'string_at', 'wstring_at', 'cast', 'pythonapi', 'CFUNCTYPE', 'PYFUNCTYPE', 'CDLL', 'PyDLL', 'cdll', 'pydll',
    'LibraryLoader', 'CFuncPtr', '_CFuncPtr', '_c_functype_cache', '_memmove_addr', '_memset_addr', '_string_at_addr', '_wstring_at_addr',
    '_cast_addr', '_dlopen', 'dlopen', 'dlsym', 'dlclose', 'addressof', 'byref', 'pointer', 'POINTER', '_pointer_type_cache', 'Union',
    'Structure', 'c_void_p', 'c_char_p', 'c_wchar_p', 'py_object', 'PyObj_FromPtr', 'Py_INCREF', 'Py_DECREF', 'call_function',
    'call_cdeclfunction', 'resize', '_Pointer', 'ARRAY', 'Array', 'c_voidp', 'SetPointerType',
)
NUMPY_CTYPESLIB_NAMES = ('as_array', 'as_ctypes', 'as_ctypes_type', 'ndpointer', 'load_library', 'ctypes')


def take_away(refuse):
    """`refuse(what)` fails the item and raises into the program. Call before the snapshots and before the program.
    Returns the functions it made, whose defaults (which hold `refuse`) the program must not read."""
    made = []
    for name in ('ctypes', '_ctypes'):
        module = sys.modules.get(name)
        if module is not None:
            for attribute in CTYPES_NAMES:
                if attribute in vars(module):
                    setattr(module, attribute, refused(refuse, f'{name}.{attribute}', made))
    ctypeslib = sys.modules.get('numpy.ctypeslib')
    if ctypeslib is not None:
        for attribute in NUMPY_CTYPESLIB_NAMES:
            if attribute in vars(ctypeslib):
                setattr(ctypeslib, attribute, refused(refuse, f'numpy.ctypeslib.{attribute}', made))
    stride_tricks = sys.modules.get('numpy.lib.stride_tricks')
    if stride_tricks is not None:
        stride_tricks.as_strided = bounded_as_strided(stride_tricks.as_strided, sys.modules['numpy'], refuse)
        made.append(stride_tricks.as_strided)
    builtins.id, builtins.hash, builtins.repr = opaque_identity(secrets.token_bytes(32))
    made += [builtins.id, builtins.hash, builtins.repr]
    return made


def refused(refuse, name, made):
    """What stands where `name` was: calling it, or reaching into it (ctypes.pythonapi.Py_…), fails the item."""
    what = f'the program used {name}, which this task does without (raw memory)'

    def refuse_call(self, *args, _refuse=refuse, _what=what, **kwargs):
        _refuse(_what)

    def refuse_attribute(self, attribute, _refuse=refuse, _what=what):
        _refuse(_what)

    cls = type(name.rsplit('.', 1)[-1], (), {'__slots__': (), '__call__': refuse_call, '__getattr__': refuse_attribute, '__getitem__': refuse_attribute,
                                            '__mro_entries__': refuse_attribute, '__module__': name.rsplit('.', 1)[0]})
    made += [refuse_call, refuse_attribute]
    return cls()


def bounded_as_strided(original, numpy, refuse):
    """as_strided, for views that stay within the memory of the array they are made from."""

    def as_strided(x, shape=None, strides=None, subok=False, writeable=True, _original=original, _np=numpy, _refuse=refuse):
        view = _original(x, shape, strides, subok, writeable)
        if view.size == 0:
            return view
        owner = _np.asarray(x)
        while isinstance(owner.base, _np.ndarray):
            owner = owner.base
        low, high = _np.byte_bounds(view)
        owner_low, owner_high = _np.byte_bounds(owner)
        if low < owner_low or high > owner_high:
            _refuse('the program made a numpy view (as_strided) that reaches past the memory of its array')
        return view

    as_strided.__module__ = original.__module__
    as_strided.__doc__ = original.__doc__
    return as_strided


def opaque_identity(secret):
    """id, hash and repr whose values for an object are a keyed hash of its address: unique, stable, telling nothing."""
    keyed = hashlib.blake2b(key=secret, digest_size=8)

    def id(obj, /, _address=builtins.id, _keyed=keyed, _from_bytes=int.from_bytes):
        digest = _keyed.copy()
        digest.update(_address(obj).to_bytes(8, 'little'))
        return _from_bytes(digest.digest(), 'little') >> 4 << 4

    def hash(obj, /, _hash=builtins.hash, _id=id, _type=type, _default=object.__hash__):
        return _id(obj) >> 4 if _type(obj).__hash__ is _default else _hash(obj)

    def repr(obj, /, _repr=builtins.repr, _id=id, _type=type, _default=object.__repr__):
        if _type(obj).__repr__ is not _default:
            return _repr(obj)
        cls = _type(obj)
        name = cls.__qualname__ if cls.__module__ == 'builtins' else f'{cls.__module__}.{cls.__qualname__}'
        return f'<{name} object at {_id(obj):#x}>'

    return id, hash, repr
