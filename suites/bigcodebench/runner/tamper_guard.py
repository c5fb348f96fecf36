"""What keeps a program from forging its own checks, inside the process that runs them both.

BigCodeBench's unittest classes must share the program's process, so whatever checks them there
can be reached by the program too. This file makes the ways to forge a pass fail instead:
- Reports go out only through `send` (a secret, a sequence number, plain literals, C-level calls
  bound as default arguments), and a result only from CheckedResult's methods when unittest's own
  code calls them for the test that is running (checks_child.py); the parent checks the order.
- An audit hook, which a program cannot remove, blocks and reports: code or defaults swapped in a
  function the checks rely on (unittest's, the tests', the runner's, those the snapshots watch); reads of the runner's own functions' internals; trace and
  profile hooks; the garbage collector's and other threads' views of objects and frames asked for
  by the program; frames
  taken by the program's own code (sys._getframe, inspect, tracebacks, generators), through which
  it could read the tests' expected values; ctypes' reads and writes at raw addresses and its
  pythonapi; /proc/*/mem and /proc/*/fd.
- Snapshots, taken before the program ran (unittest, builtins, sys, os, the testing helpers of
  numpy and pandas) and after the tests were defined (their module's names, TestCases), are
  compared whenever a test reports a pass or stops, at the end, and around every call of the
  entry point: a replaced method, function or name fails the item.
- What the entry point returns may not be an object whose comparison, truth, length or attribute
  lookup the program wrote (an always-equal object).
- The raw bytes the checks execute (memory_digest.py) are compared at each test's start and end,
  after each call of the entry point and at the end; for a task that does without, raw memory and
  real addresses are taken away first (memory_access.py).
What stays open in-process (documented in the README): raw writes to memory the digest does not
cover, raw reads, a patch made and undone between two checks by code the checks do not call (another
thread, a finalizer), frames reached through library functions other than inspect's, and anything a
signal handler does with the frame it gets.
"""
import builtins
import os
import re
import sys
import types

import memory_access
import memory_digest

MISSING = object()
PROGRAM_FILE = '__test__.py'
PROGRAM_MODULE = '__test__'
# Python's own introspection helpers: a frame or code object they fetch is fetched for their caller.
INTROSPECTION_FILES = ('inspect.py', 'dis.py', 'ctypes/__init__.py')
# Frame-giving attributes: a program that holds a frame can read its caller's locals (the expected values).
FRAME_ATTRIBUTES = frozenset(('tb_frame', 'gi_frame', 'cr_frame', 'ag_frame', 'f_code', 'gi_code', 'cr_code', 'ag_code'))
FUNCTION_INTERNALS = frozenset(('__code__', '__defaults__', '__kwdefaults__'))
ALWAYS_BLOCKED = frozenset(('sys.settrace', 'sys.setprofile'))
# Views of every object or every thread's frames, raw memory: libraries use some (matplotlib asks for the threads'
# frames, shapely reads memory with ctypes), the program may not.
BLOCKED_FOR_THE_PROGRAM = frozenset((
    'sys._current_frames', 'gc.get_objects', 'gc.get_referrers', 'gc.get_referents', 'ctypes.cdata', 'ctypes.string_at', 'ctypes.wstring_at',
))
WATCHED_EVENTS = ALWAYS_BLOCKED | BLOCKED_FOR_THE_PROGRAM | memory_access.BLOCKED_EVENTS | frozenset((
    'object.__setattr__', 'object.__getattr__', 'sys._getframe', 'ctypes.dlsym', 'open', 'os.listdir', 'import',
))
PROC_PATH = re.compile(r'^/+(proc/+(self|thread-self|\d+)(/+task/+\d+)?/+(mem|fd|fdinfo|map_files)|dev/+fd)(/|$)')
# Where the process's memory is: closed to a task that does without raw memory.
MEMORY_LAYOUT_PATH = re.compile(r'^/+proc/+(self|thread-self|\d+)(/+task/+\d+)?/+(maps|smaps|smaps_rollup|numa_maps|pagemap|auxv|syscall|stack)(/|$)')
# What an always-equal (or always-true, always-anything) object overrides.
FORGING_DUNDERS = (
    '__eq__', '__ne__', '__lt__', '__le__', '__gt__', '__ge__', '__bool__', '__len__', '__contains__', '__hash__',
    '__getattr__', '__getattribute__', '__class__', '__del__', '__instancecheck__', '__subclasscheck__',
)
IMMUTABLE_TYPE = 1 << 8
TYPE_MRO = type.__dict__['__mro__'].__get__
TYPE_DICT = type.__dict__['__dict__'].__get__
SYS_WATCHED = ('exit', '_getframe', 'settrace', 'setprofile', 'gettrace', 'getprofile', 'audit', 'addaudithook', 'exc_info', 'flags', 'modules')


