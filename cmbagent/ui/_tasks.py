"""From what a person typed or uploaded to what ``solve`` gets, and from a run view to chat messages.

Pure functions (no Gradio), so the mapping rules are testable on their own.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from cmbagent.exceptions import UserError
from cmbagent.ui._view import RunView

__all__ = [
    "PLAN_COLUMNS",
    "chat_messages",
    "default_examples_dir",
    "example_tasks",
    "model_spec",
    "plan_from_table",
    "plan_to_table",
    "stage_uploads",
]

PLAN_COLUMNS = ["id", "title", "agent", "goal", "instructions"]
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._+-]+")
_DEFAULT_MODELS = {"openai": "gpt-4.1", "anthropic": "claude-sonnet-4-5"}


def model_spec(provider: str, model: str, base_url: str, api_key: str) -> tuple[str, dict[str, str]]:
    """The model spec and the ``api_keys`` mapping for the settings panel's choice."""
    provider = (provider or "offline").strip()
    model = (model or "").strip()
    key = (api_key or "").strip()
    if provider == "offline":
        return "offline", {}
    if provider in _DEFAULT_MODELS:
        return f"{provider}:{model or _DEFAULT_MODELS[provider]}", ({provider: key} if key else {})
    if provider == "openai-compatible":
        url = (base_url or "").strip()
        if not model or not re.match(r"^https?://[^\s]+$", url):
            raise UserError(
                "an OpenAI-compatible server needs a model name and a base URL like http://127.0.0.1:11434/v1"
            )
        return f"openai-compatible:{model}@{url}", ({provider: key} if key else {})
    raise UserError(
        f"unknown model provider {provider!r}; choose offline, openai, anthropic or openai-compatible"
    )


def _front_matter(text: str) -> dict[str, Any]:
    match = re.match(r"^---\s*\n(.*?)\n---\s*(\n|$)", text, flags=re.DOTALL)
    if not match:
        return {}
    import yaml

    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def _referenced_paths(front: dict[str, Any]) -> dict[str, str]:
    """Basename -> relative path for every file-like string value in the front matter."""
    found: dict[str, str] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and ("/" in value or "." in value):
            p = Path(value)
            if not p.is_absolute() and ".." not in p.parts and p.name:
                found.setdefault(p.name, p.as_posix())

    walk(front)
    return found


def _safe_name(name: str) -> str:
    cleaned = _SAFE_NAME.sub("_", Path(name).name).strip("._") or "file"
    return cleaned[:120]


def _inside_upload_folder(path: Path) -> bool:
    """Uploads come from Gradio's upload folder; a path from anywhere else is refused, whatever the page sent."""
    from gradio.utils import get_upload_folder

    try:
        return path.resolve(strict=True).is_relative_to(Path(get_upload_folder()).resolve())
    except OSError:
        return False


def stage_uploads(staging: Path, text: str, uploads: list[Path]) -> tuple[str | Path, list[Path], str]:
    """Move uploads into ``staging`` and return ``(task, data_files, title)`` for ``solve``.

    The first ``.md`` upload is the task file.  A data file whose name matches a path in the task's front
    matter is placed at that path next to the task, so the task's relative references resolve; text typed
    with an uploaded task is appended to it as a note.
    """
    for upload in uploads:
        if not _inside_upload_folder(upload):
            raise UserError(f"{upload.name}: not an upload of this app; attach the file again")
    task_file = next((u for u in uploads if u.suffix.lower() == ".md"), None)
    data = [u for u in uploads if u is not task_file]
    staging.mkdir(parents=True, exist_ok=True)
    placed: list[Path] = []
    if task_file is None:
        if not text:
            raise UserError("describe the task in the message box, or attach a task.md")
        for upload in data:
            target = staging / _safe_name(upload.name)
            shutil.move(str(upload), target)
            placed.append(target)
        return text, placed, text.splitlines()[0][:80]
    body = task_file.read_text(encoding="utf-8", errors="replace")
    front = _front_matter(body)
    wanted = _referenced_paths(front)
    for upload in data:
        rel = wanted.get(upload.name) or _safe_name(upload.name)
        target = staging / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(upload), target)
        placed.append(target)
    if text:
        body = body.rstrip() + "\n\n## Note from the person who submitted this task\n\n" + text + "\n"
    task_path = staging / _safe_name(task_file.name)
    task_path.write_text(body, encoding="utf-8")
    task_file.unlink(missing_ok=True)
    title = str(front.get("title") or "") or next(
        (ln.strip("# ") for ln in body.splitlines() if ln.strip() and ln.strip() != "---"), task_file.stem
    )
    referenced = {staging / rel for rel in wanted.values()}
    return task_path, [p for p in placed if p not in referenced], title[:80]


