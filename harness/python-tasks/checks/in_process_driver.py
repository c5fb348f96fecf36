"""Runs an upstream check in the program's own process, for a check that cannot be replayed outside it
(its calls pass or return objects of the program's own classes). Sandboxed, and as hard to forge as
a check sharing the program's process can be:

- the check is not in any file: it comes on stdin (a JSON object: a per-run secret and the check's
  top-level statements), read before any of the program runs; stdin is then closed;
- each statement is compiled here with asserts kept (optimize=0), whatever flags the interpreter
  has, and run in the program's namespace; after each one that completes, a report line carries
  an HMAC of its index under the secret, so a line the program prints without the secret counts
  for nothing, and the parent knows how many statements must report;
- at the end, a trace or profile hook, asserts switched off (sys.flags.optimize), or any builtin
  replaced (AssertionError, isinstance, len…) is reported as tampering, which fails the item.

What cannot be closed in a shared process: the program can read the secret and the statements
from this process's memory (frames, gc, ctypes) and forge the reports. Reads task.json (setup
code, CPU and wall budget) and solution.py.
"""
import builtins
import hashlib
import hmac
import json
import os
import signal
import sys
import threading
import time


class OverLimit(BaseException):
    """The run used up its CPU or wall budget."""


fired = [0]


def over_limit(signum, frame):
    fired[0] += 1
    if fired[0] > 1:
        os._exit(0)
    raise OverLimit()


def main():
    order = json.loads(sys.stdin.read())
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)
    with open('task.json') as file:
        task = json.load(file)
    with open('solution.py') as file:
        source = file.read()
    key = bytes.fromhex(order['secret'])
    statements = [compile(text, f'check statement {index}', 'exec', dont_inherit=True, optimize=0) for index, text in enumerate(order['statements'])]
    del order
    results = os.fdopen(os.dup(1), 'w', encoding='utf-8')
    os.dup2(quiet, 1)
    seal = hmac.new(key, digestmod=hashlib.sha256)
    del key
    untouched = dict(builtins.__dict__)
    hooks = (sys.gettrace, sys.getprofile, threading.gettrace, threading.getprofile)

    def send(record, signed=None):
        if signed is not None:
            mac = seal.copy()
            mac.update(signed.encode())
            record['mac'] = mac.hexdigest()
        results.write(json.dumps(record, separators=(',', ':')) + '\n')
        results.flush()

    send({'driver': 'started'})
    signal.signal(signal.SIGPROF, over_limit)
    signal.signal(signal.SIGALRM, over_limit)
    signal.setitimer(signal.ITIMER_PROF, task['cpu_seconds'], 0.5)
    signal.setitimer(signal.ITIMER_REAL, task['wall_seconds'], 1.0)
    namespace = {'__name__': '__solution__', '__builtins__': builtins}
    step = 'setup'
    try:
        exec(compile(source, 'solution.py', 'exec'), namespace)
        if task['setup']:
            exec(compile(task['setup'], 'setup', 'exec'), namespace)
        for index, statement in enumerate(statements):
            step = index
            exec(statement, namespace)
            send({'t': index}, f'statement {index}')
    except OverLimit:
        stop_clocks()
        send({'t': step, 's': 'timeout'})
        return
    except BaseException as error:
        stop_clocks()
        send({'t': step, 's': 'failed', 'x': builtin_type(error), 'e': describe(error)})
        return
    stop_clocks()
    tampered = []
    if sys.flags.optimize:
        tampered.append('asserts were switched off (-O)')
    if any(hook() is not None for hook in hooks):
        tampered.append('a trace or profile hook was set')
    changed = sorted(name for name, value in untouched.items() if builtins.__dict__.get(name) is not value and name != '_')
    if changed:
        tampered.append(f'builtins were replaced: {", ".join(changed[:10])}')
    send({'end': len(statements), 'tampered': tampered}, f"end {len(statements)} {'tampered' if tampered else 'clean'}")


def stop_clocks():
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)


def builtin_type(error):
    for cls in type(error).__mro__:
        if cls.__module__ == 'builtins':
            return cls.__name__
    return 'Exception'


def describe(error):
    try:
        text = str(error)
    except BaseException:
        text = ''
    return f'{type(error).__name__}: {text[:300]}' if text else type(error).__name__


main()
os._exit(0)
