"""The handlers of the Run and Runs tabs: start a run (typed, uploaded or an example), decide on a waiting plan,
resume, cancel and open runs, and list them.

Every handler finds its session from the request's cookie (never from a value the page sends), and every run
id from the page is checked to be a plain folder name inside that session.  The handlers are the methods of
:class:`RunHandlers`, which holds what they share; Gradio names each event's API endpoint after its handler
(``/submit_task``, ``/refresh_runs``), so these names are part of the app's API.
"""

import functools
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gradio as gr

from cmbagent.config import RunSettings
from cmbagent.exceptions import UserError
from cmbagent.paths import PathPolicy
from cmbagent.ui._live import load_plan
from cmbagent.ui._render import fmt_cost
from cmbagent.ui._runs import ACTIVE, RunManager, RunRequest, list_runs, new_run_id, read_run_json
from cmbagent.ui._sessions import Session, SessionStore
from cmbagent.ui._settings import UISettings, session_from_cookies
from cmbagent.ui._tasks import (
    check_stored_models,
    check_task,
    model_spec,
    plan_from_table,
    resume_keys,
    stage_uploads,
)

__all__ = ["RUN_COLUMNS", "RunHandlers", "run_options", "runs_table"]

RUN_COLUMNS = ["run", "title", "status", "cost", "duration", "started"]


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Show a caller's mistake (``UserError``) as a message in the page instead of a generic error."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except UserError as exc:
            raise gr.Error(str(exc)) from exc

    return wrapper


class RunHandlers:
    """The Run and Runs tabs' event handlers, bound to one app's settings, sessions, runs and examples."""

    def __init__(self, settings: UISettings, store: SessionStore, manager: RunManager,
                 examples: dict[str, Path]):
        self.settings = settings
        self.store = store
        self.manager = manager
        self.examples = examples

    def session_of(self, request: gr.Request) -> Session:
        cookies = getattr(request, "cookies", None) or {}
        session = session_from_cookies(self.store, cookies)
        if session is None:
            raise gr.Error("This browser has no session cookie; reload the page (cookies must be enabled).")
        return session

    def on_load(self, request: gr.Request) -> tuple[Any, ...]:
        session = self.session_of(request)
        runs = list_runs(session, self.manager)
        active = next((r for r in runs if r.status in (*ACTIVE, "awaiting_approval")), None)
        current = active or (runs[0] if runs else None)
        header = (
            '<div class="cmb-session"><b>cmbagent</b>: plan, run, check and report a scientific task. '
            "Your runs are private to this browser session. Session link (keep it "
            f'secret; it reopens your runs from any browser): <a href="?session={session.token}">'
            f"<code>?session={session.token}</code></a></div>"
        )
        return (
            header,
            runs_table(runs),
            gr.update(choices=[r.run_id for r in runs], value=current.run_id if current else None),
            (current.run_id if current else None),
        )

    @friendly
    def submit_task(
        self,
        message: str | None,
        uploads: list[str] | None,
        provider: str,
        model_name: str,
        base_url: str,
        api_key: str,
        budget_usd: float | None,
        budget_tokens: float | None,
        timeout_min: float | None,
        n_reviews: float,
        approve_plan: bool,
        request: gr.Request,
    ) -> tuple[Any, ...]:
        settings = self.settings
        session = self.session_of(request)
        text = (message or "").strip()
        files = [Path(str(f)) for f in uploads or []]
        if not text and not files:
            raise gr.Error("Type a task, attach a task.md, or pick an example.")
        spec, keys = model_spec(provider, model_name, base_url, api_key, model_hosts=settings.model_hosts)
        self.store.ensure(session)
        task_file = next((f for f in files if f.suffix.lower() == ".md"), None)
        run_id = new_run_id(task_file.stem if task_file else text.splitlines()[0] if text else files[0].stem)
        staging = staging_root(session) / run_id
        try:
            task, data_files, title = stage_uploads(
                staging, text, files, max_files=settings.max_upload_files, max_bytes=settings.max_upload_bytes
            )
            # the task may name only what was attached with it: never a file of the server, never a path
            # resolved against the server's working folder; refused here, before any run exists
            policy = PathPolicy.for_upload(staging)
            check_task(task, data_files, policy)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        options = run_options(settings, budget_usd, budget_tokens, timeout_min, n_reviews, approve_plan)
        run_request = RunRequest(task=task, title=title, data_files=data_files, model=spec, options=options,
                                  cleanup=staging, paths=policy)
        self.manager.submit_solve(session, run_id, run_request, keys)
        return run_id, gr.update(value=""), gr.update(value=None)

    @friendly
    def run_example(
        self,
        choice: str | None,
        provider: str,
        model_name: str,
        base_url: str,
        api_key: str,
        budget_usd: float | None,
        budget_tokens: float | None,
        timeout_min: float | None,
        n_reviews: float,
        approve_plan: bool,
        request: gr.Request,
    ) -> str:
        settings = self.settings
        session = self.session_of(request)
        path = self.examples.get(choice or "")
        if path is None:
            raise gr.Error("Pick one of the listed examples.")
        spec, keys = model_spec(provider, model_name, base_url, api_key, model_hosts=settings.model_hosts)
        self.store.ensure(session)
        run_id = new_run_id(path.stem)
        options = run_options(settings, budget_usd, budget_tokens, timeout_min, n_reviews, approve_plan)
        policy = PathPolicy.for_upload(path.parent, hint="an example reads only the files shipped with it")
        self.manager.submit_solve(
            session,
            run_id,
            RunRequest(task=path, title=choice or path.stem, model=spec, options=options, paths=policy),
            keys,
        )
        return run_id

    def decide(
        self,
        action: str,
        run_id: str | None,
        table: Any,
        comment: str,
        provider: str,
        model_name: str,
        base_url: str,
        api_key: str,
        request: gr.Request,
    ) -> str | None:
        """Resume a run that waits for its plan: ``approve`` (an edited table is an edit) or ``reject``."""
        from cmbagent.api import PlanDecision

        session = self.session_of(request)
        run_dir = session.run_dir(run_id or "")
        if run_dir is None or not run_dir.is_dir():
            raise gr.Error("No run is waiting for a decision.")
        hosts = self.settings.model_hosts
        _, keys = model_spec(provider, model_name, base_url, api_key, model_hosts=hosts)
        if action == "reject":
            if not (comment or "").strip():
                raise gr.Error("Say why you reject the plan (the planner reads your comment).")
            decision = PlanDecision(action="reject", comment=comment.strip())
        else:
            proposed = load_plan(run_dir)
            edited = plan_from_table(proposed, table)
            if edited != proposed:
                decision = PlanDecision(action="edit", plan=edited, comment=(comment or "").strip())
            else:
                decision = PlanDecision(action="approve", comment=(comment or "").strip())
        check_stored_models(run_dir, hosts)
        self.manager.submit_resume(session, run_id or "", decision, resume_keys(keys), sandbox=self.settings.sandbox)
        return run_id

    @friendly
    def approve(
        self,
        run_id: str | None,
        table: Any,
        comment: str,
        provider: str,
        model_name: str,
        base_url: str,
        api_key: str,
        request: gr.Request,
    ) -> str | None:
        return self.decide("approve", run_id, table, comment, provider, model_name, base_url, api_key, request)

    @friendly
    def reject(
        self,
        run_id: str | None,
        table: Any,
        comment: str,
        provider: str,
        model_name: str,
        base_url: str,
        api_key: str,
        request: gr.Request,
    ) -> str | None:
        return self.decide("reject", run_id, table, comment, provider, model_name, base_url, api_key, request)

    @friendly
    def resume_run(
        self, run_id: str | None, provider: str, model_name: str, base_url: str, api_key: str, request: gr.Request
    ) -> tuple[Any, ...]:
        session = self.session_of(request)
        run_dir = session.run_dir(run_id or "")
        if run_dir is None or not run_dir.is_dir():
            raise gr.Error("Pick one of your runs first.")
        if (read_run_json(run_dir).get("status") or "") == "awaiting_approval":
            raise gr.Error("This run waits for your plan decision: open it and approve or reject the plan.")
        hosts = self.settings.model_hosts
        _, keys = model_spec(provider, model_name, base_url, api_key, model_hosts=hosts)
        check_stored_models(run_dir, hosts)
        self.manager.submit_resume(session, run_id or "", None, resume_keys(keys), sandbox=self.settings.sandbox)
        return run_id, gr.Tabs(selected="run")

    def cancel_run(self, run_id: str | None, request: gr.Request) -> str | None:
        session = self.session_of(request)
        if session.run_dir(run_id or "") is None:
            raise gr.Error("No run is open.")
        try:
            gr.Info(self.manager.cancel(session, run_id or ""))
        except ValueError as exc:
            raise gr.Error(str(exc)) from None
        return run_id

    def open_run(self, run_id: str | None, request: gr.Request) -> tuple[Any, ...]:
        session = self.session_of(request)
        run_dir = session.run_dir(run_id or "")
        if run_dir is None or not (run_dir.is_dir() or self.manager.handle(session, run_id or "")):
            raise gr.Error("Pick one of your runs first.")
        return run_id, gr.Tabs(selected="run")

    def refresh_runs(self, shown: str | None, request: gr.Request) -> tuple[Any, ...]:
        runs = list_runs(self.session_of(request), self.manager)
        ids = [r.run_id for r in runs]
        chosen = shown if shown in ids else (ids[0] if ids else None)
        return runs_table(runs), gr.update(choices=ids, value=chosen)


