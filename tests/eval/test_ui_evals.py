"""The UI's Evals tab: it lists the eval folders of the workspaces root with their pass rates, shows the chosen
one's eval.md (links as text: the run folders are not served), and reads nothing it did not list — no link,
no other folder, no path from the page."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from cmbagent.eval import EvalRecord, EvalSettings, Grade, load_suite
from cmbagent.eval._run import write_eval
from cmbagent.ui._evals import eval_markdown, list_evals

ROOT = Path(__file__).resolve().parents[2]


def make_eval(folder: Path) -> None:
    suite = load_suite(ROOT / "evals" / "research").select(["m01-jla-matter-density", "c19-low-mass-hosts"])
    folder.mkdir(parents=True)
    grades = [Grade(task="m01-jla-matter-density", kind="method", mode="pc", run_dir=str(folder / "runs" / "01-x"),
                    status="done", verdict="pass", why="Omega_m = 0.297"),
              Grade(task="c19-low-mass-hosts", kind="code", mode="pc", status="failed", verdict="needs_model",
                    why="the offline backend writes no analysis code of its own")]
    record = EvalRecord(eval_id="eval-test", path=str(folder), created=time.time(), finished=time.time(),
                        suite={"name": suite.name, "path": suite.path}, settings=EvalSettings(model="offline"),
                        tasks=suite.tasks, grades=grades)
    write_eval(record)


def test_the_tab_lists_evals_and_shows_one(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    make_eval(root / "eval-a")
    (root / "ui").mkdir()  # the sessions' folder and other runs are not evals
    (root / "20261205-run").mkdir()
    rows = list_evals(root)
    assert rows == [["eval-a", "research", "offline", "2", "pc 1/2", rows[0][5]]] and rows[0][5][:2] == "20"
    text = eval_markdown(root, "eval-a")
    assert "| pc | 2 | 1 | 0 | 1 | 0 | 1/2 = 50% [1%, 99%]" in text
    assert "pc: pass (run)" in text and "runs/01-x" not in text  # links are shown as their text


def test_it_reads_nothing_it_did_not_list(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    make_eval(tmp_path / "elsewhere" / "eval-b")
    root.mkdir()
    os.symlink(tmp_path / "elsewhere" / "eval-b", root / "eval-link")
    assert list_evals(root) == []
    for name in ("eval-link", "../elsewhere/eval-b", "/etc", "eval-b"):
        assert eval_markdown(root, name) == "No such eval."
    assert eval_markdown(root, None).startswith("Pick an eval")


def test_the_app_has_an_evals_tab(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from cmbagent.ui import UISettings, create_server

    make_eval(tmp_path / "ws" / "eval-a")
    app, manager = create_server(UISettings(workspaces=tmp_path / "ws"))
    try:
        with TestClient(app, base_url="http://127.0.0.1") as client:
            config: Any = client.get("/config").json()
    finally:
        manager.shutdown(wait=True)
    labels = [c.get("props", {}).get("label") for c in config["components"]]
    ids = [c.get("props", {}).get("elem_id") for c in config["components"]]
    assert "Evals" in labels and "cmb-evals" in ids and "cmb-eval-md" in ids


def test_a_comparison_of_two_task_sets_counts_the_shared_tasks_apart(tmp_path: Path) -> None:
    """Two evals of different subsets: each side's total is over its own tasks, and a line gives both rates
    over the tasks both ran (the totals alone would compare 1/2 with 0/1)."""
    from cmbagent.eval import compare_evals, read_eval, render_comparison

    make_eval(tmp_path / "eval-a")  # m01 pass, c19 needs a model
    suite = load_suite(ROOT / "evals" / "research").select(["m01-jla-matter-density"])
    (tmp_path / "eval-b").mkdir()
    grades = [Grade(task="m01-jla-matter-density", kind="method", mode="one-shot", status="done", verdict="fail",
                    why="no value named omega_m")]
    write_eval(EvalRecord(eval_id="eval-b", path=str(tmp_path / "eval-b"), created=time.time(), finished=time.time(),
                          suite={"name": suite.name, "path": suite.path},
                          settings=EvalSettings(model="local", modes=["one-shot"]), tasks=suite.tasks, grades=grades))
    result = compare_evals(read_eval(tmp_path / "eval-a"), read_eval(tmp_path / "eval-b"))
    assert (result["a"]["pass"], result["a"]["graded"], result["b"]["pass"], result["b"]["graded"]) == (1, 2, 0, 1)
    assert result["shared"]["tasks"] == 1 and result["shared"]["a"]["pass"] == 1 and result["shared"]["b"]["graded"] == 1
    assert result["only_a"] == ["m01-jla-matter-density"]
    text = render_comparison(result)
    assert "On the 1 tasks both ran: A 1/1 = 100% [3%, 100%], B 0/1 = 0% [0%, 98%]." in text
    assert "| c19-low-mass-hosts | needs a model | - | - |" in text
