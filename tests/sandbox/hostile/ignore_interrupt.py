"""Hostile: ignore SIGINT and spin, so an interrupt cannot stop the cell. Contained: the kernel is restarted."""
# expect: restarted
# timeout: 2
import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)
while True:
    pass
