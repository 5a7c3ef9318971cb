"""The conformance suite every sandbox backend passes (bwrap, process, docker where an engine runs)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import nbformat
import pytest

from cmbagent.sandbox import CellResult, Executor, SandboxLimits

from .conftest import start

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def run(ex: Executor, code: str, timeout: float = 30) -> CellResult:
    return ex.execute(code, timeout=timeout)


def test_state_persists_across_cells(executor: Executor) -> None:
    assert run(executor, "x = 41\nimport math").ok
    res = run(executor, "print(x + 1, math.sqrt(16))")
    assert res.status == "ok", res
    assert res.stdout.text == "42 4.0\n"


def test_stdout_and_stderr_are_separate(executor: Executor) -> None:
    res = run(executor, "import sys\nprint('to out')\nprint('to err', file=sys.stderr)")
    assert res.stdout.text == "to out\n"
    assert "to err" in res.stderr.text
    assert "to err" not in res.stdout.text


def test_rich_results(executor: Executor) -> None:
    res = run(executor, "from IPython.display import display, HTML\ndisplay(HTML('<b>hi</b>'))\n{'a': 1}")
    assert res.ok
    assert {"text/plain": "{'a': 1}"} in res.results
    assert any(r.get("text/html") == "<b>hi</b>" for r in res.results)
    assert res.execution_count is not None


def test_images_land_in_figures(executor: Executor) -> None:
    code = ("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2, 3])\nplt.show()\n"
            "fig2 = plt.figure(); plt.plot([3, 1]); fig2.savefig('figures/saved.png'); plt.close(fig2)\n"
            "from IPython.display import SVG, display\n"
            "display(SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>'))")
    res = run(executor, code, timeout=120)
    assert res.status == "ok", res
    pngs = [p for p in res.images if p.endswith(".png")]
    svgs = [p for p in res.images if p.endswith(".svg")]
    assert len(pngs) == 1 and len(svgs) == 1, res.images
    for path in res.images:
        assert Path(path).parent.name == "figures" and Path(path).stat().st_size > 0
    assert Path(pngs[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert Path(pngs[0]).name.startswith("cell-")
    run_dir = Path(pngs[0]).parents[1]
    assert (run_dir / "figures" / "saved.png").read_bytes()[:4] == b"\x89PNG"


def test_error_has_name_value_and_traceback(executor: Executor) -> None:
    res = run(executor, "def f():\n    raise ValueError('bad value 7')\nf()")
    assert res.status == "error"
    assert res.error_name == "ValueError"
    assert res.error_value == "bad value 7"
    assert res.traceback and "f()" in res.traceback and "\x1b[" not in res.traceback
    assert run(executor, "print('still here')").stdout.text == "still here\n"


def test_output_is_bounded_head_and_tail(executor: Executor) -> None:
    res = run(executor, "for i in range(20000):\n    print(f'line {i:05d} ' + 'x' * 40)")
    assert res.ok
    total = 20000 * len("line 00000 " + "x" * 40 + "\n")
    assert res.stdout.dropped_bytes == total - 40_000
    assert res.stdout.text.startswith("line 00000 ")
    assert res.stdout.text.rstrip().endswith("line 19999 " + "x" * 40)
    assert f"[... {res.stdout.dropped_bytes} bytes of output dropped ...]" in res.stdout.text


def test_outputs_are_not_kept_inside_the_kernel(executor: Executor) -> None:
    # IPython >= 9 would keep every byte a cell prints (for %notebook), unbounded by the output limits
    res = run(executor, "print('x' * 100_000)\nfrom IPython.display import display\ndisplay('shown')\n7")
    assert res.ok and res.stdout.dropped_bytes > 0
    kept = run(executor, "hm = get_ipython().history_manager\n"
                         "print(sum(len(o.bundle.get('stream', [])) for v in hm.outputs.values() for o in v))")
    assert kept.stdout.text == "0\n", kept


def test_timeout_interrupts_and_keeps_state(executor: Executor) -> None:
    assert run(executor, "kept = 'yes'").ok
    started = time.monotonic()
    res = run(executor, "import time\ntime.sleep(60)", timeout=1.5)
    assert res.status == "timeout"
    assert "1.5 s" in res.message and "interrupted" in res.message
    assert time.monotonic() - started < 10
    assert run(executor, "print(kept)").stdout.text == "yes\n"


def test_kernel_death_restarts_and_says_state_is_lost(executor: Executor) -> None:
    assert run(executor, "lost = 1").ok
    res = run(executor, "import os\nos._exit(3)")
    assert res.status == "restarted"
    assert "died" in res.message and "lost" in res.message
    after = run(executor, "print('lost' in globals())")
    assert after.ok and after.stdout.text == "False\n"


def test_unresponsive_kernel_is_restarted(executor: Executor) -> None:
    res = run(executor, "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: pass", timeout=1)
    assert res.status == "restarted"
    assert "did not stop" in res.message
    assert run(executor, "print(2 + 2)").stdout.text == "4\n"


def test_notebook_records_every_cell_in_order(backend: str, tmp_path: Path) -> None:
    ex = start(tmp_path / "run", backend)
    try:
        ex.execute("a = 1\nprint('first')", timeout=30)
        ex.execute("raise KeyError('second')", timeout=30)
        ex.execute("import matplotlib.pyplot as plt\nplt.plot([1, 2]); plt.show()", timeout=120)
    finally:
        ex.close()
    nb = nbformat.read(tmp_path / "run" / "notebook.ipynb", as_version=4)
    nbformat.validate(nb)
    assert [c.source for c in nb.cells][:2] == ["a = 1\nprint('first')", "raise KeyError('second')"]
    assert nb.cells[0].outputs[0]["text"] == "first\n"
    assert nb.cells[1].outputs[-1]["ename"] == "KeyError"
    assert nb.cells[1].metadata["cmbagent"]["status"] == "error"
    assert "image/png" in nb.cells[2].outputs[-1]["data"]
    # a second executor on the same run folder continues the notebook (a resumed run)
    ex2 = start(tmp_path / "run", backend)
    try:
        ex2.execute("print('resumed')", timeout=30)
    finally:
        ex2.close()
    nb = json.loads((tmp_path / "run" / "notebook.ipynb").read_text())
    assert len(nb["cells"]) == 4 and "".join(nb["cells"][3]["source"]) == "print('resumed')"


def test_environment_is_cleared_but_allow_list_passes(backend: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai-should-not-leak")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-should-not-leak")
    monkeypatch.setenv("CMBAGENT_TEST_ALLOWED", "visible")
    monkeypatch.setenv("CMBAGENT_TEST_OTHER", "hidden")
    ex = start(tmp_path / "run", backend, allow_env=("CMBAGENT_TEST_ALLOWED",))
    try:
        res = ex.execute("import os, json\nprint(json.dumps(dict(os.environ)))", timeout=30)
    finally:
        ex.close()
    env = json.loads(res.stdout.text)
    assert env["CMBAGENT_TEST_ALLOWED"] == "visible"
    assert "CMBAGENT_TEST_OTHER" not in env
    assert not any("sk-" in value for value in env.values())
    assert env["MPLBACKEND"].endswith("backend_inline") and env["OMP_NUM_THREADS"].isdigit()


def test_credentials_cannot_be_allow_listed(tmp_path: Path) -> None:
    from cmbagent.exceptions import ConfigError

    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        start(tmp_path / "run", "process", allow_env=("OPENAI_API_KEY",))


def test_cwd_is_run_folder_and_package_imports(executor: Executor) -> None:
    res = run(executor, "import os, cmbagent.tools.methods as m\nprint(os.getcwd())\nprint(callable(m.method))",
              timeout=60)
    assert res.status == "ok", res
    cwd, flag = res.stdout.text.splitlines()
    assert Path(cwd).name.startswith("run-") and flag == "True"


def test_close_kills_daemonised_children(backend: str, tmp_path: Path) -> None:
    code = (Path(__file__).parent / "hostile" / "daemon_child.py").read_text()
    ex = start(tmp_path / "run", backend)
    try:
        res = ex.execute(code, timeout=10)
        assert res.ok and "daemon started" in res.stdout.text
        beat = tmp_path / "run" / "daemon.heartbeat"
        assert beat.exists()
    finally:
        ex.close()
    time.sleep(0.3)
    last = beat.stat().st_mtime
    time.sleep(1.0)
    assert beat.stat().st_mtime == last, "the daemon outlived the executor"


def test_limits_reach_the_kernel(backend: str, tmp_path: Path) -> None:
    limits = SandboxLimits(file_size=8 * 1024 * 1024, processes=300, threads=2, output_head=100, output_tail=50)
    ex = start(tmp_path / "run", backend, limits=limits)
    try:
        res = ex.execute("import resource, os\nprint(resource.getrlimit(resource.RLIMIT_FSIZE)[0], "
                         "resource.getrlimit(resource.RLIMIT_NPROC)[0], os.environ['OPENBLAS_NUM_THREADS'])\n"
                         "print('y' * 1000)", timeout=30)
        big = ex.execute("open('big.bin', 'wb').write(b'0' * (16 * 1024 * 1024))", timeout=30)
    finally:
        ex.close()
    assert res.stdout.text.startswith(f"{8 * 1024 * 1024} 300 2\n")
    assert res.stdout.dropped_bytes == len("8388608 300 2\n") + 1001 - 150
    assert big.status == "error" and big.error_name == "OSError" and "File too large" in (big.error_value or "")


_HOST = """\
import os, sys, threading, warnings
warnings.simplefilter("ignore")
from cmbagent.sandbox import open_sandbox
box = {}
t = threading.Thread(target=lambda: box.update(ex=open_sandbox(sys.argv[1], sys.argv[2])))
t.start(); t.join()  # made in a thread that has ended: the kernel must not die with that thread
res = box["ex"].execute("print('alive')", timeout=60)
print(box["ex"].sandbox_id, res.stdout.text.strip(), flush=True)
os.kill(os.getpid(), 9)
"""


def _marked(sandbox_id: str) -> list[int]:
    import os

    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if f"CMBAGENT_SANDBOX_ID={sandbox_id}".encode() in env.split(b"\0"):
            found.append(int(pid))
    return found


def test_kernel_dies_with_a_host_killed_by_sigkill(backend: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    from .conftest import require_backend

    require_backend(backend)
    out = subprocess.run([sys.executable, "-c", _HOST, str(tmp_path / "run"), backend], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == -9, out.stderr
    sandbox_id, answer = out.stdout.split()
    assert answer == "alive"
    deadline = time.monotonic() + 5
    while _marked(sandbox_id) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _marked(sandbox_id), "the kernel outlived its host"


def test_cell_is_stopped_when_the_disk_runs_low(backend: str, tmp_path: Path) -> None:
    import shutil

    free = shutil.disk_usage(tmp_path).free
    # a floor above the current free space: the guard must stop the first cell that runs for a while
    ex = start(tmp_path / "run", backend, limits=SandboxLimits(min_free_disk=free + 2**40))
    try:
        res = ex.execute("import time\ntime.sleep(30)", timeout=60)
        after = ex.execute("print('fine')", timeout=30)
    finally:
        ex.close()
    assert res.status == "error" and res.error_name == "DiskSpaceExhausted", res
    assert "min_free_disk" in res.message and res.duration_s < 20
    assert after.status == "error" or after.stdout.text == "fine\n"
