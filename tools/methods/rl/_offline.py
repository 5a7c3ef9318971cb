"""Offline RL plumbing for the world-model tool: logging a data set, returns-to-go, the true dynamics as an
oracle for generated transitions, TD3+BC, and policy evaluation.

TD3+BC (Fujimoto & Gu, 2021) is TD3 with a behaviour-cloning term in the actor loss,
λ·Q(s, π(s)) − (π(s) − a)² with λ = α / mean|Q|, on standardised states — the offline learner DAWM feeds
with synthetic transitions.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from cmbagent.tools.methods.rl._envs import WorldModelEnv, make_env

__all__ = ["TD3BC", "Episode", "collect", "evaluate", "returns_to_go", "true_next"]


@dataclass
class Episode:
    observations: np.ndarray  # (T + 1) × ds
    actions: np.ndarray  # T × da
    rewards: np.ndarray  # T
    terminated: bool
    quality: float  # the behaviour policy's probability of following the expert


def collect(spec: WorldModelEnv, episodes: int, *, noise: float, rng: np.random.Generator) -> list[Episode]:
    """Log episodes with a behaviour policy of random quality q ~ U(0, 1) per episode.

    Each step follows the scripted expert (plus Gaussian noise of ``noise`` × the action range) with
    probability q and acts uniformly at random otherwise, so the returns of the data set spread from those of a
    random policy to near-expert ones (what return conditioning needs).
    """
    env = make_env(spec.env_id, allowed=(spec.env_id,))
    low, high = env.action_space.low.astype(float), env.action_space.high.astype(float)
    out = []
    for _ in range(episodes):
        q = float(rng.uniform())
        obs, _ = env.reset(seed=int(rng.integers(2**31)))
        obs_list, act_list, rew_list = [np.asarray(obs, float)], [], []
        terminated = False
        while True:
            if rng.uniform() < q:
                action = spec.expert(obs_list[-1]) + noise * (high - low) * rng.normal(size=low.shape)
            else:
                action = rng.uniform(low, high)
            action = np.clip(action, low, high)
            obs, reward, terminated, truncated, _ = env.step(action.astype(np.float32))
            obs_list.append(np.asarray(obs, float))
            act_list.append(action)
            rew_list.append(float(reward))
            if terminated or truncated:
                break
        out.append(Episode(np.asarray(obs_list), np.asarray(act_list), np.asarray(rew_list), bool(terminated), q))
    env.close()
    return out


def returns_to_go(rewards: np.ndarray, gamma: float) -> np.ndarray:
    """Discounted average of future rewards, Σ_i γ^i r_{t+i} / Σ_i γ^i over the steps left in the episode.

    Normalising by the weights left keeps a step near the time limit from looking good just because few
    (negative) rewards remain.
    """
    g = np.zeros(len(rewards))
    weight = np.zeros(len(rewards))
    acc, acc_w = 0.0, 0.0
    for t in range(len(rewards) - 1, -1, -1):
        acc = rewards[t] + gamma * acc
        acc_w = 1.0 + gamma * acc_w
        g[t], weight[t] = acc, acc_w
    return g / weight


def true_next(spec: WorldModelEnv, observations: np.ndarray, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The simulator's next observation and reward for each (observation, action): the dynamics oracle."""
    env = make_env(spec.env_id, allowed=(spec.env_id,))
    env.reset(seed=0)
    base = env.unwrapped
    nxt, rew = np.zeros_like(observations, dtype=float), np.zeros(len(observations))
    for i, (o, a) in enumerate(zip(observations, actions, strict=True)):
        base.state = spec.to_state(np.asarray(o, float))
        obs, reward, _, _, _ = base.step(np.asarray(a, dtype=np.float32))
        nxt[i], rew[i] = obs, reward
    env.close()
    return nxt, rew


