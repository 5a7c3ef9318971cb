"""The Evals tab: the eval folders under the workspaces root (made by ``cmbagent eval``), each with its pass rates
per mode, and the chosen one's ``eval.md``.

Evals are the operator's benchmark results, not a visitor's runs, so the tab only reads: it lists folders that
hold an ``eval.json`` directly under the workspaces root, reads their files through no link
(:func:`cmbagent.paths.read_beneath`), and accepts from the page only a plain folder name that it listed.
Links of ``eval.md`` point into the operator's run folders, which the page does not serve; they are shown as
their text.
"""

import json
import re
import time
from pathlib import Path
from typing import Any

import gradio as gr

from cmbagent.exceptions import PathError
from cmbagent.paths import read_beneath

__all__ = ["EVAL_COLUMNS", "build_evals_tab", "eval_markdown", "list_evals"]

EVAL_COLUMNS = ["eval", "suite", "model", "tasks", "pass rate per mode", "finished"]
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
MAX_BYTES = 4 * 1024 * 1024


def _read(folder: Path, name: str) -> str | None:
    try:
        return read_beneath(folder, name, limit=MAX_BYTES).decode("utf-8", errors="replace")
    except (OSError, PathError):
        return None


def _eval_folders(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    return sorted((child for child in root.iterdir() if _NAME.fullmatch(child.name) and child.is_dir()
                   and not child.is_symlink() and (child / "eval.json").is_file()),
                  key=lambda p: p.stat().st_mtime, reverse=True)


def list_evals(root: str | Path) -> list[list[str]]:
    """One row per eval folder under ``root``, newest first (:data:`EVAL_COLUMNS`)."""
    rows = []
    for folder in _eval_folders(Path(root)):
        text = _read(folder, "eval.json")
        try:
            data = json.loads(text) if text else None
        except ValueError:
            data = None
        if not isinstance(data, dict):
            continue
        settings = data.get("settings") or {}
        rates = []
        for mode, block in (data.get("summary") or {}).items():
            if isinstance(block, dict) and block.get("graded"):
                rates.append(f"{mode} {block.get('pass', 0)}/{block['graded']}")
        finished = data.get("finished")
        rows.append([folder.name, str((data.get("suite") or {}).get("name", "")),
                     str(settings.get("model") or data.get("model_resolved") or "default"),
                     str(len(data.get("tasks") or [])), ", ".join(rates) or "not graded yet",
                     time.strftime("%Y-%m-%d %H:%M", time.localtime(finished)) if finished else "running or stopped"])
    return rows


def eval_markdown(root: str | Path, name: str | None) -> str:
    """The ``eval.md`` of the eval folder ``name`` under ``root`` (links shown as their text)."""
    if not name:
        return "Pick an eval. Evals are made with `cmbagent eval SUITE --workspace` pointing at this server's workspaces."
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        return "No such eval."
    folder = Path(root) / name
    if folder not in _eval_folders(Path(root)):
        return "No such eval."
    text = _read(folder, "eval.md")
    return _LINK.sub(r"\1", text) if text else "This eval has no eval.md yet (it is running, or was stopped before grading)."


def build_evals_tab(settings: Any) -> None:
    """The Evals tab, built inside the app's ``gr.Tabs`` (the one hook in :mod:`cmbagent.ui._app`)."""
    root = Path(settings.workspaces)

    def refresh() -> tuple[Any, Any]:
        rows = list_evals(root)
        names = [row[0] for row in rows]
        return rows, gr.update(choices=names, value=names[0] if names else None)

    with gr.Tab("Evals", id="evals") as tab:
        gr.Markdown("Benchmarks of graded research tasks: the Planning & Control graph against one model alone "
                    "(`cmbagent eval`; see docs/eval.md).")
        table = gr.Dataframe(headers=EVAL_COLUMNS, interactive=False, wrap=True, elem_id="cmb-evals")
        with gr.Row():
            pick = gr.Dropdown(choices=[], label="Eval", scale=3, elem_id="cmb-eval-pick")
            refresh_btn = gr.Button("Refresh", scale=1, elem_id="cmb-eval-refresh")
        shown = gr.Markdown(elem_id="cmb-eval-md")
    quiet: dict[str, Any] = {"show_progress": "hidden", "concurrency_limit": None}
    tab.select(refresh, None, [table, pick], **quiet)
    refresh_btn.click(refresh, None, [table, pick], **quiet)
    pick.change(lambda name: eval_markdown(root, name), pick, shown, **quiet)
