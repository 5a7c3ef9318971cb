"""Hostile: the classic fork bomb, every child forking again. Contained: the process limit stops it and the
executor stops the cell (interrupt, or a restart that kills the whole sandbox)."""
# expect: error|timeout|restarted BlockingIOError
# timeout: 5
import os

while True:
    os.fork()
