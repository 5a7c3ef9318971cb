"""The deterministic ``offline`` backend: no language model, every judgement made by rules.

It answers each agent's structured request from ``request.metadata`` (the structured context the graph
also renders into the prompt): it maps the task to the method catalogue (front matter ``method:`` wins,
else names, summaries and keywords), fills method arguments from the front matter and the text, writes
code that calls the method's Python API, critiques with the method's own checks plus sanity findings,
and summarises and reports from the result values.  It is honest about its reach: a task it cannot map
raises :class:`TaskError` naming how to configure a real model.  Its calls go through ``ModelClient`` like
any model, so they land in ``transcript.jsonl`` and a run replays.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from cmbagent.agents._schemas import (
    AuditReport,
    CodeDraft,
    CodeReview,
    ControlDecision,
    CriterionResult,
    Critique,
    DebugFix,
    InstallAdvice,
    MethodCallDraft,
    PlanReview,
    ReplanDecision,
    ReportDraft,
    StepSummary,
    TaskBrief,
    TextAnswer,
)
from cmbagent.exceptions import TaskError
from cmbagent.models._protocol import Model, ModelRequest, ModelResponse, StreamCallback, Usage
from cmbagent.planner._plan import MethodCall, Plan, PlanStep

__all__ = ["OfflineModel", "fill_arguments", "match_method", "offline_plan"]

HOW_TO_CONFIGURE = (
    "configure a language model instead: `--model openai:gpt-4.1` with OPENAI_API_KEY set, "
    "`--model anthropic:claude-sonnet-4-5` with ANTHROPIC_API_KEY set, or a local server with "
    "`--model openai-compatible:<model>@<url>` (e.g. Ollama at http://127.0.0.1:11434/v1)"
)
_EXPERTS = {"cosmology": "cosmologist", "causal": "causal_analyst", "anomaly": "anomaly_analyst",
            "robustness": "ml_theorist", "policy": "policy_analyst"}
_BEGIN, _END = "<<<CMBAGENT_RESULT", "CMBAGENT_RESULT>>>"
# failed checks with these words in their name mean the numbers cannot be trusted (not a caveat)
_HARD_CHECKS = ("converg", "rhat", "r_hat", "autocorr", "acceptance", "finite", "nan", "enough_samples",
                "posterior_narrower", "valid")
_ALTERNATIVES = {"seaborn": ["matplotlib"], "lmfit": ["scipy.optimize"], "statsmodels": ["scipy.stats", "numpy"],
                 "sklearn": ["scipy", "numpy"], "tqdm": [], "numba": ["numpy"], "getdist": ["corner", "numpy"],
                 "camb": ["astropy.cosmology"], "pymc": ["emcee"], "dynesty": ["emcee"]}
_IMPORTS = {"np": "import numpy as np", "pd": "import pandas as pd", "plt": "import matplotlib.pyplot as plt",
            "json": "import json", "math": "import math", "os": "import os", "Path": "from pathlib import Path",
            "pathlib": "import pathlib", "scipy": "import scipy", "stats": "from scipy import stats",
            "emcee": "import emcee", "run_method": "from cmbagent.tools.methods import run_method"}


# -- mapping a task to the method catalogue ----------------------------------------------------------------
def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9+]+", text.lower()) if len(w) > 3}


def match_method(text: str, requested: str | None = None) -> str | None:
    """The best method for ``text``: the requested one, else the highest keyword score (None if no keyword hits)."""
    from cmbagent.tools.methods import iter_methods

    specs = list(iter_methods())
    if requested:
        return requested if any(s.name == requested for s in specs) else None
    lowered = text.lower()
    words = _words(text)
    best: tuple[float, str] | None = None
    for spec in specs:
        hits = sum(1 for k in spec.keywords if re.search(r"(?<![a-z0-9])" + re.escape(k.lower()) + r"(?![a-z0-9])", lowered))
        if not hits:
            continue
        score = 3.0 * hits + 0.5 * len(words & _words(spec.summary)) + (2.0 if spec.name.split(".")[1] in lowered else 0.0)
        if best is None or score > best[0]:
            best = (score, spec.name)
    return best[1] if best else None


def _enum(schema: dict[str, Any]) -> list[Any]:
    if "enum" in schema:
        return list(schema["enum"])
    for option in schema.get("anyOf", []):
        if "enum" in option:
            return list(option["enum"])
    return []


def _types(schema: dict[str, Any]) -> set[str]:
    kinds = {schema.get("type")} if schema.get("type") else set()
    kinds |= {o.get("type") for o in schema.get("anyOf", []) if o.get("type")}
    return {k for k in kinds if k}


def _cast(raw: str, kinds: set[str]) -> Any:
    raw = raw.strip().strip("'\"`,.;")
    if "boolean" in kinds and raw.lower() in {"true", "false", "yes", "no"}:
        return raw.lower() in {"true", "yes"}
    if "integer" in kinds and re.fullmatch(r"-?\d+", raw):
        return int(raw)
    if "number" in kinds and re.fullmatch(r"-?\d+(\.\d*)?([eE]-?\d+)?", raw):
        return float(raw)
    return raw if "string" in kinds else None


def fill_arguments(method: str, text: str, given: dict[str, Any], data_files: list[str]) -> dict[str, Any]:
    """Arguments from the front matter, then named values and choices in the text, then the data files."""
    from cmbagent.tools.methods import get_method

    spec = get_method(method)
    args = dict(given)
    lowered = text.lower()
    used = {v for v in args.values() if isinstance(v, str)}
    for name, schema in spec.arguments.items():
        if name in args or name in {"output_dir", "seed", "random_state"}:
            continue
        kinds = _types(schema)
        pattern = re.search(rf"(?<![a-z0-9_]){re.escape(name.lower())}\s*[:=]\s*([^\s,;]+)", lowered)
        if pattern:
            value = _cast(pattern.group(1), kinds)
            if value is not None and (not _enum(schema) or value in _enum(schema)):
                args[name] = value
                continue
        choices = [c for c in _enum(schema) if isinstance(c, str) and c not in {"auto"}]
        found = [c for c in choices if re.search(rf"(?<![a-z0-9_]){re.escape(c.lower())}(?![a-z0-9_])", lowered)]
        if len(found) == 1:
            args[name] = found[0]
            continue
        if "boolean" in kinds and name.startswith(("free_", "fix_", "use_")):
            subject = name.split("_", 1)[1].replace("_", " ")
            verb = name.split("_", 1)[0]
            if re.search(rf"\b{verb}(ed)?\s+{re.escape(subject)}\b", lowered):
                args[name] = True
                continue
        if "string" in kinds and name in spec.required:
            doc = spec.argument_docs.get(name, "").lower()
            if any(w in name for w in ("data", "path", "file", "chain", "table")) or "path" in doc or "file" in doc:
                free = [f for f in data_files if f not in used]
                if free:
                    args[name] = free[0]
                    used.add(free[0])
    return args


def offline_plan(brief: dict[str, Any], max_steps: int = 12) -> Plan:
    """Inspect the data (code) -> run the method (method) -> interpret the results (text)."""
    method = brief.get("method")
    if not method:
        raise TaskError("the offline backend needs a method to plan around; " + HOW_TO_CONFIGURE)
    family = method.split(".")[0]
    data = list(brief.get("data_files") or [])
    steps: list[PlanStep] = []
    if data and max_steps >= 3:
        steps.append(PlanStep(
            id="s1", title="Inspect the input data", agent="data_engineer",
            goal="Load every input file and report its size, columns and any missing or non-finite values.",
            instructions="Read each file with pandas (whitespace or CSV), print shape, columns and a numeric summary.",
            inputs=data, expected_outputs=["row and column counts per file"],
            acceptance_criteria=["every input file was read", "row and column counts are printed"],
        ))
    steps.append(PlanStep(
        id=f"s{len(steps) + 1}", title=f"Run {method}", agent="method_operator",
        goal=f"Run the method tool {method} on the task's inputs and record its values, checks and figures.",
        instructions="Call the registered method with the arguments below; keep the seed fixed.",
        inputs=data, expected_outputs=["result values with uncertainties", "figures"],
        acceptance_criteria=["the method ran without error", "all of the method's own checks pass",
                             "every reported value is finite"],
        method=MethodCall(name=method, arguments=dict(brief.get("arguments") or {})),
    ))
    if max_steps >= 2:
        steps.append(PlanStep(
            id=f"s{len(steps) + 1}", title="Interpret the results", agent=_EXPERTS.get(family, "researcher"),
            goal="Explain what the method's numbers mean for the task's question, with their uncertainties.",
            inputs=[s.id for s in steps], expected_outputs=["a short interpretation"],
            acceptance_criteria=["quotes the key numbers with uncertainties", "states the caveats"],
        ))
    return Plan(steps=steps, rationale=f"The task maps to the method tool {method}; the offline backend plans "
                                       "inspect -> run -> interpret.")


# -- code the offline engineer writes ----------------------------------------------------------------------
def _inspect_code(paths: list[str]) -> str:
    return f'''import json, pathlib
import numpy as np
import pandas as pd

_facts = {{}}
for _path in {paths!r}:
    _p = pathlib.Path(_path)
    _suffix = _p.suffix.lower()
    try:
        if _suffix == ".csv":
            _df = pd.read_csv(_p)
        elif _suffix == ".tsv":
            _df = pd.read_csv(_p, sep="\\t")
        elif _suffix == ".npy":
            _df = pd.DataFrame(np.atleast_2d(np.load(_p)))
        elif _suffix == ".json":
            _df = pd.read_json(_p)
        elif _suffix in (".fits", ".fit"):
            from astropy.table import Table
            _df = Table.read(_p).to_pandas()
        else:  # whitespace text: a first row holding any number is data, not a header
            _first = next((_l for _l in _p.read_text(errors="replace").splitlines()
                           if _l.strip() and not _l.lstrip().startswith("#")), "")
            _numeric = any(_t.lstrip("+-").replace(".", "", 1).replace("e", "", 1).replace("E", "", 1)
                           .replace("-", "", 1).replace("+", "", 1).isdigit() for _t in _first.split())
            _df = pd.read_csv(_p, sep=r"\\s+", comment="#", header=None if _numeric else "infer")
    except Exception as _exc:  # report what can be said about an unreadable file
        _lines = _p.read_bytes().count(b"\\n")
        _facts[_path] = {{"bytes": _p.stat().st_size, "n_lines": _lines, "note": f"{{type(_exc).__name__}}: {{_exc}}"}}
        print(f"{{_path}}: {{_lines}} lines, not parsed as a table ({{type(_exc).__name__}})")
        continue
    _num = _df.select_dtypes("number")
    _missing = int(_df.isna().sum().sum())
    _nonfinite = int((~np.isfinite(_num.to_numpy(dtype=float))).sum()) if not _num.empty else 0
    print(f"{{_path}}: {{_df.shape[0]}} rows x {{_df.shape[1]}} columns")
    print("columns:", ", ".join(map(str, _df.columns[:30])))
    if not _num.empty:
        print(_num.iloc[:, :8].describe().T[["mean", "std", "min", "max"]].to_string())
    _facts[_path] = {{"n_rows": int(_df.shape[0]), "n_columns": int(_df.shape[1]), "n_missing": _missing,
                     "n_nonfinite": _nonfinite}}

print({_BEGIN!r})
print(json.dumps({{"n_files": len(_facts), "files": _facts}}))
print({_END!r})
'''


def _method_code(method: str, arguments: dict[str, Any], result_path: str) -> str:
    args = json.dumps(json.dumps(arguments, sort_keys=True))
    return (f"import json, pathlib\nfrom cmbagent.tools.methods import run_method\n\n"
            f"result = run_method({method!r}, json.loads({args}))\n"
            f"pathlib.Path({result_path!r}).write_text(result.to_json(indent=1))\n"
            f"print(result.summary)\nprint({_BEGIN!r})\n"
            f"print(json.dumps({{'values': result.values, 'checks': [c.model_dump() for c in result.checks]}}))\n"
            f"print({_END!r})\n")


def _plot_code(recent: dict[str, Any], step_dir: str) -> str:
    values = {}
    for record in recent.values():
        for name, value in (record.get("values") or {}).items():
            if isinstance(value, dict) and isinstance(value.get("mean"), (int, float)):
                values[name] = (value["mean"], value.get("std") or 0.0)
    name = f"figures/{step_dir.rsplit('/', 1)[-1]}-values.png"
    return f'''import json
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

_values = {values!r}
fig, ax = plt.subplots(figsize=(5, 0.5 + 0.4 * max(1, len(_values))))
for _i, (_name, (_mean, _std)) in enumerate(sorted(_values.items())):
    ax.errorbar(_mean, _i, xerr=_std, fmt="o", capsize=3)
ax.set_yticks(range(len(_values)), sorted(_values))
ax.set_xlabel("value (mean ± 1σ)")
fig.savefig({name!r}, dpi=120, bbox_inches="tight")
plt.close(fig)
print({_BEGIN!r})
print(json.dumps({{"figures": [{name!r}], "n_values": len(_values)}}))
print({_END!r})
'''


def _fmt(value: Any) -> str:
    if isinstance(value, dict) and isinstance(value.get("mean"), (int, float)) and isinstance(value.get("std"), (int, float)):
        return f"{value['mean']:.4g} ± {value['std']:.2g}"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_fmt(v)}" for k, v in list(value.items())[:4]) + "}"
    return str(value)


def _numbers(values: dict[str, Any], limit: int = 8) -> list[str]:
    return [f"{k} = {_fmt(v)}" for k, v in list(values.items())[:limit] if not isinstance(v, list)]


class OfflineModel(Model):
    """Rule-based answers for every agent of the roster (see the module docstring)."""

    spec = "offline"

    def __init__(self) -> None:
        # tests may slow the backend down to hit kill points deterministically; never set in production
        self._delay = float(os.environ.get("CMBAGENT_OFFLINE_DELAY", "0") or 0)
        self._delay_agents = set(filter(None, os.environ.get("CMBAGENT_OFFLINE_DELAY_AGENTS", "").split(",")))
        self._handlers: dict[str, Callable[[dict[str, Any]], BaseModel]] = {
            "task_analyst": self._brief, "planner": self._plan, "plan_reviewer": self._review,
            "controller": self._control, "replanner": self._replan, "engineer": self._code,
            "data_engineer": self._code, "visualiser": self._code, "code_reviewer": self._code_review,
            "debugger": self._debug, "installer": self._install, "method_operator": self._method_call,
            "step_critic": self._critic, "science_checker": self._critic, "plot_critic": self._plot_critic,
            "summariser": self._summary, "reporter": self._report, "reproducibility_auditor": self._audit,
        }

    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        agent = request.agent or str(request.metadata.get("agent", ""))
        if self._delay and (not self._delay_agents or agent in self._delay_agents):
            time.sleep(self._delay)
        handler = self._handlers.get(agent, self._text)
        output = handler(request.metadata)
        schema = request.output_schema
        if schema is not None and not isinstance(output, schema):
            output = schema.model_validate(output.model_dump())
        text = output.model_dump_json()
        return ModelResponse(text=text, output=output, usage=Usage(), model="offline", cost_usd=0.0)

    # -- planning ---------------------------------------------------------------------------------------
    def _brief(self, meta: dict[str, Any]) -> TaskBrief:
        task = meta.get("task", {})
        text = str(task.get("text", ""))
        method = match_method(f"{task.get('title', '')}\n{text}", task.get("method"))
        if method is None:
            raise TaskError("the offline backend could not map this task to a method tool (it matches the task's "
                            "words against `cmbagent methods list`; name one with front matter `method: ...`), or "
                            + HOW_TO_CONFIGURE)
        data_files = list(task.get("data_files", []))
        arguments = fill_arguments(method, text, dict(task.get("arguments") or {}), data_files)
        first = next((p.strip() for p in text.split("\n\n") if p.strip() and not p.lstrip().startswith("#")), text)
        if len(first) > 600:  # keep whole sentences
            first = first[:600].rsplit(". ", 1)[0] + "."
        return TaskBrief(title=str(task.get("title") or method), objective=first[:600], domain=method.split(".")[0],
                         data_files=data_files, method=method, arguments=arguments,
                         deliverables=["the method's values with uncertainties", "its checks", "its figures"])

    def _plan(self, meta: dict[str, Any]) -> Plan:
        return offline_plan(meta.get("brief", {}), int(meta.get("max_steps", 12)))

    def _review(self, meta: dict[str, Any]) -> PlanReview:
        from cmbagent.agents import load_registry
        from cmbagent.tools.methods import iter_methods

        agents = load_registry().step_agents()
        methods = {s.name for s in iter_methods()}
        comments = []
        for step in meta.get("plan", {}).get("steps", []):
            if step.get("agent") not in agents:
                comments.append(f"{step.get('id')}: agent {step.get('agent')!r} is not in the roster")
            if step.get("method") and step["method"].get("name") not in methods:
                comments.append(f"{step.get('id')}: method {step['method'].get('name')!r} is not registered")
        return PlanReview(approved=not comments, comments=comments)

    def _control(self, meta: dict[str, Any]) -> ControlDecision:
        # the offline engineer is deterministic: retrying the same step would give the same result
        return ControlDecision(action="replan", reason="a deterministic backend cannot do better on a retry")

    def _replan(self, meta: dict[str, Any]) -> ReplanDecision:
        return ReplanDecision(action="skip", reason="the offline backend has no alternative route for this step")

    # -- code -------------------------------------------------------------------------------------------
    def _code(self, meta: dict[str, Any]) -> CodeDraft:
        step = meta.get("step", {})
        step_dir = str(meta.get("step_dir", "steps/step"))
        if meta.get("agent") == "visualiser":
            return CodeDraft(code=_plot_code(meta.get("recent", {}), step_dir), explanation="plots the recent values")
        method = (step.get("method") or {}).get("name")
        if method and meta.get("agent") != "data_engineer":
            args = fill_arguments(method, str(meta.get("task", {}).get("text", "")),
                                  dict((step.get("method") or {}).get("arguments") or {}),
                                  list(meta.get("brief", {}).get("data_files", [])))
            return CodeDraft(code=_method_code(method, args, f"{step_dir}/outputs/result.json"),
                             explanation=f"calls {method}")
        paths = [p for p in step.get("inputs", []) if str(p).startswith("data/")] or list(meta.get("brief", {}).get("data_files", []))
        return CodeDraft(code=_inspect_code(paths), explanation="loads and describes the input files")

    def _code_review(self, meta: dict[str, Any]) -> CodeReview:
        code = str(meta.get("code", ""))
        issues = []
        try:
            compile(code, "<cell>", "exec")
        except SyntaxError as exc:
            issues.append(f"syntax error on line {exc.lineno}: {exc.msg}")
        for pattern, why in ((r"\b(requests|urllib|socket|httpx)\b", "network access is not allowed"),
                             (r"pip\s+install", "installing packages is not allowed")):
            if re.search(pattern, code):
                issues.append(why)
        return CodeReview(approved=not issues, issues=issues)

    def _debug(self, meta: dict[str, Any]) -> DebugFix:
        code, error = str(meta.get("code", "")), str(meta.get("error", ""))
        name = re.search(r"name '(\w+)' is not defined", error)
        if name and name.group(1) in _IMPORTS:
            line = _IMPORTS[name.group(1)]
            return DebugFix(diagnosis=f"{name.group(1)} is used before it is imported; add `{line}`.",
                            code=f"{line}\n{code}")
        module = re.search(r"No module named '([\w.]+)'", error)
        if module:
            return DebugFix(diagnosis=f"module {module.group(1)} is not installed and the offline backend cannot "
                                      "rewrite the code to avoid it", give_up=True)
        return DebugFix(diagnosis=f"the offline backend has no rule to fix {error.splitlines()[0][:200] if error else 'this error'}",
                        give_up=True)

    def _install(self, meta: dict[str, Any]) -> InstallAdvice:
        module = str(meta.get("module") or "")
        top = module.split(".")[0]
        alternatives = _ALTERNATIVES.get(top, [])
        advice = (f"{module} is importable; check the submodule name" if meta.get("available") else
                  f"{module} is not installed; " + (f"use {', '.join(alternatives)} instead" if alternatives
                                                     else "rewrite the cell without it"))
        return InstallAdvice(module=module, available=bool(meta.get("available")), alternatives=alternatives, advice=advice)

    def _method_call(self, meta: dict[str, Any]) -> MethodCallDraft:
        step = meta.get("step", {})
        call = step.get("method") or {}
        name = call.get("name") or meta.get("brief", {}).get("method")
        if not name:
            raise TaskError("a method step without a method; " + HOW_TO_CONFIGURE)
        args = fill_arguments(name, str(meta.get("task", {}).get("text", "")), dict(call.get("arguments") or {}),
                              list(meta.get("brief", {}).get("data_files", [])))
        error = str(meta.get("previous_error") or "")
        unknown = re.search(r"unknown argument\(s\) ([\w, ]+);", error)
        if unknown:
            for bad in unknown.group(1).split(","):
                args.pop(bad.strip(), None)
        seed = meta.get("task", {}).get("front_matter", {}).get("seed")
        if seed is not None and "seed" not in args:
            args["seed"] = seed
        return MethodCallDraft(method=name, arguments=args, rationale="front matter, then values named in the task text")

    # -- judging and writing ----------------------------------------------------------------------------
    def _critic(self, meta: dict[str, Any]) -> Critique:
        # sanity findings and failed convergence/validity checks reject; other failed checks are caveats
        issues = list(meta.get("sanity", []))
        caveats: list[str] = []
        for check in meta.get("checks") or []:
            if check.get("passed"):
                continue
            text = f"method check {check.get('name')} failed: {check.get('message', '')}"
            (issues if any(h in str(check.get("name", "")).lower() for h in _HARD_CHECKS) else caveats).append(text)
        step = meta.get("step", {})
        values = meta.get("values") or {}
        criteria = [CriterionResult(criterion=c, met=not issues, evidence="; ".join(_numbers(values, 4)) or "output")
                    for c in step.get("acceptance_criteria", [])]
        if meta.get("agent") == "step_critic" and not values and not meta.get("key_points") and not meta.get("output"):
            issues.append("the step produced no output to check")
        if issues:
            verdict = f"Rejected: {issues[0]}"
        elif caveats:
            verdict = "Accepted with caveats: " + "; ".join(caveats)
        else:
            verdict = "The step met its goal; its checks pass and its numbers are finite."
        return Critique(accepted=not issues, verdict=verdict, issues=issues, criteria=criteria)

    def _plot_critic(self, meta: dict[str, Any]) -> Critique:
        images = meta.get("images", [])
        missing = [i for i in images if not str(i).lower().endswith((".png", ".jpg", ".jpeg", ".svg", ".pdf"))]
        return Critique(accepted=not missing, verdict=f"{len(images)} figure(s) written" if not missing else "odd figure files",
                        issues=[f"{m} is not an image file" for m in missing])

    def _text(self, meta: dict[str, Any]) -> TextAnswer:
        recent = meta.get("recent", {})
        if any(r.get("method") for r in recent.values()):  # interpret method results, not data inspection
            recent = {sid: r for sid, r in recent.items() if r.get("method")}
        lines, points = [], []
        for sid, record in recent.items():
            values = record.get("values") or {}
            if not values:
                continue
            numbers = _numbers(values)
            checks = record.get("checks") or []
            failed = [c["name"] for c in checks if not c.get("passed")]
            source = record.get("method") or record.get("title") or sid
            if record.get("method") and record.get("summary"):
                lines.append(f"Step {sid} ran {source}: {str(record['summary']).strip()}")
            lines.append(f"Step {sid} ({source}) found " + "; ".join(numbers) + ".")
            if checks:
                lines.append(f"{len(checks) - len(failed)} of {len(checks)} of the method's checks passed"
                             + (f" (failed: {', '.join(failed)})." if failed else "."))
            points += numbers[:4]
        if not lines:
            lines.append("No earlier step produced numbers to interpret.")
        lines.append("These numbers come from the method as configured in the plan; the offline backend reports "
                     "them without further modelling, so assumptions of the method (its model, priors and data "
                     "cuts) carry over unchanged.")
        return TextAnswer(text="\n\n".join(lines), key_points=points)

    def _summary(self, meta: dict[str, Any]) -> StepSummary:
        values = meta.get("values") or {}
        step = meta.get("step", {})
        parts = [meta.get("method_summary") or f"{step.get('title', 'The step')} finished."]
        if values and not meta.get("method_summary"):
            parts.append("Values: " + "; ".join(_numbers(values)) + ".")
        if meta.get("key_points"):
            parts.append("Key points: " + "; ".join(meta["key_points"][:4]) + ".")
        key = {k: v for k, v in values.items() if not isinstance(v, list)}
        return StepSummary(summary=" ".join(str(p) for p in parts)[:1500], key_values=dict(list(key.items())[:12]))

    def _report(self, meta: dict[str, Any]) -> ReportDraft:
        results = meta.get("results", {})
        brief = meta.get("brief") or {}
        numbers, conclusions, limitations = [], [], []
        for sid, record in results.items():
            if record.get("status") == "done" and record.get("method"):
                numbers += _numbers(record.get("values") or {})
                for check in record.get("checks") or []:
                    conclusions.append(f"{check['name']}: {'passed' if check.get('passed') else 'FAILED'} — {check.get('message', '')}")
            elif record.get("status") in {"failed", "skipped"}:
                limitations.append(f"{sid} {record['status']}: {record.get('reason', '')}")
        title = str(brief.get("title") or meta.get("task", {}).get("title", "")).rstrip(".")
        checks = [c for r in results.values() if r.get("status") == "done" for c in (r.get("checks") or [])]
        summary = f"{title}."
        if numbers:
            methods = sorted({str(r["method"]) for r in results.values() if r.get("status") == "done" and r.get("method")})
            summary += f" Result of {', '.join(methods)}: " + "; ".join(numbers) + "."
            if checks:
                passed = sum(1 for c in checks if c.get("passed"))
                summary += f" {passed} of {len(checks)} of the method's own checks passed."
        else:
            summary += f" The run ended with status '{meta.get('status')}' without method results."
        limitations.append("Written by the offline backend: the narrative restates the method's numbers and checks; "
                           "a language model (--model) would add scientific interpretation.")
        return ReportDraft(title=brief.get("title") or "Report", summary=summary, conclusions=conclusions[:12],
                           limitations=limitations)

    def _audit(self, meta: dict[str, Any]) -> AuditReport:
        facts = meta.get("facts", {})
        findings = [f"{cell} uses randomness without a visible seed" for cell in facts.get("unseeded_cells", [])]
        if not facts.get("notebook"):
            findings.append("notebook.ipynb is missing; cells are still saved under steps/*/cells/")
        findings.append(f"{len(facts.get('inputs', {}))} input file(s) copied with hashes; {len(facts.get('cells', []))} cell(s) saved")
        return AuditReport(reproducible=not facts.get("unseeded_cells") and bool(facts.get("notebook")), findings=findings)
