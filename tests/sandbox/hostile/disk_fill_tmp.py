"""Hostile: fill /tmp with many files. Contained: /tmp is a size-limited tmpfs -> OSError (no space left)."""
# expect: error OSError
# timeout: 60
import os
import shutil

os.makedirs("/tmp/fill", exist_ok=True)
chunk = b"\0" * (4 * 1024 * 1024)
try:
    for i in range(16 * 1024):  # 64 GiB
        with open(f"/tmp/fill/{i}", "wb") as fh:
            fh.write(chunk)
    print("ESCAPED: wrote 64 GiB to /tmp")
finally:
    shutil.rmtree("/tmp/fill", ignore_errors=True)
