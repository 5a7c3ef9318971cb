"""The Ideas tab: idea mode on a typed task, an uploaded task.md with its data, or an example; the rounds of
the idea maker and the idea hater shown live; a chosen idea turned into a run.

Idea runs live in the session's own folder (``<session>/.ideas/<id>/``, out of the Runs list), run in a small
thread pool of their own (they call models, never the sandbox), and are followed by tailing their
``events.jsonl`` as the run view does.  The page sends only ids and ranks; every path is the server's.
"""

import asyncio
import html
import json
import shutil
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gradio as gr

from cmbagent.exceptions import PathError, UserError
from cmbagent.paths import PathPolicy, read_beneath
from cmbagent.ui._runs import RunManager, RunRequest, new_run_id
from cmbagent.ui._sessions import Session, SessionStore, valid_run_id
from cmbagent.ui._settings import UISettings
from cmbagent.ui._tasks import check_task, model_spec, stage_uploads
from cmbagent.ui._uploads import AttachedFiles
from cmbagent.ui._view import EventTail

__all__ = ["IdeasHandlers", "IdeasManager", "build_ideas_tab", "render_ideas"]

POLL_S = 0.1
IDEAS_FOLDER = ".ideas"


@dataclass
class IdeaJob:
    ideas_id: str
    folder: Path
    state: str = "queued"  # queued | running | done | failed | budget_exhausted | error
    error: str | None = None
    done: threading.Event = field(default_factory=threading.Event)


class IdeasManager:
    """Idea runs of every session, at most ``max_concurrent`` at once; keys are dropped when a run returns."""

    def __init__(self, max_concurrent: int = 2, *, generate_fn: Callable[..., Any] | None = None):
        self._pool = ThreadPoolExecutor(max_workers=max_concurrent, thread_name_prefix="cmbagent-ui-ideas")
        self._generate = generate_fn
        self._jobs: dict[tuple[str, str], IdeaJob] = {}
        self._lock = threading.Lock()

    def folder(self, session: Session, ideas_id: str) -> Path | None:
        if not valid_run_id(ideas_id):
            return None
        return session.root / IDEAS_FOLDER / ideas_id

    def submit(self, session: Session, ideas_id: str, task: Path, *, paths: PathPolicy, cleanup: Path | None,
               keys: dict[str, str], **options: Any) -> IdeaJob:
        """Start idea mode on ``task`` (files named through ``paths``); ``cleanup`` is removed afterwards."""
        folder = self.folder(session, ideas_id)
        if folder is None:
            raise ValueError(f"invalid ideas id {ideas_id!r}")
        job = IdeaJob(ideas_id=ideas_id, folder=folder)
        with self._lock:
            self._jobs[(session.key, ideas_id)] = job

        def run() -> None:
            from cmbagent.ideas import generate_ideas

            generate = self._generate or generate_ideas
            job.state = "running"
            try:
                result = generate(task, run_dir=folder, api_keys=dict(keys) or None, paths=paths, **options)
                job.state = result.status
                job.error = result.error
            except Exception as exc:  # shown in the page; the server keeps serving
                job.state, job.error = "error", f"{type(exc).__name__}: {exc}"
            finally:
                keys.clear()
                if cleanup is not None:
                    shutil.rmtree(cleanup, ignore_errors=True)
                job.done.set()

        self._pool.submit(run)
        return job

    def job(self, session: Session, ideas_id: str) -> IdeaJob | None:
        with self._lock:
            return self._jobs.get((session.key, ideas_id))

    def shutdown(self, wait: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=True)


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _read_json(folder: Path, name: str) -> dict[str, Any]:
    try:  # never through a link
        data = json.loads(read_beneath(folder, name, limit=8 << 20))
    except (OSError, ValueError, PathError):
        return {}
    return data if isinstance(data, dict) else {}


