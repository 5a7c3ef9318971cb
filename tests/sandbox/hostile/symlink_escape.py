"""Hostile: plant symlinks in the run folder pointing at host secrets, then read through them.

Contained: the targets do not exist inside the sandbox -> FileNotFoundError.
"""
# expect: error FileNotFoundError PermissionError
# timeout: 10
import os

for i, target in enumerate(["/etc/shadow", "/root/.ssh/id_rsa", "/root/.bash_history"]):
    link = f"escape-link-{i}"
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(target, link)
    try:
        print("ESCAPED:", open(link).read()[:80])
    except OSError as exc:
        last = exc
raise last