class Tampered(RuntimeError):
    """Raised into the program where it tried something the checks do not allow."""


def is_program_code(code, test_codes):
    """Code the program wrote: its file's code that is not the tests', or code it compiled at run time."""
    name = code.co_filename
    if name == PROGRAM_FILE:
        return code not in test_codes
    return name.startswith('<') and not name.startswith('<frozen')


def code_objects(code):
    """`code` and every code object nested in it."""
    found = {code}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= code_objects(const)
    return found


def functions_of(namespace):
    """Every function defined by a module's or class's namespace, through decorators and descriptors."""
    found = []
    for value in list(vars(namespace).values()):
        if isinstance(value, type):
            found += functions_of(value) if value.__module__ == getattr(namespace, '__name__', value.__module__) else []
            continue
        for candidate in (value, getattr(value, '__func__', None), getattr(value, 'fget', None), getattr(value, '__wrapped__', None)):
            while isinstance(candidate, types.FunctionType):
                found.append(candidate)
                candidate = getattr(candidate, '__wrapped__', None)
    return found


class Snapshot:
    """Entries of namespaces, by identity; `exact` namespaces may not gain entries either."""

    def __init__(self):
        self.watched = []

    def add(self, label, mapping, keys=None, exact=False, absent_too=False):
        """`absent_too`: the `keys` that are not there must stay away."""
        keys = tuple(key for key in (mapping if keys is None else keys) if absent_too or key in mapping)
        self.watched.append((label, mapping, keys, tuple(mapping.get(key, MISSING) for key in keys), exact))

    def values(self):
        return [tuple(mapping.get(key, MISSING) for key in keys) for _, mapping, keys, _, _ in self.watched]

    def changes(self, against=None):
        """What differs from the snapshot (or from `against`, an earlier `values()`)."""
        found = []
        for index, (label, mapping, keys, values, exact) in enumerate(self.watched):
            expected = values if against is None else against[index]
            for key, value in zip(keys, expected):
                if mapping.get(key, MISSING) is not value:
                    found.append(f'{label}.{key} was replaced')
            if exact and len(mapping) > len(keys):
                added = [str(key) for key in list(mapping) if key not in keys]
                found.append(f'{label} gained {", ".join(added[:5])}')
        return found


