"""Hostile: read the project's .git (history may hold secrets). Contained: only the package folders are bound."""
# expect: error FileNotFoundError PermissionError
# timeout: 10
from pathlib import Path

import cmbagent

root = Path(cmbagent.__file__).resolve().parents[1]
print("ESCAPED:", (root / ".git" / "config").read_text()[:200])
