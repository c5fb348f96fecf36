"""A warm exec server for the process tier: one bwrap (namespaces, minimal root) for many compile steps and programs.

Runs inside bwrap as pid 1 of its pid namespace, one step at a time, in one of two isolations (TESTBENCH_EXEC_ISOLATION):
- uid (we are root): the server keeps a few capabilities; each program runs as the request's throwaway uid.
- userns (an ordinary user): bwrap's user namespace (no nested ones), the capabilities only inside it.
Each step gets a fresh isolation of its own: a process that unshares a mount, pid and IPC namespace, mounts
size-capped tmpfs on /tmp and /dev/shm (the work dir, holding only the step's files, is /tmp/work), forks
the namespace's init and waits for it; the init mounts a /proc that shows only the step, and forks the program, which sets its
rlimits, drops its uid and every capability, sets no_new_privs and the seccomp filter, and execs the command.
When the program ends, the init kills whatever it left (the whole namespace), reports its exit status, CPU
time and peak memory from wait4, and the files asked back, on a pipe the program never holds; then it exits
and its namespaces (mounts, tmpfs, processes) go with it. The server answers as soon as the report is in, and
waits for the step's first process (so for its namespaces to be gone) before the next step: nothing of one step
is there for the next.

Protocol: a request is one JSON line, then its files' bytes and stdin, one after another. Frames go back on
stdout, each one byte of kind (o = stdout, e = stderr, f = a file, x = the end, as JSON), a 4-byte big-endian
length, then the payload; a file's payload is one byte (1: executable), its path, a NUL byte, its bytes.
Inside, the step's processes report to the server on their own pipe in the same framing: P (the init's pid),
E (setting up failed: ours, never the program's), f (a file), R (the report, as JSON).
"""

import base64
import json
import os
import resource
import select
import signal
import struct
import sys
import time

ROOT_ISOLATION = os.environ.get('TESTBENCH_EXEC_ISOLATION') == 'uid'
SECCOMP = seccomp_program(base64.b64decode(os.environ.get('TESTBENCH_SECCOMP', '')))
WORK = '/tmp/work'
CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x8, 0x4000, 0x40000
PR_SET_CHILD_SUBREAPER = 36
CONTROL_IN = sys.stdin.buffer
CONTROL_OUT = sys.stdout.buffer
RLIMITS = {
    'cpu': resource.RLIMIT_CPU,
    'data': resource.RLIMIT_DATA,
    'as': resource.RLIMIT_AS,
    'fsize': resource.RLIMIT_FSIZE,
    'nofile': resource.RLIMIT_NOFILE,
    'nproc': resource.RLIMIT_NPROC,
    'core': resource.RLIMIT_CORE,
}
# In the userns isolation the server, the step's first process and its init share the program's uid: its process limit counts them.
NPROC_OF_OURS = 0 if ROOT_ISOLATION else 3


def frame(kind, payload):
    return kind + struct.pack('>I', len(payload)) + payload


def send(kind, payload):
    CONTROL_OUT.write(frame(kind, payload))
    CONTROL_OUT.flush()


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def mount(source, target, kind, flags, options):
    libc_call('mount', source, target, kind, flags, options)


def prepare(request, blobs, pipes):
    """The step's first process: its namespaces, tmpfs and files; then it forks their init and waits for it. Never returns."""
    report = pipes['report_w']
    try:
        for fd in (pipes['out_r'], pipes['err_r'], pipes['report_r']):
            os.close(fd)
        null = os.open('/dev/null', os.O_RDWR)
        for fd in (0, 1):  # the server's control pipes: no process of the step keeps them
            os.dup2(null, fd)
        os.close(null)
        libc_call('unshare', CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC)
        mount(None, b'/', None, MS_REC | MS_PRIVATE, None)
        size = f'size={request["tmpfs_bytes"]},mode=1777'.encode()
        for target in (b'/tmp', b'/dev/shm'):
            mount(b'tmpfs', target, b'tmpfs', MS_NOSUID | MS_NODEV, size)
        uid = request['uid']
        make_dir(WORK, uid)
        too_big = None
        try:
            for entry, data in zip(request['files'], blobs):
                write_file(entry['path'], data, entry['executable'], uid)
            stdin_path = '/tmp/.stdin'
            with open(stdin_path, 'wb') as file:
                file.write(blobs[len(request['files'])])
            stdin_fd = os.open(stdin_path, os.O_RDONLY)
            os.unlink(stdin_path)
        except OSError as error:
            if error.errno not in (28, 27):  # ENOSPC, EFBIG: the program's files do not fit its tmpfs
                raise
            too_big = f"the program's files do not fit its /tmp of {request['tmpfs_bytes']} bytes"
        if too_big is not None:
            write_all(report, frame(b'R', json.dumps({'too_big': too_big}).encode()))
            os._exit(0)
        init = os.fork()
        if init == 0:
            namespace_init(request, pipes, stdin_fd)
        write_all(report, frame(b'P', str(init).encode()))
        for fd in (report, stdin_fd, pipes['out_w'], pipes['err_w']):
            os.close(fd)
        os.waitpid(init, 0)
    except BaseException as error:
        write_all(report, frame(b'E', f'could not prepare the step: {error!r}'.encode()))
        os._exit(125)
    os._exit(0)


