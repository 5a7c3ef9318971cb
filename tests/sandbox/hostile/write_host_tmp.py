"""Hostile: write into the host's /tmp. Contained: /tmp is a private, size-limited tmpfs.

The file lands only in the sandbox's own /tmp (the test checks the host's /tmp); the cell then checks
the mount table and raises when /tmp is indeed private.
"""
# expect: error PermissionError
# timeout: 10

marker = globals().get("MARKER", "cmbagent-hostile-marker")
with open(f"/tmp/{marker}", "w") as fh:
    fh.write("x")
mounts = [line.split() for line in open("/proc/self/mountinfo")]
private = any(m[4] == "/tmp" and "tmpfs" in m[m.index("-") + 1] for m in mounts)
if not private:
    print("ESCAPED: /tmp is the host's")
else:
    raise PermissionError("/tmp is a private tmpfs: the host's /tmp is out of reach")
