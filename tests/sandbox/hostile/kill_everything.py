"""Hostile: kill(-1, SIGKILL): every process the uid may signal. Contained: only the sandbox's own processes
die (its wrapper too, which takes the kernel down with it: the executor restarts it); the host is untouched."""
# expect: restarted
# timeout: 10
import os
import signal
import time

os.kill(-1, signal.SIGKILL)  # spares the caller itself; the kernel dies with its killed wrapper
time.sleep(5)
print("ESCAPED: the kernel survived its wrapper")
