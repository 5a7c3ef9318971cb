"""HTML for the live run view, drawn from a :class:`RunView` and the run folder.

Everything that comes from a run (model text, code, outputs, file names) is escaped; files are linked only
through the session-checked ``/cmbagent/files/<run>/<path>`` route, never by a server path.
"""

from __future__ import annotations

import html
import re
import stat
import time
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from cmbagent.exceptions import PathError
from cmbagent.paths import read_beneath
from cmbagent.ui._view import CellView, RunView, StepView

__all__ = [
    "file_url",
    "render_chat",
    "render_downloads",
    "render_gallery",
    "render_plan",
    "render_report",
    "render_status",
    "render_steps",
    "run_relative",
]

_CODE_LIMIT = 20_000
_REPORT_LIMIT = 4 << 20
_ICON = {"done": "✓", "failed": "✗", "skipped": "⤼", "running": "●", "pending": "○", "error": "✗"}
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def file_url(prefix: str, run_id: str, relative: str, *, download: bool = False) -> str:
    url = f"{prefix}/cmbagent/files/{quote(run_id)}/{quote(relative)}"
    return url + ("?download=1" if download else "")


def figure_url(prefix: str, run_id: str, run_dir: Path, relative: str) -> str:
    """The URL of a figure, versioned by the file's size and time of change.

    A figure can be listed while its cell is still writing it, or be rewritten when a step runs again. The version
    gives the browser a new address then, so it fetches the figure again instead of keeping a half-written or old
    image that it already holds.
    """
    try:
        stat = (run_dir / relative).lstat()
    except OSError:
        return file_url(prefix, run_id, relative)
    return file_url(prefix, run_id, relative) + f"?v={stat.st_size}-{stat.st_mtime_ns}"


def run_relative(run_dir: Path, path: str) -> str | None:
    """A path from an event as a path relative to the run folder (None if it points elsewhere)."""
    if not path:
        return None
    p = Path(path)
    if p.is_absolute():
        try:
            return p.resolve().relative_to(run_dir.resolve()).as_posix()
        except (ValueError, OSError):
            return None
    rel = p.as_posix()
    return None if rel.startswith("../") or "/../" in rel else rel


