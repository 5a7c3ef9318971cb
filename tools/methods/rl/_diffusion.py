"""The two learned parts of the diffusion world model: a conditional DDPM over future (state, reward) windows and
an inverse dynamics model (IDM) that infers the action between two consecutive states; and the one-step
regression model s′ = f(s, a) that generated transitions are measured against.

The world model never predicts actions: it generates x = [(s_{t+1}, r_t), …, (s_{t+H}, r_{t+H−1})] given the
condition (s_t, a_t, g_t) with g_t the return-to-go, and the IDM fills in the actions of the generated steps.
Return conditioning uses classifier-free guidance: during training the return is dropped (replaced by a mask
flag) with probability ``p_uncond``, and sampling mixes the conditional and unconditional noise predictions,
ε̂ = ε_u + s·(ε_c − ε_u).  The DDPM uses a cosine noise schedule and ancestral sampling with the predicted
clean sample clipped to the data's range in standardised units.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["ForwardDynamics", "InverseDynamics", "WindowDiffusion"]


def _mlp(sizes: list[int]) -> Any:
    import torch.nn as nn

    layers: list[Any] = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.SiLU())
    return nn.Sequential(*layers)


def _time_embedding(k: Any, dim: int) -> Any:
    import torch

    half = dim // 2
    freqs = torch.exp(-math.log(1000.0) * torch.arange(half, dtype=torch.float32) / half)
    angles = k.float()[:, None] * freqs[None, :]
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)


class WindowDiffusion:
    """DDPM over flattened windows x (N × D) conditioned on c (N × C) whose last column is the return-to-go.

    Args:
        steps: diffusion steps K.
        hidden: width of the denoiser's three hidden layers.
        p_uncond: probability of dropping the return during training (classifier-free guidance).
        learning_rate: Adam step size.
        random_state: seed of initial weights and training noise.
    """

    def __init__(self, steps: int = 32, hidden: int = 256, p_uncond: float = 0.15, learning_rate: float = 1e-3,
                 random_state: int = 0) -> None:
        self.steps = steps
        self.hidden = hidden
        self.p_uncond = p_uncond
        self.learning_rate = learning_rate
        self.random_state = random_state

    def _schedule(self) -> Any:
        import torch

        s = 0.008
        k = torch.arange(self.steps + 1, dtype=torch.float64) / self.steps
        abar = torch.cos((k + s) / (1 + s) * math.pi / 2) ** 2
        abar = abar / abar[0]
        betas = (1 - abar[1:] / abar[:-1]).clamp(max=0.999)
        alphas = 1 - betas
        return betas.float(), alphas.float(), torch.cumprod(alphas, 0).float()

    def _eps(self, xk: Any, k: Any, cond: Any, drop: Any) -> Any:
        import torch

        c = cond.clone()
        c[:, -1] = torch.where(drop, torch.zeros_like(c[:, -1]), c[:, -1])
        inputs = torch.cat([xk, c, drop.float()[:, None], _time_embedding(k, 32)], dim=1)
        return self.net_(inputs)

    def fit(self, x: np.ndarray, cond: np.ndarray, *, train_steps: int, batch: int = 256) -> WindowDiffusion:
        import torch

        torch.manual_seed(self.random_state)
        gen = torch.Generator().manual_seed(self.random_state)
        xs = torch.as_tensor(x, dtype=torch.float32)
        cs = torch.as_tensor(cond, dtype=torch.float32)
        self.dim_, self.cond_dim_ = xs.shape[1], cs.shape[1]
        self.net_ = _mlp([self.dim_ + self.cond_dim_ + 1 + 32, self.hidden, self.hidden, self.hidden, self.dim_])
        self.clip_ = float(np.abs(x).max()) * 1.1
        _, _, abar = self._schedule()
        optimiser = torch.optim.Adam(self.net_.parameters(), lr=self.learning_rate)
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=train_steps)
        losses = []
        for _ in range(train_steps):
            idx = torch.randint(len(xs), (batch,), generator=gen)
            x0, c = xs[idx], cs[idx]
            k = torch.randint(self.steps, (batch,), generator=gen)
            noise = torch.randn(x0.shape, generator=gen)
            a = abar[k][:, None]
            xk = a.sqrt() * x0 + (1 - a).sqrt() * noise
            drop = torch.rand(batch, generator=gen) < self.p_uncond
            loss = ((self._eps(xk, k, c, drop) - noise) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            sched.step()
            losses.append(loss.item())
        self.loss_ = float(np.mean(losses[-max(1, train_steps // 20):]))
        return self

    def sample(self, cond: np.ndarray, *, guidance: float = 1.0, seed: int = 0) -> np.ndarray:
        """Windows for each condition row (standardised units), by ancestral sampling with guidance."""
        import torch

        betas, alphas, abar = self._schedule()
        gen = torch.Generator().manual_seed(seed)
        c = torch.as_tensor(cond, dtype=torch.float32)
        n = len(c)
        x = torch.randn((n, self.dim_), generator=gen)
        keep = torch.zeros(n, dtype=torch.bool)
        drop = torch.ones(n, dtype=torch.bool)
        with torch.no_grad():
            for step in reversed(range(self.steps)):
                k = torch.full((n,), step, dtype=torch.long)
                eps = self._eps(x, k, c, keep)
                if guidance != 1.0:
                    eps_u = self._eps(x, k, c, drop)
                    eps = eps_u + guidance * (eps - eps_u)
                x0 = ((x - (1 - abar[step]).sqrt() * eps) / abar[step].sqrt()).clamp(-self.clip_, self.clip_)
                if step == 0:
                    x = x0
                    break
                prev = abar[step - 1]
                mean = (prev.sqrt() * betas[step] / (1 - abar[step])) * x0 + (
                    alphas[step].sqrt() * (1 - prev) / (1 - abar[step])) * x
                var = betas[step] * (1 - prev) / (1 - abar[step])
                x = mean + var.sqrt() * torch.randn(x.shape, generator=gen)
        return x.numpy().astype(float)


class InverseDynamics:
    """MLP a = f(s, s′) fitted by mean squared error, predictions clipped to the action bounds.

    The head is linear (in units of the action half-range) rather than a tanh: logged actions pile up at the
    bounds (the expert saturates its torque), and a tanh head regresses them towards the centre.
    """

    def __init__(self, hidden: int = 256, learning_rate: float = 1e-3, random_state: int = 0) -> None:
        self.hidden = hidden
        self.learning_rate = learning_rate
        self.random_state = random_state

    def fit(self, s: np.ndarray, s_next: np.ndarray, a: np.ndarray, *, low: np.ndarray, high: np.ndarray,
            train_steps: int, batch: int = 256) -> InverseDynamics:
        import torch

        torch.manual_seed(self.random_state)
        gen = torch.Generator().manual_seed(self.random_state + 1)
        self.mean_, self.std_ = s.mean(axis=0), s.std(axis=0) + 1e-6
        self.low_, self.high_ = np.asarray(low, float), np.asarray(high, float)
        inputs = torch.as_tensor(self._inputs(s, s_next), dtype=torch.float32)
        target = torch.as_tensor(a, dtype=torch.float32)
        self.net_ = _mlp([inputs.shape[1], self.hidden, self.hidden, a.shape[1]])
        optimiser = torch.optim.Adam(self.net_.parameters(), lr=self.learning_rate)
        centre = torch.as_tensor((self.high_ + self.low_) / 2, dtype=torch.float32)
        half = torch.as_tensor((self.high_ - self.low_) / 2, dtype=torch.float32)
        self._centre, self._half = centre, half
        for _ in range(train_steps):
            idx = torch.randint(len(inputs), (batch,), generator=gen)
            pred = centre + half * self.net_(inputs[idx])
            loss = ((pred - target[idx]) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        return self

    def _inputs(self, s: np.ndarray, s_next: np.ndarray) -> np.ndarray:
        z, z_next = (s - self.mean_) / self.std_, (s_next - self.mean_) / self.std_
        return np.concatenate([z, z_next - z], axis=1)

    def predict(self, s: np.ndarray, s_next: np.ndarray) -> np.ndarray:
        import torch

        with torch.no_grad():
            x = torch.as_tensor(self._inputs(s, s_next), dtype=torch.float32)
            raw = (self._centre + self._half * self.net_(x)).numpy().astype(float)
        return np.clip(raw, self.low_, self.high_)


class ForwardDynamics:
    """MLP one-step model s′ = s + f(s, a) fitted by mean squared error in standardised units.

    The baseline a generated transition must be compared with: what a plain regression of the next state on the
    same logged transitions achieves in one step (the world model has to generate whole windows, and is trained
    on the same data).
    """

    def __init__(self, hidden: int = 256, learning_rate: float = 1e-3, random_state: int = 0) -> None:
        self.hidden = hidden
        self.learning_rate = learning_rate
        self.random_state = random_state

    def fit(self, s: np.ndarray, a: np.ndarray, s_next: np.ndarray, *, low: np.ndarray, high: np.ndarray,
            train_steps: int, batch: int = 256) -> ForwardDynamics:
        import torch

        torch.manual_seed(self.random_state)
        gen = torch.Generator().manual_seed(self.random_state + 2)
        self.mean_, self.std_ = s.mean(axis=0), s.std(axis=0) + 1e-6
        self.low_, self.high_ = np.asarray(low, float), np.asarray(high, float)
        inputs = torch.as_tensor(self._inputs(s, a), dtype=torch.float32)
        target = torch.as_tensor((s_next - s) / self.std_, dtype=torch.float32)
        self.net_ = _mlp([inputs.shape[1], self.hidden, self.hidden, s.shape[1]])
        optimiser = torch.optim.Adam(self.net_.parameters(), lr=self.learning_rate)
        for _ in range(train_steps):
            idx = torch.randint(len(inputs), (batch,), generator=gen)
            loss = ((self.net_(inputs[idx]) - target[idx]) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        return self

    def _inputs(self, s: np.ndarray, a: np.ndarray) -> np.ndarray:
        a01 = 2 * (a - self.low_) / (self.high_ - self.low_) - 1
        return np.concatenate([(s - self.mean_) / self.std_, a01], axis=1)

    def predict(self, s: np.ndarray, a: np.ndarray) -> np.ndarray:
        import torch

        with torch.no_grad():
            step = self.net_(torch.as_tensor(self._inputs(s, a), dtype=torch.float32)).numpy().astype(float)
        return s + step * self.std_
