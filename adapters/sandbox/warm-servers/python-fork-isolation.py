"""Isolation pieces of the warm Python server: capabilities, and the pid namespace whose init reaps
and kills for the server. The server's source (python-fork-server.py) follows this file in one program."""

import ctypes
import os
import select
import signal
import time

LIBC = ctypes.CDLL(None, use_errno=True)
CLONE_NEWPID = 0x20000000
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
with open('/proc/sys/kernel/cap_last_cap') as last_cap:
    LAST_CAPABILITY = int(last_cap.read())


def libc_call(name, *args):
    if getattr(LIBC, name)(*args) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f'{name}: {os.strerror(error)}')


PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


class SockFprog(ctypes.Structure):
    _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_void_p)]


def seccomp_program(filter_bytes):
    """The sandbox's seccomp filter (adapters/sandbox/process/seccomp-filter.ts), ready for install_seccomp in each child."""
    if not filter_bytes:
        return None
    buffer = ctypes.create_string_buffer(filter_bytes, len(filter_bytes))
    return buffer, SockFprog(len(filter_bytes) // 8, ctypes.addressof(buffer))


def install_seccomp(program):
    """As bwrap's --seccomp does for the cold path: no new user namespaces, no memfd or SysV shared memory."""
    if program is None:
        return
    libc_call('prctl', PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    libc_call('prctl', PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(program[1]), 0, 0)


def drop_bounding_set():
    """No capability can come back through exec (dropping needs CAP_SETPCAP: before a switch of uid drops it)."""
    for capability in range(LAST_CAPABILITY + 1):
        libc_call('prctl', PR_CAPBSET_DROP, capability, 0, 0, 0)


def drop_capabilities(bounding=True):
    """Ambient, bounding, effective, permitted and inheritable sets emptied; exec can never grant more.
    `bounding=False`: the bounding set was emptied already (drop_bounding_set), before a switch of uid."""
    libc_call('prctl', PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if bounding:
        drop_bounding_set()
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()
    libc_call('capset', header, data)
    libc_call('prctl', PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


class PidNamespaceInit:
    """pid 1 of the children's own pid namespace: reaps orphans, and on request kills all that is left."""

    def __init__(self):
        libc_call('unshare', CLONE_NEWPID)
        ask_r, self.ask = os.pipe()
        self.done, done_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(self.ask)
            os.close(self.done)
            null = os.open('/dev/null', os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            self.serve(ask_r, done_w)
        os.close(ask_r)
        os.close(done_w)

    @staticmethod
    def serve(ask, done):
        try:
            drop_capabilities()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            while True:
                if select.select([ask], [], [], 0.5)[0]:
                    if not os.read(ask, 1):
                        os._exit(0)
                    kill_all_but_self()
                    os.write(done, b'k')
                reap()
        except BaseException:
            os._exit(1)

    def kill_leftovers(self):
        os.write(self.ask, b'k')
        if os.read(self.done, 1) != b'k':
            raise RuntimeError('the pid namespace init of the fork server is gone')


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f'SIG{number}'


def reap():
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                return
        except ChildProcessError:
            return


def kill_all_but_self():
    """kill(-1) counts zombies too: this returns once every process but us (and our parent) has been reaped."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            return
        reap()
        time.sleep(0.001)
