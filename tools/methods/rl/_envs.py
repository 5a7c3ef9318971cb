"""Environments of the RL method tools: a tabular gridworld and gymnasium's classic-control tasks.

Only classic control is allowed (pure Python, nothing to download).  Rollouts step the unwrapped environment
after a seeded ``reset`` — the wrappers only add checks and a time limit that our short segments never reach —
which halves the cost per step.  Each world-model environment also has a scripted behaviour policy of
adjustable quality (to log a data set with a spread of returns), a map from observation to simulator state
(so that the true dynamics can score any generated transition) and its terminal condition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cmbagent.exceptions import UserError

__all__ = [
    "CLASSIC_CONTROL",
    "WORLD_MODEL_ENVS",
    "Segments",
    "WorldModelEnv",
    "gym_segments",
    "make_env",
    "tabular_segments",
    "world_model_env",
]

CLASSIC_CONTROL = ("CartPole-v1", "Acrobot-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1")


def make_env(env_id: str, *, allowed: tuple[str, ...] = CLASSIC_CONTROL, argument: str = "environment") -> Any:
    """``gymnasium.make(env_id)`` for the allowed classic-control ids; anything else is the caller's mistake."""
    if env_id not in allowed:
        raise UserError(f"{argument}: unknown or unsupported environment id {env_id!r}; choose one of "
                        f"{', '.join(allowed)}")
    try:
        import gymnasium as gym
    except ImportError as exc:
        raise UserError("the RL tools need gymnasium: pip install 'cmbagent[methods]'") from exc
    return gym.make(env_id)


@dataclass(frozen=True)
class Segments:
    """Trajectory segments: summed per-step features (N × d), true utilities (N) and the steps each lasted."""

    features: np.ndarray
    utilities: np.ndarray
    lengths: np.ndarray
    feature_names: tuple[str, ...]


def tabular_segments(n: int, *, side: int, horizon: int, slip: float, rewards: np.ndarray,
                     rng: np.random.Generator) -> Segments:
    """Segments of a side×side gridworld (4 moves, slip probability ``slip``) under random stochastic policies.

    Each segment has its own softmax policy with random logits and a random temperature, so visitation
    patterns (the features: visit counts per state) and utilities Σ r(s_t) spread widely.
    """
    states = side * side
    moves = np.array([(-1, 0), (1, 0), (0, -1), (0, 1)])
    logits = rng.normal(size=(n, states, 4)) * rng.uniform(0.0, 4.0, size=(n, 1, 1))
    probs = np.exp(logits - logits.max(axis=2, keepdims=True))
    cumulative = np.cumsum(probs / probs.sum(axis=2, keepdims=True), axis=2)
    s = rng.integers(states, size=n)
    visits = np.zeros((n, states))
    rows = np.arange(n)
    for _ in range(horizon):
        visits[rows, s] += 1
        action = np.minimum((rng.random(n)[:, None] > cumulative[rows, s]).sum(axis=1), 3)
        slipped = rng.random(n) < slip
        action[slipped] = rng.integers(4, size=int(slipped.sum()))
        r, c = np.divmod(s, side)
        r = np.clip(r + moves[action, 0], 0, side - 1)
        c = np.clip(c + moves[action, 1], 0, side - 1)
        s = r * side + c
    return Segments(features=visits, utilities=visits @ rewards, lengths=np.full(n, horizon),
                    feature_names=tuple(f"visits[{i}]" for i in range(states)))


def _step_features(obs: np.ndarray, action: Any, discrete: int | None) -> np.ndarray:
    """Per-step features ψ(s, a) = [1, s, s², a, a²] (a one-hot for discrete actions)."""
    if discrete:
        act = np.zeros(discrete)
        act[int(action)] = 1.0
    else:
        a = np.atleast_1d(np.asarray(action, dtype=float))
        act = np.concatenate([a, a**2])
    return np.concatenate([[1.0], obs, obs**2, act])


