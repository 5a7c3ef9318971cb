"""The Gradio Blocks: chat, settings, live run view, plan approval, the Runs page, the Ideas and Evals tabs.

:func:`build_blocks` lays out one tab after another (a builder each: :func:`_build_run_tab`,
:func:`_build_runs_tab`, then :mod:`cmbagent.ui._ideas` and :mod:`cmbagent.ui._evals`) and then wires the Run
and Runs tabs' events to the handlers of :class:`cmbagent.ui._handlers.RunHandlers`.  The order in which events
are wired is the order of the app's API endpoints (``/follow``, ``/follow_1``, ...), so it is kept.  The live
view of a run is streamed by :class:`cmbagent.ui._live.LiveFeed`.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr

from cmbagent.ui._evals import build_evals_tab
from cmbagent.ui._handlers import RUN_COLUMNS, RunHandlers, run_options
from cmbagent.ui._ideas import IdeasManager, build_ideas_tab
from cmbagent.ui._live import LiveFeed
from cmbagent.ui._render import render_chat
from cmbagent.ui._runs import RunManager
from cmbagent.ui._sessions import SessionStore
from cmbagent.ui._settings import UISettings
from cmbagent.ui._tasks import PLAN_COLUMNS, example_tasks, ui_providers
from cmbagent.ui._uploads import AttachedFiles

__all__ = ["build_blocks"]

#: how every event but a live view runs: no spinner, no queue limit; a live view streams through the queue
_QUIET: dict[str, Any] = {"show_progress": "hidden", "concurrency_limit": None}
_FOLLOW: dict[str, Any] = {**_QUIET, "queue": True}


@dataclass
class _RunSettings:
    """The Run tab's settings accordion: the model and its key, the budgets, the review rounds, plan approval."""

    provider: Any
    model_name: Any
    base_url: Any
    api_key: Any
    budget_usd: Any
    budget_tokens: Any
    timeout_min: Any
    n_reviews: Any
    approve_plan: Any

    @property
    def keys(self) -> list[Any]:
        return [self.provider, self.model_name, self.base_url, self.api_key]

    @property
    def budgets(self) -> list[Any]:
        return [self.budget_usd, self.budget_tokens, self.timeout_min]

    @property
    def inputs(self) -> list[Any]:
        """Every setting, in the order of the submit handlers' parameters."""
        return [*self.keys, *self.budgets, self.n_reviews, self.approve_plan]


@dataclass
class _RunTab:
    """The Run tab's components: the task column (left) and the run's live view (right)."""

    chat: Any
    task_box: Any
    send_btn: Any
    uploads: Any
    example_pick: Any
    example_btn: Any
    settings: _RunSettings
    status: Any
    cancel_btn: Any
    approval: Any
    plan_table: Any
    comment: Any
    approve_btn: Any
    reject_btn: Any
    plan_html: Any
    steps_html: Any
    gallery_html: Any
    report_md: Any
    downloads_html: Any

    @property
    def view_outputs(self) -> list[Any]:
        """What a live view updates, in the order of :data:`cmbagent.ui._live.SECTIONS` (then approval, table)."""
        return [self.status, self.chat, self.plan_html, self.steps_html, self.gallery_html, self.report_md,
                self.downloads_html, self.approval, self.plan_table]


@dataclass
class _RunsTab:
    tab: Any
    table: Any
    pick: Any
    open_btn: Any
    resume_btn: Any
    refresh_btn: Any


def build_blocks(settings: UISettings, store: SessionStore, manager: RunManager,
                 ideas: IdeasManager | None = None) -> gr.Blocks:
    examples = example_tasks(settings.examples_dir)
    ideas = ideas or IdeasManager(settings.max_concurrent_runs)
    handlers = RunHandlers(settings, store, manager, examples)
    follow = LiveFeed(manager, handlers.session_of, prefix=settings.root_path.rstrip("/")).follow

    with gr.Blocks(
        title="cmbagent", analytics_enabled=False, fill_width=True, delete_cache=(3600, 3600)
    ) as demo:
        header = gr.HTML(elem_id="cmb-header")
        current = gr.State(None)
        with gr.Tabs(selected="run") as tabs:
            run = _build_run_tab(settings, examples)
            runs = _build_runs_tab()
            build_ideas_tab(settings=settings, store=store, manager=manager, ideas=ideas, examples=examples,
                            session_of=handlers.session_of, key_inputs=run.settings.keys,
                            budget_inputs=run.settings.budgets, current=current, tabs=tabs, follow=follow,
                            view_outputs=run.view_outputs, options=run_options)
            build_evals_tab(settings)
        _wire_run_tab(demo, handlers, run, runs, header, current, follow)
        _wire_runs_tab(handlers, run, runs, current, tabs, follow)
    return demo


