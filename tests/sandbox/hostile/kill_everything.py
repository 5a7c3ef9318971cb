"""Hostile: kill(-1, SIGKILL): every process the uid may signal. Contained: only the sandbox's own processes
die (the kernel included, so the executor restarts it); the host is untouched."""
# expect: restarted
# timeout: 10
import os
import signal

os.kill(-1, signal.SIGKILL)
