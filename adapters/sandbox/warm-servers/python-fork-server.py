"""A warm Python for the process tier: forks a fresh child per program, so no run pays interpreter start-up.

Runs inside bwrap (no network, read-only root, its own pid namespace), one program at a time, in
one of two isolations (TESTBENCH_FORK_ISOLATION):
- uid (we are root): the server keeps a few capabilities; each child switches to a throwaway uid.
- userns (an ordinary user): bwrap's user namespace (no nested ones) with CAP_SYS_ADMIN, used once
  to give the children a pid namespace of their own, whose init is ours: programs cannot see,
  signal or re-limit the server. Then the server drops every capability and sets no_new_privs,
  which its children inherit.
Each child gets a fresh work dir, rlimits, the request's environment and its own stdio, then runs
the program as __main__. Afterwards every process the run left is killed and /tmp, /dev/shm and
IPC objects are cleared, so runs cannot see each other. The server is not dumpable: a program
cannot read its memory or file descriptors through /proc.

Protocol: one JSON request per line on stdin; frames on stdout, each one byte of kind
(o = stdout, e = stderr, x = the end, as JSON), a 4-byte big-endian length, then the payload.
"""

import atexit
import base64
import gc
import io
import json
import os
import resource
import select
import shutil
import signal
import stat
import struct
import subprocess
import sys
import time
import traceback  # costs tens of ms to import: once here, not in every child
import types

RUNS = '/tmp/runs'
# The harness's modules (RunRequest.pythonModules) by digest, each run once here and handed ready to the children
# that ask for it: no run pays for compiling and running them (about half of a small program's run).
MODULES = {}
USERNS = os.environ.get('TESTBENCH_FORK_ISOLATION') == 'userns'
# In the userns isolation, the server and our init count against the children's process limit.
NPROC_OF_OURS = 2 if USERNS else 0
# Pure standard-library modules that most programs import: loaded once here, not in every child.
# Nothing with state a child could share (random reseeds itself after fork, but is left out anyway).
PRELOADED = ('typing', 'math', 're', 'collections', 'itertools', 'functools', 'string', 'heapq', 'bisect', 'hashlib', 'fractions', 'decimal')
SECCOMP = seccomp_program(base64.b64decode(os.environ.get('TESTBENCH_SECCOMP', '')))
CONTROL_IN = sys.stdin.buffer
CONTROL_OUT = sys.stdout.buffer


def send(kind, payload):
    """A frame; the program's output (o, e) goes out when the run waits for more (serve), the rest at once."""
    CONTROL_OUT.write(kind + struct.pack('>I', len(payload)) + payload)
    if kind == b'x':
        CONTROL_OUT.flush()


def child(request, modules, in_use, run_dir, stdin_fd, out_w, err_w, setup_w):
    """In the forked child: become the program. Never returns. Whether setting it up failed goes
    through setup_w, closed before the program runs: nothing a program prints or returns can say so."""
    try:
        os.dup2(stdin_fd, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.closerange(3, setup_w)
        os.closerange(setup_w + 1, 65536)
        os.setsid()
        for name, value in request['rlimits'].items():
            if name in ('RLIMIT_DATA', 'RLIMIT_AS'):
                # The child starts with the server's heap and mappings (and any preloaded modules): those are not the program's.
                value += in_use['VmData' if name == 'RLIMIT_DATA' else 'VmSize']
            if name == 'RLIMIT_NPROC':
                value += NPROC_OF_OURS
            resource.setrlimit(getattr(resource, name), (value, value))
        cpu = request['cpu_seconds']
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        if not USERNS:  # (in a user namespace, the server dropped every capability before its first child)
            uid = request['uid']
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
        os.chdir(run_dir)
        # As a fresh `python3 main.py` has them: SIGPIPE and SIGXFSZ ignored, Ctrl-C a KeyboardInterrupt.
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.environ.clear()
        os.environ.update(request['env'])
        install_seccomp(SECCOMP)
        sys.modules.update(modules)
    except BaseException as error:  # the sandbox, not the program, failed
        os.write(setup_w, f'could not prepare the child: {error!r}'.encode())
        os._exit(125)
    os.close(setup_w)
    run_program(os.path.join(run_dir, request['main']))


def memory_in_use():
    """This process's heap and mappings in bytes, read before a fork: the child starts with the same."""
    in_use = {'VmData': 0, 'VmSize': 0}
    with open('/proc/self/status') as status:
        for line in status:
            field = line.split(':', 1)[0]
            if field in in_use:
                in_use[field] = int(line.split()[1]) * 1024
    return in_use


def run_program(path):
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, 'r', closefd=False)), encoding='utf-8')
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, 'w', closefd=False)), encoding='utf-8')
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, 'w', closefd=False)), encoding='utf-8', errors='backslashreplace', line_buffering=True
    )
    sys.argv = [path]
    sys.path[0] = os.path.dirname(path)
    main = types.ModuleType('__main__')
    main.__file__ = path
    main.__builtins__ = __builtins__
    sys.modules['__main__'] = main
    status = 0
    try:
        with open(path, 'rb') as source:
            code = compile(source.read(), path, 'exec')
    except SyntaxError as error:
        # As `python3 main.py` reports it: no traceback, just where and what.
        traceback.print_exception(type(error), error, None)
        status = 1
    else:
        try:
            exec(code, main.__dict__)
        except SystemExit as error:
            status = exit_status(error.code)
        except BaseException as error:
            # Drop this function's frame, so the traceback starts in the program as it would.
            traceback.print_exception(type(error), error, error.__traceback__.tb_next)
            status = 1
    status = finish(status)
    os._exit(status)


def exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def finish(status):
    """What the interpreter does on its way out: join threads, run atexit, flush."""
    try:
        threading = sys.modules.get('threading')
        if threading is not None:
            threading._shutdown()
        atexit._run_exitfuncs()
    except SystemExit as error:
        status = exit_status(error.code)
    except BaseException:
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            status = status or 120
    return status


INIT = None


def kill_leftovers():
    """Every process in the children's namespace (but its init) belongs to the run that just ended."""
    if INIT is not None:
        INIT.kill_leftovers()
    else:
        kill_all_but_self()


# Dirs of the server's own root (bwrap's tmpfs) that a program may write to: besides /tmp and /dev/shm,
# the root itself (BigCodeBench's tasks write to /fake, /target...), /etc and /dev. What a run adds
# there is removed after it, and a link it replaced (/lib64, the loader's dir) is put back.
SCRATCH_DIRS = ('/', '/etc', '/dev')
SCRATCH_START = {}


def note_scratch_dirs():
    for base in SCRATCH_DIRS:
        SCRATCH_START[base] = {name: entry_state(os.path.join(base, name)) for name in os.listdir(base)}


def entry_state(path):
    return ('link', os.readlink(path)) if os.path.islink(path) else ('other', None)


def remove_entry(path):
    """A dir with everything in it, or a file or link (never what a link points to)."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            os.unlink(path)
        except OSError:
            pass


def restore_scratch_dirs():
    for base, start in SCRATCH_START.items():
        for name in os.listdir(base):
            kept = start.get(name)
            if kept is not None and (kept[0] == 'other' or kept == entry_state(os.path.join(base, name))):
                continue
            remove_entry(os.path.join(base, name))
        for name, (kind, target) in start.items():
            if kind != 'link':
                continue
            path = os.path.join(base, name)
            if not os.path.islink(path):
                try:
                    os.symlink(target, path)
                except OSError:
                    pass


def clear_shared_state():
    """What a run can leave for the next one: files in /tmp, /dev/shm and the root, POSIX message queues, SysV IPC."""
    restore_scratch_dirs()
    for base in ('/tmp', '/dev/shm', '/dev/mqueue'):
        for name in os.listdir(base):
            path = os.path.join(base, name)
            if path == RUNS:
                continue
            remove_entry(path)
    for kind in ('shm', 'msg', 'sem'):
        with open(f'/proc/sysvipc/{kind}') as table:
            if len(table.readlines()) > 1:
                subprocess.run(['ipcrm', '--all'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                return


def collect(run_dir, names, cap):
    """The files the request asked back; one resolving outside the run dir (a symlink) is skipped."""
    files = {}
    inside = os.path.realpath(run_dir) + os.sep
    for name in names:
        real = os.path.realpath(os.path.join(run_dir, name))
        if not real.startswith(inside):
            continue
        try:
            fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                files[name] = os.read(fd, cap).decode('utf-8', 'replace')
        finally:
            os.close(fd)
    return files


def ready_modules(request):
    """The request's modules by name, each new one run now, in order, with those before it importable. They stay
    out of this process's sys.modules: only the children that ask get them. A module that fails to run is the
    harness's fault: it raises, and the run is not served."""
    wanted = request['modules']
    new = request['module_sources']
    saved = {name: sys.modules[name] for name, _ in wanted if name in sys.modules}
    try:
        for name, digest in wanted:
            if digest not in MODULES:
                module = types.ModuleType(name)
                module.__file__ = name + '.py'
                exec(compile(new[digest], module.__file__, 'exec'), module.__dict__)
                MODULES[digest] = module
            sys.modules[name] = MODULES[digest]
    finally:
        for name, _ in wanted:
            if name in saved:
                sys.modules[name] = saved[name]
            else:
                sys.modules.pop(name, None)
    if new:
        # As at start-up: the children's collector leaves the new objects' pages unshared.
        gc.collect()
        gc.freeze()
    return {name: MODULES[digest] for name, digest in wanted}