def gym_segments(env_id: str, n: int, *, horizon: int, rng: np.random.Generator) -> Segments:
    """Segments of a classic-control task under random linear policies of random strength.

    The utility is the environment's own return over the segment; the features are Σ_t ψ(s_t, a_t) with
    ψ = [1, s, s², a, a²], a class in which a linear reward model can express the classic-control rewards
    approximately (exactly for the constant per-step rewards of CartPole, Acrobot and MountainCar).
    """
    import gymnasium as gym

    env = make_env(env_id)
    space = env.action_space
    discrete = int(space.n) if isinstance(space, gym.spaces.Discrete) else None
    obs_dim = int(np.prod(env.observation_space.shape))
    act_dim = discrete or int(np.prod(space.shape))
    # coordinates bounded below 1 are scaled up to ±1, so that a random gain can react to them (MountainCar's
    # velocity is at most 0.07); the others stay as they are
    high = np.asarray(env.observation_space.high, dtype=float).ravel()
    obs_scale = np.where(np.isfinite(high) & (high > 0) & (high < 1), high, 1.0)
    rows, utilities, lengths = [], [], []
    for _ in range(n):
        obs, _ = env.reset(seed=int(rng.integers(2**31)))
        base = env.unwrapped
        gain = rng.normal(size=(act_dim, obs_dim)) * rng.uniform(0.0, 3.0)
        bias = rng.normal(size=act_dim) * rng.uniform(0.0, 1.0)
        noise = rng.uniform(0.0, 1.0)
        total = np.zeros(1 + 2 * obs_dim + (discrete or 2 * act_dim))
        ret, steps = 0.0, 0
        for _ in range(horizon):
            drive = gain @ (np.asarray(obs, dtype=float) / obs_scale) + bias + noise * rng.normal(size=act_dim)
            if discrete:
                action: Any = int(np.argmax(drive))
            else:
                action = np.clip(drive * space.high, space.low, space.high).astype(np.float32)
            total += _step_features(np.asarray(obs, dtype=float), action, discrete)
            obs, reward, terminated, _, _ = base.step(action)
            ret += float(reward)
            steps += 1
            if terminated:
                break
        rows.append(total)
        utilities.append(ret)
        lengths.append(steps)
    env.close()
    names = (["1"] + [f"s{i}" for i in range(obs_dim)] + [f"s{i}²" for i in range(obs_dim)]
             + ([f"a={i}" for i in range(discrete)] if discrete else
                [f"a{i}" for i in range(act_dim)] + [f"a{i}²" for i in range(act_dim)]))
    return Segments(features=np.asarray(rows), utilities=np.asarray(utilities), lengths=np.asarray(lengths),
                    feature_names=tuple(names))


# -- environments for the world model ------------------------------------------------------------------------
@dataclass(frozen=True)
class WorldModelEnv:
    """What the world-model tool needs to know about a continuous-action task."""

    env_id: str
    expert: Callable[[np.ndarray], np.ndarray]  # a scripted controller: observation -> action
    to_state: Callable[[np.ndarray], np.ndarray]  # observation -> the simulator's internal state
    terminal: Callable[[np.ndarray], np.ndarray]  # observations (N × d) -> terminated flags


def _pendulum_expert(obs: np.ndarray) -> np.ndarray:
    """Energy pumping far from the top, a PD controller near it (θ̈ = 15 sin θ + 3u, |u| ≤ 2)."""
    cos, sin, vel = float(obs[0]), float(obs[1]), float(obs[2])
    theta = np.arctan2(sin, cos)
    if cos > 0.85:
        u = -10.0 * theta - 2.0 * vel
    else:
        energy = 0.5 * vel**2 + 15.0 * cos  # 15 at rest upright
        u = 2.0 * np.sign(vel if abs(vel) > 1e-3 else 1.0) if energy < 15.0 else -0.5 * vel
    return np.array([np.clip(u, -2.0, 2.0)])


def _mountain_car_expert(obs: np.ndarray) -> np.ndarray:
    """Push along the velocity: pumps energy until the car clears the hill."""
    return np.array([1.0 if obs[1] >= 0 else -1.0])


WORLD_MODEL_ENVS: dict[str, WorldModelEnv] = {
    "Pendulum-v1": WorldModelEnv(
        "Pendulum-v1", _pendulum_expert,
        to_state=lambda o: np.array([np.arctan2(o[1], o[0]), o[2]]),
        terminal=lambda o: np.zeros(len(o), dtype=bool)),
    "MountainCarContinuous-v0": WorldModelEnv(
        "MountainCarContinuous-v0", _mountain_car_expert,
        to_state=lambda o: np.array([o[0], o[1]]),
        terminal=lambda o: np.asarray(o)[:, 0] >= 0.45),
}


def world_model_env(env_id: str) -> WorldModelEnv:
    if env_id not in WORLD_MODEL_ENVS:
        raise UserError(f"environment: unknown or unsupported environment id {env_id!r} for the world model; choose "
                        f"one of {', '.join(WORLD_MODEL_ENVS)} (continuous actions, a settable simulator state)")
    return WORLD_MODEL_ENVS[env_id]
