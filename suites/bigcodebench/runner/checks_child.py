"""The child of checks_parent.py: runs the program and its tests as the official harness does, and reports.

As bigcodebench's `unsafe_execute` (v0.2.5): in the upstream environment (upstream_environment.py),
in a fresh temporary directory, the program and then the tests run as module `__test__`, whose
namespace starts with sys, os and environ; unittest runs TestCases. Differences, all to keep the
program from forging a pass (tamper_guard.py): the program and the tests are compiled apart (their
concatenation is what upstream compiles: a program that is not valid Python on its own, which
could swallow the tests into a string, fails here), results are reported as they happen, only
for the running test and only from unittest's own code, and the entry point is watched.
"""
import builtins
import os
import resource
import secrets
import sys
import tempfile
import time
import types
import unittest
import unittest.suite

import memory_digest
import tamper_guard
import upstream_environment

REPORT_FD_LOW = 200
DETAIL_CHARS = 2000


# The guard of the checks, once made: what a child whose checks broke down asks last.
GUARDS = []


def run(task, report_fd, out_fd, go_fd):
    """In the forked child: never returns."""
    code = 1
    try:
        send = prepare(task, report_fd, out_fd, go_fd)
        send('ready')
        check(task, send)
        code = 0
    except BaseException:
        # The checks' own code broke (a program that rewrote the interpreter's memory can do that anywhere): what the
        # digest shows is still reported, so the verdict names the tampering whatever else was lost.
        for guard in GUARDS:
            try:
                guard.verify(memory=True)
            except BaseException:
                pass
    finally:
        os._exit(code)


