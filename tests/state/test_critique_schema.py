"""The schema a critic is asked for (issue 16): bounded for a grammar-constrained decoder, tolerant in
validation (a hosted model's longer reply still counts), and the one the runtime binds for a step's critic."""

from __future__ import annotations

import json

from cmbagent.agents import bind_schema
from cmbagent.models._structured import grammar_bounds
from cmbagent.state import Critique, ReportDraft, critique_schema, report_schema

SN = "cosmology.fit_supernovae"


def test_a_critique_judges_at_most_the_steps_criteria_with_closed_strings() -> None:
    schema = critique_schema(2).model_json_schema()
    props = schema["properties"]
    assert props["criteria"]["maxItems"] == 2 and props["issues"]["maxItems"] == 3
    assert props["findings"]["maxItems"] == 2 and props["verdict"]["maxLength"] == 200
    assert props["issues"]["items"]["maxLength"] == 160
    finding = schema["$defs"]["CriticFinding"]["properties"]
    assert finding["code"]["pattern"].startswith("^[a-z]") and finding["message"]["maxLength"] == 200
    judged = schema["$defs"]["CriterionResult"]["properties"]
    assert judged["criterion"]["maxLength"] == 120 and judged["evidence"]["maxLength"] == 160
    # the grammar bounds leave these lengths alone (they are tighter than the 600-character default)
    assert grammar_bounds(schema)["properties"]["issues"]["maxItems"] == 3
    assert critique_schema(0).model_json_schema()["properties"]["criteria"]["maxItems"] == 0
    # given the step's criteria, a judgement names one of them in the step's words
    named = critique_schema(["Omega_m has an error bar", "a figure"]).model_json_schema()
    assert named["$defs"]["CriterionResult"]["properties"]["criterion"]["enum"] == ["Omega_m has an error bar",
                                                                                   "a figure"]
    assert named["properties"]["criteria"]["maxItems"] == 2


def test_validation_stays_the_critiques_own() -> None:
    long = {"accepted": False, "verdict": "x" * 500, "issues": [f"issue {n}" for n in range(9)],
            "criteria": [{"criterion": c, "met": False} for c in "ABC"],
            "findings": [{"code": "Odd Code", "severity": "error", "message": "m"}]}
    reply = critique_schema(1).model_validate(long)
    assert isinstance(reply, Critique) and len(reply.issues) == 9 and len(reply.criteria) == 3


def test_the_runtime_binds_it_for_a_step_and_bounds_other_critiques_too() -> None:
    bound = bind_schema(Critique, agents=["engineer"], methods=[SN], criteria=("a", "b", "c"))
    assert bound is critique_schema(["a", "b", "c"])
    # a critique of no step judges no criterion; its texts are bounded all the same (issue 30)
    assert bind_schema(Critique, agents=["engineer"], methods=[SN]) is critique_schema(0)
    assert json.dumps(bound.model_json_schema())  # serialisable as sent


def test_the_report_draft_is_bounded_for_a_grammar_and_validates_as_before() -> None:
    props = bind_schema(ReportDraft, agents=["engineer"], methods=[SN]).model_json_schema()["properties"]
    assert props["summary"]["maxLength"] == 1500 and props["title"]["maxLength"] == 160
    assert props["conclusions"]["maxItems"] == 5 and props["limitations"]["items"]["maxLength"] == 300
    long = report_schema().model_validate({"title": "t", "summary": "s" * 4000, "conclusions": ["c"] * 9})
    assert isinstance(long, ReportDraft) and len(long.conclusions) == 9


def test_a_step_summary_is_bounded_for_a_grammar() -> None:
    from cmbagent.agents import StepSummary

    bound = bind_schema(StepSummary, agents=["engineer"], methods=[SN])
    schema = bound.model_json_schema()
    assert schema["properties"]["summary"]["maxLength"] == 800
    # no open mapping to fill (SmolLM2 wrote 2,048 tokens of digits into key_values): the summary is prose only
    assert set(schema["properties"]) == {"summary"} and schema["additionalProperties"] is False
    assert isinstance(bound.model_validate({"summary": "s" * 2000}), StepSummary)  # validation as before
    assert bound.model_validate({"summary": "s", "key_values": {"x": 1.0}}).key_values == {"x": 1.0}


def test_a_text_answer_is_bounded_for_a_grammar() -> None:
    """SmolLM2 wrote 4,749 tokens of one text step (five minutes on one core) and ran the run out of time."""
    from cmbagent.agents import TextAnswer

    bound = bind_schema(TextAnswer, agents=["researcher"], methods=[SN], citable=["c-12", "c-40"])
    schema = bound.model_json_schema()
    props = schema["properties"]
    assert props["text"]["maxLength"] == 3000
    assert props["key_points"]["maxItems"] == 5 and props["key_points"]["items"]["maxLength"] == 240
    assert props["citations"]["maxItems"] == 8
    span = schema["$defs"]["CitedSpan"]["properties"]
    assert span["quote"]["maxLength"] == 300 and span["chunk_id"]["enum"] == ["c-12", "c-40"]
    # no passage retrieved, nothing to cite (SmolLM2, shown none, invented eight citations of digits)
    assert bind_schema(TextAnswer, agents=["researcher"], methods=[SN]).model_json_schema()[
        "properties"]["citations"]["maxItems"] == 0
    long = bound.model_validate({"text": "t" * 9000, "key_points": ["k"] * 9})  # validation as before
    assert isinstance(long, TextAnswer) and len(long.key_points) == 9
