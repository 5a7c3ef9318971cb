"""Compact prompts (issue 30): a model that reads every prompt token on this machine's CPU in a small context (a
local llama.cpp server) is not told what its grammar enforces nor shown twice what another section of the same
prompt shows.  Each rule is checked on a real context rendered both ways: the compact form leaves out exactly
the repeated part and keeps the rest; the full form is unchanged."""

from __future__ import annotations

from pathlib import Path

from cmbagent.agents import (
    CritiqueContext,
    PlanReviewContext,
    RecentStep,
    ReportContext,
    StepContext,
    StepResult,
    SummaryContext,
    TaskContext,
    load_registry,
)
from cmbagent.agents._render import RESULT_SHOWN, brief_text, head_tail, output_format, output_unrepeated
from cmbagent.cells import RESULT_BEGIN, RESULT_END
from cmbagent.inputs import profile_inputs
from cmbagent.state import CheckResult, Plan, PlanStep, Requirement, TaskBrief

STEP = PlanStep(id="s1", title="Fit", goal="Fit the model.", agent="method_operator",
                acceptance_criteria=["prints Omega_m"])
CHECKS = [CheckResult(name="convergence_rhat", passed=True, message="R-hat 1.002 (threshold 1.01)"),
          CheckResult(name="goodness_of_fit", passed=False, message="chi2/dof = 0.44 (too low)")]
SUMMARY = "flat LCDM fit to 1590 supernovae: Omega_m = 0.351 ± 0.019"
BLOCK = (f'{RESULT_BEGIN}\n{{"values": {{"Omega_m": {{"mean": 0.3510191611}}}}, "artifacts": ["figures/c.png"]}}\n'
         f'{RESULT_END}')
OUTPUT = "\n".join([SUMMARY, "[pass] convergence_rhat: R-hat 1.002 (threshold 1.01)",
                    "[FAIL] goodness_of_fit: chi2/dof = 0.44 (too low)", "warning: 3 rows had NaN", BLOCK])
VALUES = {"Omega_m": {"mean": 0.3510191611, "std": 0.0192031523}, "n_sne": 1590}


def test_a_critics_output_loses_its_result_block_and_the_lines_other_sections_show() -> None:
    context = CritiqueContext(step=STEP, folder="steps/01", output=OUTPUT, values=VALUES, checks=CHECKS,
                              method="cosmology.fit_supernovae")
    full, compact = context.render(), context.render(compact=True)
    assert RESULT_BEGIN in full and "[pass] convergence_rhat" in full.split("## Result values")[0]
    assert full == "\n\n".join(f"## {t}\n{b}" for t, b in context.sections() if b)  # the full form as before
    output = compact.split("## Output (head and tail)\n")[1].split("\n\n## ")[0]
    assert output == f"{SUMMARY}\nwarning: 3 rows had NaN\n{RESULT_SHOWN}"  # what the cell printed of its own stays
    assert "[FAIL] goodness_of_fit: chi2/dof = 0.44 (too low)" in compact  # once, in the checks section
    assert compact.count("goodness_of_fit") == 1 and RESULT_BEGIN not in compact
    assert '"mean": 0.351, "std": 0.0192' in compact and "0.3510191611" not in compact  # four significant digits
    assert '"n_sne": 1590' in compact
    assert len(compact) <= len(full) - len(BLOCK) + len(RESULT_SHOWN)


def test_a_summariser_is_not_shown_the_method_summary_twice() -> None:
    context = SummaryContext(step=STEP, folder="steps/01", output=OUTPUT, values=VALUES, checks=CHECKS,
                             method="cosmology.fit_supernovae", method_summary=SUMMARY)
    compact = context.render(compact=True)
    assert compact.count(SUMMARY) == 1 and "## Method summary\n" + SUMMARY in compact
    assert "warning: 3 rows had NaN" in compact


def test_a_result_block_cut_by_head_and_tail_is_still_recognised() -> None:
    long = "x" * 1800 + "\n" + RESULT_BEGIN + "\n{" + "1" * 3000 + "}\n" + RESULT_END + "\nafter the block"
    shown = output_unrepeated(head_tail(long), [])
    assert shown.endswith(f"characters omitted] …\n{RESULT_SHOWN}\nafter the block") and "111" not in shown
    assert output_unrepeated("no block here\nsecond", ["second"]) == "no block here"


def test_the_reply_format_names_only_the_fields_the_grammar_enforces() -> None:
    full, compact = output_format(TaskBrief), output_format(TaskBrief, compact=True)
    assert "- objective (str): What must be found out" in full
    assert compact == ("Reply with one JSON object (TaskBrief) with the fields title, objective, domain, data_files, "
                       "method, arguments, constraints, deliverables, requirements.")


