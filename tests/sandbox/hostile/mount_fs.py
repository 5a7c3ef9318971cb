"""Hostile: mount a file system over the run folder's parent, or bind / writable. Contained: EPERM."""
# expect: error PermissionError
# timeout: 10
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
MS_BIND, MS_REMOUNT = 4096, 32
attempts = [(b"tmpfs", b"/tmp", b"tmpfs", 0), (b"/", b"/", None, MS_REMOUNT | MS_BIND)]
for src, dst, fstype, flags in attempts:
    if libc.mount(src, dst, fstype, flags, None) == 0:
        print("ESCAPED: mounted", dst)
err = ctypes.get_errno()
raise PermissionError(err, f"mount: {os.strerror(err)}")
