"""What a sandboxed kernel does to the run folder: inputs stay read-only, files it wrote belong to the user who
ran cmbagent once the executor closes (not to the sandbox's own uid), and a long cell shows signs of life."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cmbagent.sandbox import Heartbeat, InMemoryExecutor

from .conftest import start


def test_bwrap_inputs_are_read_only_and_written_files_go_back_to_the_user(tmp_path: Path) -> None:
    run = tmp_path / "run"
    (run / "data").mkdir(parents=True)
    data = run / "data" / "x.csv"
    data.write_text("a,b\n1,2\n")
    data.chmod(0o444)
    ex = start(run, "bwrap")
    try:
        wrote = ex.execute("open('out.txt', 'w').write('hi')\nimport os\nos.makedirs('steps/01/outputs', exist_ok=True)\n"
                           "open('steps/01/outputs/r.txt', 'w').write('x')\nprint(open('data/x.csv').read())")
        assert wrote.ok and "1,2" in wrote.stdout.text, wrote
        tampered = ex.execute("import os\ntry:\n    os.chmod('data/x.csv', 0o666)\n"
                              "    open('data/x.csv', 'w').write('changed')\nexcept OSError as exc:\n"
                              "    print(type(exc).__name__, exc.errno)\n")
        assert tampered.ok and "Error" in tampered.stdout.text, tampered  # EROFS: a read-only mount
    finally:
        ex.close()
    assert data.read_text() == "a,b\n1,2\n"
    owner = int(os.environ.get("SUDO_UID") or os.getuid())
    for path in (run / "out.txt", run / "steps" / "01" / "outputs" / "r.txt", run / "steps" / "01", run):
        assert path.stat().st_uid == owner, (path, path.stat().st_uid)


def test_a_long_cell_beats_with_its_elapsed_time_and_last_line(tmp_path: Path) -> None:
    beats: list[tuple[float, str]] = []
    ex = start(tmp_path / "run", "bwrap")
    try:
        code = "import time\nfor i in range(8):\n    print(f'tick {i}', flush=True)\n    time.sleep(0.4)\n"
        result = ex.execute(code, heartbeat=Heartbeat(lambda s, line: beats.append((s, line)), every_s=1.0))
        quick = ex.execute("print('fast')", heartbeat=Heartbeat(lambda s, line: beats.append((-1, line)), every_s=1.0))
    finally:
        ex.close()
    assert result.ok and quick.ok
    assert len(beats) >= 2 and all(b[0] > 0 for b in beats)  # no beat for a cell quicker than the interval
    assert [b[0] for b in beats] == sorted(b[0] for b in beats)
    assert beats[0][1].startswith("tick ") and beats[-1][1] >= beats[0][1]


def test_the_in_memory_executor_beats_too(tmp_path: Path) -> None:
    beats: list[tuple[float, str]] = []
    ex = InMemoryExecutor(tmp_path)
    result = ex.execute("import time\nprint('working')\ntime.sleep(0.7)\n",
                        heartbeat=Heartbeat(lambda s, line: beats.append((s, line)), every_s=0.2))
    assert result.ok and len(beats) >= 2 and beats[-1][1] == "working"
    with pytest.raises(ValueError, match="positive"):
        Heartbeat(lambda s, line: None, every_s=0)
