"""From what a person typed or uploaded to what ``solve`` gets, and from a run view to chat messages.

Pure functions (no Gradio), so the mapping rules are testable on their own.
"""

from __future__ import annotations

import ipaddress
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cmbagent.exceptions import FrontMatterError, PathError, UserError
from cmbagent.frontmatter import split_front_matter
from cmbagent.paths import UI_HINT, PathPolicy
from cmbagent.ui._view import RunView

__all__ = [
    "PLAN_COLUMNS",
    "chat_messages",
    "check_stored_models",
    "check_task",
    "default_examples_dir",
    "example_tasks",
    "host_allowed",
    "model_spec",
    "plan_from_table",
    "plan_to_table",
    "resume_keys",
    "stage_uploads",
    "ui_providers",
    "uploaded_file",
]

PLAN_COLUMNS = ["id", "title", "agent", "goal", "instructions"]
#: files one submission may attach
MAX_UPLOAD_FILES = 64
#: the most text a task may hold, typed or uploaded (data goes in data files; a model sees a clipped task anyway)
MAX_TASK_BYTES = 1 << 20
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._+-]+")
_MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/+-]{0,199}")
_BASE_URL = re.compile(
    r"https?://(?P<host>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~/-]*)?"
)
_NO_KEY = "not-needed"


def host_allowed(host: str, allowed: Sequence[str]) -> bool:
    """Whether a model server's ``host`` is one the deployment lets visitors choose.

    ``allowed`` holds ``loopback`` (localhost and 127.0.0.0/8, ::1), host names (exact), IP addresses or
    networks (``10.0.0.0/8``), or ``*`` for any host.  IP addresses are compared as written: a host name that
    merely resolves to an allowed address is not allowed (no DNS lookup, so no rebinding).
    """
    host = host.strip("[]").lower()
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address | None = ipaddress.ip_address(host)
    except ValueError:
        address = None
    for entry in (e.strip().lower() for e in allowed):
        if entry in {"*", "any"}:
            return True
        if entry == "loopback":
            if host == "localhost" or (address is not None and address.is_loopback):
                return True
            continue
        try:
            network = ipaddress.ip_network(entry, strict=False)
        except ValueError:
            if host == entry:
                return True
            continue
        if address is not None and address in network:
            return True
    return False


def ui_providers() -> list[Any]:
    """The providers the settings panel offers (the provider table's, where they can run here)."""
    from cmbagent.models import providers

    return [p for p in providers() if p.in_ui and p.unavailable() is None]


def model_spec(
    provider: str, model: str, base_url: str, api_key: str, *, model_hosts: Sequence[str] = ("loopback",)
) -> tuple[str, dict[str, str]]:
    """The model spec and the ``api_keys`` mapping for the settings panel's choice (the provider table's rows).

    A base URL typed by a visitor makes this server send requests to it, so it must be a plain
    ``http(s)://host[:port][/path]`` (no user info, query, fragment or escapes a parser could read two ways)
    whose host ``model_hosts`` allows (:func:`host_allowed`; loopback only by default), and such a server
    never gets a key of the deployment's: only the visitor's own.  A provider whose model part is a model file
    (``model_file``: ``local``) serves what the operator installed: a visitor cannot name a file on this server.
    """
    from cmbagent.models import fallback_provider

    fallback = fallback_provider()
    name = (provider or (fallback.name if fallback else "")).strip()
    model = (model or "").strip()
    key = (api_key or "").strip()
    chosen = next((p for p in ui_providers() if p.name == name), None)
    if chosen is None:
        names = ", ".join(p.name for p in ui_providers())
        raise UserError(f"unknown model provider {name!r}; choose {names}")
    if chosen.model == "none":
        return chosen.name, {}
    if chosen.model_file:  # its model part would name a file of this server
        if model:
            raise UserError(f"{chosen.name} serves the model this server's operator installed; leave the model "
                            "field empty")
        return chosen.name, {}
    if chosen.model == "optional" and not model:
        return chosen.name, {}
    if model and not _MODEL_NAME.fullmatch(model):
        raise UserError(f"model name {model[:80]!r} is not a model name (letters, digits and . _ : / + - only)")
    if chosen.takes_base_url:
        url = (base_url or "").strip().rstrip("/")
        match = _BASE_URL.fullmatch(url)
        if not model or match is None:
            raise UserError(
                f"{chosen.name} needs a model name and a base URL like http://127.0.0.1:11434/v1"
            )
        host = match.group("host")
        if not host_allowed(host, model_hosts):
            raise UserError(
                f"this server does not send model requests to {host!r}: visitors may choose only "
                f"{', '.join(model_hosts) or 'no'} model servers here (its operator can allow more hosts with "
                "CMBAGENT_UI_MODEL_HOSTS or `cmbagent ui --allow-model-host HOST`)"
            )
        # "not-needed" is what the adapter sends without a key; giving it here keeps the deployment's own
        # key variable for such servers from ever going to a server a visitor chose
        return f"{chosen.name}:{model}@{url}", {chosen.name: key or _NO_KEY}
    model = model or chosen.default_model or ""
    if not model:
        raise UserError(f"{chosen.name} needs a model name, e.g. {chosen.example}")
    return f"{chosen.name}:{model}", ({chosen.name: key} if key else {})