def _fmt_duration(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    seconds = max(0.0, float(seconds))
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {sec:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def fmt_cost(usd: float | None) -> str:
    return "–" if usd is None else f"${usd:.4f}" if usd < 1 else f"${usd:.2f}"


def render_status(
    view: RunView,
    *,
    state: str,
    queue_position: int | None = None,
    error: str | None = None,
    now: float | None = None,
    started: float | None = None,
    ended: float | None = None,
    title: str = "",
) -> str:
    """The header of a run: status, elapsed time, cost; carries ``data-last-seq`` for latency probes."""
    now = time.time() if now is None else now
    elapsed: float | None = None
    if view.finished and view.finished.get("duration_s") is not None:
        elapsed = float(view.finished["duration_s"])
    elif state == "running" and (view.started_ts or started):
        elapsed = now - float(view.started_ts or started or now)
    elif view.started_ts is not None:  # resting (e.g. awaiting approval): the clock stops at the last event
        elapsed = view.last_ts - view.started_ts
    elif started is not None:
        elapsed = (ended or now) - started
    parts = [
        f'<span class="cmb-badge cmb-{esc(state)}">{esc(state.replace("_", " "))}</span>',
        f'<span class="cmb-title">{esc(view.title or title or view.run_id)}</span>',
        f'<span class="cmb-meta" data-testid="elapsed">elapsed {_fmt_duration(elapsed)}</span>',
        f'<span class="cmb-meta" data-testid="cost">{fmt_cost(view.cost_usd)}</span>',
    ]
    if view.tokens:
        parts.append(f'<span class="cmb-meta">{view.tokens:,} tokens · {view.model_calls} calls</span>')
    if view.model:
        parts.append(f'<span class="cmb-meta">model {esc(view.model)}</span>')
    lines = ['<div class="cmb-status-row">' + " ".join(parts) + "</div>"]
    if queue_position is not None:
        lines.append(
            f'<div class="cmb-queue" data-testid="queue">Waiting for a free worker: place {queue_position} in the queue.</div>'
        )
    if state == "awaiting_approval":
        lines.append('<div class="cmb-note">The plan waits for your approval below.</div>')
    for warning in view.warnings[-3:]:
        lines.append(
            f'<div class="cmb-warn">Budget warning: {esc(warning.get("kind"))} '
            f"{esc(warning.get('spent'))} of {esc(warning.get('limit'))}</div>"
        )
    if error:
        lines.append(f'<div class="cmb-error">{esc(error)}</div>')
    return (
        f'<div class="cmb-status" data-run="{esc(view.run_id)}" data-state="{esc(state)}" '
        f'data-last-seq="{view.last_seq}" data-last-ts="{view.last_ts:.6f}">' + "".join(lines) + "</div>"
    )


def render_chat(messages: list[dict[str, str]]) -> str:
    """The conversation as bubbles (escaped).  Written newest first into a ``column-reverse`` box, so the
    browser shows them in order and keeps the newest in view without any script."""
    if not messages:
        return (
            '<div class="cmb-chat"><div class="cmb-msg cmb-assistant">Describe a task, attach a task.md with its '
            "data files, or run an example. I will plan it, run each step in a sandbox, check the results and "
            "write a report.</div></div>"
        )
    bubbles = "".join(
        f'<div class="cmb-msg cmb-{esc(m.get("role", "assistant"))}">{esc(m.get("content", ""))}</div>'
        for m in reversed(messages)
    )
    return f'<div class="cmb-chat">{bubbles}</div>'


def render_plan(view: RunView) -> str:
    if not view.plan:
        return '<div class="cmb-empty">No plan yet.</div>'
    rows = []
    for n, raw in enumerate(view.plan.get("steps") or [], 1):
        if not isinstance(raw, dict):
            continue
        step = view.steps.get(str(raw.get("id")))
        status = step.status if step else "pending"
        method = raw.get("method") or {}
        method_name = method.get("name") if isinstance(method, dict) else None
        rows.append(
            "<tr>"
            f"<td>{n}</td><td><code>{esc(raw.get('id', ''))}</code></td>"
            f"<td>{esc(raw.get('title', ''))}</td><td>{esc(raw.get('agent', ''))}"
            + (f"<br><small><code>{esc(method_name)}</code></small>" if method_name else "")
            + f"</td><td>{esc(raw.get('goal', ''))}</td>"
            f'<td class="cmb-st cmb-{esc(status)}">{_ICON.get(status, "")} {esc(status)}</td>'
            "</tr>"
        )
    out = [
        f'<div class="cmb-plan" data-seq="{view.plan_seq}"><h4>Plan (round {view.plan_round})</h4>',
    ]
    if view.plan.get("rationale"):
        out.append(f'<p class="cmb-rationale">{esc(view.plan["rationale"])}</p>')
    out.append(
        '<table class="cmb-table"><thead><tr><th>#</th><th>id</th><th>title</th><th>agent</th>'
        "<th>goal</th><th>status</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
    for review in view.reviews:
        verdict = "approved" if review.get("approved") else "asked for changes"
        comments = "".join(f"<li>{esc(c)}</li>" for c in review.get("comments") or [])
        out.append(
            f'<div class="cmb-review" data-seq="{review.get("seq")}">Review round {esc(review.get("round"))}: '
            f"<b>{verdict}</b>" + (f"<ul>{comments}</ul>" if comments else "") + "</div>"
        )
    if view.approval:
        who = view.approval.get("by") or "auto"
        edited = " (edited)" if view.approval.get("edited") else ""
        comment = view.approval.get("comment")
        out.append(
            f'<div class="cmb-approved">Plan approved by {esc(who)}{edited}'
            + (f": {esc(comment)}" if comment else "")
            + "</div>"
        )
    for replan in view.replans:
        out.append(
            f'<div class="cmb-replan" data-seq="{replan.get("seq")}">Replanned: {esc(replan.get("reason", ""))}'
            f" — skipped {esc(', '.join(map(str, replan.get('skipped') or [])) or 'none')}, "
            f"new {esc(', '.join(map(str, replan.get('new_steps') or [])) or 'none')}</div>"
        )
    out.append("</div>")
    return "".join(out)


def _read_cell(run_dir: Path, rel: str) -> str | None:
    """A cell's code, read without following links (sandboxed code can write the run folder)."""
    try:
        return read_beneath(run_dir, rel, limit=_CODE_LIMIT * 4 + 4).decode("utf-8", errors="replace")
    except (OSError, PathError):
        return None


@lru_cache(maxsize=512)
def _highlight(code: str) -> str:
    if len(code) > _CODE_LIMIT:
        code = code[:_CODE_LIMIT] + "\n# … (truncated; the full cell is in the run folder)\n"
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    return highlight(
        code, PythonLexer(), HtmlFormatter(noclasses=True, style="friendly", cssclass="cmb-code")
    )


def _cell_html(run_dir: Path, step: StepView, n: int, cell: CellView, prefix: str, run_id: str) -> str:
    rel = run_relative(run_dir, cell.cell)
    code = '<pre class="cmb-code">(no code)</pre>'
    if rel:
        text = _read_cell(run_dir, rel)
        code = _highlight(text) if text is not None else '<pre class="cmb-code">(cell file not found)</pre>'
    ok = cell.status in ("ok", "done", "success")
    duration = f" · {cell.duration_s:.2f} s" if isinstance(cell.duration_s, int | float) else ""
    out = [
        f'<details class="cmb-cell" id="cell-{esc(run_id)}-{esc(step.step_id)}-{n}" data-seq="{cell.seq}">'
        f'<summary><span class="cmb-st cmb-{"done" if ok else "failed"}">{"✓" if ok else "✗"}</span> '
        f"cell {n} (attempt {cell.attempt}) <code>{esc(rel or cell.cell)}</code> — {esc(cell.status)}{duration}</summary>",
        code,
    ]
    if cell.stdout_tail:
        out.append(f'<pre class="cmb-out">{esc(cell.stdout_tail)}</pre>')
    if cell.error:
        out.append(f'<pre class="cmb-err">{esc(cell.error)}</pre>')
    out.append("</details>")
    for image in cell.images:
        image_rel = run_relative(run_dir, image)
        if image_rel and image_rel.lower().endswith(IMAGE_SUFFIXES):
            out.append(
                f'<img class="cmb-inline-fig" loading="lazy" alt="{esc(image_rel)}" '
                f'src="{esc(figure_url(prefix, run_id, run_dir, image_rel))}">'
            )
    return "".join(out)


def render_steps(view: RunView, run_dir: Path, *, prefix: str = "") -> str:
    if not view.steps:
        return '<div class="cmb-empty">No steps yet.</div>'
    out = []
    for number, step in enumerate(view.steps.values(), 1):
        status = step.status
        head = (
            f'<div class="cmb-step cmb-step-{esc(status)}" data-step="{esc(step.step_id)}" data-seq="{step.seq}">'
            f'<div class="cmb-step-head"><span class="cmb-st cmb-{esc(status)}">{_ICON.get(status, "")}</span> '
            f"<b>Step {number}: {esc(step.title or step.step_id)}</b> "
            f'<span class="cmb-meta">{esc(step.agent)} · {esc(status)}'
            + (f" · attempt {step.attempt}" if step.attempt > 1 else "")
            + "</span></div>"
        )
        body = [head]
        if step.goal:
            body.append(f'<div class="cmb-goal">{esc(step.goal)}</div>')
        for n, cell in enumerate(step.cells, 1):
            body.append(_cell_html(run_dir, step, n, cell, prefix, view.run_id))
        if step.heartbeat and status == "running":
            last = step.heartbeat.get("last_line") or ""
            body.append(f'<div class="cmb-meta cmb-heartbeat">cell running for '
                        f'{esc(_fmt_duration(step.heartbeat.get("elapsed_s")))}'
                        + (f" — last output: <code>{esc(last)}</code>" if last else " — no output yet") + "</div>")
        body.append(_step_figures(run_dir, step, prefix, view.run_id))
        for critique in step.critiques:
            accepted = bool(critique.get("accepted"))
            issues = "".join(f"<li>{esc(i)}</li>" for i in critique.get("issues") or [])
            body.append(
                f'<div class="cmb-critic cmb-{"done" if accepted else "failed"}" data-seq="{critique.get("seq")}">'
                f"Critic: <b>{'accepted' if accepted else 'not accepted'}</b> — {esc(critique.get('verdict', ''))}"
                + (f"<ul>{issues}</ul>" if issues else "")
                + "</div>"
            )
        if step.findings:
            body.append(_findings_html(step.findings, run_dir, prefix, view.run_id))
        if step.summary:
            body.append(f'<div class="cmb-summary">{esc(step.summary)}</div>')
        if step.values:
            body.append(_values_html(step.values))
        body.append("</div>")
        out.append("".join(body))
    if view.findings:
        out.append('<div class="cmb-step"><div class="cmb-step-head"><b>Report findings</b></div>'
                   + _findings_html(view.findings, run_dir, prefix, view.run_id) + "</div>")
    if view.text and not view.finished:
        out.append(
            f'<div class="cmb-stream"><span class="cmb-meta">{esc(view.text_agent)} is writing…</span>'
            f"<pre>{esc(view.text[-1500:])}</pre></div>"
        )
    return "".join(out)


def _findings_html(findings: list[dict[str, Any]], run_dir: Path, prefix: str, run_id: str) -> str:
    """The audits' findings of a step (errors first), each with its code, message, settle check and cell link."""
    order = {"error": 0, "warning": 1, "note": 2}
    rows = []
    for f in sorted(findings, key=lambda f: order.get(str(f.get("severity")), 3)):
        severity = str(f.get("severity") or "note")
        cell = run_relative(run_dir, str(f.get("cell") or "")) if f.get("cell") else None
        link = (f' <a href="{esc(file_url(prefix, run_id, cell))}" target="_blank">{esc(Path(cell).name)}</a>'
                if cell else "")
        settle = f'<div class="cmb-meta">To settle it: {esc(f.get("settle"))}</div>' if f.get("settle") else ""
        source = f' <span class="cmb-meta">(raised by {esc(f.get("source"))})</span>' \
            if f.get("source") not in (None, "audit") else ""
        rows.append(f'<li class="cmb-finding cmb-finding-{esc(severity)}" data-code="{esc(f.get("code"))}">'
                    f'<b>{esc(severity)}</b> <code>{esc(f.get("code"))}</code>: {esc(f.get("message"))}'
                    f"{source}{link}{settle}</li>")
    return f'<div class="cmb-findings">Findings<ul>{"".join(rows)}</ul></div>'


def _step_figures(run_dir: Path, step: StepView, prefix: str, run_id: str) -> str:
    """Figures a step saved under ``figures/<its step folder>/`` (methods write there), as thumbnails."""
    folders = set()
    for cell in step.cells:
        parts = Path(run_relative(run_dir, cell.cell) or "").parts
        if len(parts) > 1 and parts[0] == "steps":
            folders.add(parts[1])
    shown = {image for cell in step.cells for image in cell.images}
    out = []
    for folder in sorted(folders):
        path = run_dir / "figures" / folder
        if not path.is_dir():
            continue
        for figure in sorted(p for p in path.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES):
            rel = figure.relative_to(run_dir).as_posix()
            if rel not in shown:
                out.append(
                    f'<img class="cmb-inline-fig" loading="lazy" alt="{esc(rel)}" '
                    f'src="{esc(figure_url(prefix, run_id, run_dir, rel))}">'
                )
    return "".join(out)


def _values_html(values: dict[str, Any]) -> str:
    rows = []
    for key, value in list(values.items())[:40]:
        if isinstance(value, dict) and "mean" in value:
            shown = f"{_num(value.get('mean'))} ± {_num(value.get('std'))}"
        else:
            shown = _num(value)
        rows.append(f"<tr><td><code>{esc(key)}</code></td><td>{esc(shown)}</td></tr>")
    return '<table class="cmb-values">' + "".join(rows) + "</table>"


def _num(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)[:200]


def _plain(path: Path) -> bool:
    """A regular file that is not a link (a link's target is none of the run's business)."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def figure_paths(view: RunView, run_dir: Path) -> list[str]:
    """Figures of the run, in the order they were made: from cell events, then any others in figures/."""
    seen: list[str] = []
    for image in view.figures:
        rel = run_relative(run_dir, image)
        if rel and rel.lower().endswith(IMAGE_SUFFIXES) and rel not in seen:
            seen.append(rel)
    folder = run_dir / "figures"
    if folder.is_dir():
        extra = sorted(
            (p for p in folder.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES and _plain(p)),
            key=lambda p: (p.lstat().st_mtime, p.name),
        )
        for path in extra:
            rel = path.relative_to(run_dir).as_posix()
            if rel not in seen:
                seen.append(rel)
    return seen


def render_gallery(view: RunView, run_dir: Path, *, prefix: str = "") -> str:
    figures = figure_paths(view, run_dir)
    if not figures:
        return '<div class="cmb-empty">No figures yet.</div>'
    tiles = []
    for rel in figures:
        url = esc(figure_url(prefix, view.run_id, run_dir, rel))
        tiles.append(
            f'<figure class="cmb-tile"><a href="{url}" target="_blank" rel="noopener">'
            f'<img loading="lazy" src="{url}" alt="{esc(rel)}"></a><figcaption>{esc(Path(rel).name)}</figcaption></figure>'
        )
    return f'<div class="cmb-gallery" data-count="{len(figures)}">' + "".join(tiles) + "</div>"


def render_downloads(run_id: str, run_dir: Path, *, prefix: str = "") -> str:
    if not run_dir.is_dir():
        return ""
    links = [
        f'<a class="cmb-dl" data-testid="download-zip" href="{esc(prefix)}/cmbagent/download/{esc(quote(run_id))}.zip" '
        f'download="{esc(run_id)}.zip">⬇ Run folder (.zip)</a>'
    ]
    if (run_dir / "notebook.ipynb").is_file():
        links.append(
            f'<a class="cmb-dl" data-testid="download-notebook" '
            f'href="{esc(file_url(prefix, run_id, "notebook.ipynb", download=True))}" download="notebook.ipynb">'
            "⬇ Notebook (.ipynb)</a>"
        )
    if (run_dir / "report.md").is_file():
        links.append(
            f'<a class="cmb-dl" href="{esc(file_url(prefix, run_id, "report.md", download=True))}" '
            'download="report.md">⬇ Report (.md)</a>'
        )
    return '<div class="cmb-downloads">' + " ".join(links) + "</div>"


_LINK_RE = re.compile(r"(!?\[[^\]]*\]\()(<?)([^)\s>]+)(>?)")


def render_report(run_id: str, run_dir: Path, *, prefix: str = "") -> str:
    """The report's markdown with relative links pointed at the session-checked file route."""
    try:  # never through a link: a report.md planted as a link to a server file must not be shown
        text = read_beneath(run_dir, "report.md", limit=_REPORT_LIMIT).decode("utf-8", errors="replace")
    except (OSError, PathError):
        return ""

    def relink(match: re.Match[str]) -> str:
        target = match.group(3)
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^#|^/", target):
            return match.group(0)
        rel = run_relative(run_dir, target.split("#", 1)[0])
        if rel is None:
            return match.group(0)
        return f"{match.group(1)}{match.group(2)}{file_url(prefix, run_id, rel)}{match.group(4)}"

    return _LINK_RE.sub(relink, text)
