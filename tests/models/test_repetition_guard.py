"""The streaming repetition guard (issue 30): a reply that loops is cut early, asked for once more with the
repetition named, and the run goes on.

At the HTTP boundary with every adapter (the real SDKs against the fake server, which streams a looping reply
slowly enough that waiting for its end would take seconds), through the scripted model, and through a replay;
then a whole run whose planner loops, as SmolLM2's did in the issue.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from pydantic import BaseModel

from cmbagent.exceptions import OutputValidationError
from cmbagent.models import Message, ModelClient, ModelRequest, RepetitionDetected, RepetitionGuard
from tests.fakes import FakeLLMServer, Json, Reply
from tests.fakes._replies import Trickle
from tests.models._backends import ALL_BACKENDS, HTTP_BACKENDS, backend

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: the issue's loop: keys growing inside an open mapping, then a phrase written over and over
KEY_LOOP = '{"name": "H0", "value": 70.1, "priors": {' + ", ".join(
    f'"{"priors." * k}data": {{"mean": 0.1, "std": 1}}' for k in range(1, 60)) + "}}"
PHRASE_LOOP = '{"name": "' + "the report has a detailed report of the plan, " * 300 + '", "value": 1}'


class Measurement(BaseModel):
    name: str
    value: float


def ask() -> ModelRequest:
    return ModelRequest(messages=[Message(role="system", content="Be brief."),
                                  Message(role="user", content="Measure H0.")], output_schema=Measurement)


#: the fake server streams 5 characters an event, at least this many seconds apart
EVERY = 0.01


def _slow(reply: Json, name: str) -> Reply:
    """Stream the looping reply slowly over HTTP: all of it would take ``_full(reply)`` seconds at least."""
    return Trickle(reply, every=EVERY) if name in HTTP_BACKENDS or name == "replay" else reply


def _full(text: str) -> float:
    return len(text) / 5 * EVERY


@pytest.mark.parametrize("loop", [KEY_LOOP, PHRASE_LOOP], ids=["keys", "phrase"])
@pytest.mark.parametrize("name", ALL_BACKENDS)
def test_a_looping_reply_is_cut_early_and_asked_for_once_more(name: str, loop: str, tmp_path: Path) -> None:
    replies: list[Reply] = [_slow(Json(loop), name), Json(Measurement(name="H0", value=70.1))]
    if name == "replay":
        replies = [Json(loop), replies[1]]  # recorded at speed; replayed with the network off

    def scenario(client: ModelClient) -> tuple[str, float]:
        started = time.monotonic()
        output = client.request(agent="planner", request=ask()).output
        assert isinstance(output, Measurement)
        if name in HTTP_BACKENDS:
            assert time.monotonic() - started < _full(loop)  # the whole loop takes that at least to stream
        return output.name, output.value

    outcome = backend(name).run(tmp_path, replies, scenario)
    assert outcome.result == ("H0", 70.1)
    cut, answered = outcome.transcript_lines()
    assert cut["error"]["type"] == "RepetitionDetected" and "repeat" in cut["error"]["message"]
    assert 0 < len(cut["response"]["text"]) < 2500 < len(loop)  # stopped a few hundred characters in
    assert answered["error"] is None
    note = answered["request"]["messages"][-1]
    assert note["role"] == "user" and "started repeating itself" in note["content"]
    assert answered["request"]["messages"][:-1] == cut["request"]["messages"]  # the prompt's beginning unchanged
    if outcome.server is not None and name != "replay":
        first, second = outcome.server.requests
        assert first.stream and "started repeating itself" in json.dumps(second.body["messages"][-1])


@pytest.mark.parametrize("name", HTTP_BACKENDS)
def test_a_reply_that_loops_again_is_cut_again_and_is_an_invalid_output(name: str, tmp_path: Path) -> None:
    """Asked once more, never twice: the second loop ends the call (the graph then falls back to code)."""
    def scenario(client: ModelClient) -> str:
        with pytest.raises(OutputValidationError, match="repeated itself twice") as info:
            client.request(agent="reporter", request=ask())
        assert isinstance(info.value.__cause__, RepetitionDetected)
        return "raised"

    outcome = backend(name).run(tmp_path, [_slow(Json(PHRASE_LOOP), name)] * 2 + [Json({"name": "x", "value": 1})],
                                scenario)
    assert outcome.result == "raised"
    assert [line["error"]["type"] for line in outcome.transcript_lines()] == ["RepetitionDetected"] * 2
    assert outcome.server is not None and len(outcome.server.requests) == 2  # no third call


def test_the_guard_can_be_switched_off(tmp_path: Path) -> None:
    from cmbagent.models import Routing, ScriptedModel

    model = ScriptedModel([Json(PHRASE_LOOP).text()])
    client = ModelClient(Routing(default="s", models={"s": model}), repetition_guard=False)
    request = ModelRequest(messages=[Message(role="user", content="go")])
    assert client.request(agent="researcher", request=request).text == Json(PHRASE_LOOP).text()


# -- what the guard lets through, and what it stops ----------------------------------------------------------
def _feed(text: str, *, structured: bool) -> str | None:
    guard = RepetitionGuard(structured=structured)
    try:
        for i in range(0, len(text), 7):
            guard.feed(text[i:i + 7])
        guard.check()
    except RepetitionDetected as exc:
        return f"{exc.kind}@{exc.chars}"
    return None


def test_sound_replies_that_repeat_their_structure_pass() -> None:
    steps = [{"title": f"{verb} the {thing}", "goal": f"{verb} the {thing} of the supernova sample.",
              "agent": "engineer", "instructions": "Read data/sn.csv, fit the model, print the results.",
              "inputs": [], "expected_outputs": [], "acceptance_criteria": ["answer printed", "chi2/dof < 2"],
              "method": None}
             for verb, thing in zip(["Load", "Clean", "Fit", "Plot", "Compare", "Bin"] * 2,
                                    ["data", "residuals", "model", "chain", "fits", "redshifts"] * 2, strict=True)]
    assert _feed(json.dumps({"steps": steps, "rationale": "one step per task"}), structured=True) is None
    table = "| depth | regions | outputs |\n|---|---|---|\n" + "".join(f"| {d} | {d * 7} | {d * 3} |\n"
                                                                     for d in range(1, 60))
    assert _feed(table, structured=False) is None
    listing = "; ".join(f"depth_{d}_distinct_outputs = {d * 5}" for d in range(1, 40))
    assert _feed(json.dumps({"summary": f"It worked: {listing}."}), structured=True) is None
    code = "import numpy as np\n" + "".join(f"x{i} = np.linspace(0, {i}, 100)\nprint(x{i}.mean())\n"
                                           for i in range(60))
    assert _feed(json.dumps({"code": code, "explanation": "means"}), structured=True) is None
    numbers = json.dumps({"values": [round(0.1 + i / 997, 4) for i in range(100)], "columns": [f"x{i}" for i in
                                                                                               range(100)]})
    assert _feed(numbers, structured=True) is None


def test_loops_are_stopped_within_a_few_hundred_characters() -> None:
    loops = {
        "keys": (KEY_LOOP, True), "phrase": (PHRASE_LOOP, True),
        "one key": ('{"priors": {"priors.priors.priors.priors.data": 1}}', True),
        "digits": ("S.B.4178992129391394 " * 40, False),
        "a character": ("0" * 600, False),
        "a sentence in prose": ("The report has a detailed report of the plan. " * 30, False),
    }
    step = {"title": "measure_Omega_m", "goal": "measure_Omega_m", "agent": "method_operator",
            "method": {"name": "cosmology.fit_supernovae", "arguments": {"data": "data/Pantheon+SH0ES.dat"}}}
    steps = json.dumps({"steps": [step] * 12}, indent=2)  # SmolLM2's plan: one method step twelve times over
    stopped = _feed(steps, structured=True)
    assert stopped is not None and stopped.startswith("item@") and int(stopped.split("@")[1]) < len(steps) / 3
    for label, (text, structured) in loops.items():
        stopped = _feed(text, structured=structured)
        assert stopped is not None, label
        assert int(stopped.split("@")[1]) <= 600, (label, stopped)


def test_a_runaway_number_is_cut_and_long_digits_inside_a_string_are_not() -> None:
    """SmolLM2 ended a list of initialisation scales with a number of about 7,000 digits that never repeat
    (``theory_tubal_tensor_gd``, 7,322 tokens to its limit): a number of more than 40 digits outside any string is
    a loop; the same digits as a string (an identifier, a hash) are text."""
    import random

    rng = random.Random(3)
    digits = "".join(rng.choice("0123456789") for _ in range(3000))
    runaway = '{"steps": [{"method": {"arguments": {"alphas": [1e-05, 0.001, 2.5, 15439.' + digits
    stopped = _feed(runaway, structured=True)
    assert stopped is not None and stopped.startswith("number@")
    assert int(stopped.split("@")[1]) < runaway.index("15439.") + 120
    assert _feed(json.dumps({"run_id": digits[:600], "alphas": [1e-05, 0.001, 2.5, 3.14159265358979]}),
                 structured=True) is None
    assert _feed(f"The digits of the reply: {digits[:600]}", structured=False) is None  # prose is not JSON


def test_dotted_digits_written_on_inside_a_string_are_cut() -> None:
    """SmolLM2 approved a cell as the code reviewer and then wrote ``revised_code`` as digits broken by dots and
    dashes, until its 2,048-token limit, three times in one ``theory_tubal_tensor_gd`` run (no unit repeats, so the
    tail and phrase shapes do not see it).  Such a run inside a string is cut within a few hundred characters; code
    with numbers, a timestamp and a long plain number are not."""
    import random

    rng = random.Random(5)
    soup = "2020-11-20 14:28:43." + "".join(
        "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 6))) + rng.choice("..-")
        for _ in range(800))
    reply = '{"approved": true, "issues": [], "revised_code": "' + soup
    stopped = _feed(reply, structured=True)
    assert stopped is not None and stopped.startswith("number@")
    assert int(stopped.split("@")[1]) < reply.index("2020-") + 400
    code = "import numpy as np\nalphas = np.array([" + ", ".join(f"{10 ** -k:.1e}" for k in range(40)) + "])\n"
    stamps = " ".join(f"2026-12-0{d} 14:28:43.294163" for d in range(1, 9))
    plain = "".join(rng.choice("0123456789") for _ in range(600))
    for fine in (code, stamps, plain):
        assert _feed(json.dumps({"approved": False, "issues": ["x"], "revised_code": fine}), structured=True) is None


def test_numbers_and_separators_without_a_word_inside_a_string_are_cut() -> None:
    """SmolLM2, as the code reviewer of ``causal_value_of_prediction`` (session 20), wrote ``revised_code`` as ids,
    dates and times separated by spaces and hashes to its 2,048-token limit: no unit repeats, and the spaces hid it
    from the dotted-digits shape.  Inside a string, more than 600 characters of that kind are cut; numbers with
    words between them, a table row's worth, and a long identifier are not."""
    import random

    rng = random.Random(7)
    soup = " ".join(f"#{rng.randint(10 ** 6, 10 ** 7)} #{rng.randint(1990, 2230)}-{rng.randint(1, 28):02d}-"
                    f"{rng.randint(1, 28):02d} {rng.randint(0, 99)}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
                    for _ in range(200))
    reply = '{"approved": false, "issues": [], "revised_code": "' + soup
    stopped = _feed(reply, structured=True)
    assert stopped is not None and stopped.startswith("number@")
    assert int(stopped.split("@")[1]) < reply.index("#") + 700
    worded = "; ".join(f"bin {k}: mu = {rng.uniform(30, 45):.3f} +- {rng.uniform(0.1, 0.3):.3f}" for k in range(60))
    row = " | ".join(f"{rng.uniform(0, 1):.4f}" for _ in range(60))[:500]
    ident = "".join(rng.choice("0123456789") for _ in range(1200))
    for fine in (worded, row, ident):
        assert _feed(json.dumps({"approved": False, "issues": ["x"], "revised_code": fine}), structured=True) is None


