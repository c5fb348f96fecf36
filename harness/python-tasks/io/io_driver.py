"""Runs a solution's function on each input, in the sandbox, and writes back what it returned.

Reads task.json (the entry point, the per-input CPU and wall limits), inputs.json
(the argument lists, in value_codec's format) and solution.py. For each input it
calls the function and writes one JSON line: the input's index, its status (ok,
error, timeout, unencodable), CPU and wall time (calling the function and writing its value), and the returned value as plain
data. It stops at the first input that does not return in time or raises, as
EvalPlus's checker does. Nothing here knows the expected outputs: the comparison
happens outside, in the judge, so whatever the program does to this process can
only change the data it sends back.
"""
import json
import os
import signal
import sys
import time

import value_codec


class OverLimit(BaseException):
    """The input used up its CPU or wall time."""


# What to write and where when a program swallows OverLimit: the second signal ends the process.
give_up = {'fired': 0, 'write': None, 'record': None}


def over_limit(signum, frame):
    give_up['fired'] += 1
    if give_up['fired'] > 1 and give_up['write'] is not None:
        give_up['write'](give_up['record'])
        os._exit(0)
    raise OverLimit()


def arm(cpu_seconds, wall_seconds, record=None):
    give_up['fired'], give_up['record'] = 0, record
    signal.signal(signal.SIGPROF, over_limit)
    signal.signal(signal.SIGALRM, over_limit)
    # Repeats: a program that catches the first OverLimit gets a second signal, which ends it.
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds, 0.5)
    signal.setitimer(signal.ITIMER_REAL, wall_seconds, 1.0)


def disarm():
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)


def main():
    with open('task.json') as file:
        task = json.load(file)
    with open('inputs.json') as file:
        inputs = value_codec.loads(file.read())
    with open('solution.py') as file:
        source = file.read()
    results = os.fdopen(os.dup(1), 'w', encoding='utf-8')
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)
    os.dup2(quiet, 1)

    def send(record, value_text=None):
        line = json.dumps(record, separators=(',', ':'), allow_nan=False)
        if value_text is not None:
            line = line[:-1] + ',"v":' + value_text + '}'
        results.write(line + '\n')
        results.flush()

    # Written before any of the program runs: a program that then claims the sandbox broke down is lying.
    send({'driver': 'started'})
    give_up['write'] = lambda record: send(record) if record is not None else send({'setup': 'timeout'})
    namespace = {'__name__': '__solution__', '__builtins__': __builtins__}
    start = time.process_time()
    try:
        arm(task['setup_cpu_seconds'], task['setup_wall_seconds'])
        exec(compile(source, 'solution.py', 'exec'), namespace)
        function = namespace[task['entry_point']]
    except OverLimit:
        disarm()
        send({'setup': 'timeout', 'cpu': ms(time.process_time() - start)})
        return
    except BaseException as error:
        disarm()
        send({'setup': 'error', 'e': describe(error)})
        return
    disarm()
    send({'setup': 'ok', 'cpu': ms(time.process_time() - start)})

    canonical = task['mode'] == 'canonical'
    # Each input was decoded into objects of its own, and the judge keeps its own copy: no deepcopy is needed.
    for index, arguments in enumerate(inputs):
        cpu_limit = task['cpu_limits'][index]
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        status, error, value_text, not_none = 'ok', None, None, None
        try:
            arm(cpu_limit, task['wall_limits'][index], {'i': index, 's': 'timeout', 'e': 'It ran past its time limit and went on after being stopped.'})
            value = function(*arguments)
            # Written under the same limit: a value that takes long to write (hundreds of megabytes) is the program's time too.
            try:
                if task['not_none'] and (canonical or type(value) is not bool):
                    # EvalPlus keeps only `value is not None` for tasks whose outputs are match objects; a bool stays a bool.
                    not_none = value is not None
                else:
                    value_text = value_codec.dumps_bounded(value)
            except value_codec.NotPlainData as refused:
                status, error = 'unencodable', f'returned {refused}'
            except OverLimit:
                raise
            except BaseException as broken:
                status, error = 'unencodable', f'returned a value that could not be written: {describe(broken)}'
            disarm()
        except OverLimit:
            disarm()
            status, value_text = 'timeout', None
        except BaseException as raised:
            disarm()
            status, error = 'error', describe(raised)
        cpu, wall = time.process_time() - cpu_start, time.perf_counter() - wall_start
        if status == 'ok' and cpu > cpu_limit:
            status, value_text = 'timeout', None
        record = {'i': index, 's': status, 'cpu': ms(cpu), 'wall': ms(wall)}
        if error is not None:
            record['e'] = error
        if status == 'ok' and not_none is not None:
            record['nn'] = not_none
        send(record, value_text)
        if record['s'] != 'ok':
            return
    send({'done': len(inputs)})


def describe(error):
    try:
        text = str(error)
    except BaseException:
        text = ''
    name = type(error).__name__ if isinstance(type(error).__name__, str) else 'Exception'
    return f'{name}: {text[:300]}' if text else name


def ms(seconds):
    return round(seconds * 1000, 3)

