"""Hostile: print 100 MB. Contained: the result keeps a bounded head and tail and counts the dropped bytes."""
# expect: ok
# timeout: 120
import sys

line = "x" * 999 + "\n"
for _ in range(100_000):
    sys.stdout.write(line)