def prepare(task, report_fd, out_fd, go_fd):
    """Trusted set-up, before the program exists here: fds, limits, the report channel."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    for fd in (devnull, out_fd):
        os.close(fd)
    # The report pipe at an fd chosen at random, closed on exec and in forked children.
    import fcntl

    fd = fcntl.fcntl(report_fd, fcntl.F_DUPFD_CLOEXEC, REPORT_FD_LOW + secrets.randbelow(800))
    os.close(report_fd)
    secret = read_exactly(go_fd, 16)
    os.close(go_fd)
    cpu = int(task['cpuBackstopSeconds'])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    close_in_child = lambda _close=os.close, _fd=fd: _close(_fd)  # noqa: E731
    os.register_at_fork(after_in_child=close_in_child)
    os.chdir(tempfile.mkdtemp(prefix='task-'))
    send = make_send(fd, secret)
    send.close_in_child = close_in_child
    return send


def read_exactly(fd, size):
    data = b''
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            raise EOFError('the parent closed the go pipe')
        data += chunk
    return data


def make_send(fd, secret):
    """`send(kind, *fields)`: one frame on the report pipe, made of C-level operations the program cannot rewire."""
    counter = [0]

    def send(*fields, _fd=fd, _secret=secret, _counter=counter, _write=os.write, _repr=repr, _len=len, _tuple=tuple,
             _exact=''.__add__, _str=str, _int=int, _bool=bool, _isinstance=isinstance, _to_bytes=int.to_bytes):
        plain = _tuple(field if _isinstance(field, (_bool, _int)) and type(field) in (bool, int) else _exact(_str(field)) for field in fields)
        body = _secret + _to_bytes(_counter[0], 4, 'big') + _repr(plain).encode('utf-8', 'backslashreplace')
        _counter[0] += 1
        frame = _to_bytes(_len(body), 4, 'big') + body
        while frame:
            frame = frame[_write(_fd, frame):]

    return send


def check(task, send):
    program, test = task['program'], task['test']
    with upstream_environment.safe_environment():
        upstream_environment.reliability_guard()
        # unittest swallows _ShouldStop silently, as a pass (it stops subtests under failfast, which is off):
        # a program that raises it skips its checks. An empty tuple catches nothing, so it fails as an error.
        unittest.case._ShouldStop = ()
        result = CheckedResult(send)
        guard = tamper_guard.Guard(send, CheckedResult.codes())
        result.guard = guard
        GUARDS.append(guard)
        # Made while ctypes is whole: the reader of the checks' raw memory.
        digest = memory_digest.MemoryDigest()
        if task.get('rawMemory') != 'allowed':
            guard.take_away_raw_memory()
        guard.watch_libraries(CheckedResult)
        try:
            test_code = compile(test, tamper_guard.PROGRAM_FILE, 'exec')
        except (SyntaxError, ValueError) as error:
            send('load', 'run', f'The tests do not compile: {error}')
            send('end', True)
            return
        guard.watch_memory(digest, test_code, CheckedResult)
        guard.install_audit_hook()
        module = types.ModuleType('__test__')
        module.__dict__.update({
            '__builtins__': builtins, '__file__': tamper_guard.PROGRAM_FILE, '__package__': None, '__doc__': None,
            'sys': sys, 'os': os, 'environ': os.environ,
        })
        clean = run_tests(program, test_code, task['entryPoint'], module, guard, result, send)
        guard.verify(memory=True)
        send('end', clean and not guard.state['flagged'])


def run_tests(program, test_code, entry_point, module, guard, result, send):
    loader = unittest.TestLoader()
    with upstream_environment.swallow_io(1):
        try:
            compiled = compile(program, tamper_guard.PROGRAM_FILE, 'exec')
        except (SyntaxError, ValueError, MemoryError, RecursionError) as error:
            send('load', 'compile', format_exception(error))
            return True
        guard.start_enforcing(tamper_guard.code_objects(test_code), {send, send.close_in_child, *CheckedResult.functions()})
        send('program')
        try:
            exec(compiled, module.__dict__)
            function = module.__dict__.get(entry_point)
            wrapper = guard.around_entry_point(function) if isinstance(function, types.FunctionType) else None
            if wrapper is not None:
                module.__dict__[entry_point] = wrapper
            before = dict(module.__dict__)
            exec(test_code, module.__dict__)
            test_names = [name for name, value in module.__dict__.items() if before.get(name, tamper_guard.MISSING) is not value]
            sys.modules['__test__'] = module
            test_class = module.__dict__.get('TestCases')
            if not (isinstance(test_class, type) and issubclass(test_class, unittest.TestCase)):
                send('load', 'run', 'TestCases is not a unittest.TestCase after the program ran.')
                return False
            guard.watch_tests(module, test_class, (entry_point, wrapper), result, test_names)
            suite = loader.loadTestsFromTestCase(test_class)
            result.expect(list(suite))
            guard.verify(memory=True)
            suite.run(result)
        except BaseException as error:
            send('load', 'run', format_exception(error))
    return True


def format_exception(error):
    import traceback

    try:
        return ''.join(traceback.format_exception(type(error), error, error.__traceback__))[-DETAIL_CHARS:]
    except BaseException:
        return f'{type(error).__name__} (its traceback could not be formatted)'


class CheckedResult(unittest.TestResult):
    """Reports each method as unittest judges it: only for the test that runs, only when unittest's code says so."""

    def __init__(self, send):
        super().__init__()
        self.send = send
        self.guard = None
        self.tests = []
        self.current = None
        self.started = 0.0

    @classmethod
    def functions(cls):
        return {value for value in vars(cls).values() if isinstance(value, types.FunctionType)}

    @classmethod
    def codes(cls):
        return frozenset(function.__code__ for function in cls.functions())

    def expect(self, tests):
        self.tests = tests

    def called_by_unittest(self, test, _getframe=sys._getframe):
        """This report comes from our method, called by unittest's code, for the test that is running."""
        ours, caller = _getframe(1).f_code, _getframe(2).f_code
        if ours not in self.guard.result_codes or caller not in self.guard.unittest_codes:
            self.guard.tamper('a test result came from outside unittest')
            return False
        if test is not self.current:
            self.guard.tamper('a result came for a test that was not running')
            return False
        return True

    def startTest(self, test):
        super().startTest(test)
        caller = sys._getframe(1).f_code
        if caller not in self.guard.unittest_codes or self.current is not None or not any(test is planned for planned in self.tests):
            self.guard.tamper('a test was started from outside unittest')
            return
        self.current = test
        self.started = time.monotonic()
        self.guard.verify(test, memory=True)
        self.send('start', test._testMethodName)

    def stopTest(self, test):
        if self.called_by_unittest(test):
            self.guard.verify(test, memory=True)
            self.send('stop', test._testMethodName)
            self.current = None
        super().stopTest(test)

    def outcome(self, test, status, detail=''):
        ms = round((time.monotonic() - self.started) * 1000)
        if status in ('passed', 'skipped'):
            self.guard.verify(test)
        self.send('outcome', test._testMethodName, status, ms, detail)

    def addSuccess(self, test):
        if self.called_by_unittest(test):
            self.outcome(test, 'passed')

    def addFailure(self, test, err):
        if self.called_by_unittest(test):
            self.outcome(test, 'failed', self._exc_info_to_string(err, test)[-DETAIL_CHARS:])

    def addError(self, test, err):
        if isinstance(test, unittest.suite._ErrorHolder):
            self.send('fixture', test.description, self._exc_info_to_string(err, test)[-DETAIL_CHARS:])
        elif self.called_by_unittest(test):
            self.outcome(test, 'error', self._exc_info_to_string(err, test)[-DETAIL_CHARS:])

    def addSkip(self, test, reason):
        if self.called_by_unittest(test):
            self.outcome(test, 'skipped', str(reason))

    def addExpectedFailure(self, test, err):
        if self.called_by_unittest(test):
            self.outcome(test, 'passed')

    def addUnexpectedSuccess(self, test):
        # Upstream counts only failures and errors: an unexpected success passes.
        if self.called_by_unittest(test):
            self.outcome(test, 'passed')

    def addSubTest(self, test, subtest, err):
        if err is not None and self.called_by_unittest(test):
            status = 'failed' if issubclass(err[0], test.failureException) else 'error'
            self.outcome(test, status, f'{subtest}:\n{self._exc_info_to_string(err, test)}'[-DETAIL_CHARS:])
