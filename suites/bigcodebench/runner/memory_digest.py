"""What the checks execute, as raw bytes in memory: recorded before the program exists, compared while the tests run.

A program that can write raw memory (ctypes, a numpy view reaching past its buffer, an object with a
hand-made __array_interface__) can rewrite the checks in place, where no audit hook and no snapshot
of names sees it: the bytecode of unittest's assertion methods (CPython 3.11 executes a copy of its
own, which `co_code` does not show), the constants the tests compare with, a function's code or
defaults pointer, True/False/None and the small ints, the slots of the built-in types. This reads
those bytes through a numpy view over the addresses they span, made before the program ran and held
only by the digest (and, to name what differs, through a memmove of its own), and compares them with
what they were; `changes()` names each difference.

Bytecode is compared as CPython itself deoptimizes it (the specialized instructions and inline caches
that the interpreter rewrites as it runs are mapped back), so that running the checks changes nothing.
All the watched bytes are compared at once; only a difference is looked at span by span.
"""
import ctypes
import dis
import marshal
import sys
import types

CODE_TYPE = types.CodeType
POINTER = 8
FULL = 2**64 - 1
# PyCodeObject (3.11): its type, size and the pointers to its constants, names and exception table.
CODE_HEADER = slice(8, 48)
# PyFunctionObject (3.11): globals, builtins, name, qualname, code, defaults, kwdefaults, closure.
FUNCTION_POINTERS = slice(16, 80)
FUNCTION_CODE = 48
TUPLE_ITEMS = 24
# PyTypeObject (3.11, 64-bit): what may change as the interpreter runs is left out (the reference count,
# the valid-version-tag flag, the lazily made cache, subclass and weak-reference lists, the version tag).
TYPE_SIZE = 408
TYPE_FIELDS = ((8, 168), (168, 176), (176, 352), (376, 384), (392, 408))
TYPE_FLAGS = 168
VALID_VERSION_TAG = 1 << 19
# Where a type's number, sequence and mapping method tables are, and their sizes.
TYPE_TABLES = ((96, 36 * POINTER), (104, 10 * POINTER), (112, 3 * POINTER))
WATCHED_TYPES = (object, type, bool, int, float, complex, str, bytes, bytearray, tuple, list, dict, set, frozenset, type(None),
                 types.FunctionType, types.MethodType, types.CodeType, slice, range)
SMALL_INTS = (-5, 256)
INT_STRIDE = 32
# What of an int does not change as it is used: its type, size and first digit (not its reference count).
INT_VALUE = slice(8, 28)
CHUNK = 1 << 20
INSTRUCTION_UNITS = bytes([0] + [0xFF] * 255)


class Unsupported(RuntimeError):
    """This interpreter's memory is not laid out as this module reads it."""


class RawMemory:
    """Reads memory through a memmove of its own into a buffer of its own (no audit event, nothing the program can rebind)."""

    def __init__(self):
        if sys.version_info[:2] != (3, 11) or sys.maxsize != 2**63 - 1 or tuple.__basicsize__ != TUPLE_ITEMS or types.CodeType.__itemsize__ != 2:
            raise Unsupported(f'the raw memory checks need 64-bit CPython 3.11 (this is {sys.version.split()[0]})')
        self.buffer = bytearray(CHUNK)
        self.view = memoryview(self.buffer)
        self.address = ctypes.addressof((ctypes.c_char * CHUNK).from_buffer(self.buffer))
        self.move = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)(ctypes._memmove_addr)

    def read(self, address, size):
        parts = []
        while size > 0:
            step = min(size, CHUNK)
            self.move(self.address, address, step)
            parts.append(self.view[:step].tobytes())
            address += step
            size -= step
        return b''.join(parts)


class Span:
    """Bytes at an address, which of them must not change (mask), and what they were."""
    __slots__ = ('label', 'address', 'size', 'mask', 'expected', 'what')

    def __init__(self, label, address, size, mask, expected, what):
        self.label, self.address, self.size, self.mask, self.expected, self.what = label, address, size, mask, expected, what


