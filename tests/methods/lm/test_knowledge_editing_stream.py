"""lm.knowledge_editing_stream: retrieval keeps early edits, fine-tuning forgets them, replay sits between."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.lm._facts import QA, generate_stream
from cmbagent.tools.methods.lm._io import MiniLMEmbedder
from cmbagent.tools.methods.lm.knowledge_editing_stream import EditRetriever


def test_minilm_embedder_is_the_shipped_model() -> None:
    vectors = MiniLMEmbedder().embed(["The capital of France is Paris.", "Paris is the capital of France.",
                                      "Bananas are yellow."])
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > 0.9 > vectors[0] @ vectors[2]


def test_retriever_keeps_the_newest_edit_per_key() -> None:
    store = EditRetriever(threshold=0.8)
    store.add([QA("The homeland of Zorvik is", "Quenmoor", "Zorvik|homeland"),
               QA("Talbrix works for", "Dunela", "Talbrix|employer")])
    store.add([QA("The homeland of Zorvik is", "Sarnul", "Zorvik|homeland")])
    assert store.collection.count() == 2
    (answer, similarity), (miss, _) = store.lookup(["The homeland of Zorvik is", "Bananas are a fruit"])
    assert answer == "Sarnul" and similarity > 0.99
    assert miss is None


def test_generated_stream_shape() -> None:
    stream = generate_stream(n_timesteps=3, edits_per_step=6, n_base=10, seed=0)
    assert len(stream.edits) == len(stream.rephrases) == len(stream.multihop) == 3
    assert all(len(step) == 6 for step in stream.edits)
    assert all(q.followup for step in stream.multihop for q in step)
    assert {q.prompt for q in stream.rephrases[0]}.isdisjoint({q.prompt for q in stream.edits[0]})


@pytest.mark.slow
def test_retrieval_keeps_first_edits_finetuning_forgets_replay_between(tmp_path: Path) -> None:
    torch.set_num_threads(1)
    # 16 first-step edits and twice as much replay: with 10 edits (8 scored) replay tied finetuning at 1 of 8
    # on one CPU; here replay keeps 0.75-0.80 and finetuning 0-0.08 over seeds 0-2
    result = run_method("lm.knowledge_editing_stream", {
        "n_timesteps": 5, "edits_per_step": 16, "n_base": 80, "pretrain_steps": 300, "edit_steps": 40,
        "replay_ratio": 2.0, "seed": 0, "output_dir": str(tmp_path)})
    v = result.values
    assert v["retrieval_first_step_retention"] >= 0.9
    assert v["finetune_first_step_drop"] >= 0.3
    assert v["finetune_first_step_retention"] < v["replay_first_step_retention"] < v["retrieval_first_step_retention"]
    assert v["retrieval_locality_mean"] > v["finetune_locality_mean"]
    assert result.ok, result.checks


def test_user_stream_and_bad_inputs(tmp_path: Path) -> None:
    rows = [{"timestep": t, "subject": f"S{i + 3 * t}", "relation": "r", "prompt": f"The colour of item S{i + 3 * t} is",
             "object": ["red", "blue", "green"][(i + t) % 3], "rephrase": f"Item S{i + 3 * t} has the colour",
             "locality_prompt": f"The shape of item L{i} is", "locality_answer": ["round", "square"][i % 2]}
            for t in (1, 2) for i in range(6)]
    data = tmp_path / "stream.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = run_method("lm.knowledge_editing_stream", {"data": str(data), "strategies": ["retrieval"],
                                                        "pretrain_steps": 50, "output_dir": str(tmp_path)})
    assert [r["timestep"] for r in result.values["per_timestep"]["retrieval"]] == [1, 2]
    assert result.values["retrieval_edit_mean"] == 1.0
    assert result.values["retrieval_first_step_retention"] == 1.0  # S3-S5 of step 1 are edited again at step 2
    with pytest.raises(UserError, match="strategies"):
        run_method("lm.knowledge_editing_stream", {"strategies": ["rome"], "output_dir": str(tmp_path)})
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps({"timestep": 1, "prompt": "p", "object": "o"}) + "\n")
    with pytest.raises(DataError, match="data"):
        run_method("lm.knowledge_editing_stream", {"data": str(one), "output_dir": str(tmp_path)})
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"timestep": "soon", "prompt": "p", "object": "o"}) + "\n")
    with pytest.raises(DataError, match="timestep"):
        run_method("lm.knowledge_editing_stream", {"data": str(bad), "output_dir": str(tmp_path)})


def test_forgetting_of_unrelated_facts_is_stated(tmp_path: Path) -> None:
    # a stream unlike the generated one: ships and their home ports are the prior knowledge, the edits set the
    # firmware of devices over four timesteps; fine-tuning on the edits overwrites the ports, retrieval does not
    ports = ["Tallinn", "Oporto", "Gdansk", "Bergen", "Split"]
    firmware = ["v1", "v2", "v3", "v4"]
    rows = []
    for t in (1, 2, 3, 4):
        for i in range(8):
            ship = 8 * (t - 1) + i  # one prior fact per row: 32 ships
            rows.append({"timestep": t, "subject": f"D{i}", "relation": "firmware",
                         "prompt": f"The firmware of device D{i} is", "object": firmware[(i + t) % 4],
                         "locality_prompt": f"The home port of ship P{ship} is", "locality_answer": ports[ship % 5]})
    data = tmp_path / "ships.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = run_method("lm.knowledge_editing_stream", {
        "data": str(data), "strategies": ["retrieval", "finetune"], "pretrain_steps": 300, "edit_steps": 60,
        "output_dir": str(tmp_path)})
    v = result.values
    assert v["unrelated_facts"]["n"] == 32 and v["unrelated_facts"]["accuracy_before_edits"] >= 0.9
    assert v["finetune_locality_drop"] >= 0.2 and v["retrieval_locality_drop"] < 0.2
    (finding,) = result.findings
    assert finding.evidence["strategy"] == "finetune" and finding.severity == "warning"
    assert finding.evidence["accuracy_after_stream"] == v["finetune_locality_final"]
    assert "continual fine-tuning destroyed unrelated knowledge" in finding.message
    assert "Continual fine-tuning destroyed unrelated knowledge" in result.summary


def test_a_stream_without_prior_facts_states_that_locality_is_not_measured(tmp_path: Path) -> None:
    """A user's stream of edits alone (no locality fields) has no prior facts: the base-knowledge check does not
    apply (it used to fail with "0.0% of the prior facts"), and the result says locality was not measured."""
    rows = [{"timestep": t, "subject": f"V{i + 4 * t}", "relation": "r", "prompt": f"The port of vessel V{i + 4 * t} is",
             "object": ["Oslo", "Bergen"][(i + t) % 2], "rephrase": f"Vessel V{i + 4 * t} is registered in"}
            for t in (1, 2) for i in range(5)]
    data = tmp_path / "vessels.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = run_method("lm.knowledge_editing_stream", {"data": str(data), "strategies": ["retrieval"],
                                                        "pretrain_steps": 50, "output_dir": str(tmp_path)})
    assert all(check.passed for check in result.checks), result.checks
    assert not [c for c in result.checks if c.name == "base knowledge learned"]
    assert any("locality" in f.message and "not measured" in f.message for f in result.findings), result.findings
    assert result.values["base_knowledge_accuracy"] is None
