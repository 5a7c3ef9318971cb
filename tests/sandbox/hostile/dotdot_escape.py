"""Hostile: climb out of the run folder with ``..`` to reach the project's checkout and /etc/shadow."""
# expect: error FileNotFoundError PermissionError
# timeout: 10
import os

up = "/".join([".."] * 12)
for name in ["etc/shadow", "work/main/.git/config", "root/.bashrc"]:
    try:
        print("ESCAPED:", open(os.path.join(up, name)).read()[:80])
    except OSError as exc:
        last = exc
raise last
