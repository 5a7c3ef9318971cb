"""rl.diffusion_world_model: returns-to-go, the dynamics oracle, and the DAWM validations on Pendulum."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cmbagent.exceptions import UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.rl import returns_to_go
from cmbagent.tools.methods.rl._envs import world_model_env
from cmbagent.tools.methods.rl._offline import collect, true_next
from cmbagent.tools.methods.rl.diffusion_world_model import rtg_wording, windows


def test_returns_to_go_are_discounted_averages_of_future_rewards() -> None:
    r = np.array([1.0, 2.0, 3.0])
    g = returns_to_go(r, 0.5)
    assert np.allclose(g, [(1 + 1 + 0.75) / 1.75, (2 + 1.5) / 1.5, 3.0])
    assert np.allclose(returns_to_go(np.full(50, -2.0), 0.97), -2.0)  # a constant stays itself near the end


def test_oracle_and_windows_reproduce_the_logged_data() -> None:
    spec = world_model_env("Pendulum-v1")
    episodes = collect(spec, 3, noise=0.1, rng=np.random.default_rng(0))
    ep = episodes[0]
    nxt, rew = true_next(spec, ep.observations[:-1], ep.actions)
    assert np.abs(nxt - ep.observations[1:]).max() < 1e-5
    assert np.allclose(rew, ep.rewards, atol=1e-4)
    w = windows(episodes, 8, 0.97)
    assert w["future"].shape[1:] == (8, 3) and len(w["s"]) == 3 * (200 - 8 + 1)
    assert np.allclose(w["future"][0, 0], ep.observations[1]) and np.allclose(w["rewards"][0], ep.rewards[:8])


@pytest.mark.slow
def test_world_model_validations_on_pendulum(tmp_path: Path) -> None:
    result = run_method("rl.diffusion_world_model", {
        "environment": "Pendulum-v1", "episodes": 40, "train_steps": 1500, "idm_steps": 1000, "eval_windows": 128,
        "policy_steps": 200, "eval_episodes": 2, "output_dir": str(tmp_path)})
    v = result.values
    assert v["idm_r2"] > 0.9
    assert v["rtg_conditioning"]["spearman"] >= 0.8 and "rises with the requested return-to-go" in result.summary
    assert set(v["policy_return"]) == {"logged", "logged_plus_synthetic"}
    assert v["synthetic_transitions"] > 0
    # the dynamics are judged against s′ = s, with the one-step regression model's margin stated; the check's
    # verdict follows its numbers (measured: generated ≈ s′ = s here, so the check fails and says so)
    error = v["dynamics_error"]
    dynamics = next(c for c in result.checks if c.name == "generated transitions follow the dynamics")
    assert dynamics.passed == (error["ratio_to_no_change"] <= 0.5)
    assert error["ratio_to_no_change"] == pytest.approx(error["generated"] / error["no_change"])
    assert "s′ = s" in dynamics.message and "one-step regression model" in dynamics.message
    assert all(c.passed for c in result.checks if c is not dynamics), result.checks
    assert Path(result.artifacts[0]).is_file()


def test_the_summary_says_what_the_spearman_says() -> None:
    assert rtg_wording(0.94) == "rises with the requested return-to-go"
    assert rtg_wording(0.09) == "does not follow the requested return-to-go"  # the case: not "rises"
    assert rtg_wording(-0.89) == "falls as the requested return-to-go rises"


@pytest.mark.slow
def test_generated_dynamics_against_real_baselines_on_mountain_car(tmp_path: Path) -> None:
    # the other environment, small settings: the one-step regression model must be a real baseline (it beats
    # s′ = s on held-out logged transitions, measured 6×), and every number of the check is in its message
    result = run_method("rl.diffusion_world_model", {
        "environment": "MountainCarContinuous-v0", "episodes": 30, "train_steps": 1000, "idm_steps": 800,
        "eval_windows": 96, "policy_steps": 0, "seed": 3, "output_dir": str(tmp_path)})
    error = result.values["dynamics_error"]
    logged = error["held_out_logged"]
    assert logged["one_step_model"] * 3 < logged["no_change"]
    assert error["ratio_to_one_step_model"] == pytest.approx(error["generated"] / error["one_step_model"])
    dynamics = next(c for c in result.checks if c.name == "generated transitions follow the dynamics")
    assert dynamics.passed == (error["ratio_to_no_change"] <= 0.5)
    assert f"{error['ratio_to_no_change']:.2f}" in dynamics.message
    assert f"{error['ratio_to_one_step_model']:.2f}" in dynamics.message
    rho = result.values["rtg_conditioning"]["spearman"]
    assert rtg_wording(rho) in result.summary and (rho >= 0.8 or "rises with" not in result.summary)


@pytest.mark.parametrize(("arguments", "match"), [
    ({"environment": "CartPole-v1"}, "environment"),
    ({"environment": "NoSuchEnv-v0"}, "unknown"),
    ({"horizon": 0}, "horizon"),
    ({"episodes": 3}, "episodes"),
    ({"policy_steps": -1}, "policy_steps"),
    ({"rtg_levels": 2}, "rtg_levels"),
])
def test_bad_arguments_name_the_fix(arguments: dict, match: str) -> None:
    with pytest.raises(UserError, match=match):
        run_method("rl.diffusion_world_model", arguments)


def test_horizon_longer_than_every_episode_is_refused() -> None:
    spec = world_model_env("Pendulum-v1")
    episodes = collect(spec, 1, noise=0.1, rng=np.random.default_rng(0))
    with pytest.raises(UserError, match="horizon"):
        windows(episodes, 500, 0.97)
