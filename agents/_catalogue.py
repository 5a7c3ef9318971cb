"""The offline backend's map from a task to the method catalogue, and the plan it makes around a method.

Pure functions of the task's words and the method registry (keywords, summaries, argument schemas), so the
deterministic backend and ``solve``'s up-front reach check agree on what a task maps to.
"""

from __future__ import annotations

from typing import Any

from cmbagent.exceptions import TaskError
from cmbagent.models import how_to_configure
from cmbagent.state import MethodCall, PlanDraft, StepDraft, TaskBrief

__all__ = ["catalogue_lines", "fill_arguments", "match_method", "offline_plan"]


def catalogue_lines(specs: Any) -> list[str]:
    """One prompt line per method: ``- name: summary (arguments: required*, optional)``."""
    lines = []
    for spec in specs:
        args = ", ".join(f"{a}{'*' if a in spec.required else ''}" for a in spec.arguments)
        lines.append(f"- {spec.name}: {spec.summary} (arguments: {args})")
    return lines

# -- mapping a task to the method catalogue ----------------------------------------------------------------
def match_method(text: str, requested: str | None = None) -> str | None:
    """The method ``text`` clearly asks for (by meaning, words and — here unknown — data; see
    :func:`cmbagent.agents._meaning.choose_method`), the requested one when it is registered, else None."""
    from cmbagent.agents._meaning import choose_method
    from cmbagent.tools.methods import iter_methods

    if requested:
        return requested if any(s.name == requested for s in iter_methods()) else None
    choice = choose_method(text)
    return choice.method if choice.status == "chosen" else None


def fill_arguments(method: str, text: str, given: dict[str, Any], data_files: list[str], *,
                   columns: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """Arguments from the front matter (``given``, kept), then from the text, then the data files (see
    :func:`cmbagent.agents._understand.understand`, which also says what it could not map)."""
    from cmbagent.agents._understand import understand

    return understand(method, text, given, data_files, columns=columns).arguments


def offline_plan(brief: TaskBrief, max_steps: int = 12, *, literature: bool = False) -> PlanDraft:
    """Inspect the data (code) -> run the method (method) -> [review the literature] -> interpret (text).

    The interpreting agent is the expert the method's family declares (``family(name, expert=...)``).  With
    ``literature`` (the run has a knowledge index) a ``literature_retriever`` step reviews what the index
    says about the task; its search is the task's own words (the brief's title and objective).
    """
    method = brief.method
    if not method:
        raise TaskError("the offline backend needs a method to plan around; " + how_to_configure())
    from cmbagent.tools.methods import get_family

    expert = get_family(method.split(".")[0]).expert
    data = list(brief.data_files)
    steps: list[StepDraft] = []
    if data and max_steps >= 3:
        steps.append(StepDraft(
            title="Inspect the input data", agent="data_engineer",
            goal="Load every input file and report its size, columns and any missing or non-finite values.",
            instructions="Read each file with pandas (whitespace or CSV), print shape, columns and a numeric summary.",
            inputs=data, expected_outputs=["row and column counts per file"],
            acceptance_criteria=["every input file was read", "row and column counts are printed"],
        ))
    steps.append(StepDraft(
        title=f"Run {method}", agent="method_operator",
        goal=f"Run the method tool {method} on the task's inputs and record its values, checks and figures.",
        instructions="Call the registered method with the arguments below; keep the seed fixed.",
        inputs=data, expected_outputs=["result values with uncertainties", "figures"],
        acceptance_criteria=["the method ran without error", "all of the method's own checks pass",
                             "every reported value is finite"],
        method=MethodCall(name=method, arguments=dict(brief.arguments)),
    ))
    if literature and len(steps) + 2 <= max_steps:
        steps.append(StepDraft(
            title="Review the literature", agent="literature_retriever",
            goal=f"Find what the indexed literature says about: {brief.title}",
            instructions=f"Search the knowledge index for: {brief.objective}",
            inputs=[f"s{len(steps)}"], expected_outputs=["cited passages relevant to the task"],
            acceptance_criteria=["every claim cites a retrieved passage", "every quote is word for word"],
        ))
    if max_steps >= 2:
        steps.append(StepDraft(
            title="Interpret the results", agent=expert,
            goal="Explain what the method's numbers mean for the task's question, with their uncertainties.",
            inputs=[f"s{n}" for n in range(1, len(steps) + 1)],  # code numbers the steps s1, s2, ...
            expected_outputs=["a short interpretation"],
            acceptance_criteria=["quotes the key numbers with uncertainties", "states the caveats"],
        ))
    shape = "inspect -> run -> review -> interpret" if any(s.agent == "literature_retriever" for s in steps) \
        else "inspect -> run -> interpret"
    return PlanDraft(steps=steps, rationale=f"The task maps to the method tool {method}; the offline backend plans "
                                            f"{shape}.")