def _build_run_tab(settings: UISettings, examples: dict[str, Path]) -> _RunTab:
    """Lay out the Run tab: the task and its settings on the left, the run's live view on the right."""
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
                send_btn = gr.Button("Send", variant="primary", scale=1, min_width=80, elem_id="cmb-send")
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
                example_btn = gr.Button("Run example", scale=1, visible=bool(examples), elem_id="cmb-run-example")
            run_settings = _build_settings(settings)
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
    return _RunTab(chat=chat, task_box=task_box, send_btn=send_btn, uploads=uploads, example_pick=example_pick,
                   example_btn=example_btn, settings=run_settings, status=status, cancel_btn=cancel_btn,
                   approval=approval, plan_table=plan_table, comment=comment, approve_btn=approve_btn,
                   reject_btn=reject_btn, plan_html=plan_html, steps_html=steps_html, gallery_html=gallery_html,
                   report_md=report_md, downloads_html=downloads_html)


def _build_settings(settings: UISettings) -> _RunSettings:
    """The Run tab's settings accordion (its values also drive the Ideas tab and the Runs tab's Resume)."""
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
            placeholder=", ".join(p.default_model for p in offered if p.default_model) + ", llama3.1:8b",
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
            budget_usd = gr.Number(label="Budget (USD; 0 = none)", value=settings.max_budget_usd, minimum=0)
            budget_tokens = gr.Number(label="Budget (tokens; 0 = none)", precision=0, minimum=0)
            timeout_min = gr.Number(label="Time limit (min; 0 = none)", minimum=0)
        n_reviews = gr.Slider(0, 3, value=1, step=1, label="Plan review rounds")
        approve_plan = gr.Checkbox(label="Let me approve the plan", elem_id="cmb-approve-plan")
    return _RunSettings(provider=provider_pick, model_name=model_name, base_url=base_url, api_key=api_key,
                        budget_usd=budget_usd, budget_tokens=budget_tokens, timeout_min=timeout_min,
                        n_reviews=n_reviews, approve_plan=approve_plan)


def _build_runs_tab() -> _RunsTab:
    """Lay out the Runs tab: the session's runs, and a picked one to open, resume or refresh."""
    with gr.Tab("Runs", id="runs") as tab:
        table = gr.Dataframe(headers=RUN_COLUMNS, interactive=False, wrap=True, elem_id="cmb-runs")
        with gr.Row():
            pick = gr.Dropdown(choices=[], label="Run", scale=3, elem_id="cmb-run-pick")
            open_btn = gr.Button("Open", scale=1, elem_id="cmb-open")
            resume_btn = gr.Button("Resume", scale=1, elem_id="cmb-resume")
            refresh_btn = gr.Button("Refresh", scale=1, elem_id="cmb-refresh")
    return _RunsTab(tab=tab, table=table, pick=pick, open_btn=open_btn, resume_btn=resume_btn,
                    refresh_btn=refresh_btn)


def _wire_run_tab(demo: gr.Blocks, handlers: RunHandlers, run: _RunTab, runs: _RunsTab, header: Any, current: Any,
                  follow: Any) -> None:
    """The page load (session header, runs list, the run to show) and the Run tab's events; each event that
    starts or resumes a run then follows it live."""

    def then_follow(event: Any) -> None:
        event.then(follow, current, run.view_outputs, **_FOLLOW)

    then_follow(demo.load(handlers.on_load, None, [header, runs.table, runs.pick, current], **_QUIET))
    for trigger in (run.task_box.submit, run.send_btn.click):
        then_follow(trigger(handlers.submit_task, [run.task_box, run.uploads, *run.settings.inputs],
                            [current, run.task_box, run.uploads], **_QUIET))
    then_follow(run.example_btn.click(handlers.run_example, [run.example_pick, *run.settings.inputs], current,
                                      **_QUIET))
    decision_inputs = [current, run.plan_table, run.comment, *run.settings.keys]
    then_follow(run.approve_btn.click(handlers.approve, decision_inputs, current, **_QUIET))
    then_follow(run.reject_btn.click(handlers.reject, decision_inputs, current, **_QUIET))
    run.cancel_btn.click(handlers.cancel_run, current, current, **_QUIET)
    run.settings.provider.change(_provider_changed, run.settings.provider,
                                 [run.settings.model_name, run.settings.base_url], **_QUIET)


def _wire_runs_tab(handlers: RunHandlers, run: _RunTab, runs: _RunsTab, current: Any, tabs: Any,
                   follow: Any) -> None:
    """The Runs tab's events: open or resume the picked run (then follow it in the Run tab), refresh the list."""
    runs.open_btn.click(handlers.open_run, runs.pick, [current, tabs], **_QUIET).then(
        follow, current, run.view_outputs, **_FOLLOW)
    runs.resume_btn.click(handlers.resume_run, [runs.pick, *run.settings.keys], [current, tabs], **_QUIET).then(
        follow, current, run.view_outputs, **_FOLLOW)
    runs.refresh_btn.click(handlers.refresh_runs, current, [runs.table, runs.pick], **_QUIET)
    runs.tab.select(handlers.refresh_runs, current, [runs.table, runs.pick], **_QUIET)
    runs.table.select(_pick_row, None, runs.pick, **_QUIET)


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
