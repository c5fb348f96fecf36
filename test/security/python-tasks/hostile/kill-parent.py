# Kills whatever it can reach from inside the first call: its parent, the namespace's init, its
# process group, every pid it can see; then returns a wrong answer if it is still alive.
import os
import signal


def __ENTRY__(*arguments):
    targets = {os.getppid(), 1}
    try:
        targets.update(int(name) for name in os.listdir('/proc') if name.isdigit())
    except OSError:
        pass
    targets.discard(os.getpid())
    for pid in targets:
        for sig in (signal.SIGKILL, signal.SIGTERM):
            try:
                os.kill(pid, sig)
            except OSError:
                pass
    try:
        os.killpg(0, signal.SIGKILL)
    except OSError:
        pass
    return None