# -- a whole run ------------------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_planner_that_loops_is_asked_once_more_and_the_run_ends_done(tmp_path: Path) -> None:
    """The issue's run: the planner's first reply loops in a mapping's keys.  It is cut, asked again naming the
    repetition, and the run goes on to ``done`` with the task's answer."""
    from cmbagent.api import solve
    from cmbagent.models import read_transcript
    from cmbagent.sandbox import InMemoryExecutor
    from tests.faults._support import TASK, Agents

    loop = '{"steps": [{"title": "Fit", "goal": "Fit it.", "agent": "engineer", "instructions": "' + \
        "priors.priors.data " * 2000 + '"}]}'
    agents = Agents(faults={3: [Trickle(Json(loop), every=0.002)]})  # the third agent call is the planner's
    with FakeLLMServer(fn=agents) as server:
        result = solve(TASK, workspace=tmp_path / "ws", model=f"openai-compatible:fake-model@{server.openai_url}",
                       executor=InMemoryExecutor, config={"models": {"retries": 1, "timeout": 30}})
    assert result.status == "done", result.error
    assert result.values["answer"] == 42.0 and agents.served_faults == 1
    calls = list(read_transcript(result.run_dir / "transcript.jsonl"))
    cut = [c for c in calls if c["error"]]
    assert [(c["agent"], c["error"]["type"]) for c in cut] == [("planner", "RepetitionDetected")]
    assert len(cut[0]["response"]["text"]) < 1500  # of 38,000 characters the loop would have written
    assert cut[0]["latency_s"] < len(loop) / 5 * 0.002  # streaming the whole loop takes 15 s at the least