def check_stored_models(run_dir: Path, model_hosts: Sequence[str]) -> None:
    """Refuse to resume a run whose run.json names a model this server would not let a visitor choose.

    run.json is writable by the run's sandboxed code, so the model specs in it are as untrusted as a
    visitor's: no ``replay:<file>``, and a base URL only on a host ``model_hosts`` allows.
    """
    from cmbagent.models import get_provider, parse_spec
    from cmbagent.ui._runs import read_run_json

    config = read_run_json(run_dir).get("config") or {}
    specs = [config.get("model")] if isinstance(config, dict) else []
    for key in ("agent_models", "tiers"):
        table = config.get(key) if isinstance(config, dict) else None
        specs += list(table.values()) if isinstance(table, dict) else []
    for spec in specs:
        if spec is None:
            continue
        try:
            parsed = parse_spec(str(spec))
        except UserError:
            raise UserError("this run's model setting is damaged; start the task again") from None
        url = _BASE_URL.fullmatch(parsed.base_url) if parsed.base_url else None
        row = get_provider(parsed.provider)
        if (row is not None and (row.serves_transcript or (row.model_file and parsed.model))) or (
            parsed.base_url and (url is None or not host_allowed(url.group("host"), model_hosts))
        ):
            raise UserError("this run names a model server this app does not use; start the task again")


def resume_keys(keys: dict[str, str]) -> dict[str, str]:
    """The keys a resumed run gets: the visitor's, and an explicit empty key for OpenAI-compatible servers, so
    the deployment's own ``OPENAI_COMPATIBLE_API_KEY`` never goes to a server named in a run folder."""
    return {"openai-compatible": _NO_KEY, **keys}


def _front_matter(text: str) -> dict[str, Any]:
    """The front matter of an uploaded task, or ``{}`` (``solve`` reports a broken one when it reads the task).

    The shared parser refuses YAML aliases: a "billion laughs" front matter would hang the walk below.
    """
    try:
        meta, _ = split_front_matter(text)
    except FrontMatterError:
        return {}
    return meta or {}


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


def _place(staging: Path, rel: str) -> Path:
    """Where an attached file named ``rel`` by the task goes: inside ``staging``, whatever ``rel`` says
    (the name is kept as written, so the task's reference resolves to it; only ``..``, roots and names a
    file system cannot hold are replaced)."""
    parts = [
        part if "\x00" not in part and len(part.encode()) <= 255 else _safe_name(part)
        for part in Path(rel).parts
        if part not in ("", ".", "..") and not part.startswith("/")
    ]
    return staging.joinpath(*parts) if parts else staging / "file"


def _upload_policy() -> PathPolicy:
    from gradio.utils import get_upload_folder

    folder = Path(get_upload_folder())
    folder.mkdir(parents=True, exist_ok=True)
    return PathPolicy.build([folder], base=folder, hint=UI_HINT)


def uploaded_file(name: object) -> Path:
    """The real path of a file the visitor uploaded through this app (in Gradio's upload folder), else
    :class:`UserError`.

    ``name`` comes from the client (a ``FileData`` path it wrote itself): a URL, a relative name, a link that
    leads out, a FIFO or a device, and any file outside the upload folder get one message that names nothing
    of the server.  :class:`cmbagent.ui._uploads.AttachedFiles` calls this before Gradio copies anything.
    """
    text = str(name or "")
    shown = Path(text).name[:120] or "attachment"
    refusal = UserError(f"{shown!r} is not a file attached here; {UI_HINT}")
    if "://" in text or text.startswith("//") or not Path(text).is_absolute():
        raise refusal
    try:
        return _upload_policy().resolve(text, what="attachment", kind="file")
    except PathError:
        raise refusal from None


