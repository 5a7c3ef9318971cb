"""Firm package borders (docs/architecture.md, Rules 12): each package's public names are pinned, a
``_private`` module is imported only from inside the package that owns it, and the layers import downwards
only.

A failure here means a deliberate change to a public surface (update the pin and the docs) or an import
that reaches into another package's internals (import its public name instead, or export one).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: where each top-level package of the namespace lives in the checkout (setup.py maps the same folders)
FOLDERS = {"cmbagent": "cmbagent", "cmbagent.agents": "agents", "cmbagent.planner": "planner",
           "cmbagent.tools": "tools", "cmbagent.sandbox": "sandbox", "cmbagent.prompts": "prompts"}

PUBLIC = {
    "cmbagent": {"RunResult", "RunSettings", "__version__", "resume", "solve"},
    "cmbagent.state": {
        "IMAGE_SUFFIXES", "Attempt", "AttemptKey", "AuditFacts", "AuditReport", "CheckResult", "Citation",
        "CriterionResult", "CriticFinding", "Critique", "CritiqueRecord", "Finding", "InputFile", "InstallRecord",
        "MethodCall", "Plan", "PlanDraft",
        "PlanStep", "ReportDraft", "ReportInputs", "RunRecord", "RunStatus", "Severity", "SkipReason", "StepDraft",
        "StepRecord", "StepStatus", "TaskBrief", "TaskSpec", "citation_markers", "next_step_ids", "plan_problems", "plan_schema",
        "slugify", "step_schema", "ArgumentShapes", "brief_schema", "unknown_arguments", "critique_schema", "report_schema",
        "RequirementList", "StatedItem",
        "REQUIREMENT_UNMET", "Requirement", "RequirementCheck", "best_entry", "bounded_list", "bounded_text", "find_value", "requested_number", "same_value",
    },
    "cmbagent.agents": {
        "CODE_CHARS", "OFFLINE", "PLACEHOLDERS", "ROLES", "ROLE_SCHEMAS", "SCHEMAS", "STEP_ROLES", "TIERS",
        "AgentContext", "AgentRegistry", "AgentSpec", "AuditContext", "AuditReport", "CitedSpan", "CodeDraft",
        "CodeReview",
        "CodeReviewContext", "ControlContext", "ControlDecision", "CriterionResult", "Critique", "CritiqueContext",
        "DataFile", "DebugContext", "DebugFix", "FigureContext", "FigureFile", "Idea", "IdeaBrief", "IdeaContext", "IdeaCritique",
        "IdeaReview", "IdeaSet", "InstallAdvice", "InstallContext",
        "MethodCallDraft", "MethodContext", "OfflineModel", "Passage", "PlanContext", "PlanDraft", "PlanReview",
        "PlanReviewContext", "PromptError", "RECENT_STEPS", "RecentStep", "ReplanContext", "ReplanDecision",
        "ReportContext", "ReportDraft", "StepContext", "StepOutcome", "StepResult", "StepSummary", "SummaryContext",
        "TaskBrief", "TaskContext", "TextAnswer", "TextContext", "bind_schema", "catalogue_lines", "clip",
        "fill_arguments", "head_tail", "load_registry", "match_method", "offline_plan", "offline_rule", "output_format", "parse_prompt",
        "Understanding", "understand_task", "Candidate", "MethodChoice", "TaskReading", "choose_method", "read_task",
        "stated_requirements", "argument_roles", "values_in", "input_columns", "names_column",
    },
    "cmbagent.planner": {
        "NODES", "ROUTES", "MethodCall", "Plan", "PlanDraft", "PlanStep", "Retriever",
        "RunState", "Runtime", "StepDraft", "build_graph", "plan_problems", "record_findings", "slugify",
    },
    "cmbagent.report": {
        "BAD_CITATION", "Reference", "ReportView", "Resolver", "RunSnapshot", "answer_by_code", "audit_facts",
        "check_requirements", "checked_audit", "citation_findings", "costs_of", "data_answers", "final_requirements",
        "final_status", "findings_section", "format_value", "key_numbers", "narrative_findings", "reading_lines",
        "references", "render_report", "report_draft", "requirement_checks", "rerender", "sorted_conclusions",
        "unmeasured", "write_report", "write_requirements",
    },
    "cmbagent.tools": {"function_schema", "parse_docstring"},
    "cmbagent.tools.methods": {
        "Check", "Family", "InputFile", "MethodFinding", "MethodResult", "MethodSpec", "OutputDir", "Paper", "check_paths", "family",
        "get_family", "get_method", "iter_families", "iter_methods", "load_errors", "method", "path_arguments",
        "run_method", "validate_arguments",
        "ArgumentProblem", "argument_problems",
    },
    "cmbagent.sandbox": {
        "BACKENDS", "FIGURE_LOG", "Backend", "BackendStatus", "CellResult", "Executor", "GiB", "InMemoryExecutor", "KernelLaunch",
        "LaunchPlan", "MiB", "SandboxLimits", "StreamText", "UnisolatedSandboxWarning", "available_backends",
        "describe_figure", "get_backend", "open_sandbox", "probe_backends",
        "Heartbeat",
    },
    "cmbagent.audits": {
        "CODES", "AuditCode", "AuditOutcome", "RunEvidence", "StepEvidence", "audit_run", "audit_step",
        "critic_findings", "declare_code", "finding", "iter_audits", "run_audit", "run_evidence", "step_audit",
        "step_evidence", "Grounds", "weigh_critics", "summary_numbers", "repetitive", "ASKED", "OUTCOMES", "Intent",
        "with_intent",
    },
    "cmbagent.ideas": {"AutoGenModelClient", "IdeasResult", "RankedIdea", "Round", "generate_ideas", "replay_ideas",
                       "write_idea_task"},
    "cmbagent.ui": {"UISettings", "create_server", "parse_auth", "parse_hosts", "serve"},
    "cmbagent.batch": {
        "BatchItem", "BatchRecord", "BatchSettings", "ItemRecord", "RayBudget", "collect_items", "connect_ray",
        "item_task", "load_sweep", "read_batch", "render_batch", "run_batch",
    },
    "cmbagent.cli": {"app", "main"},
}  # cmbagent.models is pinned in tests/models/test_public_api.py

#: what each layer may import from the rest of the namespace (its own package always); the lower layers may use
#: ``exceptions`` and ``paths`` (the path policy, made of ``_files`` and ``_linking``, with ``config_file``, the one
#: reader of ``cmbagent.toml``, under it)
LAYERS = {
    "cmbagent.exceptions": set(),
    "cmbagent.cells": set(),
    "cmbagent.frontmatter": {"cmbagent.exceptions"},
    "cmbagent.state": set(),
    "cmbagent.profiles": set(),  # what an input file holds, read from its head (a leaf)
    "cmbagent.config_file": {"cmbagent.exceptions"},
    "cmbagent._files": {"cmbagent.exceptions"},
    "cmbagent._linking": {"cmbagent.exceptions", "cmbagent._files"},
    "cmbagent.paths": {"cmbagent.exceptions", "cmbagent._files", "cmbagent._linking", "cmbagent.config_file"},
    "cmbagent.models": {"cmbagent.config_file", "cmbagent.exceptions", "cmbagent.paths"},
    "cmbagent.sandbox": {"cmbagent.exceptions", "cmbagent.paths"},
    "cmbagent.tools": {"cmbagent.exceptions", "cmbagent.models", "cmbagent.paths"},  # methods may evaluate LLMs
    # the task reader compares a task's sentences with the catalogue by meaning (the literature package's
    # packaged sentence embedder) and reads what the input files hold (profiles)
    "cmbagent.agents": {"cmbagent.cells", "cmbagent.exceptions", "cmbagent.frontmatter", "cmbagent.literature",
                        "cmbagent.models", "cmbagent.paths", "cmbagent.profiles", "cmbagent.state", "cmbagent.tools"},
    # audits are code the graph acts on: they read the method tools and the sandbox's figure log, never the
    # agents or the graph (so any run-level check can use them)
    "cmbagent.audits": {"cmbagent.cells", "cmbagent.exceptions", "cmbagent.paths", "cmbagent.sandbox",
                        "cmbagent.state", "cmbagent.tools"},
    # the report's one home (draft, audit facts, requirement checks, rendering) reads the run folder, the audits,
    # the method tools and the task reader's roles; never the graph, the session or the interfaces above them,
    # which all call it (the graph's report node, the session, `cmbagent report`)
    "cmbagent.report": {"cmbagent.agents", "cmbagent.audits", "cmbagent.exceptions", "cmbagent.literature",
                        "cmbagent.paths", "cmbagent.run", "cmbagent.state", "cmbagent.tools"},
}


def _modules() -> list[tuple[str, Path]]:
    out = []
    for package, folder in FOLDERS.items():
        base = ROOT / folder
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.append((".".join([package, *parts]), path))
    return out


MODULES = _modules()
PACKAGES = {name for name, path in MODULES if path.name == "__init__.py"}


def _imports(name: str, path: Path) -> list[tuple[str, int]]:
    """Every cmbagent module ``name`` imports (function-level imports included), with its line."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found.append((base, node.lineno))
            # ``from cmbagent.agents import _offline_rules`` imports a module too
            found += [(f"{base}.{alias.name}", node.lineno) for alias in node.names if alias.name.startswith("_")]
    return [(target, line) for target, line in found if target == "cmbagent" or target.startswith("cmbagent.")]


