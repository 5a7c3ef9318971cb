"""Diffusion world model with inverse dynamics for offline RL (DAWM; workshop paper, arXiv 2509.19538).

A diffusion model generates the next H steps of states and rewards conditioned on the current state, action
and return-to-go; an inverse dynamics model (IDM) infers the actions between consecutive generated states; the
resulting synthetic transitions augment the logged data of an offline learner (TD3+BC here).  Generating
states and rewards only keeps the world model's output space small, and the IDM makes the synthetic
transitions usable by any one-step learner.

The tool logs a data set from a gymnasium task with a behaviour policy of mixed quality, trains the three
parts (small MLPs), and measures what the paper's argument rests on: the IDM's held-out R², how well
generated transitions obey the true dynamics (the simulator is the oracle) compared with predicting no change
(s′ = s) and with a one-step regression model of the dynamics trained on the same data,
whether the returns of generated windows follow the requested return-to-go, and the return of the offline
policy trained with and without the synthetic transitions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cmbagent.exceptions import UserError
from cmbagent.paths import OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods._kit import blas_threads, check_positive, check_range, output_path, set_threads
from cmbagent.tools.methods.rl._diffusion import ForwardDynamics, InverseDynamics, WindowDiffusion
from cmbagent.tools.methods.rl._envs import WORLD_MODEL_ENVS, make_env, world_model_env
from cmbagent.tools.methods.rl._io import spread
from cmbagent.tools.methods.rl._offline import TD3BC, Episode, collect, evaluate, returns_to_go, true_next

__all__ = ["diffusion_world_model", "rtg_wording", "windows"]

#: generated transitions must have at most this share of the dynamics error of predicting s′ = s
DYNAMICS_MARGIN = 0.5
#: Spearman ρ between requested return-to-go and generated return from which the return "follows" the request
RTG_SPEARMAN = 0.8

PAPER = Paper(
    title="DAWM: Diffusion Action World Models for Offline Reinforcement Learning via Action-Inferred Transitions",
    arxiv="2509.19538",
    year=2025,
)


def windows(episodes: list[Episode], horizon: int, gamma: float) -> dict[str, np.ndarray]:
    """Every window of ``horizon`` steps: condition (s_t, a_t, g_t) and future states s_{t+1…t+H}, rewards r_{t…}."""
    s, a, g, future, rewards = [], [], [], [], []
    for ep in episodes:
        rtg = returns_to_go(ep.rewards, gamma)
        for t in range(len(ep.rewards) - horizon + 1):
            s.append(ep.observations[t])
            a.append(ep.actions[t])
            g.append(rtg[t])
            future.append(ep.observations[t + 1:t + 1 + horizon])
            rewards.append(ep.rewards[t:t + horizon])
    if not s:
        raise UserError(f"horizon: no episode is {horizon} steps long; use a shorter horizon")
    return {"s": np.asarray(s), "a": np.asarray(a), "g": np.asarray(g), "future": np.asarray(future),
            "rewards": np.asarray(rewards)}


class _Scaler:
    """Standardisation of states, rewards and returns; actions mapped to [−1, 1] by their bounds."""

    def __init__(self, w: dict[str, np.ndarray], low: np.ndarray, high: np.ndarray) -> None:
        self.s_mean, self.s_std = w["s"].mean(axis=0), w["s"].std(axis=0) + 1e-6
        self.r_mean, self.r_std = float(w["rewards"].mean()), float(w["rewards"].std()) + 1e-6
        self.g_mean, self.g_std = float(w["g"].mean()), float(w["g"].std()) + 1e-6
        self.low, self.high = low, high

    def cond(self, s: np.ndarray, a: np.ndarray, g: np.ndarray) -> np.ndarray:
        a01 = 2 * (a - self.low) / (self.high - self.low) - 1
        return np.concatenate([(s - self.s_mean) / self.s_std, a01, ((g - self.g_mean) / self.g_std)[:, None]], 1)

    def encode(self, future: np.ndarray, rewards: np.ndarray) -> np.ndarray:
        z = np.concatenate([(future - self.s_mean) / self.s_std, ((rewards - self.r_mean) / self.r_std)[..., None]], 2)
        return z.reshape(len(z), -1)

    def decode(self, x: np.ndarray, horizon: int) -> tuple[np.ndarray, np.ndarray]:
        z = x.reshape(len(x), horizon, -1)
        return z[..., :-1] * self.s_std + self.s_mean, z[..., -1] * self.r_std + self.r_mean


def _r2(truth: np.ndarray, pred: np.ndarray) -> float:
    sst = ((truth - truth.mean(axis=0)) ** 2).sum(axis=0)
    sse = ((truth - pred) ** 2).sum(axis=0)
    return float(np.mean(1 - sse / np.maximum(sst, 1e-12)))


def rtg_wording(rho: float, threshold: float = RTG_SPEARMAN) -> str:
    """How the generated return relates to the requested return-to-go, in words that match its Spearman ρ."""
    if rho >= threshold:
        return "rises with the requested return-to-go"
    if rho <= -threshold:
        return "falls as the requested return-to-go rises"
    return "does not follow the requested return-to-go"


def _transitions(s0: np.ndarray, a0: np.ndarray, states: np.ndarray, rewards: np.ndarray,
                 idm: InverseDynamics) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Generated windows as (s, a, r, s′): the first step uses the given action, later ones the IDM's."""
    n, h, ds = states.shape
    prev = np.concatenate([s0[:, None], states[:, :-1]], axis=1)  # n × h × ds
    actions = np.empty((n, h, a0.shape[1]))
    actions[:, 0] = a0
    if h > 1:
        inferred = idm.predict(prev[:, 1:].reshape(-1, ds), states[:, 1:].reshape(-1, ds))
        actions[:, 1:] = inferred.reshape(n, h - 1, -1)
    return prev.reshape(-1, ds), actions.reshape(n * h, -1), rewards.reshape(-1), states.reshape(-1, ds)


