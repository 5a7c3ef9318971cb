"""What a task states that the reading could not place is a question, never a silent default (issue 29).

Two nets under the reader, each general rather than tied to a field's words: a numeric argument the text gives
a number in the argument's own words ("a length scale of 40 m") that the reader did not read, and an input file
the run was given that no argument reads.  Measured on the held-out prose set: silent wrong 15 -> 12 of 43 with
the public set's scores unchanged (bench/understanding.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.agents import read_task
from cmbagent.inputs import profile_inputs
from tests.reading import _make

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def reading_of(text: str, files: list[Path]) -> object:
    names = [f"data/{f.name}" for f in files]
    return read_task(text=text, data_files=names, profiles=profile_inputs(dict(zip(names, files, strict=True))))


@pytest.mark.parametrize(("method", "text", "argument"), [
    # phrasings the method's reader does not know; the net sees the argument's words and a number
    ("theory.tubal_tensor_gd", "Tubal tensor factorisation, with a learning-rate around 0.02 and seed 3.",
     "learning_rate"),
    ("rl.distinguishability_queries", "Active preference queries: easiness weight about 0.4 and 30 queries.",
     "easiness_weight"),
])
def test_a_number_in_an_arguments_own_words_that_was_not_read_is_asked(method: str, text: str, argument: str) -> None:
    reading = read_task(text=text, method=method)
    assert reading.understanding is not None and argument not in reading.understanding.arguments
    assert not reading.clear
    assert any(f"gives {argument!r} a value" in q and f"`{argument}: <value>`" in q for q in reading.unread)


@pytest.mark.parametrize(("method", "text"), [
    ("lm.lora_symmetry", "Weight-space study of LoRA adapters: rank 4, seed 2."),  # read: nothing is asked
    ("lm.lora_symmetry", "LoRA adapters; the published orbit scale was 0.35 in the paper."),  # reported
    ("theory.tubal_tensor_gd", "Tubal tensor factorisation: learning rate 0.02, seed 3."),  # read by the reader
])
def test_numbers_that_were_read_or_only_reported_ask_nothing(method: str, text: str) -> None:
    reading = read_task(text=text, method=method)
    assert not [q for q in reading.unread if "a value" in q], reading.unread
    # a folder argument takes no word after its name ("LoRA adapters: rank 4" names no folder)
    assert reading.understanding is not None and "adapters" not in reading.understanding.arguments


@pytest.mark.parametrize("mention", [" The visits per site are in site_visits.csv.", ""])
def test_an_input_file_no_argument_reads_is_asked(tmp_path: Path, mention: str) -> None:
    # the programme table and a second table the dml method has no argument for, named in the text or only
    # given to the run (``--data``): running would ignore it
    data = _make.programme(tmp_path)
    extra = tmp_path / "site_visits.csv"
    extra.write_text("site,visits\nA,3\nB,5\n", encoding="utf-8")
    text = ("In programme.csv those with `enrolled` = 1 took the programme. What did it do to `earn22`, "
            f"adjusting for age and school?{mention}")
    reading = reading_of(text, [data, extra])
    assert reading.method == "causal.dml_ate"
    understood = reading.understanding
    assert understood is not None
    # the table that holds the columns the text names is the data; the outcome is no covariate
    assert understood.arguments["data"] == "data/programme.csv"
    assert (understood.arguments["outcome"], understood.arguments["covariates"]) == ("earn22", ["age", "school"])
    assert [q for q in reading.unread if "data/site_visits.csv" in q and "no argument of causal.dml_ate" in q]
    assert not reading.clear
    # the same task without the extra file asks nothing
    alone = reading_of(text, [data])
    assert alone.unread == [] and alone.clear
