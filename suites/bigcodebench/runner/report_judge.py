"""The child's reports, checked against the test plan: the verdict of one program's checks.

A report is a frame on the report pipe: a 4-byte big-endian length, then the secret (16 bytes),
a 4-byte sequence number counting from 0, and a Python literal (a tuple). A frame without the
secret, out of sequence or unreadable is tampering. The reports must then tell the story unittest
tells when it runs the plan: each planned method started, judged and stopped, in order, once;
nothing else; then the end of the checks, with nothing tampered. Anything else fails the item.
"""
import ast

DETAIL_CHARS = 2000
POSITIVE = frozenset(('passed', 'skipped'))
NEGATIVE = frozenset(('failed', 'error'))


class ReportReader:
    def __init__(self, secret, limit):
        self.secret = secret
        self.limit = limit
        self.buffer = b''
        self.received = 0
        self.reports = []
        self.problems = []
        # Called when the child says the program starts (before its first line runs).
        self.on_program = None

    def feed(self, data):
        if self.problems:
            return
        self.received += len(data)
        if self.received > self.limit:
            self.problems.append(f'the reports went over {self.limit} bytes')
            return
        self.buffer += data
        while len(self.buffer) >= 4:
            length = int.from_bytes(self.buffer[:4], 'big')
            if len(self.buffer) < 4 + length:
                return
            body, self.buffer = self.buffer[4:4 + length], self.buffer[4 + length:]
            problem = self.take(body)
            if problem is not None:
                self.problems.append(problem)
                return

    def take(self, body):
        if len(body) < 20 or body[:16] != self.secret:
            return 'a report without the run\'s secret reached the report pipe'
        if int.from_bytes(body[16:20], 'big') != len(self.reports):
            return 'a report came out of sequence'
        try:
            report = ast.literal_eval(body[20:].decode('utf-8'))
        except (ValueError, SyntaxError, UnicodeDecodeError, MemoryError, RecursionError):
            return 'a report could not be read'
        if not (isinstance(report, tuple) and report and all(isinstance(field, (str, int, bool)) for field in report)):
            return 'a report is not a tuple of plain values'
        self.reports.append(report)
        if report == ('program',) and len(self.reports) == 2 and self.on_program is not None:
            self.on_program()
        return None


    def cut_short(self, ended):
        """What is left of a frame when the child ended by itself: its length was forged. A program that rewrites a
        small int in memory makes the child's `send` write a wrong length, and every report after it is lost in the
        frame the reader waits to complete; whether some report's length is that int depends on the machine's speed
        (a method's milliseconds). A child killed (by a limit, or by a signal) may be cut in a long frame's write."""
        if self.problems or not self.buffer or ended['exitCode'] is None or ended['timedOut']:
            return []
        claimed = int.from_bytes(self.buffer[:4], 'big') if len(self.buffer) >= 4 else None
        return [f'the reports ended inside a report ({len(self.buffer) - 4} of the {claimed} bytes its length claims): '
                'a report\'s length was forged, or the checks\' own code was rewritten'
                if claimed is not None else 'the reports ended inside a report\'s length']


def judge(plan, reader, ended, cpu_backstop):
    """The verdict: per-method results, how the program ended, and what was tampered with. Tampering is named
    whatever the program's end: the reports the reader could not take are judged before the story they tell."""
    verdict = {
        'methods': [],
        'tamper': list(reader.problems) + reader.cut_short(ended),
        'finished': False,
        'timedOut': ended['timedOut'],
        'cpuMs': ended['cpuMs'],
    }
    if ended['stoppedBy'] is not None:
        verdict['stoppedBy'] = ended['stoppedBy']
    if ended['idleWallMs'] is not None:
        verdict['idleWallMs'] = ended['idleWallMs']
    if ended['signal'] is not None:
        verdict['signal'] = ended['signal']
        if not ended['timedOut'] and (ended['signal'] == 'SIGXCPU' or (ended['signal'] == 'SIGKILL' and ended['cpuMs'] >= cpu_backstop * 950)):
            verdict['timedOut'] = True
            verdict['stoppedBy'] = 'cpu'
    if ended['exitCode'] is not None:
        verdict['exitCode'] = ended['exitCode']
    if isinstance(plan, str):
        verdict['load'] = {'stage': 'tests', 'error': plan}
        return verdict
    verdict['expected'] = plan.methods
    story = Story(plan, verdict)
    for report in reader.reports:
        story.take(report)
    story.finish(ended)
    return verdict