def render_ideas(rounds: list[dict[str, Any]], state: str, error: str | None, final: dict[str, Any]) -> str:
    """The live view: a status line, each round as it happened, and the ranking once it exists."""
    parts = [f'<div class="cmb-ideas-status" data-state="{esc(state)}">Ideas: <b>{esc(state)}</b>'
             + (f" — {esc(error)}" if error else "") + "</div>"]
    for entry in rounds:
        agent = esc(entry.get("agent", ""))
        head = f"Round {esc(entry.get('round', ''))} — {agent}"
        if "ideas" in entry:
            ideas = entry["ideas"].get("ideas", [])
            items = "".join(f"<li><b>{esc(i.get('title', ''))}</b> <code>{esc(i.get('method', ''))}</code>: "
                            f"{esc(i.get('question', ''))}</li>" for i in ideas)
            notes = entry["ideas"].get("notes")
            parts.append(f'<div class="cmb-idea-round" data-agent="{agent}"><div>{head}: {len(ideas)} idea(s)'
                         + (f" — {esc(notes)}" if notes else "") + f"</div><ol>{items}</ol></div>")
        elif "review" in entry:
            crit = entry["review"].get("critiques", [])
            items = "".join(f"<li>idea {esc(c.get('idea'))}: novelty {esc(c.get('novelty'))}/5, feasibility "
                            f"{esc(c.get('feasibility'))}/5, {'kept' if c.get('keep') else 'rejected'} — "
                            f"{esc(c.get('verdict', ''))}</li>" for c in crit)
            kept = sum(1 for c in crit if c.get("keep"))
            done = " (satisfied)" if entry["review"].get("satisfied") else ""
            parts.append(f'<div class="cmb-idea-round" data-agent="{agent}"><div>{head}: kept {kept} of '
                         f"{len(crit)}{done}</div><ul>{items}</ul></div>")
    ranked = final.get("ideas") or []
    if ranked:
        rows = "".join(
            f'<tr data-rank="{esc(r.get("rank"))}"><td>{esc(r.get("rank"))}</td><td>{esc(r["idea"].get("title", ""))}</td>'
            f'<td><code>{esc(r["idea"].get("method", ""))}</code></td><td>{esc(r.get("score"))}</td>'
            f'<td>{"yes" if r.get("selected") else "no"}</td><td>{esc(r.get("reasons", ""))}</td></tr>'
            for r in ranked)
        parts.append('<table class="cmb-ideas-table"><thead><tr><th>rank</th><th>idea</th><th>method</th>'
                     f"<th>score</th><th>selected</th><th>why</th></tr></thead><tbody>{rows}</tbody></table>")
    return "\n".join(parts)


def _choices(final: dict[str, Any]) -> list[str]:
    return [f"{r['rank']}. {r['idea']['title']}" for r in final.get("ideas") or [] if r.get("selected")]