def make_dir(path, uid):
    os.mkdir(path, 0o755)
    if ROOT_ISOLATION:
        os.chown(path, uid, uid)


def write_file(relative, data, executable, uid):
    path = os.path.normpath(os.path.join(WORK, relative))
    if not path.startswith(WORK + '/'):
        raise ValueError(f'{relative} leaves the work dir')
    parts = os.path.relpath(os.path.dirname(path), WORK).split('/')
    for depth in range(len(parts)):
        directory = os.path.join(WORK, *parts[: depth + 1])
        if parts[0] != '.' and not os.path.isdir(directory):
            make_dir(directory, uid)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o755 if executable else 0o644)
    try:
        write_all(fd, data)
        if ROOT_ISOLATION:
            os.fchown(fd, uid, uid)
    finally:
        os.close(fd)


def namespace_init(request, pipes, stdin_fd):
    """pid 1 of the step: a /proc of its own, the program, then the kill of all it left and the report. Never returns."""
    report = pipes['report_w']
    try:
        # Signals from inside the namespace reach pid 1 only through handlers it installed: it keeps none.
        for number in (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(number, signal.SIG_DFL)
        mount(b'proc', b'/proc', b'proc', MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
        program = os.fork()
        if program == 0:
            run_program(request, pipes, stdin_fd)
        for fd in (stdin_fd, pipes['out_w'], pipes['err_w']):
            os.close(fd)
        cpu, peak, status = 0.0, 0, None
        while status is None:
            pid, waited, usage = os.wait4(-1, 0)
            cpu += usage.ru_utime + usage.ru_stime
            peak = max(peak, usage.ru_maxrss)
            if pid == program:
                status = waited
        kill_all_but_self()
        result = {
            'exit_code': os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            'signal': signal_name(os.WTERMSIG(status)) if os.WIFSIGNALED(status) else None,
            'cpu_ms': round(cpu * 1000),
            'peak_memory_bytes': peak * 1024,
        }
        result['too_big'] = ship(request['ship'], request['ship_bytes'], request['ship_files'], report)
        write_all(report, frame(b'R', json.dumps(result).encode()))
    except BaseException as error:
        write_all(report, frame(b'E', f'the step\'s init failed: {error!r}'.encode()))
        os._exit(1)
    os._exit(0)


def run_program(request, pipes, stdin_fd):
    """The program's process: stdio, limits, a throwaway uid, no capabilities, seccomp; then exec. Never returns."""
    report = pipes['report_w']
    try:
        os.setsid()
        os.dup2(stdin_fd, 0)
        os.dup2(pipes['out_w'], 1)
        os.dup2(pipes['err_w'], 2)
        # The report pipe is close-on-exec: the program never holds it.
        os.closerange(3, report)
        os.closerange(report + 1, 65536)
        for name, value in request['rlimits'].items():
            value += NPROC_OF_OURS if name == 'nproc' else 0
            ceiling = resource.getrlimit(RLIMITS[name])[1]
            hard = value + 1 if name == 'cpu' else value
            if ceiling != resource.RLIM_INFINITY:  # never above what we have: only root could raise it
                value, hard = min(value, ceiling), min(hard, ceiling)
            resource.setrlimit(RLIMITS[name], (value, hard))
        # As a process Node spawns has them: every signal at its default, none blocked.
        for number in (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ, signal.SIGCHLD):
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        if ROOT_ISOLATION:
            drop_bounding_set()
            uid = request['uid']
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
        drop_capabilities(bounding=not ROOT_ISOLATION)
        install_seccomp(SECCOMP)
        os.chdir(WORK)
        env = request['env']
        argv = request['argv']
    except BaseException as error:
        write_all(report, frame(b'E', f'could not prepare the program: {error!r}'.encode()))
        os._exit(125)
    try:
        os.execvpe(argv[0], argv, env)
    except OSError as error:
        # As GNU time and the shell report it in the cold path: the command's own failure, status 127.
        os.write(2, f'cannot run {argv[0]}: {error.strerror}\n'.encode())
        os._exit(127)


def ship(what, max_bytes, max_files, report):
    """Sends the files asked back ('all': the whole work dir, as a compile step leaves it). Returns why not, if too big."""
    found = []
    if what == 'all':
        for directory, dirs, files in os.walk(WORK):
            dirs[:] = [name for name in dirs if not os.path.islink(os.path.join(directory, name))]
            found.extend(os.path.relpath(os.path.join(directory, name), WORK) for name in files)
        total = 0
        for name in found:
            total += os.lstat(os.path.join(WORK, name)).st_size
        if len(found) > max_files:
            return f'more than {max_files} files'
        if total > max_bytes:
            return f"more than {max_bytes} bytes, the size of the sandbox's /tmp (TESTBENCH_SANDBOX_TMPFS_MB)"
    else:
        found = what
    for name in found:
        data = read_regular(os.path.join(WORK, name), max_bytes)
        if data is not None:
            executable, content = data
            write_all(report, frame(b'f', bytes([executable]) + name.encode() + b'\0' + content))
    return None


def read_regular(path, cap):
    """A regular file inside the work dir, never through a symlink; None otherwise."""
    real = os.path.realpath(path)
    if not real.startswith(WORK + '/'):
        return None
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        stat = os.fstat(fd)
        if not (stat.st_mode & 0o170000 == 0o100000):
            return None
        chunks, left = [], cap
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return (1 if stat.st_mode & 0o111 else 0), b''.join(chunks)
    finally:
        os.close(fd)


def serve(request, blobs):
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    report_r, report_w = os.pipe2(os.O_CLOEXEC)
    pipes = {'out_r': out_r, 'out_w': out_w, 'err_r': err_r, 'err_w': err_w, 'report_r': report_r, 'report_w': report_w}
    started = time.monotonic()
    first = os.fork()
    if first == 0:
        prepare(request, blobs, pipes)
    for fd in (out_w, err_w, report_w):
        os.close(fd)
    deadline = started + request['wall_ms'] / 1000
    streams = {out_r: b'o', err_r: b'e', report_r: None}
    pending = bytearray()
    init, setup_error, result = None, None, None
    # Until the report is in and the program's output has ended (all of its processes are dead by then).
    while out_r in streams or err_r in streams or (result is None and setup_error is None and report_r in streams):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        for fd in select.select(list(streams), [], [], remaining)[0]:
            data = os.read(fd, 1 << 20)
            if not data:
                os.close(fd)
                del streams[fd]
            elif streams[fd] is not None:
                send(streams[fd], data)
            else:
                pending += data
                while len(pending) >= 5 and len(pending) >= 5 + struct.unpack('>I', pending[1:5])[0]:
                    length = struct.unpack('>I', pending[1:5])[0]
                    kind, payload = bytes(pending[:1]), bytes(pending[5 : 5 + length])
                    del pending[: 5 + length]
                    if kind == b'P':
                        init = int(payload)
                    elif kind == b'E':
                        setup_error = payload.decode('utf-8', 'replace')
                    elif kind == b'f':
                        send(b'f', payload)
                    elif kind == b'R':
                        result = json.loads(payload)
    timed_out = result is None and setup_error is None and time.monotonic() >= deadline
    for fd in streams:
        os.close(fd)
    if timed_out or result is None:
        for pid in (init, first):
            if pid is not None:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
    end = {
        'timed_out': timed_out,
        'wall_ms': round((time.monotonic() - started) * 1000),
        'setup_error': setup_error,
        'lost': result is None and not timed_out and setup_error is None,
        **(result or {}),
    }
    send(b'x', json.dumps(end).encode())
    return first


def read_exactly(size):
    chunks, left = [], size
    while left > 0:
        chunk = CONTROL_IN.read(left)
        if not chunk:
            raise EOFError('the request ended early')
        chunks.append(chunk)
        left -= len(chunk)
    return b''.join(chunks)


def main():
    libc_call('prctl', PR_SET_DUMPABLE, 0, 0, 0, 0)
    libc_call('prctl', PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    send(b'x', json.dumps({'ready': True}).encode())
    previous = None
    while True:
        line = CONTROL_IN.readline()
        if not line:
            return
        request = json.loads(line)
        sizes = [entry['size'] for entry in request['files']] + [request['stdin_size']]
        blobs = [read_exactly(size) for size in sizes]
        if previous is not None:
            # The last step's namespaces (its tmpfs, its processes) go with its first process: gone before this one.
            os.waitpid(previous, 0)
        reap()
        previous = serve(request, blobs)


if __name__ == '__main__':
    main()
