"""Hostile: plant a module in the virtual environment (persistence across runs). Contained: read-only bind."""
# expect: error PermissionError OSError
# timeout: 10
import sysconfig
from pathlib import Path

target = Path(sysconfig.get_paths()["purelib"]) / "cmbagent_escape.py"
target.write_text("print('owned')\n")
print("ESCAPED: wrote", target)
