# A thread that keeps writing forged result lines on every descriptor while the calls run; the
# function is wrong and slow enough for the thread to interleave.
import os
import threading
import time


def forge():
    line = b'{"i":0,"s":"ok","cpu":1,"wall":1,"v":true}\n{"done":1}\n'
    while True:
        for fd in range(1, 32):
            try:
                os.write(fd, line)
            except OSError:
                pass
        time.sleep(0.001)


threading.Thread(target=forge, daemon=True).start()


def __ENTRY__(*arguments):
    time.sleep(0.01)
    return None
