"""The Gradio Blocks: chat, settings, live run view, plan approval, the Runs page, the Ideas and Evals tabs.

Every handler finds its session from the request's cookie (never from a value the page sends), and every run
id from the page is checked to be a plain folder name inside that session.  The live view of a run is
streamed by :class:`cmbagent.ui._live.LiveFeed`.
"""

import functools
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gradio as gr

from cmbagent.exceptions import UserError
from cmbagent.paths import PathPolicy
from cmbagent.ui._evals import build_evals_tab
from cmbagent.ui._ideas import IdeasManager, build_ideas_tab
from cmbagent.ui._live import LiveFeed, load_plan
from cmbagent.ui._render import fmt_cost, render_chat
from cmbagent.ui._runs import ACTIVE, RunManager, RunRequest, list_runs, new_run_id, read_run_json
from cmbagent.ui._sessions import Session, SessionStore
from cmbagent.ui._settings import UISettings, session_from_cookies
from cmbagent.ui._tasks import (
    PLAN_COLUMNS,
    check_stored_models,
    check_task,
    example_tasks,
    model_spec,
    plan_from_table,
    resume_keys,
    stage_uploads,
    ui_providers,
)
from cmbagent.ui._uploads import AttachedFiles

__all__ = ["build_blocks"]

RUN_COLUMNS = ["run", "title", "status", "cost", "duration", "started"]


