"""The environment the official harness gives a program (bigcodebench v0.2.5, eval/utils.py).

Reproduced because verdicts depend on it: `reliability_guard` (UTC, one OpenMP thread, no exit()
or quit(), matplotlib's figures closed), `safe_environment` (os.kill, os.system, subprocess… are
replaced by versions that refuse to kill other processes, os.execv* do nothing), and `swallow_io`
(stdout and stderr go to a write-only buffer whose reads raise, stdin too; subprocess output is
piped unless captured). Here the buffer also copies what the program prints to the parent, so
that the record can show it. Resource limits are the sandbox's (the official ones: 30 GiB of
address space and data, 10 MiB of stack). The official harness's own help says none of this is a
sandbox; it is here for the program's behaviour to match, not for safety.
"""
import builtins
import contextlib
import faulthandler
import io
import os
import signal
import subprocess
import sys
import time


def reliability_guard():
    os.environ['TZ'] = 'UTC'
    time.tzset()
    os.environ['OMP_NUM_THREADS'] = '1'
    os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'
    os.environ['TF_ENABLE_ONEDNN_OPTS'] = '0'
    faulthandler.disable()
    builtins.exit = None
    builtins.quit = None
    try:
        import matplotlib.pyplot as plt

        plt.close('all')
    except Exception:
        pass  # (upstream requires matplotlib; a task that needs it reports the import error itself)


class WriteOnlyOutput(io.StringIO):
    """Upstream's WriteOnlyStringIO, which also copies what is written to `fd` (for the record)."""

    def __init__(self, fd):
        super().__init__()
        self._fd = fd

    def write(self, text):
        written = super().write(text)
        try:
            os.write(self._fd, str(text).encode('utf-8', 'backslashreplace'))
        except OSError:
            pass
        return written

    def read(self, *args, **kwargs):
        raise IOError

    def readline(self, *args, **kwargs):
        raise IOError

    def readlines(self, *args, **kwargs):
        raise IOError

    def readable(self, *args, **kwargs):
        return False


@contextlib.contextmanager
def swallow_io(fd):
    stream = WriteOnlyOutput(fd)
    saved = (sys.stdout, sys.stderr, sys.stdin)
    sys.stdout = sys.stderr = sys.stdin = stream
    original_popen, original_run = subprocess.Popen, subprocess.run

    def piped(kwargs):
        if kwargs.get('capture_output'):
            kwargs.pop('stdout', None)
            kwargs.pop('stderr', None)
        else:
            kwargs.setdefault('stdout', subprocess.PIPE)
            kwargs.setdefault('stderr', subprocess.PIPE)
        return kwargs

    subprocess.Popen = lambda *args, **kwargs: original_popen(*args, **piped(kwargs))
    subprocess.run = lambda *args, **kwargs: original_run(*args, **piped(kwargs))
    try:
        yield
    finally:
        subprocess.Popen, subprocess.run = original_popen, original_run
        sys.stdout, sys.stderr, sys.stdin = saved


@contextlib.contextmanager
def safe_environment():
    saved = {
        (os, 'kill'): os.kill, (os, 'killpg'): os.killpg, (os, 'system'): os.system, (os, 'popen'): os.popen,
        (os, 'execv'): os.execv, (os, 'execvp'): os.execvp, (os, 'execvpe'): os.execvpe,
        (subprocess, 'call'): subprocess.call, (subprocess, 'check_output'): subprocess.check_output,
        (subprocess, 'run'): subprocess.run, (subprocess, 'Popen'): subprocess.Popen,
    }
    original_kill, original_killpg = os.kill, os.killpg
    original_popen = subprocess.Popen
    current_pid = os.getpid()
    current_pgid = os.getpgid(current_pid)
    child_pids = []

    def safe_kill(pid, sig):
        try:
            os.getpgid(pid)
            if pid == current_pid or pid in child_pids:
                original_kill(pid, sig)
            else:
                print(f'Prevented attempt to kill PID {pid} with signal {sig}')
        except ProcessLookupError:
            pass

    def safe_killpg(pgid, sig):
        if pgid == current_pgid or pgid in {os.getpgid(pid) for pid in child_pids}:
            original_killpg(pgid, sig)
        else:
            print(f'Prevented attempt to kill PGID {pgid} with signal {sig}')

    def intercepting(name, original, fake):
        def call(command, *args, **kwargs):
            print(f'Intercepted {name}: {command}')
            if 'kill' in command or 'killall' in command:
                return fake(command)
            return original(command, *args, **kwargs)

        return call

    class SafePopen(original_popen):
        def __init__(self, *args, **kwargs):
            print(f'Intercepted Popen command: {args}')
            kwargs['preexec_fn'] = os.setsid
            super().__init__(*args, **kwargs)
            child_pids.append(self.pid)

        def communicate(self, *args, **kwargs):
            try:
                return super().communicate(*args, **kwargs)
            except subprocess.TimeoutExpired:
                print('Timeout expired, intercepted and returning None')
                return None, None

        def kill(self):
            print(f'Intercepted kill call for PID {self.pid}')
            safe_kill(self.pid, signal.SIGTERM)

        def terminate(self):
            print(f'Intercepted terminate call for PID {self.pid}')
            safe_kill(self.pid, signal.SIGTERM)

    def safe_check_output(command, *args, **kwargs):
        print(f'Intercepted command: {command}')
        if 'ps' in command:
            return b''
        return saved[(subprocess, 'check_output')](command, *args, **kwargs)

    def safe_run(*args, **kwargs):
        print(f'Intercepted subprocess run command: {args}')
        if 'kill' in args[0] or 'killall' in args[0]:
            return subprocess.CompletedProcess(args, 0, b'', b'')
        return saved[(subprocess, 'run')](*args, **kwargs)

    def safe_exec(*args, **kwargs):
        print(f'Intercepted exec command: {args}')

    os.kill, os.killpg = safe_kill, safe_killpg
    os.system = intercepting('system command', os.system, lambda command: 0)
    os.popen = intercepting('os.popen command', os.popen, lambda command: saved[(os, 'popen')]('echo Intercepted'))
    subprocess.call = intercepting('subprocess call', subprocess.call, lambda command: 0)
    subprocess.check_output = safe_check_output
    subprocess.run = safe_run
    subprocess.Popen = SafePopen
    os.execv = os.execvp = os.execvpe = safe_exec
    try:
        yield
    finally:
        for pid in child_pids:
            try:
                original_kill(pid, signal.SIGTERM)
                for _ in range(10):
                    time.sleep(0.1)
                    original_kill(pid, 0)
                else:
                    original_kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            except Exception:
                pass
        for (owner, name), value in saved.items():
            setattr(owner, name, value)