@method(
    "rl.diffusion_world_model",
    paper=PAPER,
    keywords=["diffusion world model", "world model", "DAWM", "inverse dynamics", "offline RL",
              "offline reinforcement learning", "TD3+BC", "synthetic transitions", "return-to-go",
              "data augmentation", "model-based RL", "Pendulum"],
    example="diffusion_world_model(environment='Pendulum-v1', episodes=60, horizon=8, policy_steps=4000)",
)
def diffusion_world_model(
    environment: str = "Pendulum-v1",
    episodes: int = 60,
    behaviour_noise: float = 0.1,
    horizon: int = 8,
    rtg_discount: float = 0.97,
    diffusion_steps: int = 32,
    train_steps: int = 2000,
    idm_steps: int = 1500,
    hidden: int = 128,
    guidance: float = 1.5,
    rtg_levels: int = 6,
    eval_windows: int = 256,
    synthetic_ratio: float = 0.5,
    policy_steps: int = 4000,
    eval_episodes: int = 10,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Train a return-conditioned diffusion world model with an inverse dynamics model and test its transitions.

    Logs ``episodes`` episodes of a gymnasium task with a mixed-quality behaviour policy (80% train, 20%
    held out), trains a DDPM over windows of ``horizon`` future (state, reward) steps conditioned on
    (state, action, return-to-go) and an IDM a = f(s, s′). Reports the IDM's held-out R²; the dynamics error
    of generated transitions (generated s′ against the simulator's next state for the generated s and inferred
    a, in standardised units) against two baselines scored at the same (s, a): s′ = s, which the generated s′
    must beat by half (the check), and a one-step regression model s′ = f(s, a) trained on the same logged
    transitions (the margin is reported); the mean generated return at
    ``rtg_levels`` requested returns-to-go (spanning the data's 5–95% range) and its Spearman correlation with them;
    and, unless ``policy_steps`` is 0, the return of TD3+BC trained on the logged data alone and on logged
    plus synthetic transitions (generated at the data's 90% return quantile). Figures of all four.

    Args:
        environment: Gymnasium task with continuous actions: Pendulum-v1 or MountainCarContinuous-v0.
        episodes: Logged episodes.
        behaviour_noise: Gaussian noise on the scripted expert's actions, as a fraction of the action range.
        horizon: Steps H the world model generates per window.
        rtg_discount: Discount of the return-to-go (a discounted average of future rewards).
        diffusion_steps: DDPM steps K.
        train_steps: Gradient steps of the diffusion model.
        idm_steps: Gradient steps of the inverse dynamics model.
        hidden: Width of the diffusion and IDM networks.
        guidance: Classifier-free guidance scale on the return (1 = plain conditioning).
        rtg_levels: Requested returns-to-go compared, evenly spaced between the data's 5% and 95% quantiles.
        eval_windows: Held-out start states generated from per level.
        synthetic_ratio: Synthetic transitions per logged transition for TD3+BC.
        policy_steps: TD3+BC gradient steps per policy (0 skips the policy comparison).
        eval_episodes: Episodes each policy is evaluated on.
        seed: Random seed.
        output_dir: Folder for the figure.
    """
    spec = world_model_env(environment)
    for value, name in ((episodes, "episodes"), (horizon, "horizon"), (diffusion_steps, "diffusion_steps"),
                        (train_steps, "train_steps"), (idm_steps, "idm_steps"), (hidden, "hidden"),
                        (eval_windows, "eval_windows"), (eval_episodes, "eval_episodes")):
        check_positive(value, argument=name, integer=True)
    if episodes < 5:
        raise UserError(f"episodes: need at least 5 (four to train on, one held out), got {episodes}")
    if rtg_levels < 3:
        raise UserError(f"rtg_levels: need at least 3 requested returns to rank, got {rtg_levels}")
    if policy_steps < 0 or int(policy_steps) != policy_steps:
        raise UserError(f"policy_steps: a non-negative integer (0 skips the policy comparison), got {policy_steps}")
    check_range(behaviour_noise, 0.0, 1.0, argument="behaviour_noise")
    check_range(rtg_discount, 0.0, 0.999, argument="rtg_discount")
    check_range(synthetic_ratio, 0.0, 10.0, argument="synthetic_ratio")
    check_positive(guidance, argument="guidance")
    set_threads()
    with blas_threads():
        rng = np.random.default_rng(seed)
        env = make_env(environment, allowed=tuple(WORLD_MODEL_ENVS))
        low, high = env.action_space.low.astype(float), env.action_space.high.astype(float)
        env.close()

        logged = collect(spec, episodes, noise=behaviour_noise, rng=rng)
        held = max(1, episodes // 5)
        train_eps, test_eps = logged[held:], logged[:held]
        w = windows(train_eps, horizon, rtg_discount)
        w_test = windows(test_eps, horizon, rtg_discount)
        scaler = _Scaler(w, low, high)
        diffusion = WindowDiffusion(steps=diffusion_steps, hidden=hidden, random_state=seed)
        diffusion.fit(scaler.encode(w["future"], w["rewards"]), scaler.cond(w["s"], w["a"], w["g"]),
                      train_steps=train_steps)

        def stack(eps: list[Episode]) -> tuple[np.ndarray, ...]:
            s = np.concatenate([e.observations[:-1] for e in eps])
            s2 = np.concatenate([e.observations[1:] for e in eps])
            a = np.concatenate([e.actions for e in eps])
            r = np.concatenate([e.rewards for e in eps])
            done = np.concatenate([np.r_[np.zeros(len(e.rewards) - 1), float(e.terminated)] for e in eps])
            return s, a, r, s2, done

        s, a, r, s2, done = stack(train_eps)
        ts, ta, _, ts2, _ = stack(test_eps)
        idm = InverseDynamics(hidden=hidden, random_state=seed).fit(s, s2, a, low=low, high=high, train_steps=idm_steps)
        idm_r2 = _r2(ta, idm.predict(ts, ts2))
        # the baseline generated transitions must beat: a one-step regression of s′ on (s, a), same data and budget
        one_step = ForwardDynamics(hidden=hidden, random_state=seed).fit(s, a, s2, low=low, high=high,
                                                                          train_steps=idm_steps)
        oracle_next, _ = true_next(spec, ts[:200], ta[:200])
        oracle_error = float(np.abs(oracle_next - ts2[:200]).max())

        # requested return-to-go: the same held-out starts at every level
        pick = rng.choice(len(w_test["s"]), size=min(eval_windows, len(w_test["s"])), replace=False)
        s0, a0 = w_test["s"][pick], w_test["a"][pick]
        # evenly spaced between the data's 5% and 95% quantiles: quantile levels would crowd where most data lie
        g_lo, g_hi = np.quantile(w["g"], [0.05, 0.95])
        levels = np.linspace(float(g_lo), float(g_hi), rtg_levels)
        gen_return, true_return, pooled = [], [], []
        for i, level in enumerate(levels):
            x = diffusion.sample(scaler.cond(s0, a0, np.full(len(s0), level)), guidance=guidance, seed=seed + 10 + i)
            states, rewards = scaler.decode(x, horizon)
            trans = _transitions(s0, a0, states, rewards, idm)
            nxt, rew_true = true_next(spec, trans[0], trans[1])
            gen_return.append(float(rewards.sum(axis=1).mean()))
            true_return.append(float(rew_true.reshape(len(s0), horizon).sum(axis=1).mean()))
            pooled.append((trans, nxt))
        from scipy.stats import spearmanr

        rho = float(spearmanr(levels, gen_return).statistic)
        rho_true = float(spearmanr(levels, true_return).statistic)
        s_gen = np.concatenate([p[0][0] for p in pooled])
        a_gen = np.concatenate([p[0][1] for p in pooled])
        s2_gen = np.concatenate([p[0][3] for p in pooled])
        s2_true = np.concatenate([p[1] for p in pooled])

        def rms(pred: np.ndarray, truth: np.ndarray = s2_true) -> np.ndarray:  # standardised RMS per transition
            return np.sqrt((((pred - truth) / scaler.s_std) ** 2).mean(axis=1))

        # every prediction of s′ is scored at the same generated (s, a) against the simulator's s′
        err_gen = rms(s2_gen)
        err_shuf = rms(s2_gen[rng.permutation(len(s2_gen))])
        err_stay = rms(s_gen)  # s′ = s: "nothing changes"
        err_model = rms(one_step.predict(s_gen, np.clip(a_gen, low, high)))
        vs_shuffled = float(err_gen.mean() / err_shuf.mean())
        vs_stay = float(err_gen.mean() / err_stay.mean())
        vs_model = float(err_gen.mean() / err_model.mean())

        values: dict[str, Any] = {
            "idm_r2": idm_r2,
            "dynamics_error": {"generated": float(err_gen.mean()), "no_change": float(err_stay.mean()),
                               "one_step_model": float(err_model.mean()), "shuffled": float(err_shuf.mean()),
                               "ratio_to_no_change": vs_stay, "ratio_to_one_step_model": vs_model,
                               "ratio_to_shuffled": vs_shuffled,
                               # the baselines on held-out logged transitions (real states)
                               "held_out_logged": {"no_change": float(rms(ts, ts2).mean()),
                                                   "one_step_model": float(rms(one_step.predict(ts, ta), ts2).mean())}},
            "rtg_conditioning": {"requested": levels.tolist(), "generated_return": gen_return,
                                 "true_return_of_generated": true_return, "spearman": rho, "spearman_true": rho_true},
            "logged_return": spread([float(e.rewards.sum()) for e in logged]),
        }
        policy_note = "skipped (policy_steps = 0)"
        if policy_steps:
            n_syn = round(synthetic_ratio * len(s))
            starts = rng.choice(len(w["s"]), size=max(1, -(-n_syn // horizon)), replace=True)
            high_g = np.full(len(starts), np.quantile(w["g"], 0.9))
            x = diffusion.sample(scaler.cond(w["s"][starts], w["a"][starts], high_g), guidance=guidance, seed=seed + 99)
            states, rewards = scaler.decode(x, horizon)
            gs, ga, gr, gs2 = _transitions(w["s"][starts], w["a"][starts], states, rewards, idm)
            gs, ga, gr, gs2 = gs[:n_syn], np.clip(ga[:n_syn], low, high), gr[:n_syn], gs2[:n_syn]
            gd = spec.terminal(gs2).astype(float)
            returns = {}
            for label, data in (("logged", (s, a, r, s2, done)),
                                ("logged_plus_synthetic", (np.r_[s, gs], np.r_[a, ga], np.r_[r, gr], np.r_[s2, gs2],
                                                           np.r_[done, gd]))):
                agent = TD3BC(random_state=seed).fit(*data, low=low, high=high, steps=policy_steps)
                returns[label] = spread(evaluate(spec, agent, eval_episodes, seed=seed + 1000))
            values["policy_return"] = returns
            values["synthetic_transitions"] = len(gs)
            policy_note = (f"TD3+BC return {returns['logged']['mean']:.1f} ± {returns['logged']['std']:.1f} on logged data "
                           f"vs {returns['logged_plus_synthetic']['mean']:.1f} ± "
                           f"{returns['logged_plus_synthetic']['std']:.1f} with {len(gs)} synthetic transitions "
                           f"({policy_steps} steps, {eval_episodes} episodes; logged episodes "
                           f"{values['logged_return']['mean']:.1f} on average)")
        checks = [
            Check(name="oracle reproduces logged transitions", passed=oracle_error < 1e-3,
                  message=f"max |simulator(s, a) − logged s′| = {oracle_error:.1e}"),
            Check(name="inverse dynamics R² > 0.9", passed=idm_r2 > 0.9, message=f"held-out R² = {idm_r2:.3f}"),
            Check(name="generated transitions follow the dynamics", passed=vs_stay <= DYNAMICS_MARGIN,
                  message=f"dynamics error {err_gen.mean():.3f} generated vs {err_stay.mean():.3f} for s′ = s (ratio "
                          f"{vs_stay:.2f}, ≤ {DYNAMICS_MARGIN} passes) and {err_model.mean():.3f} for a one-step "
                          f"regression model of the dynamics (ratio {vs_model:.2f})"),
            Check(name="returns follow the requested return-to-go", passed=rho >= RTG_SPEARMAN,
                  message=f"Spearman {rho:.2f} over {rtg_levels} levels (true rewards of generated windows: "
                          f"{rho_true:.2f})"),
        ]
        figure = output_path(output_dir, "diffusion_world_model.png")
        _plot(str(figure), ta, idm.predict(ts, ts2), {"generated": err_gen, "s′ = s": err_stay,
                                                      "one-step model": err_model}, levels, gen_return, true_return,
              values.get("policy_return"))
        follows = rtg_wording(rho)
        summary = (f"DAWM on {environment} ({episodes} logged episodes, H = {horizon}): IDM held-out R² {idm_r2:.3f}; "
                   f"generated transitions' dynamics error {err_gen.mean():.3f} (standardised RMS) vs "
                   f"{err_stay.mean():.3f} for s′ = s ({vs_stay:.2f}×) and {err_model.mean():.3f} for a one-step "
                   f"regression model ({vs_model:.2f}×); generated {horizon}-step return {follows} "
                   f"(Spearman {rho:.2f}; {gen_return[0]:.2f} → {gen_return[-1]:.2f}); {policy_note}.")
        diagnostics = {"diffusion_loss": diffusion.loss_, "windows": {"train": len(w["s"]), "held_out": len(w_test["s"])},
                       "behaviour_quality": [e.quality for e in logged]}
        return MethodResult(summary=summary, values=values, checks=checks, artifacts=[str(figure)],
                            diagnostics=diagnostics)


def _plot(path: str, a_true: np.ndarray, a_pred: np.ndarray, errors: dict[str, np.ndarray],
          levels: np.ndarray, gen_return: list[float], true_return: list[float],
          policy: dict[str, dict[str, float]] | None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(18, 4))
    axes[0].scatter(a_true[:, 0], a_pred[:, 0], s=3, alpha=0.4)
    axes[0].set_xlabel("logged action")
    axes[0].set_ylabel("IDM action")
    axes[0].set_title("inverse dynamics (held out)")
    bins = np.linspace(0, max(max(float(np.quantile(e, 0.99)) for e in errors.values()), 1e-6), 40)
    for label, err in errors.items():
        axes[1].hist(err, bins=bins, alpha=0.5, label=label)
    axes[1].set_xlabel("dynamics error (standardised RMS)")
    axes[1].set_ylabel("generated windows")
    axes[1].legend()
    axes[2].plot(levels, gen_return, "o-", label="generated rewards")
    axes[2].plot(levels, true_return, "s--", label="true rewards of generated steps")
    axes[2].set_xlabel("requested return-to-go")
    axes[2].set_ylabel("window return")
    axes[2].legend(fontsize=8)
    if policy:
        labels = list(policy)
        axes[3].bar(labels, [policy[k]["mean"] for k in labels], yerr=[policy[k]["std"] for k in labels],
                    color=["C0", "C1"])
        axes[3].set_xlabel("training data")
        axes[3].set_ylabel("evaluation return")
        axes[3].set_title("TD3+BC")
    else:
        axes[3].axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
