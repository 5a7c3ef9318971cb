"""Hostile: fill the disk through one ever-growing file in the run folder.

Contained: RLIMIT_FSIZE -> OSError [Errno 27] File too large; the file is removed afterwards.
"""
# expect: error OSError
# timeout: 60
import os

chunk = b"\0" * (8 * 1024 * 1024)
try:
    with open("fill.bin", "wb") as fh:
        for _ in range(8 * 1024):  # 64 GiB
            fh.write(chunk)
            fh.flush()
    print("ESCAPED: wrote 64 GiB")
finally:
    os.remove("fill.bin")