def build_blocks(settings: UISettings, store: SessionStore, manager: RunManager,
                 ideas: IdeasManager | None = None) -> gr.Blocks:
    examples = example_tasks(settings.examples_dir)
    ideas = ideas or IdeasManager(settings.max_concurrent_runs)
    prefix = settings.root_path.rstrip("/")

    def session_of(request: gr.Request) -> Session:
        cookies = getattr(request, "cookies", None) or {}
        session = session_from_cookies(store, cookies)
        if session is None:
            raise gr.Error("This browser has no session cookie; reload the page (cookies must be enabled).")
        return session

    # -- handlers ------------------------------------------------------------------------------------------

    def on_load(request: gr.Request) -> tuple[Any, ...]:
        session = session_of(request)
        runs = list_runs(session, manager)
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
            _runs_table(runs),
            gr.update(choices=[r.run_id for r in runs], value=current.run_id if current else None),
            (current.run_id if current else None),
        )

    @_friendly
    def submit_task(
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
        session = session_of(request)
        text = (message or "").strip()
        files = [Path(str(f)) for f in uploads or []]
        if not text and not files:
            raise gr.Error("Type a task, attach a task.md, or pick an example.")
        spec, keys = model_spec(provider, model_name, base_url, api_key, model_hosts=settings.model_hosts)
        store.ensure(session)
        task_file = next((f for f in files if f.suffix.lower() == ".md"), None)
        run_id = new_run_id(task_file.stem if task_file else text.splitlines()[0] if text else files[0].stem)
        staging = _staging_root(session) / run_id
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
        options = _options(settings, budget_usd, budget_tokens, timeout_min, n_reviews, approve_plan)
        manager.submit_solve(
            session,
            run_id,
            RunRequest(
                task=task,
                title=title,
                data_files=data_files,
                model=spec,
                options=options,
                cleanup=staging,
                paths=policy,
            ),
            keys,
        )
        return run_id, gr.update(value=""), gr.update(value=None)

    @_friendly
    def run_example(
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
        session = session_of(request)
        path = examples.get(choice or "")
        if path is None:
            raise gr.Error("Pick one of the listed examples.")
        spec, keys = model_spec(provider, model_name, base_url, api_key, model_hosts=settings.model_hosts)
        store.ensure(session)
        run_id = new_run_id(path.stem)
        options = _options(settings, budget_usd, budget_tokens, timeout_min, n_reviews, approve_plan)
        policy = PathPolicy.for_upload(path.parent, hint="an example reads only the files shipped with it")
        manager.submit_solve(
            session,
            run_id,
            RunRequest(task=path, title=choice or path.stem, model=spec, options=options, paths=policy),
            keys,
        )
        return run_id

    def decide(
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
        from cmbagent.api import PlanDecision

        session = session_of(request)
        run_dir = session.run_dir(run_id or "")
        if run_dir is None or not run_dir.is_dir():
            raise gr.Error("No run is waiting for a decision.")
        _, keys = model_spec(provider, model_name, base_url, api_key, model_hosts=settings.model_hosts)
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
        check_stored_models(run_dir, settings.model_hosts)
        manager.submit_resume(session, run_id or "", decision, resume_keys(keys), sandbox=settings.sandbox)
        return run_id

    @_friendly
    def approve(
        run_id: str | None,
        table: Any,
        comment: str,
        provider: str,
        model_name: str,
        base_url: str,
        api_key: str,
        request: gr.Request,
    ) -> str | None:
        return decide("approve", run_id, table, comment, provider, model_name, base_url, api_key, request)

    @_friendly
    def reject(
        run_id: str | None,
        table: Any,
        comment: str,
        provider: str,
        model_name: str,
        base_url: str,
        api_key: str,
        request: gr.Request,
    ) -> str | None:
        return decide("reject", run_id, table, comment, provider, model_name, base_url, api_key, request)

    @_friendly
    def resume_run(
        run_id: str | None, provider: str, model_name: str, base_url: str, api_key: str, request: gr.Request
    ) -> tuple[Any, ...]:
        session = session_of(request)
        run_dir = session.run_dir(run_id or "")
        if run_dir is None or not run_dir.is_dir():
            raise gr.Error("Pick one of your runs first.")
        if (read_run_json(run_dir).get("status") or "") == "awaiting_approval":
            raise gr.Error("This run waits for your plan decision: open it and approve or reject the plan.")
        _, keys = model_spec(provider, model_name, base_url, api_key, model_hosts=settings.model_hosts)
        check_stored_models(run_dir, settings.model_hosts)
        manager.submit_resume(session, run_id or "", None, resume_keys(keys), sandbox=settings.sandbox)
        return run_id, gr.Tabs(selected="run")

    def cancel_run(run_id: str | None, request: gr.Request) -> str | None:
        session = session_of(request)
        if session.run_dir(run_id or "") is None:
            raise gr.Error("No run is open.")
        try:
            gr.Info(manager.cancel(session, run_id or ""))
        except ValueError as exc:
            raise gr.Error(str(exc)) from None
        return run_id

    def open_run(run_id: str | None, request: gr.Request) -> tuple[Any, ...]:
        session = session_of(request)
        run_dir = session.run_dir(run_id or "")
        if run_dir is None or not (run_dir.is_dir() or manager.handle(session, run_id or "")):
            raise gr.Error("Pick one of your runs first.")
        return run_id, gr.Tabs(selected="run")

    def refresh_runs(shown: str | None, request: gr.Request) -> tuple[Any, ...]:
        runs = list_runs(session_of(request), manager)
        ids = [r.run_id for r in runs]
        chosen = shown if shown in ids else (ids[0] if ids else None)
        return _runs_table(runs), gr.update(choices=ids, value=chosen)

    follow = LiveFeed(manager, session_of, prefix=prefix).follow

    # -- layout ----------------------------------------------------------------------------------------------

    with gr.Blocks(
        title="cmbagent", analytics_enabled=False, fill_width=True, delete_cache=(3600, 3600)
    ) as demo:
        header = gr.HTML(elem_id="cmb-header")
        current = gr.State(None)
        with gr.Tabs(selected="run") as tabs:
            with gr.Tab("Run", id="run"), gr.Row(equal_height=False):
                with gr.Column(scale=2, min_width=340):
                    # plain components, not gr.Chatbot/gr.MultimodalTextbox: their bundles bring media players
                    # (hls.js, audio) this page never uses, a third of its script weight
                    chat = gr.HTML(render_chat([]), elem_id="cmb-chat")
                    with gr.Row(equal_height=True):
                        task_box = gr.Textbox(
                            placeholder="Describe a task (Enter sends), or attach a task.md and its data files below",
                            show_label=False,
                            lines=1,
                            max_lines=8,
                            scale=5,
                            elem_id="cmb-task",
                        )
                        send_btn = gr.Button(
                            "Send", variant="primary", scale=1, min_width=80, elem_id="cmb-send"
                        )
                    # a gr.File that takes only this app's own uploads: the client names the paths it sends
                    uploads = AttachedFiles(
                        label="Attach a task.md and data files",
                        file_count="multiple",
                        type="filepath",
                        height=140,
                        elem_id="cmb-files",
                    )
                    with gr.Row():
                        example_pick = gr.Dropdown(
                            choices=list(examples),
                            value=next(iter(examples), None),
                            label="Examples",
                            scale=3,
                            visible=bool(examples),
                            elem_id="cmb-example",
                        )
                        example_btn = gr.Button(
                            "Run example", scale=1, visible=bool(examples), elem_id="cmb-run-example"
                        )
                    with gr.Accordion("Settings", open=False, elem_id="cmb-settings"):
                        provider, model_default = _default_provider(settings.default_model)
                        offered = ui_providers()
                        provider_pick = gr.Dropdown(
                            [p.name for p in offered],
                            value=provider,
                            label="Model provider",
                            elem_id="cmb-provider",
                        )
                        model_name = gr.Textbox(
                            value=model_default,
                            label="Model",
                            placeholder=", ".join(p.default_model for p in offered if p.default_model)
                            + ", llama3.1:8b",
                            elem_id="cmb-model",
                        )
                        base_url = gr.Textbox(
                            label="Base URL (OpenAI-compatible servers)",
                            placeholder="http://127.0.0.1:11434/v1",
                            elem_id="cmb-base-url",
                        )
                        api_key = gr.Textbox(
                            label="API key (kept in this browser tab's memory only; never stored)",
                            type="password",
                            elem_id="cmb-api-key",
                        )
                        with gr.Row():
                            budget_usd = gr.Number(
                                label="Budget (USD; 0 = none)", value=settings.max_budget_usd, minimum=0
                            )
                            budget_tokens = gr.Number(
                                label="Budget (tokens; 0 = none)", precision=0, minimum=0
                            )
                            timeout_min = gr.Number(label="Time limit (min; 0 = none)", minimum=0)
                        n_reviews = gr.Slider(0, 3, value=1, step=1, label="Plan review rounds")
                        approve_plan = gr.Checkbox(
                            label="Let me approve the plan", elem_id="cmb-approve-plan"
                        )
                with gr.Column(scale=3, min_width=420):
                    status = gr.HTML(elem_id="cmb-status")
                    cancel_btn = gr.Button("Cancel run", variant="stop", size="sm", elem_id="cmb-cancel")
                    with gr.Group(visible=False, elem_id="cmb-approval") as approval:
                        gr.Markdown(
                            "**The plan waits for you.** Edit cells of the table to change steps, then approve; or reject with a comment."
                        )
                        plan_table = gr.Dataframe(
                            headers=PLAN_COLUMNS,
                            datatype=["str"] * len(PLAN_COLUMNS),
                            interactive=True,
                            wrap=True,
                            elem_id="cmb-plan-table",
                            column_widths=["8%", "22%", "15%", "30%", "25%"],
                            column_count=len(PLAN_COLUMNS),
                        )
                        comment = gr.Textbox(label="Comment", lines=2, elem_id="cmb-comment")
                        with gr.Row():
                            approve_btn = gr.Button("Approve plan", variant="primary", elem_id="cmb-approve")
                            reject_btn = gr.Button("Reject plan", variant="stop", elem_id="cmb-reject")
                    plan_html = gr.HTML(elem_id="cmb-plan")
                    steps_html = gr.HTML(elem_id="cmb-steps")
                    gr.Markdown("### Figures")
                    gallery_html = gr.HTML(elem_id="cmb-gallery")
                    gr.Markdown("### Report")
                    report_md = gr.Markdown(
                        elem_id="cmb-report",
                        latex_delimiters=[
                            {"left": "$$", "right": "$$", "display": True},
                            {"left": "$", "right": "$", "display": False},
                        ],
                    )
                    downloads_html = gr.HTML(elem_id="cmb-downloads")
            with gr.Tab("Runs", id="runs") as runs_tab:
                runs_table = gr.Dataframe(
                    headers=RUN_COLUMNS, interactive=False, wrap=True, elem_id="cmb-runs"
                )
                with gr.Row():
                    run_pick = gr.Dropdown(choices=[], label="Run", scale=3, elem_id="cmb-run-pick")
                    open_btn = gr.Button("Open", scale=1, elem_id="cmb-open")
                    resume_btn = gr.Button("Resume", scale=1, elem_id="cmb-resume")
                    refresh_btn = gr.Button("Refresh", scale=1, elem_id="cmb-refresh")
            view_outputs = [status, chat, plan_html, steps_html, gallery_html, report_md, downloads_html, approval,
                            plan_table]
            build_ideas_tab(settings=settings, store=store, manager=manager, ideas=ideas, examples=examples,
                            session_of=session_of, key_inputs=[provider_pick, model_name, base_url, api_key],
                            budget_inputs=[budget_usd, budget_tokens, timeout_min], current=current, tabs=tabs,
                            follow=follow, view_outputs=view_outputs, options=_options)
            build_evals_tab(settings)

        settings_inputs = [
            provider_pick,
            model_name,
            base_url,
            api_key,
            budget_usd,
            budget_tokens,
            timeout_min,
            n_reviews,
            approve_plan,
        ]
        key_inputs = [provider_pick, model_name, base_url, api_key]
        follow_kw: dict[str, Any] = {"show_progress": "hidden", "concurrency_limit": None, "queue": True}
        quiet: dict[str, Any] = {"show_progress": "hidden", "concurrency_limit": None}

        demo.load(on_load, None, [header, runs_table, run_pick, current], **quiet).then(
            follow, current, view_outputs, **follow_kw
        )
        for trigger in (task_box.submit, send_btn.click):
            trigger(
                submit_task, [task_box, uploads, *settings_inputs], [current, task_box, uploads], **quiet
            ).then(follow, current, view_outputs, **follow_kw)
        example_btn.click(run_example, [example_pick, *settings_inputs], current, **quiet).then(
            follow, current, view_outputs, **follow_kw
        )
        decision_inputs = [current, plan_table, comment, *key_inputs]
        approve_btn.click(approve, decision_inputs, current, **quiet).then(
            follow, current, view_outputs, **follow_kw
        )
        reject_btn.click(reject, decision_inputs, current, **quiet).then(
            follow, current, view_outputs, **follow_kw
        )
        open_btn.click(open_run, run_pick, [current, tabs], **quiet).then(
            follow, current, view_outputs, **follow_kw
        )
        resume_btn.click(resume_run, [run_pick, *key_inputs], [current, tabs], **quiet).then(
            follow, current, view_outputs, **follow_kw
        )
        cancel_btn.click(cancel_run, current, current, **quiet)
        refresh_btn.click(refresh_runs, current, [runs_table, run_pick], **quiet)
        runs_tab.select(refresh_runs, current, [runs_table, run_pick], **quiet)
        runs_table.select(_pick_row, None, run_pick, **quiet)
        provider_pick.change(_provider_changed, provider_pick, [model_name, base_url], **quiet)
    return demo


def _staging_root(session: Session) -> Path:
    """``<session>/.staging``, a real folder (a link there would put a submission's files elsewhere)."""
    root = session.root / ".staging"
    if root.is_symlink():
        root.unlink()
    root.mkdir(exist_ok=True)
    return root


def _friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Show a caller's mistake (``UserError``) as a message in the page instead of a generic error."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except UserError as exc:
            raise gr.Error(str(exc)) from exc

    return wrapper


def _pick_row(evt: gr.SelectData) -> Any:
    row = getattr(evt, "row_value", None)
    return gr.update(value=row[0]) if row else gr.skip()


def _provider_changed(provider: str) -> tuple[Any, Any]:
    from cmbagent.models import get_provider

    row = get_provider(provider)
    default = (row.default_model or "") if row is not None else ""
    return gr.update(value=default), gr.update(visible=bool(row is not None and row.takes_base_url))


def _default_provider(spec: str) -> tuple[str, str]:
    from cmbagent.exceptions import UserError
    from cmbagent.models import fallback_provider, parse_spec

    offered = {p.name for p in ui_providers()}
    try:
        parsed = parse_spec(spec)
    except UserError:
        parsed = None
    if parsed is not None and parsed.provider in offered:
        return parsed.provider, "" if parsed.model == parsed.provider else parsed.model
    fallback = fallback_provider()
    return (fallback.name if fallback else ""), ""


def _options(
    settings: UISettings,
    budget_usd: float | None,
    budget_tokens: float | None,
    timeout_min: float | None,
    n_reviews: float,
    approve_plan: bool,
) -> dict[str, Any]:
    cap = settings.max_budget_usd
    usd = float(budget_usd) if budget_usd else None
    if cap is not None:
        usd = min(usd, cap) if usd is not None else cap
    return {
        "budget_usd": usd,
        "budget_tokens": int(budget_tokens) if budget_tokens else None,
        "timeout": float(timeout_min) * 60 if timeout_min else None,
        "n_reviews": int(n_reviews),
        "approve_plan": bool(approve_plan),
        "sandbox": settings.sandbox,
    }


def _runs_table(runs: list[Any]) -> list[list[str]]:
    rows = []
    for r in runs:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.started)) if r.started else ""
        duration = f"{r.duration_s:.0f} s" if r.duration_s is not None else ""
        rows.append([r.run_id, r.title, r.status, fmt_cost(r.cost_usd), duration, started])
    return rows