def _check_uploads(uploads: list[Path], max_files: int, max_bytes: int | None) -> None:
    if len(uploads) > max_files:
        raise UserError(f"{len(uploads)} files attached; attach at most {max_files} (zip a folder of data instead)")
    total = 0
    for upload in uploads:
        real = uploaded_file(upload)
        if upload.is_symlink():  # moved below: the link itself would be placed, not the file
            raise UserError(f"{upload.name}: not a regular file; attach the file again")
        total += real.stat().st_size
    if max_bytes is not None and total > max_bytes:
        raise UserError(f"the attached files hold {total / 1e6:.0f} MB together; the limit is {max_bytes / 1e6:.0f} MB")


def stage_uploads(
    staging: Path,
    text: str,
    uploads: list[Path],
    *,
    max_files: int = MAX_UPLOAD_FILES,
    max_bytes: int | None = None,
) -> tuple[Path, list[Path], str]:
    """Move uploads into ``staging`` and return ``(task file, data_files, title)`` for ``solve``.

    The first ``.md`` upload is the task file; typed text without one is written to ``staging/task.md``, so
    ``solve`` always gets a file inside ``staging`` (never a string it could take for a server path).  A data
    file whose name matches a path in the task's front matter is placed at that path (inside ``staging``
    whatever the path says), so the task's relative references work; text typed with an uploaded task is
    appended to it as a note.  Names the task gives that match no attachment are left for the path policy to
    refuse (``solve(paths=PathPolicy.for_upload(staging))``).
    """
    _check_uploads(uploads, max_files, max_bytes)
    task_file = next((u for u in uploads if u.suffix.lower() == ".md"), None)
    size = len(text.encode("utf-8", errors="replace")) + (task_file.stat().st_size if task_file is not None else 0)
    if size > MAX_TASK_BYTES:
        raise UserError(f"the task holds {size / 1e6:.1f} MB of text; a task may hold at most "
                        f"{MAX_TASK_BYTES / 1e6:.1f} MB: attach big inputs as data files")
    data = [u for u in uploads if u is not task_file]
    staging.mkdir(parents=True, exist_ok=True)
    if task_file is None:
        if not text:
            raise UserError("describe the task in the message box, or attach a task.md")
        body = text if text.endswith("\n") else text + "\n"
    else:
        body = task_file.read_text(encoding="utf-8", errors="replace")
        if text:
            body = body.rstrip() + "\n\n## Note from the person who submitted this task\n\n" + text + "\n"
    front = _front_matter(body)
    wanted = _referenced_paths(front)
    placed: list[Path] = []
    referenced: set[Path] = set()
    for upload in data:
        rel = wanted.get(upload.name)
        target = _place(staging, rel) if rel else staging / _safe_name(upload.name)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(upload), target)
        except OSError:
            raise UserError(f"{upload.name}: cannot be placed at {rel or upload.name!r} (the task names "
                            "a file and a folder alike); rename it") from None
        placed.append(target)
        if rel:
            referenced.add(target)
    task_path = staging / (_safe_name(task_file.name) if task_file is not None else "task.md")
    if task_path in placed:
        task_path = staging / "task-typed.md"
    task_path.write_text(body, encoding="utf-8")
    if task_file is not None:
        task_file.unlink(missing_ok=True)
    stem = task_file.stem if task_file is not None else "task"
    title = str(front.get("title") or "") or next(
        (ln.strip("# ") for ln in body.splitlines() if ln.strip() and ln.strip() != "---"), stem
    )
    return task_path, [p for p in placed if p not in referenced], title[:80]


def check_task(task: Path, data_files: list[Path], policy: PathPolicy) -> None:
    """Parse a staged task the way ``solve`` will, so a task naming a file it may not use is refused at once
    (a :class:`~cmbagent.exceptions.UserError` shown in the page) and no run is started."""
    from cmbagent.task import load_task
    from cmbagent.ui._runs import warm_registries

    warm_registries()  # the method registry must be complete before tasks are checked from several threads
    load_task(task, extra_files=list(data_files), paths=policy)


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


def chat_messages(view: RunView, state: str, title: str, error: str | None,
                  reading: list[str] | None = None) -> list[dict[str, str]]:
    """The conversation shown beside the live view: the task, then one short line per milestone; ``reading``
    is how code read the task (:func:`cmbagent.report.reading_lines`), shown with a plan that awaits approval."""
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
        if reading:
            say("This is how I read the task (each mapping with how sure I am):\n" + "\n".join(f"- {r}" for r in reading))
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
    if error and error.startswith("TaskUnclear: "):  # nothing ran: the reading needs the person's answer
        say("Before I run anything I need to ask you something: " + error.removeprefix("TaskUnclear: ")
            + "\n\nAnswer by adding that front matter at the top of the task (or by saying it in the task's "
              "words) and send the task again.")
    elif error:
        say(f"The run stopped with an error: {error}")
    return said
