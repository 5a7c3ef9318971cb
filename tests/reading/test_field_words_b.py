"""How prose states the arguments of the bayes, theory and rl methods (their field words), in sentences of our
own — phrased unlike the public prose set (``tests/understanding``), so the patterns are for the field's ways of
writing, not for one task's words — and the sentences that must not set an argument: negations, ranges and
choices, numbers that belong to another argument.  Also the reader's general mechanisms these rely on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import understand_task
from cmbagent.inputs import profile_inputs

AISIVI, ICL, PFN, SPEC = "bayes.aisivi", "bayes.icl_posterior", "bayes.pfn_regression", "bayes.spec_avg"
WORLD, DISTQ = "rl.diffusion_world_model", "rl.distinguishability_queries"
LIF, TUBAL = "theory.lif_snn_regions", "theory.tubal_tensor_gd"

# (method, text, the arguments it must read) — every other argument the reading sets is checked too: only the
# ones listed (and nothing else of the names in ``NOT_SET`` below)
READS: list[tuple[str, str, dict[str, Any]]] = [
    # -- bayes.aisivi
    (AISIVI, "Try the variational fit on a funnel-shaped density in 10 dimensions.", {"target": "funnel", "dim": 10}),
    (AISIVI, "Approximate a banana-shaped target with a semi-implicit family.", {"target": "banana2d"}),
    (AISIVI, "A correlated Gaussian in 8 dimensions, please.", {"target": "linear_gaussian", "dim": 8}),
    (AISIVI, "Sample the posterior of a logistic regression of germination on two covariates.",
     {"target": "bayes_logreg"}),
    (AISIVI, "Fit a 6-dimensional funnel.", {"target": "funnel", "dim": 6}),
    (AISIVI, "Use a 4-D funnel.", {"target": "funnel", "dim": 4}),
    (AISIVI, "The funnel, dimension d = 3.", {"target": "funnel", "dim": 3}),
    (AISIVI, "Estimate the score with 64 importance samples for each z.", {"n_proposal": 64}),
    (AISIVI, "Importance samples per draw: 8.", {"n_proposal": 8}),
    (AISIVI, "Draw 24 proposals per z for the score.", {"n_proposal": 24}),
    (AISIVI, "Use a linear kernel so the exact score can be checked.", {"kernel": "linear"}),
    (AISIVI, "Keep the MLP kernel.", {"kernel": "mlp"}),
    (AISIVI, "Logistic regression with priors ~ N(0, 2.5²) on all weights.",
     {"target": "bayes_logreg", "prior_std": 2.5}),
    (AISIVI, "Logistic regression, prior sd of 5.", {"target": "bayes_logreg", "prior_std": 5.0}),
    (AISIVI, "Logistic regression; priors with a standard deviation of 10.", {"target": "bayes_logreg", "prior_std": 10.0}),
    (AISIVI, "Logistic regression with unit-normal priors on the weights.", {"target": "bayes_logreg", "prior_std": 1.0}),
    # -- bayes.icl_posterior
    (ICL, "Is the distribution of wing lengths bimodal? Give the posterior of both means.",
     {"family": "gaussian_mixture_1d"}),
    (ICL, "A Bernoulli model of nesting success against temperature.", {"family": "logistic_regression"}),
    (ICL, "Fit a straight line of growth against dose.", {"family": "linear_regression"}),
    (ICL, "This is no mixture problem. Fit a straight line.", {"family": "linear_regression"}),
    (ICL, "Linear regression with measurement noise with a known sd of 0.2.",
     {"family": "linear_regression", "noise_std": 0.2}),
    (ICL, "Assume a σ of 0.3 for the noise.", {"noise_std": 0.3}),
    (ICL, "Noise sigma = 0.1 and standard normal priors on intercept and slope.", {"noise_std": 0.1, "prior_std": 1.0}),
    (ICL, "Train the network for 3,000 steps.", {"train_steps": 3000}),
    (ICL, "Use 5000 training steps.", {"train_steps": 5000}),
    # -- bayes.pfn_regression
    (PFN, "Hold out 20% of the rows to score the predictions.", {"test_fraction": 0.2}),
    (PFN, "A fifth of the points is held out.", {"test_fraction": 0.2}),
    (PFN, "Keep a third for testing.", {"test_fraction": 1 / 3}),
    (PFN, "Hold out a\nquarter of the profile for testing.", {"test_fraction": 0.25}),  # across a line break
    (PFN, "A GP prior with a signal sd of 2.", {"output_scale": 2.0}),
    (PFN, "Train on contexts of up to 80 points.", {"max_context": 80}),
    # -- bayes.spec_avg: a group's generators as physics states them
    (SPEC, "The map is invariant under 90° rotations around the z-axis.", {"generators": ["rot:z:4"]}),
    (SPEC, "It has a six-fold rotation symmetry about the x axis.", {"generators": ["rot:x:6"]}),
    (SPEC, "Unchanged by rotations by 2π/3 about the y axis.", {"generators": ["rot:y:3"]}),
    (SPEC, "Symmetric under z → −z and under a 180 degrees turn about the x axis.",
     {"generators": ["reflect:z", "rot:x:2"]}),
    (SPEC, "Even under a reflection in y.", {"generators": ["reflect:y"]}),
    (SPEC, "The potential is unchanged on swapping both inputs.", {"generators": ["swap:0,1"]}),
    (SPEC, "Estimate the coefficients by plain averaging.", {"coefficients": "average"}),
    (SPEC, "Use empirical averages instead of least squares.", {"coefficients": "average"}),
    (SPEC, "Fit the coefficients by least squares.", {"coefficients": "least_squares"}),
    (SPEC, "Least squares, and not the plain averages for the coefficients.", {"coefficients": "least_squares"}),
    (SPEC, "Sweep training sizes 50, 100, 200.", {"n_values": [50, 100, 200]}),
    (SPEC, "Compare the errors with 300 and 600 training examples.", {"n_values": [300, 600]}),
    # -- rl.diffusion_world_model
    (WORLD, "Use the continuous mountain car task.", {"environment": "MountainCarContinuous-v0"}),
    (WORLD, "Swing up the inverted pendulum.", {"environment": "Pendulum-v1"}),
    (WORLD, "We logged twenty episodes from a noisy expert.", {"episodes": 20}),
    (WORLD, "Train on 80 recorded episodes.", {"episodes": 80}),
    (WORLD, "Evaluate each policy on 15 episodes.", {"eval_episodes": 15}),
    (WORLD, "Report 20 evaluation episodes.", {"eval_episodes": 20}),
    (WORLD, "Exploration noise at 0.25.", {"behaviour_noise": 0.25}),
    (WORLD, "Put noise on the expert's actions of 15%.", {"behaviour_noise": 0.15}),
    (WORLD, "Action noise 20% of the range.", {"behaviour_noise": 0.2}),  # documented "as a fraction of"
    (WORLD, "Generate windows of 4 steps.", {"horizon": 4}),
    (WORLD, "Model 12-step windows.", {"horizon": 12}),
    (WORLD, "Predict the next four steps.", {"horizon": 4}),
    (WORLD, "Horizon H = 10.", {"horizon": 10}),
    (WORLD, "Compare five target return-to-go levels.", {"rtg_levels": 5}),
    (WORLD, "Ask for 10 desired returns.", {"rtg_levels": 10}),
    (WORLD, "Set the guidance scale of 3.", {"guidance": 3.0}),
    (WORLD, "Guidance w = 1.2.", {"guidance": 1.2}),
    (WORLD, "Use 64 denoising steps.", {"diffusion_steps": 64}),
    (WORLD, "DDPM steps K = 16.", {"diffusion_steps": 16}),
    (WORLD, "Train the diffusion model for 5,000 steps.", {"train_steps": 5000}),
    (WORLD, "Give it 800 inverse-dynamics steps.", {"idm_steps": 800}),
    (WORLD, "Mix in 2 synthetic transitions per real transition.", {"synthetic_ratio": 2.0}),
    (WORLD, "A return-to-go discount of 0.99.", {"rtg_discount": 0.99}),
    (WORLD, "Skip the policy training this time.", {"policy_steps": 0}),
    (WORLD, "We just need the world-model diagnostics.", {"policy_steps": 0}),
    (WORLD, "Run 2,000 TD3+BC steps per policy.", {"policy_steps": 2000}),
    # -- rl.distinguishability_queries
    (DISTQ, "Run it on the Acrobot and on a gridworld.", {"environments": ["Acrobot-v1", "tabular"]}),
    (DISTQ, "Only the continuous mountain car.", {"environments": ["MountainCarContinuous-v0"]}),
    (DISTQ, "Use MountainCar-v0 and CartPole.", {"environments": ["MountainCar-v0", "CartPole-v1"]}),
    (DISTQ, "A budget of 40 comparisons.", {"n_queries": 40}),
    (DISTQ, "Allow 50 queries per query type.", {"n_queries": 50}),
    (DISTQ, "A 5 percent probability that the labeller guesses at random.", {"mistake_rate": 0.05}),
    (DISTQ, "The labeller answers at random with probability 0.2.", {"mistake_rate": 0.2}),
    (DISTQ, "Labeller rationality β = 0.5.", {"rationality": 0.5}),
    (DISTQ, "Queries are sampled uniformly at random.", {"selection": "random"}),
    (DISTQ, "Use random queries.", {"selection": "random"}),
    (DISTQ, "Keep active query selection.", {"selection": "active"}),
    (DISTQ, "Queries chosen at random instead of actively.", {"selection": "random"}),
    (DISTQ, "A 9x9 grid.", {"grid_size": 9}),
    (DISTQ, "A gridworld of side 6.", {"environments": ["tabular"], "grid_size": 6}),
    (DISTQ, "Slip probability 0.05.", {"slip": 0.05}),
    (DISTQ, "Moves slip with probability 0.2.", {"slip": 0.2}),
    (DISTQ, "A gridworld without slipping.", {"environments": ["tabular"], "slip": 0.0}),
    (DISTQ, "A deterministic gridworld.", {"environments": ["tabular"], "slip": 0.0}),
    (DISTQ, "Segments of 20 steps.", {"horizon": 20}),
    (DISTQ, "Use 30-step segments.", {"horizon": 30}),
    (DISTQ, "Draw from a pool of 500 segments.", {"pool_size": 500}),
    (DISTQ, "Measure on 400 held-out segments.", {"test_size": 400}),
    (DISTQ, "Refit the reward model every 5 queries.", {"batch": 5}),
    # -- theory.lif_snn_regions
    (LIF, "Partition a 3-D input with the network.", {"input_dim": 3}),
    (LIF, "Take four-dimensional inputs.", {"input_dim": 4}),
    (LIF, "Input dimension 5.", {"input_dim": 5}),
    (LIF, "Two layers of 12 LIF neurons.", {"width": 12, "depth": 2}),
    (LIF, "Put 16 neurons in each layer.", {"width": 16}),
    (LIF, "Stack four hidden layers.", {"depth": 4}),
    (LIF, "A single-layer network.", {"depth": 1}),
    (LIF, "Membrane decay 0.95.", {"beta": 0.95}),
    (LIF, "Leak rate 0.5.", {"beta": 0.5}),
    (LIF, "Set β = 0.7.", {"beta": 0.7}),
    (LIF, "Use non-leaky neurons.", {"beta": 1.0}),
    (LIF, "With a soft reset.", {"reset": "subtract"}),
    (LIF, "With a hard reset.", {"reset": "zero"}),
    (LIF, "Reset the membrane to 0 after each spike.", {"reset": "zero"}),
    (LIF, "Firing at θ = 0.5.", {"threshold": 0.5}),
    (LIF, "Inputs in [-1.5, 1.5]^2.", {"box": 1.5}),
    (LIF, "A box half-width 4.", {"box": 4.0}),
    (LIF, "Estimate with 300,000 random points.", {"samples": 300000}),
    (LIF, "Estimated from 50,000 samples.", {"samples": 50000}),
    # -- theory.tubal_tensor_gd
    (TUBAL, "Initialization scales of 1e-4 and 1e-2.", {"alphas": [1e-4, 1e-2]}),
    (TUBAL, "Try α ∈ {0.001, 0.01, 0.1}.", {"alphas": [0.001, 0.01, 0.1]}),
    (TUBAL, "A 20 x 20 x 5 tensor.", {"n": 20, "k": 5}),
    (TUBAL, "Tubes of length 6.", {"k": 6}),
    (TUBAL, "The ground-truth tubal rank 4.", {"true_rank": 4}),
    (TUBAL, "True rank r* = 2.", {"true_rank": 2}),
    (TUBAL, "Factor rank 30.", {"rank": 30}),
    (TUBAL, "Give the factor 40 tubal columns.", {"rank": 40}),
    (TUBAL, "Draw ten random instances per setting.", {"n_seeds": 10}),
    (TUBAL, "Compare factor ranks 5, 20 and 80.", {"rank_sweep": [5, 20, 80]}),
    (TUBAL, "Then 80, 120 and 160 measurements.", {"measurement_sweep": [80, 120, 160]}),
    (TUBAL, "Run 6000 gradient steps.", {"iterations": 6000}),
    (TUBAL, "Step size 0.02.", {"learning_rate": 0.02}),
]


@pytest.mark.parametrize(("method", "text", "read"), READS, ids=[f"{m}: {t[:40]}" for m, t, _ in READS])
def test_the_fields_words_read_the_argument(method: str, text: str, read: dict[str, Any]) -> None:
    understood = understand_task(method, text, {}, [])
    assert understood.arguments == read, understood.evidence


# (method, text, arguments the text must NOT set): negations, ranges and choices, another argument's number
NOT_SET: list[tuple[str, str, tuple[str, ...]]] = [
    (AISIVI, "Plot the samples in two dimensions.", ("dim",)),
    (AISIVI, "Use 64 importance samples per draw.", ("n_samples",)),  # the number sets n_proposal alone
    (AISIVI, "A correlated linear-Gaussian target.", ("kernel",)),  # the target's words, not the kernel's
    (AISIVI, "Add noise N(0, 0.5²) to the measurements.", ("prior_std",)),  # a noise model, not a prior
    (AISIVI, "Compare prior sd 1 or 2.", ("prior_std",)),  # a choice, no single value
    (ICL, "Not a mixture model.", ("family",)),
    (PFN, "Hold out the second file for testing.", ("test_fraction",)),
    (SPEC, "A 120° phase shift of the signal.", ("generators",)),
    (WORLD, "Don't skip the policy comparison.", ("policy_steps",)),
    (WORLD, "Evaluate each policy on 15 episodes.", ("episodes",)),
    (WORLD, "Try 40 or 60 logged episodes.", ("episodes",)),
    (WORLD, "Plot the pendulum and the mountain car side by side.", ()),  # two tasks: checked below
    (DISTQ, "The labeller sometimes answers at random.", ("selection", "mistake_rate")),
    (DISTQ, "A gridworld where moves slip.", ("slip",)),
    (DISTQ, "Not on the cart pole.", ("environments",)),
    (LIF, "Compare 2-D and 3-D inputs.", ("input_dim",)),
    (LIF, "Try 4 or 8 neurons per layer.", ("width",)),
    (LIF, "Networks of 1–3 layers.", ("depth",)),
    (LIF, "Leak 0.5 or 0.9.", ("beta",)),
    (LIF, "The input is not zero.", ("reset",)),  # a bare "zero" is no reset rule
    (LIF, "Leaky integrate-and-fire neurons.", ("beta",)),
    (TUBAL, "Report the tubal rank of the result.", ("true_rank",)),
    (TUBAL, "Compare factor ranks 3, 10 and 40.", ("rank", "true_rank")),
    (TUBAL, "Then 80, 120 and 160 measurements.", ("measurements",)),  # the sweep's last number
    (TUBAL, "Rank 2, observed through 110 measurements.", ("rank", "true_rank")),
]


@pytest.mark.parametrize(("method", "text", "absent"), NOT_SET, ids=[f"{m}: {t[:40]}" for m, t, _ in NOT_SET])
def test_words_that_do_not_state_the_argument_leave_it_alone(method: str, text: str, absent: tuple[str, ...]) -> None:
    understood = understand_task(method, text, {}, [])
    assert not set(absent) & set(understood.arguments), understood.evidence


def test_two_environments_named_for_a_single_environment_are_not_a_guess() -> None:
    understood = understand_task(WORLD, "Plot the pendulum and the mountain car side by side.", {}, [])
    assert "environment" not in understood.arguments
    assert any("several values of 'environment'" in note for note in understood.notes)


# -- columns: a capture names a column of the data, or nothing -------------------------------------------------
@pytest.mark.parametrize(("text", "columns", "target"), [
    ("Predict the river level at unsampled times.", ["time_h", "level_cm"], "level_cm"),
    ("Predict temperatures from depth.", ["depth_m", "temp_c"], "temp_c"),
    ("`yield_t` is the response; plots are the rows.", ["plot", "n_rate", "yield_t"], "yield_t"),
    ("A regression of height on age.", ["age", "height"], "height"),
    ("The energy in conformers.csv depends on two dihedrals.", ["phi", "psi", "energy"], "energy"),
    ("The observed intensity varies over the sphere.", ["x", "y", "z", "intensity"], "intensity"),
    ("The response variable is wing_mm.", ["mass_g", "wing_mm"], "wing_mm"),
    ("Predict the values.", ["a_value", "b_value"], None),  # words that fit two columns name neither
    ("Predict the yield.", [], None),  # no data: no column to name
])
def test_a_column_capture_is_a_column_of_the_data(text: str, columns: list[str], target: str | None) -> None:
    for method in (ICL, PFN, SPEC):
        understood = understand_task(method, text, {}, ["data/t.csv"], columns={"data/t.csv": columns})
        assert understood.arguments.get("target") == target, (method, understood.evidence)


def _table(folder: Path, name: str, header: list[str], rows: list[list[float]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(",".join(header) + "\n" + "\n".join(",".join(f"{v:g}" for v in row) for row in rows) + "\n")
    return path


def test_a_target_the_table_lacks_is_asked_and_a_one_column_table_gives_it(tmp_path: Path) -> None:
    rows = [[i / 10, (i / 10) ** 2] for i in range(30)]
    files = {"data/curve.csv": _table(tmp_path, "curve.csv", ["dose_mg", "resp"], rows)}
    understood = understand_task(PFN, "Fit the curve in `data/curve.csv` with a GP prior.", {}, list(files),
                                 profiles=profile_inputs(files))
    assert "target" not in understood.arguments and not understood.clear
    assert any("'target'" in q and "dose_mg" in q for q in understood.questions)
    # one column, passed without a name: "the attached table" points at it, and its one column is the response
    files = {"data/masses.csv": _table(tmp_path, "masses.csv", ["log_mass"], [[v / 7 - 2] for v in range(40)])}
    understood = understand_task(ICL, "Two populations in the attached table: the posterior of both means.", {},
                                 list(files), profiles=profile_inputs(files))
    assert understood.arguments["data"] == "data/masses.csv" and understood.arguments["target"] == "log_mass"
    assert understood.arguments["family"] == "gaussian_mixture_1d" and understood.clear
    # not pointed at, not named: an optional data argument takes no file
    understood = understand_task(ICL, "Two populations: the posterior of both means.", {}, list(files),
                                 profiles=profile_inputs(files))
    assert "data" not in understood.arguments and understood.unplaced == ["data/masses.csv"]


def test_the_first_and_second_file_are_the_inputs_in_the_order_given(tmp_path: Path) -> None:
    rows = [[h, (h % 12) / 6 - 1] for h in range(24)]
    files = {"data/a.csv": _table(tmp_path, "a.csv", ["hour", "level"], rows),
             "data/b_test.csv": _table(tmp_path, "b_test.csv", ["hour", "level"], rows[:8])}
    understood = understand_task(PFN, "The first file holds the readings to learn from and the second the "
                                      "held-out ones; predict the level.", {}, list(files),
                                 profiles=profile_inputs(files))
    assert understood.arguments["data"] == "data/a.csv" and understood.arguments["test"] == "data/b_test.csv"
    assert understood.arguments["target"] == "level"


def test_file_arguments_are_not_columns_and_a_bracketed_default_is_not_a_role() -> None:
    from cmbagent.agents._datamap import column_role
    from cmbagent.agents._understand import column_arguments
    from cmbagent.tools.methods import get_method

    for method in (AISIVI, ICL, PFN, SPEC):
        spec = get_method(method)
        assert not {"data", "test", "log_density"} & set(column_arguments(spec))
        assert column_role("columns", spec.argument_docs["columns"]) == "features"


def test_a_zero_centred_normal_prior_states_its_width() -> None:
    from cmbagent.agents._stated import stated_requirements

    def priors(text: str) -> list[float]:
        return [r.value for r in stated_requirements(text, []) if r.quantity == "prior"]

    assert priors("Put priors N(0, 2²) on every coefficient.") == [2.0]  # not the centre 0
    assert priors("Use priors N(0, 5^2) on the weights.") == [5.0]  # nor the square's 2
    assert priors("A Gaussian prior N(0.3, 0.02) on Ω_m.") == [0.3, 0.02]
    # the reading takes the width, so nothing the task states is left unread
    understood = understand_task(AISIVI, "Logistic regression with N(0, 4²) priors on the weights.", {}, [])
    assert understood.arguments["prior_std"] == 4.0