def test_a_compact_brief_lists_each_requirement_once_and_not_the_arguments_the_method_line_shows() -> None:
    method = "cosmology.fit_supernovae"
    requirements = [
        Requirement(id="r1", kind="number", text="1590", quantity="max_steps", value=1),
        Requirement(id="r2", kind="number", text="1590", quantity="max_steps", value=1),
        Requirement(id="r3", kind="argument", text="flat", method=method, argument="model", value="flat_lcdm"),
        Requirement(id="r4", kind="argument", text="seed 1", method=method, argument="seed", value=1),
        Requirement(id="r5", kind="output", text="a corner plot", output="figure"),
    ]
    brief = TaskBrief(title="Fit", objective="Measure Omega_m.", method=method,
                      arguments={"model": "flat_lcdm", "seed": 0}, requirements=requirements)
    full, compact = brief_text(brief), brief_text(brief, compact=True)
    assert all(f"- r{n}:" in full for n in range(1, 6))
    listed = [line.split(":")[0] for line in compact.splitlines() if line.startswith("- r")]
    # r2 repeats r1; r3 is the method line's model; r4 asks for another seed than the arguments hold: kept
    assert listed == ["- r1", "- r4", "- r5"]
    assert 'with arguments {"model": "flat_lcdm", "seed": 0}' in compact


def test_a_compact_task_context_names_every_column_once(tmp_path: Path) -> None:
    names = [f"column_{i:02d}" for i in range(40)]
    table = tmp_path / "table.csv"
    table.write_text(",".join(names) + "\n" + "\n".join(",".join(f"{(i + 1) * (r + 0.123456):.6f}" for i in range(40))
                                                        for r in range(30)) + "\n")
    profiles = profile_inputs({"table.csv": table})
    context = TaskContext(title="T", text="Fit the table.", data_files=["table.csv"], inputs=profiles, profiled=True,
                          columns={"table.csv": names})
    full, compact = context.render(), context.render(compact=True)
    for name in names:
        assert f"{name}," in full or f"{name}\n" in full or full.endswith(name)
        assert compact.count(name) == 1, name  # described, or named in the column list: once
    assert len(compact) < len(full)
    held = compact.split("## What the data files hold\n")[1].split("\n\n## ")[0]
    assert len(held) <= 610 and held.endswith("; …")
    assert TaskContext(title="T", text="x", data_files=["a.csv"], columns={"a.csv": ["u", "v"]}).render(compact=True) \
        == TaskContext(title="T", text="x", data_files=["a.csv"], columns={"a.csv": ["u", "v"]}).render()


def test_a_compact_plan_review_shows_the_plan_on_one_line_without_empty_fields() -> None:
    plan = Plan(steps=[STEP, PlanStep(id="s2", title="Say", goal="Interpret.", agent="researcher")])
    context = PlanReviewContext(brief=TaskBrief(title="Fit", objective="Measure."), plan=plan, round=1, rounds=2)
    full, compact = context.render(), context.render(compact=True)
    shown = compact.split("## Proposed plan\n")[1].split("\n\n## ")[0]
    assert "\n" not in shown and '"expected_outputs"' not in shown and '"goal": "Interpret."' in shown
    assert '"expected_outputs": []' in full
    assert len(compact) < 0.7 * len(full)


def test_the_compact_roster_names_each_step_agent_once_under_its_role() -> None:
    registry = load_registry()
    full, compact = registry.describe_step_agents(), registry.describe_step_agents(compact=True)
    agents = sorted(registry.step_agents())
    assert all(f"- {name} (" in full for name in agents)
    lines = compact.splitlines()
    assert sorted(name for line in lines for name in line.split(": ", 1)[1].split(", ")) == agents
    assert {line.split(":")[0] for line in lines} == {"- code", "- method", "- text"} | (
        {"- " + role for role in {registry.get(a).role for a in agents}} - {"- code", "- method", "- text"})
    assert len(compact) < 0.4 * len(full)


def test_earlier_steps_values_are_written_with_four_significant_digits() -> None:
    brief = TaskBrief(title="Fit", objective="Measure.")
    report = ReportContext(title="Fit", brief=brief, status="done",
                           results=[StepResult(id="s1", title="Fit", status="done", summary="fitted", values=VALUES)])
    plan = Plan(steps=[STEP])
    step = StepContext(brief=brief, plan=plan, statuses={}, step=STEP, folder="steps/01",
                       recent=[RecentStep(id="s0", title="Load", status="done", values=VALUES)])
    for context in (report, step):
        full, compact = context.render(), context.render(compact=True)
        assert "0.3510191611" in full and "0.3510191611" not in compact and '"mean": 0.351' in compact


def test_a_compact_reporter_is_not_shown_the_findings_about_replies_code_set_aside() -> None:
    """A critic's unsupported rejection, a replaced summary or dropped checklist items quote what a small model
    wrote (SmolLM2: "./fixtures/1688/1536/…"); the reporter of the full form still reads them all."""
    from cmbagent.state import Finding

    science = Finding(code="fit.chi2_low", severity="warning", message="chi2/dof = 0.44 is far too low")
    noise = [Finding(code="critic.unsupported", severity="warning", message="step_critic: './fixtures/1688/1536/'"),
             Finding(code="report.unsupported_number", severity="warning", message="the summary stated 1.14"),
             Finding(code="task.requirements_dropped", severity="note", message="argument 'None = None'")]
    context = ReportContext(title="Fit", brief=TaskBrief(title="Fit", objective="Measure."), status="done",
                            findings=[science, *noise])
    full, compact = context.render(), context.render(compact=True)
    assert all(f.message in full for f in [science, *noise])
    assert science.message in compact and not any(f.message in compact for f in noise)
