"""One typed context per agent call: everything in it reaches the prompt, so a rule that reads the object
reads what a model was shown; the request carries the object, the transcript only what the model saw."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from cmbagent.agents import (
    AgentContext,
    AuditContext,
    CodeReviewContext,
    ControlContext,
    CritiqueContext,
    DataFile,
    DebugContext,
    FigureContext,
    FigureFile,
    Idea,
    IdeaBrief,
    IdeaContext,
    IdeaCritique,
    IdeaReview,
    IdeaSet,
    InstallContext,
    MethodContext,
    Passage,
    PlanContext,
    PlanReviewContext,
    RecentStep,
    ReplanContext,
    ReportContext,
    StepContext,
    StepResult,
    SummaryContext,
    TaskContext,
    TextAnswer,
    TextContext,
)
from cmbagent.models import Message, ModelClient, ModelRequest, Routing, ScriptedModel, read_transcript
from cmbagent.state import AuditFacts, CheckResult, Finding, InputFile, MethodCall, Plan, PlanStep, TaskBrief

BRIEF = TaskBrief(title="T-title", objective="T-objective", domain="T-domain", data_files=["data/T-file.csv"],
                  method="fam.T_method", arguments={"T_arg": 1}, constraints=["T-constraint"],
                  deliverables=["T-deliverable"])
STEP = PlanStep(id="s7", title="S-title", goal="S-goal", agent="engineer", instructions="S-instructions",
                inputs=["S-input"], expected_outputs=["S-output"], acceptance_criteria=["S-criterion"],
                method=MethodCall(name="fam.S_method", arguments={"S_arg": 2}))
PLAN = Plan(steps=[STEP], rationale="P-rationale")
CHECK = CheckResult(name="C-check", passed=False, message="C-message")
RECENT = RecentStep(id="s6", title="R-title", status="done", dir="steps/06-r", summary="R-summary",
                    values={"R_value": 3}, checks=[CHECK], method="fam.R_method", findings=["R.finding (warning)"])
FINDING = Finding(code="y.finding", severity="warning", step_id="s7", message="Y-message", settle="Y-settle")


IDEA_BRIEF = IdeaBrief(title="B-title", text="B-text", method="fam.B_method", arguments={"B_arg": 1},
                       data=[DataFile(path="data/B-file.csv", bytes=77, rows=12, columns=["B_col"])],
                       methods=["- fam.B_listed: B-summary"],
                       passages=[Passage(chunk_id="B-chunk", source="B-source.md", text="B-passage")],
                       n_ideas=4, rounds=6)
IDEA_BRIEF_FIELDS = ["B-title", "B-text", "fam.B_method", "B_arg", "data/B-file.csv", "77 bytes", "12 rows", "B_col",
                     "fam.B_listed", "B-chunk", "B-source.md", "B-passage", "4 research ideas", "6 round"]


def samples() -> dict[type[AgentContext], tuple[AgentContext, list[str]]]:
    """Each context with the strings that must appear when it is rendered (one per field)."""
    step_fields = ["S-title", "S-goal", "S-instructions", "S-input", "S-output", "S-criterion", "fam.S_method",
                   "S_arg", "steps/07-s"]
    brief_fields = ["T-title", "T-objective", "T-domain", "data/T-file.csv", "fam.T_method", "T_arg",
                    "T-constraint", "T-deliverable"]
    step_context = dict(brief=BRIEF, plan=PLAN, statuses={"s7": "running"}, step=STEP, folder="steps/07-s",
                        recent=[RECENT], issues=["I-issue"])
    recent_fields = ["R-title", "steps/06-r", "R-summary", "R_value", "fam.R_method", "C-check", "R.finding"]
    outcome = dict(step=STEP, folder="steps/07-s", output="O-output", values={"O_value": 4}, checks=[CHECK],
                   method="fam.O_method", key_points=["K-point"])
    outcome_fields = [*step_fields, "O-output", "O_value", "C-check", "C-message", "fam.O_method", "K-point"]
    return {
        TaskContext: (TaskContext(title="T-title", text="T-text", method="fam.T_method", arguments={"T_arg": 1},
                                  front_matter={"seed": 99}, data_files=["data/T-file.csv"]),
                      ["T-title", "T-text", "fam.T_method", "T_arg", "99", "data/T-file.csv"]),
        PlanContext: (PlanContext(brief=BRIEF, previous_plan=PLAN, requests=["Q-request"], max_steps=17,
                                  index="X-index"),
                      [*brief_fields, "S-title", "Q-request", "At most 17 steps", "X-index"]),
        PlanReviewContext: (PlanReviewContext(brief=BRIEF, plan=PLAN, round=2, rounds=3),
                            [*brief_fields, *step_fields[:-1], "P-rationale", "2 of 3"]),
        ReplanContext: (ReplanContext(brief=BRIEF, plan=PLAN, statuses={"s7": "failed"}, failed=STEP,
                                      reason="W-reason", recent=[RECENT], new_ids=["s8", "s9"]),
                        [*brief_fields, "[failed]", "S-title", "S-goal", "W-reason", *recent_fields, "s8, s9"]),
        StepContext: (StepContext(**step_context),  # type: ignore[arg-type]
                      [*brief_fields, "[running]", *step_fields, *recent_fields, "I-issue"]),
        MethodContext: (MethodContext(**step_context, task_text="M-task", seed=123,  # type: ignore[arg-type]
                                      method={"name": "fam.M_described"}, previous_error="M-error"),
                        [*brief_fields, *step_fields, *recent_fields, "I-issue", "M-task", "123", "fam.M_described",
                         "M-error"]),
        TextContext: (TextContext(**step_context,  # type: ignore[arg-type]
                                  passages=[Passage(chunk_id="X-chunk", source="X-source.md", locator="lines 1-9",
                                                    heading="X-heading", text="X-text")],
                                  previous_error="X-error"),
                      [*brief_fields, *step_fields, *recent_fields, "I-issue", "X-chunk", "X-source.md", "lines 1-9",
                       "X-heading", "X-text", "X-error"]),
        CodeReviewContext: (CodeReviewContext(step=STEP, folder="steps/07-s", code="print('V-code')"),
                            [*step_fields, "V-code"]),
        DebugContext: (DebugContext(brief=BRIEF, step=STEP, folder="steps/07-s", code="D-code", error="D-error",
                                    error_name="D_Name", traceback="D-trace", output="D-output", advice="D-advice"),
                       [*brief_fields, *step_fields, "D-code", "D-error", "D_Name", "D-trace", "D-output",
                        "D-advice"]),
        InstallContext: (InstallContext(module="N_module", available=True, error="N-error"),
                         ["N_module", "True", "N-error"]),
        CritiqueContext: (CritiqueContext(**outcome, findings=[FINDING]),  # type: ignore[arg-type]
                          [*outcome_fields, "y.finding", "Y-message", "Y-settle"]),
        SummaryContext: (SummaryContext(**outcome, method_summary="Z-summary"),  # type: ignore[arg-type]
                         [*outcome_fields, "Z-summary"]),
        FigureContext: (FigureContext(step=STEP, folder="steps/07-s",
                                      figures=[FigureFile(path="figures/F-fig.png", bytes=4321),
                                               FigureFile(path="figures/G-gone.png")], findings=[FINDING]),
                        [*step_fields, "figures/F-fig.png", "4321", "figures/G-gone.png", "missing", "Y-message"]),
        ControlContext: (ControlContext(brief=BRIEF, plan=PLAN, statuses={}, step=STEP, verdict="V-verdict",
                                        issues=["I-issue"], attempt=2, max_attempts=5),
                         [*brief_fields, *step_fields[:-1], "V-verdict", "I-issue", "attempt 2 of 5"]),
        ReportContext: (ReportContext(title="T-title", brief=BRIEF, plan=PLAN, statuses={"s7": "done"},
                                      results=[StepResult(id="s7", title="S-title", status="done", summary="E-sum",
                                                          reason="", method="fam.E_method", values={"E_value": 5},
                                                          checks=[CHECK]),
                                               StepResult(id="s8", title="X", status="skipped", reason="E-reason")],
                                      status="done", stop_reason="E-stop", findings=[FINDING],
                                      rejected=[FINDING.model_copy(update={"message": "E-rejected"})],
                                      references=["[1] E-reference"]),
                        [*brief_fields, "S-title", "E-sum", "fam.E_method", "E_value", "C-check", "E-reason",
                         "E-stop", "Y-message", "E-rejected", "[1] E-reference"]),
        IdeaBrief: (IDEA_BRIEF, IDEA_BRIEF_FIELDS),
        IdeaContext: (IdeaContext(brief=IDEA_BRIEF, ideas=IdeaSet(ideas=[Idea(
                          title="J-title", question="J-question", hypothesis="J-hypothesis", method="fam.J_method",
                          arguments={"J_arg": 5}, approach="J-approach", risks=["J-risk"])], notes="J-notes"),
                          review=IdeaReview(satisfied=False, summary="J-summary", critiques=[IdeaCritique(
                              idea=1, novelty=2, feasibility=3, confounders=["J-confounder"],
                              failure_modes=["J-failure"], verdict="J-verdict", keep=False)])),
                      [*IDEA_BRIEF_FIELDS, "J-title", "J-question", "J-hypothesis", "fam.J_method", "J_arg",
                       "J-approach", "J-risk", "J-notes", "J-summary", "J-confounder", "J-failure", "J-verdict"]),
        AuditContext: (AuditContext(facts=AuditFacts(inputs={"data/A-in.csv": InputFile(bytes=11, sha256="A-hash")},
                                                     cells=["A-cell.py"], unseeded_cells=["A-unseeded.py"],
                                                     notebook=True)),
                       ["data/A-in.csv", "A-hash", "A-cell.py", "A-unseeded.py", "notebook"]),
    }


def test_every_context_kind_renders_every_field() -> None:
    cases = samples()
    import cmbagent.agents as agents

    kinds = {obj for obj in vars(agents).values() if isinstance(obj, type) and issubclass(obj, AgentContext)}
    assert kinds - {AgentContext, agents.StepOutcome} == set(cases), "add a sample for every context kind"
    for kind, (context, expected) in cases.items():
        text = context.render()
        missing = [value for value in expected if value not in text]
        assert not missing, f"{kind.__name__} does not render {missing}:\n{text}"
        assert context.render() == text  # deterministic


def test_the_request_carries_the_context_and_the_transcript_hashes_only_what_the_model_saw(tmp_path: Path) -> None:
    seen: list[BaseModel | None] = []

    def answer(request: ModelRequest) -> TextAnswer:
        seen.append(request.context)
        assert isinstance(request.context, StepContext)
        return TextAnswer(text=f"about {request.context.step.title}")

    context, _ = samples()[StepContext]
    client = ModelClient(Routing(default="m", models={"m": ScriptedModel(fn=answer)}),
                         transcript_path=tmp_path / "t.jsonl")

    def call(ctx: AgentContext) -> str:
        request = ModelRequest(messages=[Message(role="user", content=ctx.render())], output_schema=TextAnswer,
                               agent="researcher", context=ctx)
        return client.request(agent="researcher", request=request).output.text

    assert call(context) == "about S-title" and seen == [context]
    # the hash is over the rendered messages: a context that renders differently hashes differently
    changed = context.model_copy(update={"issues": ["another issue"]})
    call(changed)
    first, second = read_transcript(tmp_path / "t.jsonl")
    assert "context" not in first["request"] and first["request_hash"] != second["request_hash"]
    assert "I-issue" in json.dumps(first["request"]) and "another issue" in json.dumps(second["request"])
