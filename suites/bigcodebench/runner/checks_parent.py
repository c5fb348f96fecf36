"""Runs one BigCodeBench program's checks; the sandbox starts it as main.py next to task.json and seal.

This process is trusted: it reads the task, parses the tests (test_plan.py) and forks the child
that runs the program and its tests (checks_child.py) before any of the program's code exists
in a process. The child reports on a pipe, each report carrying a secret drawn here; this
process keeps its own stdout, which the child never holds, and the seal (the sandbox's marker),
which it reads only after the fork and never passes on. It enforces the child's limits (CPU time
by RLIMIT_CPU, a wall-clock backstop), judges the reports (report_judge.py) and prints one line:
the seal, a space, the verdict as JSON. A program can end or kill this process (it runs as the
same user), which leaves no verdict line: the item fails.

task.json: {"program", "test", "entryPoint", "cpuSeconds", "wallSeconds", "outputBytes"}.
"""
import json
import math
import os
import secrets
import select
import signal
import time

from report_judge import ReportReader, judge
from test_plan import test_plan

READ_BYTES = 65536
REPORT_BYTES = 8 << 20
CPU_BACKSTOP_FACTOR = 4
WALL_BACKSTOP_FACTOR = 10
TICK_SECONDS = 0.5
# The child's set-up before the program: the upstream environment (it imports matplotlib).
SETUP_SECONDS = 120


def main():
    not_dumpable()
    with open('task.json', encoding='utf-8') as handle:
        task = json.load(handle)
    os.remove('task.json')
    task['cpuBackstopSeconds'] = math.ceil(CPU_BACKSTOP_FACTOR * task['timeLimitSeconds'])
    plan = test_plan(task['test'])
    report_r, report_w = os.pipe()
    out_r, out_w = os.pipe()
    go_r, go_w = os.pipe()
    import checks_child  # imported here, so that the child starts with it (and unittest) loaded

    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(report_r)
        os.close(out_r)
        os.close(go_w)
        checks_child.run(task, report_w, out_w, go_r)  # never returns
    for fd in (report_w, out_w, go_r):
        os.close(fd)
    with open('seal', encoding='utf-8') as handle:
        seal = handle.read().strip()
    os.remove('seal')
    secret = secrets.token_bytes(16)
    # The child waits for this before it reads the program: the seal file is gone by then.
    os.write(go_w, secret)
    os.close(go_w)

    reader = ReportReader(secret, REPORT_BYTES)
    output = OutputTail(task['outputBytes'])
    clock = IdleClock(pid, started)
    reader.on_program = clock.restart
    ended = supervise(pid, {report_r: reader.feed, out_r: output.feed}, clock, task['timeLimitSeconds'])
    kill_group(pid)
    verdict = judge(plan, reader, ended, task['cpuBackstopSeconds'])
    verdict['wallMs'] = round((time.monotonic() - started) * 1000)
    verdict['output'] = output.text()
    os.write(1, (seal + ' ' + json.dumps(verdict) + '\n').encode('utf-8'))


def not_dumpable():
    """The child runs as our user: without this it could read our memory and fds through /proc, or ptrace us."""
    import ctypes

    pr_set_dumpable = 4
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_dumpable, 0, 0, 0, 0)