class IdeasHandlers:
    """The Ideas tab's event handlers: start idea mode (typed, uploaded or an example), follow it, run an idea.

    Gradio names each event's API endpoint after its handler (``/submit_ideas``, ``/run_idea``).
    """

    def __init__(self, *, settings: UISettings, store: SessionStore, manager: RunManager, ideas: IdeasManager,
                 examples: dict[str, Path], session_of: Callable[[gr.Request], Session],
                 options: Callable[..., dict[str, Any]]):
        self.settings = settings
        self.store = store
        self.manager = manager
        self.ideas = ideas
        self.examples = examples
        self.session_of = session_of
        self.options = options

    def _start(self, session: Session, task: Path, paths: PathPolicy, cleanup: Path | None, data_files: list[Path],
               r: float, n: float, keys_in: tuple[str, str, str, str], budgets: tuple[Any, Any, Any]) -> str:
        spec, keys = model_spec(*keys_in, model_hosts=self.settings.model_hosts)
        chosen = self.options(self.settings, *budgets, 0, False)
        self.store.ensure(session)
        ideas_id = new_run_id(f"ideas {task.stem}")
        self.ideas.submit(session, ideas_id, task, paths=paths, cleanup=cleanup, keys=keys, model=spec,
                          rounds=int(r), n_ideas=int(n), data_files=list(data_files) or None,
                          budget_usd=chosen["budget_usd"], budget_tokens=chosen["budget_tokens"],
                          timeout=chosen["timeout"])
        return ideas_id

    def _staging_of(self, session: Session) -> Path:
        self.store.ensure(session)
        root = session.root / ".staging"
        if root.is_symlink():
            root.unlink()
        root.mkdir(exist_ok=True)
        return root / new_run_id("ideas")

    def submit_ideas(self, message: str | None, files: list[str] | None, r: float, n: float, provider: str,
                     model_name: str, base_url: str, api_key: str, budget_usd: float | None,
                     budget_tokens: float | None, timeout_min: float | None, request: gr.Request) -> Any:
        settings = self.settings
        session = self.session_of(request)
        text = (message or "").strip()
        uploaded = [Path(str(f)) for f in files or []]
        if not text and not uploaded:
            raise gr.Error("Type a task, attach a task.md, or pick an example.")
        staging = self._staging_of(session)
        try:
            task, data_files, _ = stage_uploads(staging, text, uploaded, max_files=settings.max_upload_files,
                                                max_bytes=settings.max_upload_bytes)
            policy = PathPolicy.for_upload(staging)
            check_task(task, data_files, policy)  # names only what was attached with it
            key = self._start(session, task, policy, staging, data_files, r, n,
                              (provider, model_name, base_url, api_key), (budget_usd, budget_tokens, timeout_min))
        except BaseException as exc:
            shutil.rmtree(staging, ignore_errors=True)
            if isinstance(exc, UserError):
                raise gr.Error(str(exc)) from exc
            raise
        return key, gr.update(value=""), gr.update(value=None)

    def submit_example(self, choice: str | None, r: float, n: float, provider: str, model_name: str, base_url: str,
                       api_key: str, budget_usd: float | None, budget_tokens: float | None,
                       timeout_min: float | None, request: gr.Request) -> str:
        path = self.examples.get(choice or "")
        if path is None:
            raise gr.Error("Pick one of the listed examples.")
        try:
            policy = PathPolicy.for_upload(path.parent, hint="an example reads only the files shipped with it")
            return self._start(self.session_of(request), path, policy, None, [], r, n,
                               (provider, model_name, base_url, api_key), (budget_usd, budget_tokens, timeout_min))
        except UserError as exc:
            raise gr.Error(str(exc)) from exc

    async def follow_ideas(self, ideas_key: str | None, request: gr.Request) -> AsyncIterator[tuple[Any, Any]]:
        session = self.session_of(request)
        folder = self.ideas.folder(session, ideas_key or "")
        if folder is None:
            yield gr.skip(), gr.skip()
            return
        tail = EventTail(folder / "events.jsonl")
        rounds: list[dict[str, Any]] = []
        sent = ""
        finished = False
        while True:
            job = self.ideas.job(session, ideas_key or "")
            for event in tail.read_new():
                if event.type == "idea_round":
                    rounds.append(dict(event.data))
                finished = finished or event.type == "ideas_finished"
            state = job.state if job is not None else ("done" if (folder / "ideas.json").is_file() else "unknown")
            over = job is None or job.done.is_set()
            final = _read_json(folder, "ideas.json") if over else {}
            html_view = render_ideas(rounds, state, job.error if job else None, final)
            if html_view != sent:
                sent = html_view
                choices = _choices(final)
                yield html_view, (gr.update(choices=choices, value=choices[0] if choices else None) if over
                                  else gr.skip())
            if over and (finished or not tail.changed()):
                break
            await asyncio.sleep(POLL_S)
        yield gr.skip(), gr.skip()  # Gradio repeats a stream's last update: make it change nothing

    def run_idea(self, ideas_key: str | None, choice: str | None, provider: str, model_name: str, base_url: str,
                 api_key: str, budget_usd: float | None, budget_tokens: float | None, timeout_min: float | None,
                 request: gr.Request) -> tuple[Any, Any]:
        from cmbagent.ideas import RankedIdea, write_idea_task

        session = self.session_of(request)
        folder = self.ideas.folder(session, ideas_key or "")
        final = _read_json(folder, "ideas.json") if folder is not None else {}
        rank = (choice or "").split(".", 1)[0]
        row = next((r for r in final.get("ideas") or [] if str(r.get("rank")) == rank and r.get("selected")), None)
        if folder is None or row is None:
            raise gr.Error("Generate ideas first, then pick one of the selected ideas.")
        staging = self._staging_of(session)
        try:
            spec, keys = model_spec(provider, model_name, base_url, api_key, model_hosts=self.settings.model_hosts)
            chosen = RankedIdea.model_validate(row)
            data_files = [str(p) for p in _read_json(folder, "run.json").get("data_files") or []]
            path = write_idea_task(chosen, source_dir=folder, data_files=data_files, out_dir=staging,
                                   origin=str(final.get("title", "")), run_id=str(final.get("run_id", "")))
            run_id = new_run_id(chosen.idea.title)
            self.manager.submit_solve(session, run_id, RunRequest(
                task=path, title=chosen.idea.title, model=spec, cleanup=staging, paths=PathPolicy.for_upload(staging),
                options=self.options(self.settings, budget_usd, budget_tokens, timeout_min, 1, False)), keys)
        except BaseException as exc:
            shutil.rmtree(staging, ignore_errors=True)
            if isinstance(exc, UserError):
                raise gr.Error(str(exc)) from exc
            raise
        return run_id, gr.Tabs(selected="run")


