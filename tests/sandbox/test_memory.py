"""The in-memory executor: the Executor contract without a kernel (for graph tests and benchmarks)."""

from __future__ import annotations

from pathlib import Path

from cmbagent.sandbox import Executor, InMemoryExecutor


def test_state_output_errors_and_working_directory(tmp_path: Path) -> None:
    executor: Executor = InMemoryExecutor(tmp_path)
    assert executor.execute("x = 41\nimport math").ok
    res = executor.execute("import sys\nprint(x + 1, math.sqrt(16))\nprint('warn', file=sys.stderr)")
    assert res.status == "ok" and res.stdout.text == "42 4.0\n" and res.stderr.text == "warn\n"
    wrote = executor.execute("open('out.txt', 'w').write('here')")
    assert wrote.ok and (tmp_path / "out.txt").read_text() == "here"
    assert Path.cwd() != tmp_path  # the working directory is restored after each cell
    bad = executor.execute("def f():\n    raise ValueError('bad value 7')\nf()")
    assert bad.status == "error" and bad.error_name == "ValueError" and bad.error_value == "bad value 7"
    assert bad.traceback is not None and "f()" in bad.traceback
    assert executor.execute("print(x)").stdout.text == "41\n"  # state survives an error
    executor.close()
    assert executor.execute("print(x)").error_name == "NameError"
