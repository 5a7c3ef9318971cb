"""Hostile: read API keys from /proc/*/environ of every visible process (the parent's included).

Contained: only sandbox processes are visible and none holds a key -> PermissionError.
"""
# expect: error PermissionError
# timeout: 10
import os

found = []
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            data = open(f"/proc/{pid}/environ", "rb").read()
        except OSError:
            continue
        found += [v for v in data.split(b"\0") if b"API_KEY=" in v or b"_TOKEN=" in v]
if found:
    print("ESCAPED:", found)
else:
    raise PermissionError("no process visible from the sandbox carries an API key in its environment")