def default_examples_dir() -> Path | None:
    """``examples/`` of a source checkout (editable install or the Space folder), if there is one."""
    import cmbagent

    candidate = Path(cmbagent.__file__).resolve().parents[1] / "examples"
    return candidate if candidate.is_dir() else None


def example_tasks(folder: Path | None) -> dict[str, Path]:
    """Title -> task file for every ``*.md`` example (the server's own files; the page sends only a title)."""
    folder = folder or default_examples_dir()
    if folder is None or not folder.is_dir():
        return {}
    out: dict[str, Path] = {}
    for path in sorted(folder.glob("*.md")):
        if path.name.lower() == "readme.md":
            continue
        try:
            front = _front_matter(path.read_text(encoding="utf-8", errors="replace")[:8000])
        except OSError:
            continue
        title = str(front.get("title") or path.stem)
        out.setdefault(title, path.resolve())
    return out


def plan_to_table(plan: dict[str, Any]) -> list[list[str]]:
    rows = []
    for step in plan.get("steps") or []:
        if isinstance(step, dict):
            rows.append([str(step.get(col) or "") for col in PLAN_COLUMNS])
    return rows


def _rows(table: Any) -> list[list[str]]:
    if table is None:
        return []
    if hasattr(table, "values") and hasattr(table, "columns"):  # a pandas DataFrame
        table = table.values.tolist()
    elif isinstance(table, dict) and "data" in table:
        table = table["data"]
    rows = []
    for row in table:
        cells = ["" if c is None else str(c).strip() for c in list(row)[: len(PLAN_COLUMNS)]]
        cells += [""] * (len(PLAN_COLUMNS) - len(cells))
        if any(cells):
            rows.append(cells)
    return rows


def plan_from_table(proposed: dict[str, Any], table: Any) -> dict[str, Any]:
    """The proposed plan with the person's table edits applied (equal to ``proposed`` if nothing changed).

    Fields the table does not show (method call, inputs, acceptance criteria) are kept from the step with the
    same id; a new row becomes a new step (agent ``engineer`` unless one is given).
    """
    by_id = {str(s.get("id")): s for s in proposed.get("steps") or [] if isinstance(s, dict)}
    rows = [dict(zip(PLAN_COLUMNS, cells, strict=True)) for cells in _rows(table)]
    used = {row["id"] for row in rows if row["id"]}
    steps = []
    for n, values in enumerate(rows, 1):
        step_id = values["id"]
        if not step_id:  # a new row: the first free id of the form sN
            step_id = next(f"s{k}" for k in range(n, n + len(rows) + len(used) + 1) if f"s{k}" not in used)
            used.add(step_id)
        step = dict(by_id.get(step_id) or {"id": step_id, "agent": "engineer"})
        for col in PLAN_COLUMNS[1:]:
            if values[col] != str(step.get(col) or "") and (values[col] or col != "agent"):
                step[col] = values[col]
        steps.append(step)
    return {**proposed, "steps": steps}


def chat_messages(view: RunView, state: str, title: str, error: str | None) -> list[dict[str, str]]:
    """The conversation shown beside the live view: the task, then one short line per milestone."""
    said: list[dict[str, str]] = [{"role": "user", "content": view.title or title or view.run_id}]

    def say(text: str) -> None:
        said.append({"role": "assistant", "content": text})

    if state == "queued":
        say("Waiting for a free worker…")
    if view.plan:
        n = len(view.plan.get("steps") or [])
        say(f"I propose a plan of {n} step{'s' if n != 1 else ''} (round {view.plan_round}).")
    for review in view.reviews:
        comments = "; ".join(str(c) for c in review.get("comments") or [])
        verdict = "approved the plan" if review.get("approved") else "asked for changes"
        say(f"Reviewer {verdict}" + (f": {comments}" if comments else "."))
    if state == "awaiting_approval":
        say("The plan waits for your approval: edit it, approve it, or reject it with a comment.")
    if view.approval:
        say(
            f"Plan approved ({view.approval.get('by') or 'auto'}"
            + (", edited)." if view.approval.get("edited") else ").")
        )
    for n, step in enumerate(view.steps.values(), 1):
        if step.status in ("done", "failed", "skipped"):
            mark = {"done": "✓", "failed": "✗", "skipped": "⤼"}[step.status]
            summary = f" — {step.summary}" if step.summary else ""
            say(f"{mark} Step {n} {step.title or step.step_id}: {step.status}{summary[:400]}")
        elif step.status == "running":
            say(f"● Step {n} {step.title or step.step_id} is running (attempt {step.attempt}).")
    for replan in view.replans:
        say(f"Replanned: {replan.get('reason', '')}")
    if view.finished:
        status = view.finished.get("status")
        say(f"Run {status}. The report is below; download the run folder or the notebook under it.")
    if error:
        say(f"The run stopped with an error: {error}")
    return said
