"""Hostile: kill the parent process and pid 1. Contained: the host's processes are not visible; pid 1 is the
sandbox's root-owned reaper (EPERM); killing the kernel's own wrapper only ends this kernel, which the
executor restarts."""
# expect: error|restarted PermissionError
# timeout: 10
import os
import signal

for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
    try:
        cmd = open(f"/proc/{pid}/cmdline", "rb").read()
    except OSError:
        continue
    argv = [os.path.basename(a) for a in cmd.split(b"\0")[:3]]
    if b"pytest" in argv or b"cmbagent" in argv or b"xdist" in argv:
        print("ESCAPED: the host's cmbagent/pytest process is visible as pid", pid)
os.kill(1, signal.SIGKILL)
print("ESCAPED: killed pid 1")
