"""Target densities for the variational tools: built-ins with exact samples, Bayesian logistic regression on a
table, and a user's ``log_prob`` from a Python file.

A user's file runs as ordinary Python in the process that calls the tool: inside a run that is the sandboxed
kernel; on the command line (``cmbagent methods run``) it is the user's own code on their own machine.  Its
output is checked before use (a tensor of shape (batch,), finite on a standard-normal probe) and during
training (finite values and gradients), and every failure names the ``log_density`` argument.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from cmbagent.exceptions import DataError, UserError

__all__ = ["BUILTINS", "Target", "builtin_target", "check_design", "evaluate", "logreg_target", "user_target"]

BUILTINS = ("banana2d", "funnel", "linear_gaussian")
LogProb = Callable[[torch.Tensor], torch.Tensor]


@dataclass
class Target:
    """A log density (unnormalised is fine) with optional exact samples and exact moments."""

    name: str
    dim: int
    log_prob: LogProb
    sampler: Callable[[int, np.random.Generator], np.ndarray] | None = None
    mean: np.ndarray | None = None
    cov: np.ndarray | None = None
    argument: str = "target"
    normalised: bool = True
    names: list[str] | None = None

    def parameter_names(self) -> list[str]:
        return self.names or [f"z{i + 1}" for i in range(self.dim)]


def _gaussian_params(dim: int) -> tuple[np.ndarray, np.ndarray]:
    mean = np.array([(1.0 if i % 2 == 0 else -1.0) * (0.5 + 0.25 * i) for i in range(dim)])
    idx = np.arange(dim)
    scales = 1.0 + 0.5 * (idx % 3)
    cov = 0.7 ** np.abs(idx[:, None] - idx[None, :]) * scales[:, None] * scales[None, :]
    return mean, cov


def builtin_target(name: str, dim: int) -> Target:
    """``banana2d``: z₁ ~ N(0, 1), z₂ | z₁ ~ N(z₁² − 1, 0.5²); ``funnel``: Neal's funnel v ~ N(0, 1.5²),
    x_i | v ~ N(0, e^v); ``linear_gaussian``: N(m, Σ) with Σ_ij = 0.7^|i−j| s_i s_j."""
    if name == "banana2d":
        def banana(z: torch.Tensor) -> torch.Tensor:
            z1, z2 = z[..., 0], z[..., 1]
            return (-0.5 * z1**2 - 0.5 * ((z2 - z1**2 + 1) / 0.5) ** 2 - math.log(2 * math.pi * 0.5))

        def banana_samples(n: int, rng: np.random.Generator) -> np.ndarray:
            z1 = rng.normal(size=n)
            return np.stack([z1, z1**2 - 1 + 0.5 * rng.normal(size=n)], axis=1)

        return Target("banana2d", 2, banana, banana_samples, mean=np.array([0.0, 0.0]),
                      cov=np.array([[1.0, 0.0], [0.0, 2.25]]))
    if name == "funnel":
        def funnel(z: torch.Tensor) -> torch.Tensor:
            v, x = z[..., 0], z[..., 1:]
            log_v = -0.5 * (v / 1.5) ** 2 - math.log(1.5 * math.sqrt(2 * math.pi))
            log_x = (-0.5 * x**2 * torch.exp(-v)[..., None] - 0.5 * v[..., None]
                     - 0.5 * math.log(2 * math.pi)).sum(-1)
            return log_v + log_x

        def funnel_samples(n: int, rng: np.random.Generator) -> np.ndarray:
            v = 1.5 * rng.normal(size=n)
            x = rng.normal(size=(n, dim - 1)) * np.exp(v / 2)[:, None]
            return np.column_stack([v, x])

        var_x = math.exp(1.5**2 / 2)
        return Target("funnel", dim, funnel, funnel_samples, mean=np.zeros(dim),
                      cov=np.diag([1.5**2] + [var_x] * (dim - 1)))
    if name == "linear_gaussian":
        mean, cov = _gaussian_params(dim)
        prec = torch.as_tensor(np.linalg.inv(cov), dtype=torch.float32)
        m = torch.as_tensor(mean, dtype=torch.float32)
        log_norm = -0.5 * (dim * math.log(2 * math.pi) + float(np.linalg.slogdet(cov)[1]))

        def gaussian(z: torch.Tensor) -> torch.Tensor:
            d = z - m
            return -0.5 * ((d @ prec) * d).sum(-1) + log_norm

        return Target("linear_gaussian", dim, gaussian,
                      lambda n, rng: rng.multivariate_normal(mean, cov, size=n), mean=mean, cov=cov)
    raise UserError(f"target: unknown built-in target {name!r}; choose from {', '.join(BUILTINS)}, "
                    "'bayes_logreg' (with data) or give log_density")


def logreg_target(x: np.ndarray, y: np.ndarray, prior_std: float, names: list[str] | None = None) -> Target:
    """Posterior of (intercept, weights) of a logistic regression on standardised inputs, N(0, prior_std²) prior."""
    xs = torch.as_tensor(x, dtype=torch.float32)
    ys = torch.as_tensor(y, dtype=torch.float32)

    def log_post(w: torch.Tensor) -> torch.Tensor:
        eta = w[..., :1] + w[..., 1:] @ xs.T
        loglik = (ys * eta - torch.nn.functional.softplus(eta)).sum(-1)
        return loglik - 0.5 * (w**2).sum(-1) / prior_std**2

    return Target("bayes_logreg", x.shape[1] + 1, log_post, normalised=False,
                  names=["intercept", *(names or [f"w{i + 1}" for i in range(x.shape[1])])])


def user_target(path: str, dim: int) -> Target:
    """``log_prob`` from the Python file ``path``, probed on a batch of standard-normal points."""
    file = Path(path)
    if file.suffix != ".py" or not file.is_file():
        raise UserError(f"log_density: {path!r} must be an existing .py file that defines log_prob(z)")
    spec = importlib.util.spec_from_file_location(f"cmbagent_user_density_{abs(hash(str(file)))}", file)
    if spec is None or spec.loader is None:
        raise UserError(f"log_density: cannot load {path!r} as a Python module")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's file failed to run: report it against the argument
        raise UserError(f"log_density: running {path!r} raised {type(exc).__name__}: {exc}") from exc
    fn = getattr(module, "log_prob", None)
    if not callable(fn):
        raise UserError(f"log_density: {path!r} defines no function log_prob(z: torch.Tensor) -> torch.Tensor")
    target = Target(f"log_prob from {file.name}", dim, fn, argument="log_density", normalised=False)
    probe = torch.randn(7, dim, generator=torch.Generator().manual_seed(0))
    evaluate(target, probe)
    return target


def evaluate(target: Target, z: torch.Tensor) -> torch.Tensor:
    """log p(z) for a batch, refusing a wrong shape or a non-finite value with the argument's name."""
    try:
        out = target.log_prob(z)
    except Exception as exc:  # a user's function failing on a batch is their mistake, said with its name
        raise UserError(f"{target.argument}: log_prob raised {type(exc).__name__} on a batch of shape "
                        f"{tuple(z.shape)}: {exc}") from exc
    if not isinstance(out, torch.Tensor):
        raise UserError(f"{target.argument}: log_prob must return a torch.Tensor, got {type(out).__name__}")
    if out.shape != z.shape[:1]:
        raise UserError(f"{target.argument}: log_prob must return shape ({z.shape[0]},) for a batch of shape "
                        f"{tuple(z.shape)} (one log density per row), got {tuple(out.shape)}")
    if not bool(torch.isfinite(out).all()):
        bad = int((~torch.isfinite(out)).nonzero()[0][0])
        raise UserError(f"{target.argument}: log_prob returned a non-finite value (NaN/inf) at "
                        f"z = {z[bad].detach().tolist()}; it must be finite wherever the density is positive")
    return out


def check_design(x: np.ndarray, y: np.ndarray, argument: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Standardised inputs of a logistic regression (returns inputs, their means and sds)."""
    if not np.isin(y, (0.0, 1.0)).all():
        raise DataError(f"{argument}: the target column of bayes_logreg must hold 0/1 labels")
    mean, std = x.mean(0), x.std(0)
    if (std == 0).any():
        raise DataError(f"{argument}: some input columns are constant; drop them")
    return (x - mean) / std, mean, std