class Guard:
    def __init__(self, send, result_codes):
        self.send = send
        self.result_codes = result_codes
        self.unittest_codes = frozenset(code for module in unittest_modules() for function in functions_of(module) for code in code_objects(function.__code__))
        self.test_codes = frozenset()
        self.own_functions = set()
        # Functions whose code and defaults may not change: those the snapshots watch, the tests', ours.
        self.protected = set()
        self.state = {'enforcing': False, 'busy': False, 'flagged': set(), 'no_raw_memory': False}
        # The raw bytes the checks execute (memory_digest.py), once recorded.
        self.memory = None
        self.library = Snapshot()
        self.tests = Snapshot()
        self.test_classes = set()
        # The functions the test classes hold (setUp, helpers; the test methods themselves are wrapped): their code holds expected values.
        self.test_class_functions = set()

    def tamper(self, what):
        if what in self.state['flagged']:
            return
        self.state['flagged'].add(what)
        self.send('tamper', what)

    def refuse(self, what):
        self.tamper(what)
        raise Tampered(f'not allowed while BigCodeBench checks run: {what}')

    # -- before the program ----------------------------------------------------------------------

    def take_away_raw_memory(self):
        """For a task that does without (memory_access.py): before the snapshots, so that they hold what is given instead."""
        self.state['no_raw_memory'] = True
        self.own_functions.update(memory_access.take_away(self.refuse))
        self.own_functions.add(self.refuse.__func__)

    def watch_memory(self, digest, test_code, result_class):
        """Records the raw bytes of what the checks execute: unittest, the runner, the testing helpers, the tests' code."""
        for module in unittest_modules():
            digest.watch_namespace(vars(module), module.__name__)
            for value in list(vars(module).values()):
                if isinstance(value, type) and value.__module__ == module.__name__:
                    digest.watch_namespace(vars(value), f'{module.__name__}.{value.__qualname__}')
        # The libraries' constants are many (their docstrings): which constants they have is watched, not their values.
        for name, values in (('tamper_guard', True), ('checks_child', True), ('upstream_environment', True), ('memory_digest', True),
                             ('memory_access', True), ('collections', False), ('numpy.testing._private.utils', False),
                             ('pandas._testing.asserters', False), ('pandas._testing', False)):
            module = sys.modules.get(name)
            if module is None:
                continue
            digest.watch_namespace(vars(module), name, values)
            for value in list(vars(module).values()):
                if isinstance(value, type) and value.__module__ == name:
                    digest.watch_namespace(vars(value), f'{name}.{value.__qualname__}', values)
        digest.watch_namespace(vars(result_class), result_class.__qualname__)
        for function in self.own_functions:
            digest.watch_function(function, getattr(function, '__qualname__', 'a function of the runner'))
        digest.watch_code(test_code, 'the tests')
        digest.watch_builtin_objects()
        digest.seal()
        self.memory = digest

    def watch_libraries(self, result_class):
        """unittest, builtins, sys, os and the comparison helpers the tests use, as they are now."""
        import unittest
        import unittest.case
        import unittest.suite

        for cls in (unittest.TestCase, unittest.TestSuite, unittest.suite.BaseTestSuite, unittest.TestResult, unittest.TestLoader,
                    unittest.case._Outcome, unittest.case._SubTest, result_class, Guard, Snapshot, memory_digest.MemoryDigest, memory_digest.RawMemory,
                    memory_digest.Span):
            self.library.add(cls.__qualname__, cls.__dict__, exact=True)
        for module in unittest_modules():
            self.library.add(module.__name__, vars(module))
        for name in ('tamper_guard', 'checks_child', 'upstream_environment', 'memory_digest', 'memory_access'):
            if name in sys.modules:
                self.library.add(name, vars(sys.modules[name]))
        self.library.add('builtins', vars(builtins))
        self.library.add('sys', vars(sys), SYS_WATCHED)
        self.library.add('os', vars(os), [name for name, value in vars(os).items() if callable(value)])
        for name in ('numpy', 'numpy.testing', 'pandas', 'pandas.testing', 'math', 'operator'):
            module = sys.modules.get(name)
            if module is None:
                continue
            self.library.add(name, vars(module), [key for key, value in vars(module).items() if callable(value)])
            if name.endswith('.testing'):
                # Where its assert functions live, and what they call (numpy.testing._private.utils, pandas._testing.asserters).
                defining = {getattr(value, '__module__', None) for value in vars(module).values() if isinstance(value, types.FunctionType)}
                for other in sorted(filter(None, defining)):
                    if other in sys.modules and other != name:
                        self.library.add(other, vars(sys.modules[other]), [key for key, value in vars(sys.modules[other]).items() if callable(value)])
        pandas = sys.modules.get('pandas')
        for cls in (getattr(pandas, 'DataFrame', None), getattr(pandas, 'Series', None), getattr(pandas, 'Index', None)):
            if isinstance(cls, type):
                # Libraries add to them as they load (geopandas' set_geometry): what they had, and no new comparison.
                self.library.add(f'pandas.{cls.__name__}', cls.__dict__)
                self.library.add(f'pandas.{cls.__name__}', cls.__dict__, FORGING_DUNDERS, absent_too=True)
        self.library.add('sys.modules', sys.modules, [module.__name__ for module in unittest_modules()] + ['builtins', 'sys', 'os', 'numpy', 'pandas'])
        self.protect(self.library)

    def protect(self, snapshot):
        for _, mapping, keys, values, _ in snapshot.watched:
            for value in values:
                if value is MISSING:
                    continue
                for candidate in (value, getattr(value, '__func__', None), getattr(value, 'fget', None)):
                    while isinstance(candidate, types.FunctionType) and candidate not in self.protected:
                        self.protected.add(candidate)
                        candidate = getattr(candidate, '__wrapped__', None)
                if isinstance(value, type):
                    for member in vars(value).values():
                        function = getattr(member, '__func__', member)
                        if isinstance(function, types.FunctionType):
                            self.protected.add(function)

    def start_enforcing(self, test_codes, own_functions):
        self.test_codes = test_codes
        self.own_functions.update(own_functions)
        self.protected |= self.own_functions
        self.state['enforcing'] = True

    # -- after the tests are defined -----------------------------------------------------------

    def watch_tests(self, module, test_class, entry_wrapper, result, test_names):
        """TestCases, whose test methods must be the tests' own code and may run only under unittest; the
        names the tests bound (`test_names`); and how the classes the tests can reach compare (a Counter whose __eq__
        is always true)."""
        own_classes = [cls for cls in TYPE_MRO(test_class) if cls.__module__ == module.__name__]
        for cls in own_classes:
            self.test_class_functions.update(value for value in vars(cls).values() if isinstance(value, types.FunctionType))
            for name, value in vars(cls).items():
                function = getattr(value, '__func__', value)
                while getattr(function, '__wrapped__', None) is not None:
                    function = function.__wrapped__
                if name.startswith('test') and isinstance(function, types.FunctionType) and function.__code__ not in self.test_codes:
                    self.tamper(f'{cls.__qualname__}.{name} is not the tests\' own code')
        if self.memory is not None:
            # Before the test methods are wrapped: their own code, constants and defaults.
            for cls in own_classes:
                self.memory.watch_namespace(vars(cls), cls.__qualname__)
            self.memory.seal()
        self.run_only_under_unittest(test_class, result)
        # The names the tests bound (the program may keep rebinding its own globals, a cache, a counter).
        self.tests.add('the tests\' module', module.__dict__, [name for name in test_names if name != entry_wrapper[0]])
        self.test_classes = {value for value in module.__dict__.values() if isinstance(value, type) and value.__module__ == module.__name__}
        for cls in comparable_classes(module.__dict__.values()):
            self.tests.add(f'{cls.__module__}.{cls.__qualname__}', TYPE_DICT(cls), FORGING_DUNDERS, absent_too=True)
        if entry_wrapper[1] is not None:
            self.tests.add('the tests\' module', module.__dict__, [entry_wrapper[0]])
        # The tests may set attributes of their own class (a classmethod making fixtures); nothing may come to
        # override unittest's methods or the comparisons.
        import unittest

        overridable = sorted({name for cls in TYPE_MRO(unittest.TestCase) for name in TYPE_DICT(cls)} | set(FORGING_DUNDERS))
        for cls in own_classes:
            self.tests.add(cls.__qualname__, cls.__dict__)
            self.tests.add(cls.__qualname__, cls.__dict__, overridable, absent_too=True)
            self.test_class_functions.update(value for value in vars(cls).values() if isinstance(value, types.FunctionType))
        self.protect(self.tests)

    def run_only_under_unittest(self, test_class, result):
        """Each test method, as TestCases holds it, runs only when unittest runs it for the test that is running:
        a program that calls one itself (with a `self` of its own, to learn the expected values) is found out."""
        import unittest

        for name in unittest.TestLoader().getTestCaseNames(test_class):
            found = next((TYPE_DICT(cls)[name] for cls in TYPE_MRO(test_class) if name in TYPE_DICT(cls)), None)
            if not isinstance(found, types.FunctionType):
                continue
            checked = make_checked_test(found, name, self, result)
            self.own_functions.add(checked)
            self.protected.add(checked)
            setattr(test_class, name, checked)

    # -- checks ----------------------------------------------------------------------------------

    def verify(self, test=None, memory=False):
        """Everything watched is as it was (and, with `memory`, the raw bytes the checks execute); nothing traces; the
        running test instance shadows nothing."""
        for change in self.library.changes() + self.tests.changes():
            self.tamper(change)
        if memory and self.memory is not None:
            for change in self.memory.changes():
                self.tamper(change)
        import threading

        if sys.gettrace() is not None or sys.getprofile() is not None or getattr(threading, '_trace_hook', None) or getattr(threading, '_profile_hook', None):
            self.tamper('a trace or profile function is installed')
        if sys.flags.optimize:
            self.tamper('asserts are switched off (python -O)')
        if test is not None:
            for name in list(vars(test)):
                if not name.startswith('_') and callable(getattr(type(test), name, None)):
                    self.tamper(f'the test instance overrides {name}')
            funcs = vars(test).get('_type_equality_funcs', {})
            for value in list(funcs.values()) if isinstance(funcs, dict) else [None]:
                code = getattr(value, '__code__', None)
                if not isinstance(value, str) and (code is None or code not in self.test_codes):
                    self.tamper('a comparison was registered that the tests did not write')

    def around_entry_point(self, function):
        """The entry point as the tests call it: what a call changes, or what it returns, may not forge a pass."""
        guard = self
        watched = (guard.library, guard.tests)

        def entry_point(*args, **kwargs):
            before = [snapshot.values() for snapshot in watched]
            result = function(*args, **kwargs)
            for snapshot, values in zip(watched, before):
                for change in snapshot.changes(values):
                    guard.tamper(f'during a call of the entry point, {change}')
            # A rewrite the call leaves for the assertion that follows, to be undone before the test ends.
            if guard.memory is not None:
                for change in guard.memory.changes():
                    guard.tamper(f'during a call of the entry point, {change}')
            guard.inspect_returned(result)
            return result

        entry_point.__name__ = getattr(function, '__name__', 'task_func')
        entry_point.__qualname__ = getattr(function, '__qualname__', 'task_func')
        entry_point.__doc__ = getattr(function, '__doc__', None)
        entry_point.__wrapped__ = function
        self.own_functions.add(entry_point)
        self.protected.add(entry_point)
        return entry_point

    def inspect_returned(self, value, depth=0, seen=None):
        seen = set() if seen is None else seen
        if depth > 3 or id(value) in seen or len(seen) > 2000:
            return
        seen.add(id(value))
        # Read through type's own descriptors: a metaclass of the program's could fake __mro__ and __dict__.
        for cls in TYPE_MRO(type(value)):
            namespace = TYPE_DICT(cls)
            made_by_program = namespace.get('__module__') == PROGRAM_MODULE and cls not in self.test_classes
            for name in FORGING_DUNDERS:
                member = namespace.get(name, MISSING)
                if member is MISSING:
                    continue
                if made_by_program and not isinstance(member, types.FunctionType):
                    return self.tamper(f'the entry point returned a {cls.__name__}, whose class the program made with an odd {name}')
                for candidate in (member, getattr(member, '__func__', None), getattr(member, 'fget', None), getattr(member, 'func', None)):
                    if isinstance(candidate, types.FunctionType) and is_program_code(candidate.__code__, self.test_codes):
                        return self.tamper(f'the entry point returned a {cls.__name__}, whose {name} the program wrote')
        if type(value) in (tuple, list, set, frozenset):
            for item in list(value)[:1000]:
                self.inspect_returned(item, depth + 1, seen)
        elif type(value) is dict:
            for key, item in list(value.items())[:1000]:
                self.inspect_returned(key, depth + 1, seen)
                self.inspect_returned(item, depth + 1, seen)

    # -- the audit hook --------------------------------------------------------------------------

    def install_audit_hook(self):
        sys.addaudithook(make_audit_hook(self))


