"""How prose states the arguments of the ``lm`` family (``agents/_fields_lm.py``), in sentences of our own.

Every argument pattern of the family has at least one sentence here, phrased unlike the public prose set
(``tests/understanding``), and sentences that must *not* set it: a negation, a number that means something else
nearby.  The general mechanisms the patterns rely on (thousands written "16K", integer ranges, a count of seeds,
[layer, head] pairs, a boolean's True/False phrases, a list of strings whose choices only the documentation
names, short choice names, an unreadable value becoming a question, file roles by name and words, JSONL files
named in prose) are exercised through the same readings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cmbagent.agents import understand_task
from cmbagent.inputs import profile_inputs

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")


def _read(method: str, text: str) -> dict[str, Any]:
    return dict(understand_task(method, text, {}, []).arguments)


def _questions(method: str, text: str) -> list[str]:
    return list(understand_task(method, text, {}, []).questions)


# -- lm.compositional_diversity ---------------------------------------------------------------------------
CD = "lm.compositional_diversity"


@pytest.mark.parametrize(("text", "n"), [
    ("Use a 7x7 grid of attribute combinations and vary the coverage.", 7),
    ("Concepts sit on a grid of 4 × 4 (colour by texture).", 4),
    ("Think of 4 fruits × 4 colours as the two concepts we combine.", 4),
    ("Each concept takes eight values; train at every coverage level.", 8),
    ("Simulate two attributes with 3 values per concept.", 3),
    ("Lay the attributes out on a 6 by 6 grid.", 6),
])
def test_the_grid_size(text: str, n: int) -> None:
    assert _read(CD, text)["n"] == n


@pytest.mark.parametrize("text", [
    "Use a 5 × 3 grid of combinations.",  # not square: no single number of values per concept
    "Inputs are rendered as 32 x 32 pixels; the two concepts keep the default number of values.",
])
def test_a_grid_that_is_not_the_concept_grid(text: str) -> None:
    assert "n" not in _read(CD, text)


@pytest.mark.parametrize(("text", "ks"), [
    ("Sweep the coverage k from 2 to 4.", [2, 3, 4]),
    ("Compare coverage levels 1–3 at a fixed data size.", [1, 2, 3]),
])
def test_coverage_levels_as_a_range(text: str, ks: list[int]) -> None:
    assert _read(CD, text)["ks"] == ks


def test_a_list_of_coverage_levels_is_not_cut_to_a_range() -> None:
    assert _read(CD, "Use k = 1, 3 and 5.")["ks"] == [1, 3, 5]


@pytest.mark.parametrize(("text", "n_train"), [
    ("Keep 1,500 training examples at every level of k.", 1500),
    ("Keep the training-set size fixed at 600 for all coverages.", 600),
    ("Use a fixed budget of 900 samples per run.", 900),
])
def test_the_training_size(text: str, n_train: int) -> None:
    assert _read(CD, text)["n_train"] == n_train


def test_test_samples_are_not_the_training_size() -> None:
    assert "n_train" not in _read(CD, "Evaluate on 300 test samples of unseen pairs.")


@pytest.mark.parametrize(("text", "seeds"), [
    ("Repeat over seeds 0-4 and report the spread.", [0, 1, 2, 3, 4]),
    ("Average over seeds 10 to 12.", [10, 11, 12]),
    ("Average over three independent seeds.", [0, 1, 2]),
    ("Use 4 seeds.", [0, 1, 2, 3]),
])
def test_seeds_as_a_range_or_a_count(text: str, seeds: list[int]) -> None:
    assert _read(CD, text)["seeds"] == seeds


def test_seeds_the_text_declines_are_not_read() -> None:
    assert "seeds" not in _read(CD, "Do not use five seeds; the default is enough.")


# -- lm.jola ----------------------------------------------------------------------------------------------
JOLA = "lm.jola"


@pytest.mark.parametrize(("text", "heads"), [
    ("Plant the edit in layer 2, head 3 and see whether the gates find it.", [[2, 3]]),
    ("We planted edits at head 0 of layer 1 and head 5 of layer 1.", [[1, 0], [1, 5]]),
    ("Target heads: L1H0 and L3H2.", [[1, 0], [3, 2]]),
    ("The teacher's edits sit on (0, 1) and (2, 2), as [layer, head].", [[0, 1], [2, 2]]),
    ("The teacher modifies layer 3, head 1 only.", [[3, 1]]),
    ("Check that the gates single out layer 1 head 0 and layer 2 head 3.", [[1, 0], [2, 3]]),
])
def test_planted_heads_as_layer_and_head_pairs(text: str, heads: list[list[int]]) -> None:
    assert _read(JOLA, text)["planted_heads"] == heads


def test_planted_heads_that_cannot_be_paired_are_a_question() -> None:
    text = "Plant edits on layers 0 and 1, heads 2 and 3, then train the gates."
    understood = understand_task(JOLA, text, {}, [])
    assert "planted_heads" not in understood.arguments
    assert any("planted_heads" in q for q in understood.questions) and not understood.clear


def test_a_model_shape_without_planting_sets_no_heads() -> None:
    assert "planted_heads" not in _read(JOLA, "Build a model with 2 layers of 4 heads and train the gates.")


@pytest.mark.parametrize(("text", "layers", "heads"), [
    ("A model of 4 layers with 2 attention heads is enough.", 4, 2),
    ("Use a three-layer GPT-style model with 8 heads per layer.", 3, 8),
    ("A transformer with 6 layers, six heads each.", 6, 6),
    # a count in words reads like one in digits; the attention layer inside each is no second count
    ("Stack two layers, each with a 4-head attention layer inside.", 2, 4),
    ("Use a 2-layer, 8-head toy GPT.", 2, 8),
])
def test_the_tiny_models_shape(text: str, layers: int | None, heads: int) -> None:
    read = _read(JOLA, text)
    assert read.get("n_layers") == layers
    assert read["n_heads"] == heads


def test_a_head_index_is_not_the_number_of_heads() -> None:
    read = _read(JOLA, "Head 4 of layer 3 carries the planted edit.")
    assert "n_heads" not in read and "n_layers" not in read
    assert read["planted_heads"] == [[3, 4]]


@pytest.mark.parametrize(("text", "scale"), [
    ("Draw the planted vectors with a standard deviation of 1.5.", 1.5),
    ("The scale of the planted edits is 4.", 4.0),
])
def test_the_planted_edit_scale(text: str, scale: float) -> None:
    assert _read(JOLA, text)["edit_scale"] == scale


def test_a_learning_rate_is_not_the_edit_scale() -> None:
    assert "edit_scale" not in _read(JOLA, "Start the student's edit vectors at zero with a learning rate of 0.1.")


@pytest.mark.parametrize(("text", "weight"), [
    ("Use a sparsity penalty of 0.5 on the gates.", 0.5),
    ("Set the L0 coefficient 2 so that fewer gates stay open.", 2.0),
])
def test_the_gate_sparsity_weight(text: str, weight: float) -> None:
    assert _read(JOLA, text)["l0_weight"] == weight


def test_weight_decay_is_not_the_sparsity_weight() -> None:
    assert "l0_weight" not in _read(JOLA, "Train with weight decay 0.1.")


def test_a_held_back_share_of_the_prompts() -> None:
    assert _read(JOLA, "Hold back a quarter of the prompts for the before/after check.")["test_fraction"] == 0.25


# -- lm.knowledge_editing_stream --------------------------------------------------------------------------
KES = "lm.knowledge_editing_stream"


@pytest.mark.parametrize(("text", "edits"), [
    ("Each step brings 25 new facts to absorb.", 25),
    ("Feed twelve updates per timestep for six timesteps.", 12),
])
def test_edits_per_step(text: str, edits: int) -> None:
    assert _read(KES, text)["edits_per_step"] == edits


def test_timesteps_and_edits_of_a_stream() -> None:
    read = _read(KES, "Stream 7 timesteps of 30 fact edits each.")
    assert (read["n_timesteps"], read["edits_per_step"]) == (7, 30)


def test_a_stream_written_as_timesteps_times_edits() -> None:
    read = _read(KES, "Run 4 timesteps × 12 fact edits through the three strategies.")
    assert (read["n_timesteps"], read["edits_per_step"]) == (4, 12)


def test_prior_facts_about_people_and_a_total_that_is_a_question() -> None:
    assert _read(KES, "Pretrain on 90 prior facts about people first.")["n_base"] == 90
    text = "Pretrain on 200 background facts first."  # the total includes the place facts: not the argument
    assert "n_base" not in _read(KES, text) and any("n_base" in q for q in _questions(KES, text))


def test_a_total_is_not_edits_per_step() -> None:
    assert "edits_per_step" not in _read(KES, "The stream holds 200 edits in total.")


@pytest.mark.parametrize(("text", "strategies"), [
    ("Compare RAG with naive fine-tuning on the stream.", ["retrieval", "finetune"]),
    ("Run only replay-based fine-tuning.", ["replay"]),
    ("Not retrieval this time: fine-tuning with replay only.", ["replay"]),
    ("Sequential fine-tuning against retrieval, in that order.", ["finetune", "retrieval"]),
])
def test_strategies_from_their_words(text: str, strategies: list[str]) -> None:
    assert _read(KES, text)["strategies"] == strategies


@pytest.mark.parametrize(("text", "ratio"), [
    ("For replay, replay 3 old facts for every new one.", 3.0),
    ("Use a replay ratio of 0.5.", 0.5),
    ("Mix one previous edit per new edit into each batch.", 1.0),
])
def test_the_replay_ratio(text: str, ratio: float) -> None:
    assert _read(KES, text)["replay_ratio"] == ratio


def test_old_facts_that_are_not_replayed() -> None:
    assert "replay_ratio" not in _read(KES, "3 old facts were removed from the base set.")


# -- lm.lora_symmetry -------------------------------------------------------------------------------------
LORA = "lm.lora_symmetry"


@pytest.mark.parametrize(("text", "folder"), [
    ("Our adapters were exported; they live under the directory runs/adapters.", "runs/adapters"),
    ("The 40 adapters are in ckpt/lora/ as safetensors.", "ckpt/lora"),
])
def test_a_folder_of_adapters(text: str, folder: str) -> None:
    assert _read(LORA, text)["adapters"] == folder


def test_an_output_folder_is_not_the_adapters() -> None:
    assert "adapters" not in _read(LORA, "Generate the adapters and save the plots in the folder out/plots.")


@pytest.mark.parametrize(("text", "d", "k"), [
    ("Each adapter adapts a 64 x 32 weight matrix.", 64, 32),
    ("Generate adapters for matrices of shape 8 × 24.", 8, 24),
    ("Use output dimension 10 and input dimension 20.", 10, 20),
])
def test_the_adapted_matrix(text: str, d: int, k: int) -> None:
    read = _read(LORA, text)
    assert (read["d"], read["k"]) == (d, k)


@pytest.mark.parametrize(("text", "rank"), [
    ("Generate 1800 rank-5 adapters.", 5),
    ("Use adapters of rank 1 only.", 1),
    ("Set the LoRA rank r = 6.", 6),
])
def test_the_adapters_rank(text: str, rank: int) -> None:
    assert _read(LORA, text)["rank"] == rank


def test_a_factor_shape_is_not_the_adapted_matrix() -> None:
    read = _read(LORA, "The LoRA factor matrix A of shape 2 × 16 is small.")
    assert "d" not in read and "k" not in read


@pytest.mark.parametrize(("text", "scale"), [
    ("Use an orbit spread of 0.8.", 0.8),
    ("Move the adapters with a log-scale spread of 2.", 2.0),
    ("Take a spread of 0.3 in log c.", 0.3),
])
def test_the_orbit_spread(text: str, scale: float) -> None:
    assert _read(LORA, text)["orbit_scale"] == scale


def test_a_spread_of_something_else() -> None:
    assert "orbit_scale" not in _read(LORA, "The eval loss has a spread of 0.3 across adapters.")


# -- lm.nolima --------------------------------------------------------------------------------------------
NOLIMA = "lm.nolima"


@pytest.mark.parametrize(("text", "lengths"), [
    ("Score the baseline over contexts of 1k, 4k and 32k tokens.", [1000, 4000, 32000]),
    ("Only run it at 2K-token haystacks.", [2000]),
    ("Test lengths of 300 or 600 tokens.", [300, 600]),
])
def test_context_lengths(text: str, lengths: list[int]) -> None:
    assert _read(NOLIMA, text)["lengths"] == lengths


@pytest.mark.parametrize("text", [
    "Put 5 needles at 10 depths each.",
    "The model has an 8K context window.",
])
def test_numbers_that_are_not_lengths(text: str) -> None:
    assert "lengths" not in _read(NOLIMA, text)


@pytest.mark.parametrize(("text", "literal"), [
    ("Drop the literal questions this time.", False),
    ("Ask latent-association questions only.", False),
    ("Without any literal controls, please.", False),
    ("Include the literal questions so we can compare.", True),
    ("Keep the literal controls as well.", True),
])
def test_literal_controls_asked_or_left_out(text: str, literal: bool) -> None:
    assert _read(NOLIMA, text)["literal_controls"] is literal


def test_a_span_of_lengths_is_a_question() -> None:
    text = "Score haystacks from 500 to 16K tokens."  # which lengths between is not said
    assert "lengths" not in _read(NOLIMA, text) and any("lengths" in q for q in _questions(NOLIMA, text))


def test_saving_the_items() -> None:
    assert _read(NOLIMA, "Save the benchmark's items for a later model.")["save_items"] is True
    assert "save_items" not in _read(NOLIMA, "Do not save the items.")


def test_phrases_across_a_wrapped_line() -> None:
    text = "Score the latent questions and\nthe literal controls, at 1K and\n2K tokens."
    assert _read(NOLIMA, text) == {"literal_controls": True, "lengths": [1000, 2000]}


def test_literal_controls_left_unsaid() -> None:
    assert "literal_controls" not in _read(NOLIMA, "Run the BM25 baseline on the default needles.")


# -- lm.number_token_loss ---------------------------------------------------------------------------------
NTL = "lm.number_token_loss"


@pytest.mark.parametrize(("text", "operation"), [
    ("Train on times tables up to 12.", "multiply"),
    ("Use addition of two-digit numbers.", "add"),
])
def test_the_generated_operation(text: str, operation: str) -> None:
    assert _read(NTL, text)["operation"] == operation


def test_adding_a_loss_is_not_addition() -> None:
    assert "operation" not in _read(NTL, "Add the number-token loss to cross entropy and see if it was worth it.")


@pytest.mark.parametrize(("text", "largest"), [
    ("Draw operands between 1 and 30.", 30),
    ("Set the largest operand 500.", 500),
    ("Take integers up to 20 as operands.", 20),
])
def test_the_largest_operand(text: str, largest: int) -> None:
    assert _read(NTL, text)["max_operand"] == largest


def test_an_exclusive_bound_is_a_question() -> None:
    text = "Add two numbers below 1000."  # 999, which the patterns do not compute
    assert "max_operand" not in _read(NTL, text) and any("max_operand" in q for q in _questions(NTL, text))


@pytest.mark.parametrize(("method", "text", "width"), [
    (NTL, "A small transformer (3 layers, width 48).", 48),
    (JOLA, "Use d_model = 96 for the toy model.", 96),
    (NTL, "Train a 16-dimensional model.", 16),
])
def test_the_width_of_a_small_model(method: str, text: str, width: int) -> None:
    assert _read(method, text)["d_model"] == width


def test_the_layers_of_the_arithmetic_transformer() -> None:
    assert _read(NTL, "A small transformer (3 layers, width 48).")["n_layers"] == 3
    assert "n_layers" not in _read(NTL, "The loss acts on the last of the layers only.")


def test_an_answer_bound_is_not_the_operand_bound() -> None:
    assert "max_operand" not in _read(NTL, "Answers go up to 2500.")


@pytest.mark.parametrize(("text", "kind"), [
    ("Use the L2 variant of the loss.", "mse"),
    ("Compare CE with CE + NTL-MSE.", "mse"),
    ("Use the earth mover's form of the number-token loss.", "was"),
])
def test_the_loss_variant(text: str, kind: str) -> None:
    assert _read(NTL, text)["kind"] == kind


def test_an_error_metric_is_not_the_loss_variant() -> None:
    assert "kind" not in _read(NTL, "Report the mean squared error of the answers; training was short.")


@pytest.mark.parametrize(("text", "weight"), [
    ("Set λ = 0.1 for the extra term.", 0.1),
    ("Put a weight of 0.2 on the NTL.", 0.2),
    ("Add the number-token loss weighted by 0.7.", 0.7),
    ("Train with CE + 0.4 × NTL.", 0.4),
])
def test_the_number_token_loss_weight(text: str, weight: float) -> None:
    assert _read(NTL, text)["ntl_weight"] == weight


def test_a_held_out_share_is_not_the_loss_weight() -> None:
    read = _read(NTL, "0.3 of the rows are held out; use a learning rate of 0.001.")
    assert "ntl_weight" not in read
    assert read["test_fraction"] == 0.3


@pytest.mark.parametrize(("text", "share"), [
    ("Keep back 10% as a test set.", 0.1),
    ("Use a 25% test split.", 0.25),
    ("A fifth of the prompts are held out.", 0.2),
])
def test_the_held_out_share(text: str, share: float) -> None:
    assert _read(NTL, text)["test_fraction"] == share


def test_a_share_of_something_else() -> None:
    assert "test_fraction" not in _read(NTL, "20% of the prompts ask about lengths.")


def test_seeds_as_a_dashed_range() -> None:
    assert _read(NTL, "Train with seeds 3–5.")["seeds"] == [3, 4, 5]


# -- files: by their role and their name ------------------------------------------------------------------
def _profiles(folder: Path, names: list[str]) -> tuple[list[str], Any]:
    return names, profile_inputs({n: folder / n for n in names})


def test_embeddings_and_a_labels_file_named_so(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    np.save(tmp_path / "vecs.npy", rng.normal(size=(60, 8)))
    rows = ["texture,material"] + [f"t{i % 3},m{i % 4}" for i in range(60)]
    (tmp_path / "item_labels.csv").write_text("\n".join(rows) + "\n")
    names, profiles = _profiles(tmp_path, ["vecs.npy", "item_labels.csv"])
    text = ("How additive are these representations in texture and material? vecs.npy has one embedding per "
            "item and item_labels.csv what each item is.")
    understood = understand_task(CD, text, {}, names, profiles=profiles)
    assert understood.arguments["embeddings"] == "vecs.npy"
    assert understood.arguments["labels"] == "item_labels.csv"


def test_a_table_of_what_each_adapter_reached_is_the_targets(tmp_path: Path) -> None:
    (tmp_path / "scores.csv").write_text("adapter,accuracy\n" + "".join(f"a{i},{0.5 + i / 100}\n" for i in range(20)))
    names, profiles = _profiles(tmp_path, ["scores.csv"])
    text = "Predict from the weights the accuracy each adapter reached, which is in scores.csv."
    understood = understand_task(LORA, text, {}, names, profiles=profiles)
    assert understood.arguments["targets"] == "scores.csv"


def test_a_jsonl_file_named_in_prose_is_an_input(tmp_path: Path) -> None:
    from cmbagent.task import parse_task

    rows = [{"timestep": t, "prompt": f"P{i} lives in", "object": f"City{i}"} for t in (1, 2) for i in range(3)]
    (tmp_path / "stream.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    task = parse_task("Run our updates in stream.jsonl through retrieval and replay.", base=tmp_path)
    assert [f.rsplit("/", 1)[-1] for f in task.data_files] == ["stream.jsonl"]
    understood = understand_task(KES, task.text, {}, task.data_files, profiles=profile_inputs(task.files))
    assert understood.arguments["data"] == task.data_files[0]
    assert understood.arguments["strategies"] == ["retrieval", "replay"]


# -- whole readings: the method by meaning, every argument from the prose, or a question ------------------
def test_a_planted_head_check_in_prose_is_read_whole() -> None:
    from cmbagent.agents import read_task

    reading = read_task(text="Before trusting the gated head editing on real checkpoints, try it on a 2-layer, "
                             "8-head toy GPT whose teacher differs on layer 1, head 6. Give the gates 250 steps.")
    assert reading.method == JOLA and reading.clear
    arguments = reading.understanding.arguments if reading.understanding else {}
    assert {k: arguments.get(k) for k in ("planted_heads", "n_layers", "n_heads", "steps")} == {
        "planted_heads": [[1, 6]], "n_layers": 2, "n_heads": 8, "steps": 250}


def test_a_count_of_seeds_and_an_operand_bound_in_a_question() -> None:
    from cmbagent.agents import read_task

    reading = read_task(text="Does the number-token loss help a small transformer with addition problems? Use "
                             "four seeds and operands up to 999.")
    assert reading.method == NTL and reading.clear
    arguments = reading.understanding.arguments if reading.understanding else {}
    assert {k: arguments.get(k) for k in ("operation", "seeds", "max_operand")} == {
        "operation": "add", "seeds": [0, 1, 2, 3], "max_operand": 999}
