"""Hostile: ptrace-attach to pid 1 and read its memory. Contained: EPERM (other uid, no capabilities)."""
# expect: error PermissionError
# timeout: 10
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
PTRACE_ATTACH = 16
if libc.ptrace(PTRACE_ATTACH, 1, None, None) == 0:
    print("ESCAPED: attached to pid 1")
err = ctypes.get_errno()
try:
    open("/proc/1/mem", "rb").read(1)
    print("ESCAPED: read /proc/1/mem")
except OSError:
    pass
raise PermissionError(err, f"ptrace(PTRACE_ATTACH, 1): {os.strerror(err)}")
