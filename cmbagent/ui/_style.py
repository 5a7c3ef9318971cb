"""The page's own CSS and a little JavaScript (both inline: the app loads nothing from outside)."""

from __future__ import annotations

__all__ = ["CSS", "HEAD"]

CSS = """
.cmb-ideas-status { padding: 6px 2px; }
.cmb-idea-round { margin: 6px 0; padding: 2px 10px; border-left: 3px solid var(--color-accent); }
.cmb-idea-round[data-agent='idea_hater'] { border-left-color: var(--body-text-color-subdued); }
.cmb-idea-round ol, .cmb-idea-round ul { margin: 2px 0 2px 1.2em; }
.cmb-ideas-table td, .cmb-ideas-table th { padding: 4px 8px; vertical-align: top; }
.cmb-status { display: flex; flex-direction: column; gap: 4px; padding: 6px 2px; }
.cmb-status-row { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; }
.cmb-title { font-weight: 600; margin-right: 12px; }
.cmb-meta { color: var(--body-text-color-subdued); font-size: 0.9em; }
.cmb-badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 0.85em; font-weight: 600;
             background: #e5e7eb; color: #111827; margin-right: 8px; text-transform: uppercase; }
.cmb-badge.cmb-running { background: #dbeafe; color: #1e3a8a; }
.cmb-badge.cmb-queued { background: #fef3c7; color: #78350f; }
.cmb-badge.cmb-done { background: #dcfce7; color: #14532d; }
.cmb-badge.cmb-failed, .cmb-badge.cmb-error { background: #fee2e2; color: #7f1d1d; }
.cmb-badge.cmb-awaiting_approval { background: #ede9fe; color: #4c1d95; }
.cmb-badge.cmb-budget_exhausted, .cmb-badge.cmb-interrupted { background: #ffedd5; color: #7c2d12; }
.cmb-queue, .cmb-note { color: #78350f; }
.cmb-error, .cmb-err { color: #b91c1c; white-space: pre-wrap; }
.cmb-warn { color: #9a3412; }
.cmb-table, .cmb-values { border-collapse: collapse; width: 100%; font-size: 0.92em; margin: 4px 0; }
.cmb-table th, .cmb-table td, .cmb-values td { border: 1px solid var(--border-color-primary); padding: 3px 6px;
             vertical-align: top; text-align: left; }
.cmb-values { width: auto; }
.cmb-st.cmb-done { color: #15803d; } .cmb-st.cmb-failed { color: #b91c1c; }
.cmb-st.cmb-running { color: #1d4ed8; } .cmb-st.cmb-skipped { color: #6b7280; }
.cmb-review, .cmb-approved, .cmb-replan { margin: 4px 0; font-size: 0.92em; }
.cmb-replan { color: #9a3412; }
.cmb-step { border: 1px solid var(--border-color-primary); border-radius: 8px; padding: 6px 10px; margin: 6px 0; }
.cmb-step-running { border-color: #93c5fd; }
.cmb-step-failed { border-color: #fca5a5; }
.cmb-goal { font-size: 0.9em; color: var(--body-text-color-subdued); margin: 2px 0 4px; }
.cmb-cell { margin: 4px 0; }
.cmb-cell > summary { cursor: pointer; font-size: 0.9em; }
.cmb-code { max-height: 420px; overflow: auto; font-size: 0.85em; padding: 6px; border-radius: 6px; margin: 4px 0; }
.cmb-out, .cmb-err, .cmb-stream pre { max-height: 260px; overflow: auto; font-size: 0.82em; padding: 6px;
             background: var(--background-fill-secondary); border-radius: 6px; white-space: pre-wrap; }
.cmb-critic { font-size: 0.9em; margin: 4px 0; }
.cmb-findings { font-size: 0.9em; margin: 4px 0; } .cmb-findings ul { margin: 2px 0 2px 1.2em; padding: 0; }
.cmb-finding-error b { color: #b91c1c; } .cmb-finding-warning b { color: #b45309; } .cmb-finding-note b { color: #475569; }
.cmb-summary { margin: 4px 0; }
.cmb-inline-fig { max-width: 360px; max-height: 260px; margin: 4px; border: 1px solid var(--border-color-primary); }
.cmb-gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 10px; }
.cmb-tile { margin: 0; } .cmb-tile img { width: 100%; border: 1px solid var(--border-color-primary); border-radius: 6px; }
.cmb-tile figcaption { font-size: 0.8em; color: var(--body-text-color-subdued); }
.cmb-downloads { display: flex; gap: 14px; flex-wrap: wrap; padding: 4px 0; }
.cmb-dl { font-weight: 600; }
.cmb-empty { color: var(--body-text-color-subdued); font-size: 0.9em; }
.cmb-session code { user-select: all; }
.cmb-chat { display: flex; flex-direction: column-reverse; gap: 6px; min-height: 160px; max-height: 420px; overflow-y: auto;
            padding: 8px; border: 1px solid var(--border-color-primary); border-radius: 8px; }
.cmb-msg { padding: 6px 10px; border-radius: 10px; max-width: 90%; white-space: pre-wrap; line-height: 1.35; }
.cmb-user { align-self: flex-end; background: var(--color-accent-soft); }
.cmb-assistant { align-self: flex-start; background: var(--background-fill-secondary); }
"""

# Re-rendering a section replaces its HTML; remember which code cells a person opened and keep them open.
HEAD = """
<meta name="referrer" content="no-referrer">
<script>
(() => {
  const open = new Set();
  document.addEventListener("toggle", (event) => {
    const el = event.target;
    if (!(el instanceof HTMLDetailsElement) || !el.id) return;
    if (el.open) open.add(el.id); else open.delete(el.id);
  }, true);
  const reopen = () => {
    for (const id of open) {
      const el = document.getElementById(id);
      if (el && !el.open) el.open = true;
    }
  };
  const start = () => new MutationObserver(reopen).observe(document.body, {childList: true, subtree: true});
  if (document.body) start(); else document.addEventListener("DOMContentLoaded", start);
})();
</script>
"""