def make_audit_hook(guard):
    """The hook, with everything it uses bound as defaults: a program can neither remove it nor rewire it."""

    def audit(event, args, _asker=asked_by_program, _watched=WATCHED_EVENTS, _blocked=ALWAYS_BLOCKED, _program_blocked=BLOCKED_FOR_THE_PROGRAM, _state=guard.state, _guard=guard,
              _getframe=sys._getframe, _isinstance=isinstance, _function=types.FunctionType, _str=str, _bytes=bytes,
              _internals=FUNCTION_INTERNALS, _frames=FRAME_ATTRIBUTES, _proc=PROC_PATH, _is_program=is_program_code,
              _Tampered=Tampered, _helpers=INTROSPECTION_FILES, _raw_events=memory_access.BLOCKED_EVENTS,
              _raw_imports=memory_access.BLOCKED_IMPORTS, _layout=MEMORY_LAYOUT_PATH):
        if event not in _watched or not _state['enforcing'] or _state['busy']:
            return
        _state['busy'] = True
        try:
            what = None
            no_raw_memory = _state['no_raw_memory']
            if no_raw_memory and event in _raw_events:
                what = f'{event} was asked for, and this task does without raw memory'
            elif event == 'import':
                if no_raw_memory and args[0] in _raw_imports:
                    what = f'{args[0]} was imported, and this task does without raw memory'
            elif event in _blocked:
                what = f'{event} was called'
            elif event in _program_blocked:
                if _asker(_getframe(1), _helpers, _is_program, _guard.test_codes):
                    what = f'the program called {event}'
            elif event == 'object.__setattr__':
                target, name = args[0], args[1]
                if name in _internals and _isinstance(target, _function) and target in _guard.protected:
                    what = f'{name} of {getattr(target, "__qualname__", "a function")} was replaced'
            elif event == 'object.__getattr__':
                target, name = args[0], args[1]
                if name in _internals and _isinstance(target, _function) and target in _guard.own_functions:
                    what = f'{name} of the runner\'s {target.__name__} was read'
                elif name in _internals and _isinstance(target, _function) and target in _guard.test_class_functions and _asker(_getframe(1), _helpers, _is_program, _guard.test_codes):
                    what = f'the program read the code of the tests\' {target.__name__}, which holds the expected values'
                elif name in _frames and _is_program(_getframe(1).f_code, _guard.test_codes):
                    what = f'the program took a frame ({name}), which shows its caller\'s values'
            elif event == 'sys._getframe':
                if _asker(_getframe(1), _helpers, _is_program, _guard.test_codes):
                    what = 'the program took a frame (sys._getframe), which shows its caller\'s values'
            elif event == 'ctypes.dlsym':
                name = args[1] if len(args) > 1 else ''
                if _isinstance(name, _str) and (name.startswith('Py') or name.startswith('_Py')):
                    what = f'ctypes asked for the interpreter\'s {name}'
            elif event in ('open', 'os.listdir'):
                path = args[0]
                if _isinstance(path, _bytes):
                    path = path.decode('utf-8', 'replace')
                if _isinstance(path, _str) and (_proc.match(path) or (no_raw_memory and _layout.match(path))):
                    what = f'{path} was opened'
            if what is not None:
                caller = _getframe(1)
                while caller is not None and caller.f_code.co_filename == __file__:
                    caller = caller.f_back
                if caller is not None:
                    what = f'{what} (by {caller.f_code.co_name} in {caller.f_code.co_filename.rsplit("/", 1)[-1]}:{caller.f_lineno})'
                _guard.tamper(what)
                raise _Tampered(f'not allowed while BigCodeBench checks run: {what}')
        finally:
            _state['busy'] = False

    guard.own_functions.update((audit, asked_by_program, make_checked_test))
    return audit