def serve(request):
    run_dir = os.path.join(RUNS, str(request['id']))
    uid = request['uid']
    try:
        modules = ready_modules(request)
    except BaseException as error:
        send(b'x', json.dumps({'setup_error': f'could not run the harness modules: {error!r}'}).encode())
        return
    os.mkdir(run_dir, 0o700)
    files = request['files']
    for name, content in files.items():
        path = os.path.join(run_dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as file:
            file.write(content)
    if not USERNS:
        for directory, dirs, files in os.walk(run_dir):
            for name in [directory] + [os.path.join(directory, entry) for entry in dirs + files]:
                os.chown(name, uid, uid)

    stdin_path = os.path.join('/tmp', f'.stdin-{request["id"]}')
    with open(stdin_path, 'w', encoding='utf-8') as file:
        file.write(request.get('stdin') or '')
    stdin_fd = os.open(stdin_path, os.O_RDONLY)
    os.unlink(stdin_path)
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    setup_r, setup_w = os.pipe()
    in_use = memory_in_use()
    CONTROL_OUT.flush()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        child(request, modules, in_use, run_dir, stdin_fd, out_w, err_w, setup_w)
    for fd in (stdin_fd, out_w, err_w, setup_w):
        os.close(fd)

    deadline = started + request['wall_ms'] / 1000
    pidfd = os.pidfd_open(pid)
    open_fds = {out_r: b'o', err_r: b'e'}
    waited = None
    while open_fds or waited is None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        watch = list(open_fds) + ([pidfd] if waited is None else [])
        ready = select.select(watch, [], [], 0)[0]
        if not ready:
            # Output frames go out in one write when nothing more is ready, not one write per line the program wrote.
            CONTROL_OUT.flush()
            ready = select.select(watch, [], [], remaining)[0]
        for fd in ready:
            if fd == pidfd:
                waited = os.wait4(pid, 0)[1:]
                # Whatever the program left running would hold the pipes open: end it now.
                kill_leftovers()
                continue
            data = os.read(fd, 65536)
            if data:
                send(open_fds[fd], data)
            else:
                os.close(fd)
                del open_fds[fd]
    timed_out = waited is None
    if timed_out:
        os.kill(pid, signal.SIGKILL)
        waited = os.wait4(pid, 0)[1:]
    os.close(pidfd)
    for fd in open_fds:
        os.close(fd)
    status, usage = waited
    setup_error = read_setup_error(setup_r)
    wall_ms = round((time.monotonic() - started) * 1000)
    if timed_out:  # otherwise done as the child ended, and nothing of the run was left to start more
        kill_leftovers()
    files = collect(run_dir, request.get('collect', []), request.get('collect_bytes', 1 << 20))
    shutil.rmtree(run_dir, ignore_errors=True)
    clear_shared_state()
    end = {
        'exit_code': os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        'signal': signal_name(os.WTERMSIG(status)) if os.WIFSIGNALED(status) else None,
        'timed_out': timed_out,
        'wall_ms': wall_ms,
        'cpu_ms': round((usage.ru_utime + usage.ru_stime) * 1000),
        'peak_memory_bytes': usage.ru_maxrss * 1024,
        'files': files,
        'setup_error': setup_error,
    }
    send(b'x', json.dumps(end).encode())


def read_setup_error(fd):
    """The child's report of a failed set-up; empty once it closed the pipe to run the program."""
    os.set_blocking(fd, False)
    try:
        return os.read(fd, 4096).decode('utf-8', 'replace') or None
    except BlockingIOError:  # killed (wall limit) before it finished setting up
        return None
    finally:
        os.close(fd)


def main():
    global INIT
    libc_call('prctl', PR_SET_DUMPABLE, 0, 0, 0, 0)
    os.makedirs(RUNS, mode=0o711, exist_ok=True)
    note_scratch_dirs()
    # Before the children's pid namespace: once it exists this process can start no thread, and
    # libraries do at import (numpy's OpenBLAS).
    for module in PRELOADED + tuple(filter(None, os.environ.get('TESTBENCH_PYTHON_PRELOAD', '').split(','))):
        __import__(module.strip())
    if USERNS:
        INIT = PidNamespaceInit()
        # The pid namespace was all it needed them for: children inherit none, and can never gain one.
        drop_capabilities()
    # The server's objects never need collecting again: a child's collector then leaves their pages unshared.
    gc.collect()
    gc.freeze()
    send(b'x', json.dumps({'ready': True}).encode())
    for line in CONTROL_IN:
        serve(json.loads(line))


if __name__ == '__main__':
    main()