def build_ideas_tab(
    *,
    settings: UISettings,
    store: SessionStore,
    manager: RunManager,
    ideas: IdeasManager,
    examples: dict[str, Path],
    session_of: Callable[[gr.Request], Session],
    key_inputs: list[Any],
    budget_inputs: list[Any],
    current: Any,
    tabs: Any,
    follow: Callable[..., Any],
    view_outputs: list[Any],
    options: Callable[..., dict[str, Any]],
) -> None:
    """Lay out the Ideas tab (inside the app's ``gr.Tabs``) and wire its events to :class:`IdeasHandlers`."""
    handlers = IdeasHandlers(settings=settings, store=store, manager=manager, ideas=ideas, examples=examples,
                             session_of=session_of, options=options)
    quiet: dict[str, Any] = {"show_progress": "hidden", "concurrency_limit": None}
    with gr.Tab("Ideas", id="ideas"):
        gr.Markdown("An **idea maker** proposes research ideas for a task, an **idea hater** criticises each "
                    "(novelty, feasibility with the data, confounders, what could go wrong), the maker revises. "
                    "Pick an idea to run it.")
        with gr.Row(equal_height=True):
            task_box = gr.Textbox(placeholder="Describe a task, or attach a task.md and its data below",
                                  show_label=False, lines=1, max_lines=8, scale=5, elem_id="cmb-ideas-task")
            go_btn = gr.Button("Generate ideas", variant="primary", scale=1, elem_id="cmb-ideas-go")
        # only this app's own uploads: a client of the Gradio API names the paths it sends (see _uploads)
        uploads = AttachedFiles(label="Attach a task.md and data files", file_count="multiple", type="filepath",
                                height=110, elem_id="cmb-ideas-files")
        with gr.Row():
            example_pick = gr.Dropdown(choices=list(examples), value=next(iter(examples), None), label="Example",
                                       scale=3, visible=bool(examples), elem_id="cmb-ideas-example")
            example_btn = gr.Button("Ideas for example", scale=1, visible=bool(examples),
                                    elem_id="cmb-ideas-run-example")
            rounds = gr.Slider(1, 6, value=3, step=1, label="Rounds", elem_id="cmb-ideas-rounds")
            n_ideas = gr.Slider(1, 10, value=5, step=1, label="Ideas", elem_id="cmb-ideas-n")
        ideas_id = gr.State(None)
        view = gr.HTML(elem_id="cmb-ideas-view")
        with gr.Row():
            pick = gr.Dropdown(choices=[], label="Idea", scale=4, elem_id="cmb-ideas-pick")
            run_btn = gr.Button("Run this idea", scale=1, elem_id="cmb-ideas-to-run")

    follow_kw: dict[str, Any] = {"show_progress": "hidden", "concurrency_limit": None, "queue": True}
    for trigger in (task_box.submit, go_btn.click):
        trigger(handlers.submit_ideas, [task_box, uploads, rounds, n_ideas, *key_inputs, *budget_inputs],
                [ideas_id, task_box, uploads], **quiet).then(handlers.follow_ideas, ideas_id, [view, pick],
                                                             **follow_kw)
    example_btn.click(handlers.submit_example, [example_pick, rounds, n_ideas, *key_inputs, *budget_inputs], ideas_id,
                      **quiet).then(handlers.follow_ideas, ideas_id, [view, pick], **follow_kw)
    run_btn.click(handlers.run_idea, [ideas_id, pick, *key_inputs, *budget_inputs], [current, tabs], **quiet).then(
        follow, current, view_outputs, **follow_kw)
