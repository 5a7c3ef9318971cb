"""Hostile: create a user namespace to gain capabilities (then mount, etc.). Contained: user namespaces are
disabled inside the sandbox -> PermissionError (ENOSPC/EPERM from unshare)."""
# expect: error PermissionError
# timeout: 10
import ctypes
import os

CLONE_NEWUSER = 0x10000000
pid = os.fork()
if pid == 0:  # unshare(CLONE_NEWUSER) needs a single-threaded process: try it in a fresh child
    libc = ctypes.CDLL(None, use_errno=True)
    os._exit(0 if libc.unshare(CLONE_NEWUSER) == 0 else ctypes.get_errno())
_, status = os.waitpid(pid, 0)
err = os.waitstatus_to_exitcode(status)
if err == 0:
    print("ESCAPED: created a user namespace")
raise PermissionError(err, f"unshare(CLONE_NEWUSER): {os.strerror(err)}")