def supervise(pid, readers, clock, limit):
    """Feeds what the child writes to `readers` until it exits or passes its time; how it ended."""
    pidfd = os.pidfd_open(pid)
    waited = None
    stopped_by = None
    while waited is None:
        stopped_by = clock.over(limit)
        if stopped_by is not None:
            kill_group(pid)
            waited = os.wait4(pid, 0)[1:]
            break
        for fd in select.select([pidfd, *readers], [], [], TICK_SECONDS)[0]:
            if fd == pidfd:
                idle = clock.idle_seconds()
                waited = os.wait4(pid, 0)[1:]
                continue
            data = os.read(fd, READ_BYTES)
            if data:
                readers[fd](data)
            else:
                os.close(fd)
                del readers[fd]
    os.close(pidfd)
    # What the child wrote before it ended; a process it left holding the pipes gets no longer wait.
    for fd, feed in readers.items():
        os.set_blocking(fd, False)
        try:
            while data := os.read(fd, READ_BYTES):
                feed(data)
        except BlockingIOError:
            pass
        os.close(fd)
    status, usage = waited
    return {
        'timedOut': stopped_by is not None,
        'stoppedBy': stopped_by,
        'exitCode': os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        'signal': signal_name(os.WTERMSIG(status)) if os.WIFSIGNALED(status) else None,
        'cpuMs': round((usage.ru_utime + usage.ru_stime) * 1000),
        'idleWallMs': round(1000 * idle) if stopped_by is None else None,
    }


class IdleClock:
    """The child's time as an idle machine's clock would show it: the wall clock less the time its
    processes' threads waited for a CPU (the child's session: it and what it started). It runs from
    the fork, and again from zero when the program starts (the child's own set-up, before, has a
    limit of its own)."""

    def __init__(self, pid, started):
        self.pid = pid
        self.started = started
        self.wall_started = started
        self.delay_started = 0.0
        self.program_started = False
        # Nanoseconds each thread (by /proc path) has waited, as last read: an ended thread keeps its share.
        self.waited = {}

    def restart(self):
        self.started = time.monotonic()
        self.delay_started = self.run_delay()
        self.program_started = True

    def idle_seconds(self):
        return max(0.0, time.monotonic() - self.started - (self.run_delay() - self.delay_started))

    def over(self, limit):
        """'time' past `limit` (or past the set-up's limit, before the program starts), 'wall' past the backstop."""
        if time.monotonic() - self.wall_started > WALL_BACKSTOP_FACTOR * limit + 60:
            return 'wall'
        if self.idle_seconds() > (limit if self.program_started else SETUP_SECONDS):
            return 'time'
        return None

    def run_delay(self):
        """Seconds the threads of the child's session have waited for a CPU (0 where the kernel does not say)."""
        for entry in os.listdir('/proc'):
            if not entry.isdigit() or not self.in_session(entry):
                continue
            try:
                threads = os.listdir(f'/proc/{entry}/task')
            except OSError:
                continue
            for thread in threads:
                path = f'/proc/{entry}/task/{thread}/schedstat'
                try:
                    with open(path, encoding='ascii') as handle:
                        self.waited[path] = max(self.waited.get(path, 0), int(handle.read().split()[1]))
                except (OSError, ValueError, IndexError):
                    pass
        return sum(self.waited.values()) / 1e9

    def in_session(self, entry):
        try:
            with open(f'/proc/{entry}/stat', encoding='ascii', errors='replace') as handle:
                fields = handle.read().rsplit(')', 1)[1].split()
            return int(fields[3]) == self.pid
        except (OSError, ValueError, IndexError):
            return False


def kill_group(pid):
    """The child's process group (it made its own session), and the child in case it left it."""
    for kill, target in ((os.killpg, pid), (os.kill, pid)):
        try:
            kill(target, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f'SIG{number}'


class OutputTail:
    """The beginning and the end of what the program printed, `limit` bytes in all."""

    def __init__(self, limit):
        self.limit = limit
        self.head = b''
        self.tail = b''
        self.total = 0

    def feed(self, data):
        self.total += len(data)
        room = self.limit // 2 - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        self.tail = (self.tail + data)[-(self.limit // 2):]

    def text(self):
        head = self.head.decode('utf-8', 'replace')
        if self.total <= len(self.head) + len(self.tail):
            return head + self.tail.decode('utf-8', 'replace')
        skipped = self.total - len(self.head) - len(self.tail)
        return f'{head}\n… ({skipped} bytes left out) …\n{self.tail.decode("utf-8", "replace")}'


if __name__ == '__main__':
    main()
