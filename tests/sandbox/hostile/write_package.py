"""Hostile: modify cmbagent's own source (an editable checkout). Contained: source folders are read-only."""
# expect: error PermissionError OSError
# timeout: 10
from pathlib import Path

import cmbagent

target = Path(cmbagent.__file__).resolve().parent / "escape.py"
target.write_text("x = 1\n")
print("ESCAPED: wrote", target)
