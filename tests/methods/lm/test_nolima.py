"""lm.nolima: effective length against the paper's table, the BM25 baseline and a model end to end."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.lm.nolima import (
    base_score,
    bm25_answer,
    builtin_needles,
    contains,
    effective_length,
    generate_items,
    load_haystack,
)
from tests.fakes import FakeLLMServer, Text

# NoLiMa (arXiv 2502.05167), Table 3 / the repository's README: base score, scores at 1K–32K, effective length
PAPER_TABLE = {
    "GPT-4o": (99.3, [98.1, 98.0, 95.7, 89.2, 81.6, 69.7], "8K"),
    "Llama 3.3 70B": (97.3, [94.2, 87.4, 81.5, 72.1, 59.5, 42.7], "2K"),
    "Llama 3.1 405B": (94.7, [89.0, 85.0, 74.5, 60.1, 48.4, 38.0], "2K"),
    "Llama 3.1 70B": (94.5, [91.0, 81.8, 71.2, 62.7, 51.8, 43.2], "2K"),
    "Gemini 1.5 Pro": (92.6, [86.4, 82.7, 75.4, 63.9, 55.5, 48.2], "2K"),
    "Jamba 1.5 Mini": (92.4, [76.3, 74.1, 70.8, 62.2, 52.7, 43.6], "<1K"),
    "Command R+": (90.9, [77.0, 73.5, 66.3, 39.5, 21.3, 7.4], "<1K"),
    "Mistral Large 2": (87.9, [86.1, 85.5, 73.3, 51.5, 32.6, 18.7], "2K"),
    "Claude 3.5 Sonnet": (87.6, [85.4, 84.0, 77.6, 61.7, 45.7, 29.8], "4K"),
    "Gemini 1.5 Flash": (84.7, [68.6, 61.6, 51.0, 44.4, 35.5, 28.6], "<1K"),
    "GPT-4o mini": (84.9, [67.7, 58.2, 44.1, 32.6, 20.6, 13.7], "<1K"),
    "Llama 3.1 8B": (76.7, [65.7, 54.4, 44.1, 31.9, 22.6, 14.2], "1K"),
}
LENGTHS = [1000, 2000, 4000, 8000, 16000, 32000]


@pytest.mark.parametrize("model", sorted(PAPER_TABLE))
def test_effective_length_reproduces_the_paper_table(model: str) -> None:
    base, scores, published = PAPER_TABLE[model]
    _, label = effective_length(dict(zip(LENGTHS, scores, strict=True)), base)
    assert label == published


def test_base_score_is_the_mean_of_the_short_lengths() -> None:
    assert base_score({250: 100.0, 500: 90.0, 1000: 80.0, 2000: 10.0}) == pytest.approx(90.0)
    assert base_score({2000: 70.0, 4000: 10.0}) == 70.0


def test_contains_metric() -> None:
    assert contains("The answer is Yuki.", "Yuki")
    assert contains("yuki", "Yuki")
    assert not contains("Yukiko lives there", "Yuki")
    assert not contains("I do not know", "Yuki")


def test_latent_questions_share_no_content_word_with_the_needle() -> None:
    stop = {"the", "to", "a", "of", "which", "character", "has", "been", "is"}
    for needle in builtin_needles():
        words = lambda text: {w.lower() for w in re.findall(r"\w+", text)} - stop  # noqa: E731
        assert not words(needle.question) & words(needle.needle), needle
        assert needle.answer in needle.needle


def test_haystack_never_names_a_needle_key() -> None:
    needles = builtin_needles(6)
    item = next(generate_items(needles, load_haystack(), lengths=[4000], n_depths=1))
    haystack = " ".join(s for i, s in enumerate(item.sentences) if i != item.needle_index).lower()
    for needle in needles:
        for word in (*needle.avoid, needle.answer):
            assert not re.search(rf"\b{re.escape(word.lower())}\b", haystack)


def test_bm25_finds_literal_needles_and_is_at_chance_on_latent_ones() -> None:
    items = list(generate_items(builtin_needles(6), load_haystack(), lengths=[1000, 4000], n_depths=26))
    literal = [contains(bm25_answer(i), i.answer) for i in items if i.kind == "literal"]
    latent = [contains(bm25_answer(i), i.answer) for i in items if i.kind == "latent"]
    chance = sum(1 / len(i.sentences) for i in items if i.kind == "latent") / len(latent)
    assert sum(literal) / len(literal) >= 0.95
    assert sum(latent) / len(latent) <= chance + 0.05


def _reader(limit_tokens: int):
    """A scripted 'model' that finds the needle only in contexts up to ``limit_tokens`` (words and punctuation)."""

    def answer(request) -> Text:  # type: ignore[no-untyped-def]
        prompt = request.body["messages"][-1]["content"]
        snippet = prompt.split("book snippet:", 1)[1].split("Use the information", 1)[0]
        if len(re.findall(r"\w+|[^\w\s]", snippet)) > limit_tokens:
            return Text("I could not find it.")
        match = re.search(r"Actually, (\w+) lives next to|(\w+) keeps a small studio", snippet)
        return Text(match.group(1) or match.group(2) if match else "Unknown")

    return answer


def test_scripted_model_through_the_fake_openai_server(tmp_path: Path) -> None:
    with FakeLLMServer(fn=_reader(3000)) as server:
        result = run_method("lm.nolima", {
            "model": f"openai-compatible:fake-reader@{server.openai_url}",
            "lengths": [250, 500, 1000, 2000, 4000], "n_needles": 2, "n_depths": 3,
            "literal_controls": False, "output_dir": str(tmp_path),
        })
        assert len(server.requests) == 2 * 3 * 5
    v = result.values
    assert v["latent_scores"] == {"250": 100.0, "500": 100.0, "1000": 100.0, "2000": 100.0, "4000": 0.0}
    assert v["latent_base_score"] == 100.0
    assert v["latent_effective_length"] == 2000 and v["latent_effective_length_label"] == "2K"
    assert Path(result.artifacts[0]).is_file()
    json.loads(result.to_json())


def test_bad_inputs_name_the_argument(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="lengths"):
        run_method("lm.nolima", {"lengths": [4000, 32000], "max_context": 8192, "output_dir": str(tmp_path)})
    with pytest.raises(UserError, match="model"):
        run_method("lm.nolima", {"model": "nonsense-provider:x", "lengths": [250], "n_needles": 1, "n_depths": 1,
                                 "output_dir": str(tmp_path)})
    with pytest.raises(UserError, match="model"):  # nothing listens on port 9: a clear error, not a traceback
        run_method("lm.nolima", {"model": "openai-compatible:x@http://127.0.0.1:9/v1", "lengths": [250],
                                 "n_needles": 1, "n_depths": 1, "output_dir": str(tmp_path)})
    with pytest.raises(UserError, match="model"):
        run_method("lm.nolima", {"model": "offline", "lengths": [250], "n_needles": 1, "n_depths": 1,
                                 "output_dir": str(tmp_path)})
    empty = tmp_path / "needles.jsonl"
    empty.write_text("")
    with pytest.raises(DataError, match="needles"):
        run_method("lm.nolima", {"needles": str(empty), "output_dir": str(tmp_path)})
    short = tmp_path / "short.txt"
    short.write_text("Too short. " * 5)
    with pytest.raises(DataError, match="haystack"):
        run_method("lm.nolima", {"haystack": str(short), "output_dir": str(tmp_path)})


def test_user_needles_and_haystack(tmp_path: Path) -> None:
    needles = tmp_path / "needles.jsonl"
    needles.write_text(json.dumps({"needle": "Ottilie keeps her sailing boat moored below the lighthouse.",
                                   "question": "Who owns a vessel?",
                                   "literal_question": "Who keeps a sailing boat moored below the lighthouse?",
                                   "answer": "Ottilie", "avoid": "lighthouse;vessel"}) + "\n")
    result = run_method("lm.nolima", {"needles": str(needles), "lengths": [250, 500], "n_depths": 4,
                                      "output_dir": str(tmp_path)})
    assert result.values["n_items"] == 2 * 4 * 2
    assert result.values["bm25_literal_mean"] == 100.0


@pytest.mark.slow
def test_the_bm25_baseline_is_the_same_in_every_process(tmp_path: Path) -> None:
    """Ties are broken by a seeded draw whose seed must not depend on Python's per-process string hashing."""
    import os
    import subprocess
    import sys

    code = ("import json, sys\nfrom cmbagent.tools.methods import run_method\n"
            "r = run_method('lm.nolima', {'lengths': [250, 500], 'n_needles': 4, 'n_depths': 6, "
            "'literal_controls': False, 'seed': 0, 'output_dir': sys.argv[1]})\n"
            "print(json.dumps(r.values['bm25_latent_scores']))\n")
    scores = {subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(scores) == 1, scores


def _lighthouse_haystack(tmp_path: Path) -> Path:
    """A haystack of our own (not the shipped novel): numbered harbour-log sentences."""
    harbour = tmp_path / "harbour.txt"
    harbour.write_text(" ".join(f"On day {i} the {['tide', 'wind', 'fog', 'rain'][i % 4]} kept the ferry number "
                                f"{i * 7 % 31} waiting at quay {i % 5} for {i % 9 + 1} hours." for i in range(400)))
    return harbour


def test_items_are_saved_and_another_systems_replies_are_scored_on_them(tmp_path: Path) -> None:
    import pandas as pd

    haystack = _lighthouse_haystack(tmp_path)
    first = run_method("lm.nolima", {"lengths": [250, 1000], "n_needles": 3, "n_depths": 4, "haystack": str(haystack),
                                     "save_items": True, "seed": 5, "output_dir": str(tmp_path / "run1")})
    saved = Path(first.values["items_file"])
    assert saved.name == "nolima_items.jsonl.xz" and str(saved) in first.artifacts
    # another system reads the file with an ordinary library (pandas infers the xz compression) ...
    table = pd.read_json(saved, lines=True)
    assert len(table) == first.values["n_items"] == 3 * 4 * 2 * 2 and table["id"].is_unique
    row = table.iloc[5]
    assert row["sentences"][row["needle_index"]] in row["prompt"] and row["question"] in row["prompt"]
    # ... and answers: this one finds the answer only in contexts of 250 tokens, and only for latent questions
    replies = pd.DataFrame({"id": table["id"],
                            "reply": [a if (n == 250 and k == "latent") else "no idea"
                                      for a, n, k in zip(table["answer"], table["length"], table["kind"], strict=True)]})
    replies.to_csv(tmp_path / "replies.csv", index=False)
    scored = run_method("lm.nolima", {"items": str(saved), "replies": str(tmp_path / "replies.csv"),
                                      "output_dir": str(tmp_path / "run2")})
    v = scored.values
    assert v["n_items"] == first.values["n_items"]
    assert v["bm25_latent_scores"] == first.values["bm25_latent_scores"]  # the same items, the same baseline
    assert v["latent_scores"] == {"250": 100.0, "1000": 0.0} and v["literal_scores"] == {"250": 0.0, "1000": 0.0}
    assert v["latent_base_score"] == 50.0 and v["latent_effective_length_label"] == "250"
    assert "replies.csv" in scored.summary
    # the items fix what they are; a reply file must cover them exactly
    replies.iloc[1:].to_csv(tmp_path / "short.csv", index=False)
    with pytest.raises(DataError, match="1 item"):
        run_method("lm.nolima", {"items": str(saved), "replies": str(tmp_path / "short.csv")})
    with pytest.raises(UserError, match="lengths"):
        run_method("lm.nolima", {"items": str(saved), "lengths": [250]})
    with pytest.raises(UserError, match="model, replies"):
        run_method("lm.nolima", {"items": str(saved), "replies": str(tmp_path / "replies.csv"),
                                 "model": "openai-compatible:x@http://127.0.0.1:9/v1"})
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({"id": "x", "kind": "latent"}) + "\n")
    with pytest.raises(DataError, match="lacks"):
        run_method("lm.nolima", {"items": str(broken)})
