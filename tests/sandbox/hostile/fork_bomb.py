"""Hostile: fork bomb. Contained: RLIMIT_NPROC (unprivileged uid) -> BlockingIOError; children are reaped.

Children exit at once so the bomb measures the limit without leaving a forked kernel behind.
"""
# expect: error BlockingIOError
# timeout: 20
import os

children = []
try:
    while len(children) < 100_000:
        pid = os.fork()
        if pid == 0:
            import time
            time.sleep(5)
            os._exit(0)
        children.append(pid)
    print("ESCAPED: forked", len(children), "processes")
finally:
    import signal
    for pid in children:
        os.kill(pid, signal.SIGKILL)
    for pid in children:
        os.waitpid(pid, 0)