class Story:
    """Walks the reports through what unittest does, method by method."""

    def __init__(self, plan, verdict):
        self.plan = plan
        self.verdict = verdict
        self.next = 0
        self.running = None
        self.outcome = None
        self.ready = False
        self.ended = False
        self.results = {}

    def wrong(self, what):
        self.verdict['tamper'].append(what)

    def take(self, report):
        kind, fields = report[0], report[1:]
        if self.ended:
            return self.wrong(f'a report came after the end of the checks ({kind})')
        handler = getattr(self, 'on_' + kind, None) if isinstance(kind, str) and kind.isidentifier() else None
        if handler is None:
            return self.wrong(f'an unknown report ({str(kind)[:40]})')
        try:
            handler(*fields)
        except TypeError:
            self.wrong(f'a malformed report ({kind})')

    def on_ready(self):
        self.ready = True

    def on_program(self):
        pass

    def on_tamper(self, what):
        self.wrong(what[:DETAIL_CHARS])

    def on_load(self, stage, error):
        self.verdict['load'] = {'stage': 'compile' if stage == 'compile' else 'run', 'error': error[-DETAIL_CHARS:]}

    def on_fixture(self, description, detail):
        self.verdict.setdefault('fixtureErrors', []).append({'name': description[:200], 'detail': detail[-DETAIL_CHARS:]})

    def on_start(self, name):
        expected = self.plan.methods[self.next] if self.next < len(self.plan.methods) else None
        if self.running is not None or name != expected:
            return self.wrong(f'{name[:80]} started where {expected or "no method"} was due')
        self.running = name
        self.outcome = None
        self.verdict['running'] = name

    def on_outcome(self, name, status, ms, detail):
        if name != self.running:
            return self.wrong(f'a result for {name[:80]}, which was not running')
        if status in NEGATIVE:
            # A failure after a skip is possible (tearDown raised); either way the method failed.
            if self.outcome is None or self.outcome['status'] not in NEGATIVE:
                self.outcome = {'name': name, 'status': status, 'ms': ms}
            if detail and 'detail' not in self.outcome:
                self.outcome['detail'] = detail[-DETAIL_CHARS:]
            return None
        if status not in POSITIVE or self.outcome is not None:
            return self.wrong(f'a second or unknown result for {name}: {str(status)[:40]}')
        if status == 'skipped' and not self.plan.may_skip:
            self.outcome = {'name': name, 'status': 'failed', 'ms': ms, 'detail': f'Skipped ({detail[:200]}), though its tests never skip: the program raised SkipTest.'}
            return None
        self.outcome = {'name': name, 'status': status, 'ms': ms, **({'detail': detail[:200]} if detail else {})}
        return None

    def on_stop(self, name):
        if name != self.running or self.outcome is None:
            return self.wrong(f'{name[:80]} stopped without a result')
        self.results[name] = self.outcome
        self.verdict['methods'].append(self.outcome)
        self.running = None
        self.verdict.pop('running', None)
        self.next += 1

    def on_end(self, clean):
        self.ended = True
        if clean is not True:
            self.wrong('the checks did not end clean')

    def finish(self, ended):
        if not self.ready and 'load' not in self.verdict:
            self.verdict['childFailed'] = True
        complete = self.next == len(self.plan.methods) and self.running is None
        self.verdict['finished'] = (
            self.ended and complete and 'load' not in self.verdict and not ended['timedOut'] and ended['exitCode'] == 0 and ended['signal'] is None
        )
        if self.ended and not complete and 'load' not in self.verdict:
            missing = [name for name in self.plan.methods if name not in self.results]
            self.wrong(f'the checks ended without running {", ".join(missing[:10])}')
