"""Hostile: a daemon (double fork, setsid) that outlives the cell and tries to outlive the run.

It touches ``daemon.heartbeat`` in the run folder every 0.2 s for 10 minutes. Contained: it is gone when
the executor closes (the test watches the heartbeat stop).
"""
# expect: ok
# timeout: 10
import os
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in (0, 1, 2):
            os.close(fd)
        path = os.path.abspath("daemon.heartbeat")
        end = time.time() + 600
        while time.time() < end:
            with open(path, "w") as fh:
                fh.write(str(time.time()))
            time.sleep(0.2)
    os._exit(0)
os.wait()
time.sleep(0.5)
print("daemon started")