class MemoryDigest:
    def __init__(self):
        import numpy

        self.memory = RawMemory()
        # The interpreter's own id(): the program's may be another (memory_access.py).
        self.address = id
        # What comparing uses, bound before the program exists (it could rebind numpy's or marshal's names, or the
        # code of numpy's Python functions): C functions, and ndarray's own methods.
        self.numpy = types.SimpleNamespace(frombuffer=numpy.frombuffer, arange=numpy.arange, array=numpy.array, asarray=numpy.asarray,
                                           bitwise_and=numpy.bitwise_and, uint8=numpy.uint8, int64=numpy.int64)
        self.dumps = marshal.dumps
        probe = deopt_table
        if self.memory.read(self.address(probe) + FUNCTION_CODE, POINTER) != self.address(probe.__code__).to_bytes(POINTER, 'little'):
            raise Unsupported('functions are not laid out as 3.11\'s are')
        self.deopt = deopt_table()
        self.spans = []
        self.seen = set()
        # The constants' values (not code), compared as marshal writes them.
        self.values = []
        self.value_labels = []
        self.keep = []
        self.sealed = None

    # -- recording (before the program exists, and for the tests right after they are defined) ------

    def watch_code(self, code, label, values=True):
        """`code` and the code nested in it: bytecode, which constants and names it has, and (with `values`) their values."""
        if code in self.seen:
            return
        self.seen.add(code)
        self.keep.append(code)
        bytecode = code.co_code
        self.watch_bytes(f'{label}\'s code object', self.address(code) + CODE_HEADER.start, CODE_HEADER.stop - CODE_HEADER.start, 'code header')
        # Inline caches, which the interpreter rewrites as it runs, are CACHE (0) in co_code: no instruction has opcode 0.
        instructions = bytecode[0::2].translate(INSTRUCTION_UNITS)
        units = bytearray(len(bytecode))
        units[0::2] = units[1::2] = instructions
        # co_code is deoptimized, its caches zero: it is what the masked bytes must be.
        self.spans.append(Span(label, self.address(code) + types.CodeType.__basicsize__, len(units), bytes(units), bytecode, 'code'))
        consts = code.co_consts
        if consts:
            self.watch_bytes(f'the constants of {label}', self.address(consts) + TUPLE_ITEMS, POINTER * len(consts), 'constants')
        if values:
            self.values.append(tuple(const for const in consts if type(const) is not CODE_TYPE))
            self.value_labels.append(label)
        for const in consts:
            if type(const) is CODE_TYPE:
                self.watch_code(const, f'{label}.{const.co_name}', values)

    def watch_function(self, function, label, values=True):
        """Its code, and which code, defaults and globals it points to."""
        if not isinstance(function, types.FunctionType) or function in self.seen:
            return
        self.seen.add(function)
        self.keep.append(function)
        code = function.__code__
        self.watch_code(code, label, values)
        self.watch_bytes(label, self.address(function) + FUNCTION_POINTERS.start, FUNCTION_POINTERS.stop - FUNCTION_POINTERS.start, 'function')
        defaults = function.__defaults__
        if defaults:
            self.keep.append(defaults)
            self.watch_bytes(f'the defaults of {label}', self.address(defaults) + TUPLE_ITEMS, POINTER * len(defaults), 'defaults')

    def watch_namespace(self, namespace, label, values=True):
        """The functions a module or class defines (methods, class and static methods, properties)."""
        for name, value in list(namespace.items()):
            for candidate in (value, getattr(value, '__func__', None), getattr(value, 'fget', None), getattr(value, 'fset', None)):
                self.watch_function(candidate, f'{label}.{name}', values)

    def watch_builtin_objects(self):
        """True, False, None, Ellipsis, NotImplemented, the small ints, and the slots of the built-in types."""
        for value in (True, False):
            self.watch_bytes(repr(value), self.address(value) + INT_VALUE.start, INT_VALUE.stop - INT_VALUE.start, 'object')
        for value in (None, Ellipsis, NotImplemented):
            self.watch_bytes(repr(value), self.address(value) + 8, POINTER, 'object')
        low, high = SMALL_INTS
        start = self.address(low)
        if self.address(high) - start != (high - low) * INT_STRIDE:
            raise Unsupported('the small ints are not where this module expects them')
        mask = bytearray((high - low + 1) * INT_STRIDE)
        for offset in range(0, len(mask), INT_STRIDE):
            mask[offset + INT_VALUE.start:offset + INT_VALUE.stop] = b'\xff' * (INT_VALUE.stop - INT_VALUE.start)
        self.watch_bytes('the block of small ints', start, len(mask), 'object', bytes(mask))
        for cls in WATCHED_TYPES:
            self.watch_type(cls)

    def watch_type(self, cls):
        raw = self.memory.read(self.address(cls), TYPE_SIZE)
        if int.from_bytes(raw[TYPE_FLAGS:TYPE_FLAGS + POINTER], 'little') != cls.__flags__:
            raise Unsupported(f'the type {cls.__name__} is not laid out as this module expects')
        mask = bytearray(TYPE_SIZE)
        for begin, end in TYPE_FIELDS:
            mask[begin:end] = b'\xff' * (end - begin)
        mask[TYPE_FLAGS:TYPE_FLAGS + POINTER] = (FULL & ~VALID_VERSION_TAG).to_bytes(POINTER, 'little')
        self.watch_bytes(f'the type {cls.__name__}', self.address(cls), TYPE_SIZE, 'object', bytes(mask))
        for offset, size in TYPE_TABLES:
            table = int.from_bytes(raw[offset:offset + POINTER], 'little')
            if table:
                self.watch_bytes(f'the method table of {cls.__name__}', table, size, 'object')

    def watch_bytes(self, label, address, size, what, mask=None):
        """`size` bytes at `address`, as they are when `seal()` reads them."""
        self.spans.append(Span(label, address, size, b'\xff' * size if mask is None else mask, None, what))

    def seal(self):
        """Everything recorded so far becomes one read and one comparison (call again after recording more): the bytes
        that must not change, fetched at once by a numpy view over the addresses they span, which only this object holds.
        What a span did not say it expects (all but bytecode, which co_code gives) is what memory holds at its first seal."""
        numpy, spans = self.numpy, self.spans
        sizes = numpy.array([span.size for span in spans], numpy.int64)
        starts = sizes.cumsum() - sizes
        within = numpy.arange(int(sizes.sum()), dtype=numpy.int64) - starts.repeat(sizes)
        addresses = numpy.array([span.address for span in spans], numpy.int64).repeat(sizes) + within
        low, high = int(addresses.min()), int(addresses.max())
        interface = {'shape': (high - low + 1,), 'typestr': '|u1', 'data': (low, True), 'version': 3}
        view = numpy.asarray(type('Memory', (), {'__array_interface__': interface})())
        offsets = addresses - low
        mask = numpy.frombuffer(b''.join(span.mask for span in spans), numpy.uint8)
        is_code = numpy.array([span.what == 'code' for span in spans]).repeat(sizes)
        opcodes = (is_code & (within % 2 == 0)).nonzero()[0]
        deopt = numpy.frombuffer(self.deopt, numpy.uint8)
        now = view[offsets]
        now[opcodes] = deopt[now[opcodes]]
        numpy.bitwise_and(now, mask, out=now)
        known = numpy.frombuffer(b''.join(span.size * b'\0' if span.expected is None else span.expected for span in spans), numpy.uint8)
        code = is_code.nonzero()[0]
        if now[code].tobytes() != known[code].tobytes():
            bad = next((span.label for span in spans if span.what == 'code' and masked(self.deoptimized(self.memory.read(span.address, span.size)), span.mask) != span.expected), 'a function')
            raise Unsupported(f'the bytecode of {bad} in memory is not what its co_code says')
        for span, start in zip(spans, starts.tolist()):
            if span.expected is None:
                span.expected = now[start:start + span.size].tobytes()
        expected = numpy.frombuffer(b''.join(span.expected for span in spans), numpy.uint8)
        kept = mask.nonzero()[0]
        kept_code = (is_code & (within % 2 == 0))[kept].nonzero()[0]
        self.sealed = (view, offsets[kept], mask[kept], expected[kept].tobytes(), kept_code, deopt, numpy.bitwise_and,
                       self.dumps, tuple(self.values), self.dumps(tuple(self.values), 0))

    # -- comparing -----------------------------------------------------------------------------

    def deoptimized(self, raw):
        raw = bytearray(raw)
        raw[0::2] = raw[0::2].translate(self.deopt)
        return raw

    def changes(self):
        """What differs from the recording, in memory (nothing, most of the time: one read and one comparison)."""
        view, offsets, masks, expected, opcodes, deopt, bitwise_and, dumps, values, value_bytes = self.sealed
        now = view[offsets]
        now[opcodes] = deopt[now[opcodes]]
        bitwise_and(now, masks, out=now)
        if now.tobytes() == expected and dumps(values, 0) == value_bytes:
            return []
        found = []
        for span in self.spans:
            raw = self.memory.read(span.address, span.size)
            if masked(self.deoptimized(raw) if span.what == 'code' else raw, span.mask) != span.expected:
                found.append(describe(span))
        if dumps(values, 0) != value_bytes:
            baseline = marshal.loads(value_bytes)
            for label, now, before in zip(self.value_labels, values, baseline):
                if dumps(now, 0) != dumps(before, 0):
                    found.append(f'a constant of {label} was rewritten in memory')
        return found or ['the checks\' memory changed']


def masked(raw, mask):
    return (int.from_bytes(raw, 'little') & int.from_bytes(mask, 'little')).to_bytes(len(raw), 'little')


def describe(span):
    if span.what == 'code':
        return f'the bytecode of {span.label} was rewritten in memory'
    if span.what == 'function':
        return f'{span.label} was made to point to other code, defaults or globals in memory'
    if span.what == 'code header':
        return f'{span.label} was made to point to other constants or names in memory'
    if span.what in ('constants', 'defaults'):
        return f'{span.label} were swapped in memory'
    return f'{span.label} was rewritten in memory'


def deopt_table():
    table = bytearray(range(256))
    for specialized, base in dis.deoptmap.items():
        table[dis._all_opmap[specialized]] = dis._all_opmap[base]
    return bytes(table)