def make_checked_test(original, name, guard, result):
    def test_method(self, *args, _original=original, _result=result, _guard=guard, _getframe=sys._getframe, _Tampered=Tampered, **kwargs):
        caller = _getframe(1).f_code
        if self is not _result.current or (caller not in _guard.unittest_codes and caller not in _guard.test_codes):
            _guard.tamper(f'{name} was run outside unittest')
            raise _Tampered(f'not allowed while BigCodeBench checks run: {name} was run outside unittest')
        return _original(self, *args, **kwargs)

    test_method.__name__ = original.__name__
    test_method.__qualname__ = original.__qualname__
    test_method.__doc__ = original.__doc__
    # unittest's own marks (__unittest_skip__, __unittest_expecting_failure__…), not a way back to the original.
    test_method.__dict__.update({key: value for key, value in vars(original).items() if key != '__wrapped__'})
    return test_method


def asked_by_program(frame, helpers, is_program, test_codes):
    """Whether `frame`, or the code that called the introspection helper it is in, is the program's."""
    while frame is not None and frame.f_code.co_filename.endswith(helpers):
        frame = frame.f_back
    return frame is not None and is_program(frame.f_code, test_codes)


def comparable_classes(values):
    """Classes written in Python (their dict can change) among `values` and the attributes of the modules among them."""
    found = set()
    for value in values:
        for candidate in (vars(value).values() if isinstance(value, types.ModuleType) else (value,)):
            if isinstance(candidate, type) and not candidate.__flags__ & IMMUTABLE_TYPE:
                found.add(candidate)
    return found


def unittest_modules():
    import unittest
    import unittest.case
    import unittest.loader
    import unittest.result
    import unittest.suite

    return (unittest, unittest.case, unittest.suite, unittest.result, unittest.loader)
