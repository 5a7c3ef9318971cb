"""Hostile: read key files of the parent: the project's .env, the user's config, a secret file next to the run.

Contained: none of them exists in the sandbox's view -> FileNotFoundError. The test harness may define
SECRET_PATH (a key file it wrote on the host).
"""
# expect: error FileNotFoundError
# timeout: 10
import os
from pathlib import Path

import cmbagent

project = Path(cmbagent.__file__).resolve().parents[1]
candidates = [project / ".env", Path("/root/.env"), Path("/root/.config/openai"), Path("/root/.netrc"),
              Path("/root/.bashrc"), Path("/proc/1/environ"), Path(f"/proc/{os.getppid()}/environ"),
              Path.cwd().parent / "secrets.env"]
if "SECRET_PATH" in globals():
    candidates.insert(0, Path(globals()["SECRET_PATH"]))
for path in candidates:
    try:
        text = path.read_bytes()
    except OSError:
        continue
    if b"sk-" in text or b"API_KEY" in text:
        print("ESCAPED: read a key from", path)
raise FileNotFoundError(f"no key file readable: {[str(p) for p in candidates]}")