def _owner(private: str) -> str:
    """The package that owns the first ``_private`` part of a dotted module name."""
    parts = private.split(".")
    first = next(i for i, part in enumerate(parts) if part.startswith("_") and not part.startswith("__"))
    return ".".join(parts[:first])


@pytest.mark.parametrize("package", sorted(PUBLIC))
def test_public_names_are_pinned_and_resolve(package: str) -> None:
    module = importlib.import_module(package)
    assert set(module.__all__) == PUBLIC[package], "a public name changed: update the pin (and the docs)"
    for name in module.__all__:
        assert getattr(module, name) is not None, name


def test_every_package_declares_its_public_names() -> None:
    missing = [name for name, path in MODULES if path.name == "__init__.py" and "__all__" not in path.read_text()]
    assert not missing, f"packages without __all__: {missing}"


def test_private_modules_are_imported_only_inside_their_package() -> None:
    crossing = []
    for name, path in MODULES:
        for target, line in _imports(name, path):
            parts = target.split(".")
            if not any(p.startswith("_") and not p.startswith("__") for p in parts):
                continue
            owner = _owner(target)
            if not (name == owner or name.startswith(owner + ".")):
                crossing.append(f"{path.relative_to(ROOT)}:{line} imports {target} (private to {owner})")
    assert not crossing, "\n".join(crossing)


def test_layers_import_downwards_only() -> None:
    upward = []
    for name, path in MODULES:
        layer = next((lay for lay in LAYERS if name == lay or name.startswith(lay + ".")), None)
        if layer is None:
            continue
        for target, line in _imports(name, path):
            if target == layer or target.startswith(layer + "."):
                continue
            if not any(target == ok or target.startswith(ok + ".") for ok in LAYERS[layer]):
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not upward, "\n".join(upward)
