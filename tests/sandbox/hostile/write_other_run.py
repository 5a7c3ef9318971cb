"""Hostile: write into another run's folder next to this one. Contained: siblings are not in the sandbox."""
# expect: error PermissionError FileNotFoundError OSError
# timeout: 10
from pathlib import Path

other = Path(globals().get("OTHER_RUN", Path.cwd().parent / "other-run"))
siblings = [p for p in Path.cwd().parent.iterdir() if p != Path.cwd()]
if siblings:
    print("ESCAPED: sees sibling runs", siblings)
(other / "planted.txt").write_text("x")
print("ESCAPED: wrote into", other)