class _TwinCritic:
    """Two independent Q networks evaluated as one batched MLP (weights stacked on a leading axis of 2).

    TD3's twin critics on small batches are dominated by per-call overhead; one ``baddbmm`` per layer for both
    networks halves the calls of the critic update and of the target computation.
    """

    def __new__(cls, inputs: int, hidden: int) -> Any:
        import torch
        import torch.nn as nn

        class Twin(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.weights = nn.ParameterList()
                self.biases = nn.ParameterList()
                for fan_in, fan_out in ((inputs, hidden), (hidden, hidden), (hidden, 1)):
                    bound = 1.0 / fan_in**0.5  # nn.Linear's default initialisation, per network
                    self.weights.append(nn.Parameter(torch.empty(2, fan_in, fan_out).uniform_(-bound, bound)))
                    self.biases.append(nn.Parameter(torch.empty(2, 1, fan_out).uniform_(-bound, bound)))

            def forward(self, x: Any) -> Any:
                h = x.unsqueeze(0).expand(2, -1, -1)
                for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
                    h = torch.baddbmm(b, h, w)
                    if i < len(self.weights) - 1:
                        h = torch.relu(h)
                return h  # 2 × batch × 1

        return Twin()


class TD3BC:
    """TD3+BC on (s, a, r, s′, done) arrays; ``fit`` trains, ``act`` is the deterministic policy.

    Args:
        hidden: width of the actor's and critics' two hidden layers.
        alpha: α of λ = α / mean|Q| (the weight of the Q term against behaviour cloning; 2.5 in the paper).
        gamma: discount.
        tau: Polyak rate of the target networks.
        policy_noise: std of the target policy smoothing noise (fraction of the action half-range).
        noise_clip: clip of that noise.
        policy_delay: critic updates per actor update.
        batch: transitions per update.
        learning_rate: Adam step size (1e-3: a few thousand steps must do on two CPU cores; the paper uses
            3e-4 for a million steps).
        random_state: seed of weights and minibatches.
    """

    def __init__(self, hidden: int = 128, alpha: float = 2.5, gamma: float = 0.99, tau: float = 0.005,
                 policy_noise: float = 0.2, noise_clip: float = 0.5, policy_delay: int = 2, batch: int = 256,
                 learning_rate: float = 1e-3, random_state: int = 0) -> None:
        self.hidden = hidden
        self.alpha = alpha
        self.gamma = gamma
        self.tau = tau
        self.policy_noise = policy_noise
        self.noise_clip = noise_clip
        self.policy_delay = policy_delay
        self.batch = batch
        self.learning_rate = learning_rate
        self.random_state = random_state

    def fit(self, s: np.ndarray, a: np.ndarray, r: np.ndarray, s2: np.ndarray, done: np.ndarray, *,
            low: np.ndarray, high: np.ndarray, steps: int) -> TD3BC:
        import torch
        import torch.nn as nn

        torch.manual_seed(self.random_state)
        gen = torch.Generator().manual_seed(self.random_state + 1)
        self.mean_, self.std_ = s.mean(axis=0), s.std(axis=0) + 1e-3
        self.scale_ = torch.as_tensor((high - low) / 2, dtype=torch.float32)
        self.centre_ = torch.as_tensor((high + low) / 2, dtype=torch.float32)
        # rewards divided by their spread: the policy is unchanged (λ normalises the Q term) and the critic's
        # targets stay O(1/(1 − γ)) instead of O(|r|/(1 − γ)), which it fits in far fewer steps
        self.reward_scale_ = float(np.std(r)) or 1.0
        tensors = [torch.as_tensor(v, dtype=torch.float32) for v in
                   ((s - self.mean_) / self.std_, a, (r / self.reward_scale_)[:, None], (s2 - self.mean_) / self.std_,
                    done[:, None])]
        ts, ta, tr, ts2, td = tensors
        ds, da = s.shape[1], a.shape[1]

        def mlp(i: int, o: int) -> Any:
            return nn.Sequential(nn.Linear(i, self.hidden), nn.ReLU(), nn.Linear(self.hidden, self.hidden), nn.ReLU(),
                                 nn.Linear(self.hidden, o))

        self.actor_ = mlp(ds, da)
        critics = _TwinCritic(ds + da, self.hidden)
        actor_target, critic_target = copy.deepcopy(self.actor_), copy.deepcopy(critics)
        opt_actor = torch.optim.Adam(self.actor_.parameters(), lr=self.learning_rate, foreach=True)
        opt_critic = torch.optim.Adam(critics.parameters(), lr=self.learning_rate, foreach=True)
        online = [*self.actor_.parameters(), *critics.parameters()]
        targets = [*actor_target.parameters(), *critic_target.parameters()]
        high_t, low_t = self.centre_ + self.scale_, self.centre_ - self.scale_

        def policy(net: Any, x: Any) -> Any:
            return self.centre_ + self.scale_ * torch.tanh(net(x))

        critic_losses = []
        for step in range(steps):
            idx = torch.randint(len(ts), (self.batch,), generator=gen)
            bs, ba, br, bs2, bd = ts[idx], ta[idx], tr[idx], ts2[idx], td[idx]
            with torch.no_grad():
                noise = (torch.randn(ba.shape, generator=gen) * self.policy_noise).clamp(-self.noise_clip,
                                                                                         self.noise_clip)
                a2 = torch.max(torch.min(policy(actor_target, bs2) + noise * self.scale_, high_t), low_t)
                target = br + self.gamma * (1 - bd) * critic_target(torch.cat([bs2, a2], 1)).min(dim=0).values
            q_both = critics(torch.cat([bs, ba], 1))
            loss = ((q_both - target) ** 2).mean(dim=(1, 2)).sum()
            opt_critic.zero_grad()
            loss.backward()
            opt_critic.step()
            critic_losses.append(loss.item())
            if step % self.policy_delay == 0:
                pi = policy(self.actor_, bs)
                q = critics(torch.cat([bs, pi], 1))[0]
                lam = self.alpha / q.abs().mean().detach()
                actor_loss = -lam * q.mean() + (((pi - ba) / self.scale_) ** 2).mean()
                opt_actor.zero_grad()
                actor_loss.backward()
                opt_actor.step()
                with torch.no_grad():  # Polyak averaging of both targets in one fused call
                    torch._foreach_lerp_(targets, online, self.tau)
        self.critic_loss_ = float(np.mean(critic_losses[-max(1, steps // 20):])) if critic_losses else float("nan")
        return self

    def act(self, obs: np.ndarray) -> np.ndarray:
        import torch

        with torch.no_grad():
            x = torch.as_tensor(((np.asarray(obs, float) - self.mean_) / self.std_)[None], dtype=torch.float32)
            return (self.centre_ + self.scale_ * torch.tanh(self.actor_(x)))[0].numpy().astype(float)


def evaluate(spec: WorldModelEnv, policy: TD3BC, episodes: int, *, seed: int) -> list[float]:
    """Undiscounted returns of ``policy`` over ``episodes`` seeded episodes (time limit included)."""
    env = make_env(spec.env_id, allowed=(spec.env_id,))
    returns = []
    for e in range(episodes):
        obs, _ = env.reset(seed=seed + e)
        total = 0.0
        while True:
            obs, reward, terminated, truncated, _ = env.step(policy.act(obs).astype(np.float32))
            total += float(reward)
            if terminated or truncated:
                break
        returns.append(total)
    env.close()
    return returns