def staging_root(session: Session) -> Path:
    """``<session>/.staging``, a real folder (a link there would put a submission's files elsewhere)."""
    root = session.root / ".staging"
    if root.is_symlink():
        root.unlink()
    root.mkdir(exist_ok=True)
    return root


def run_options(
    settings: UISettings,
    budget_usd: float | None,
    budget_tokens: float | None,
    timeout_min: float | None,
    n_reviews: float,
    approve_plan: bool,
) -> dict[str, Any]:
    """A run's options from the page's settings (the run settings as one :class:`RunSettings`, the budgets beside
    it); the operator's ``max_budget_usd`` caps what a visitor asks."""
    cap = settings.max_budget_usd
    usd = float(budget_usd) if budget_usd else None
    if cap is not None:
        usd = min(usd, cap) if usd is not None else cap
    return {
        "budget_usd": usd,
        "budget_tokens": int(budget_tokens) if budget_tokens else None,
        "timeout": float(timeout_min) * 60 if timeout_min else None,
        "settings": RunSettings.model_validate({"n_reviews": int(n_reviews), "approve_plan": bool(approve_plan),
                                                "sandbox": settings.sandbox}),
    }


def runs_table(runs: list[Any]) -> list[list[str]]:
    """The Runs tab's rows (:data:`RUN_COLUMNS`)."""
    rows = []
    for r in runs:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.started)) if r.started else ""
        duration = f"{r.duration_s:.0f} s" if r.duration_s is not None else ""
        rows.append([r.run_id, r.title, r.status, fmt_cost(r.cost_usd), duration, started])
    return rows
