"""Preference feedback: simulated labelers, likelihoods of pairwise and distinguishability answers, reward fits.

A *pairwise* query shows trajectories (a, b) and asks which is better.  A *distinguishability* query
(Feng et al., ICML 2025) shows two pairs (a, b) and (c, d): the labeler first says which pair is easier to
compare, then states a preference on that pair only.  With utilities R = Φθ (linear in the segments' summed
features) the answers have likelihoods

    P(a ≻ b)               = σ(R_a − R_b)                          (Bradley–Terry)
    P((a, b) easier)        = σ(|R_a − R_b| − |R_c − R_d|)           (increasing in the utility gap)
    P(preference | choice)  = Bradley–Terry on the chosen pair,

so the easiness answer compares utility *differences* (cardinal information that preferences alone only
give through their noise), and the preference is asked where it is most reliable.  θ is fitted by maximum
a-posteriori with a Gaussian prior (L-BFGS); a Laplace approximation gives the posterior that query
selection samples from.

The simulated labeler answers with the same functional forms in units of the pool's utility spread
(rationality β: P(correct) = σ(β·|Δu|/std u)) and, with probability ``mistake_rate``, at random.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, log_expit

__all__ = ["Answers", "Labeler", "LinearRewardModel", "select_distq", "select_pairwise"]

_EPS = 1e-2  # smoothing of |x| (utilities are O(1) in the model's units)


def _soft_abs(x: np.ndarray) -> np.ndarray:
    return np.sqrt(x * x + _EPS * _EPS)


@dataclass(frozen=True)
class Labeler:
    """A noisy simulated labeler; ``scale`` is the utility spread its rationality is measured in."""

    rationality: float = 3.0
    mistake_rate: float = 0.0
    scale: float = 1.0

    def _answer(self, margin: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        answer = rng.random(margin.shape) < expit(self.rationality * margin / self.scale)
        random = rng.random(margin.shape) < self.mistake_rate
        return np.where(random, rng.random(margin.shape) < 0.5, answer)

    def prefers_first(self, ua: np.ndarray, ub: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return self._answer(np.asarray(ua) - np.asarray(ub), rng)

    def first_pair_easier(self, gap1: np.ndarray, gap2: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return self._answer(np.abs(gap1) - np.abs(gap2), rng)


@dataclass
class Answers:
    """Answered queries. Pairwise rows: (a, b, y); distinguishability rows: (a, b, c, d, z, y).

    y = 1 when the first trajectory of the (chosen) pair is preferred; z = 1 when (a, b) was judged easier.
    """

    kind: str
    rows: list[tuple[int, ...]] = field(default_factory=list)

    def array(self) -> np.ndarray:
        width = 3 if self.kind == "pairwise" else 6
        return np.asarray(self.rows, dtype=np.int64).reshape(-1, width)

    def __len__(self) -> int:
        return len(self.rows)


class LinearRewardModel:
    """MAP fit of utilities R = Φθ to answered queries, with a Laplace posterior for query selection.

    Args:
        prior_precision: λ of the Gaussian prior θ ~ N(0, I/λ) (features are standardised).
    """

    def __init__(self, prior_precision: float = 0.1) -> None:
        self.prior_precision = prior_precision

    @staticmethod
    def _logistic_terms(theta: np.ndarray, phi: np.ndarray, data: np.ndarray,
                        kind: str) -> list[tuple[np.ndarray, np.ndarray]]:
        """The likelihood as a list of (x, m) with log-likelihood Σ log σ(m) and local gradient dm/dθ = x."""
        if len(data) == 0:
            return []
        utility = phi @ theta
        if kind == "pairwise":
            a, b, y = data.T
            sign = np.where(y > 0, 1.0, -1.0)
            return [(sign[:, None] * (phi[a] - phi[b]), sign * (utility[a] - utility[b]))]
        a, b, c, e, z, y = data.T
        sz = np.where(z > 0, 1.0, -1.0)
        g1, g2 = utility[a] - utility[b], utility[c] - utility[e]
        dx = (g1 / _soft_abs(g1))[:, None] * (phi[a] - phi[b]) - (g2 / _soft_abs(g2))[:, None] * (phi[c] - phi[e])
        first, second = np.where(z > 0, a, c), np.where(z > 0, b, e)
        sy = np.where(y > 0, 1.0, -1.0)
        return [(sz[:, None] * dx, sz * (_soft_abs(g1) - _soft_abs(g2))),
                (sy[:, None] * (phi[first] - phi[second]), sy * (utility[first] - utility[second]))]

    def _objective(self, theta: np.ndarray, phi: np.ndarray, data: np.ndarray, kind: str) -> tuple[float, np.ndarray]:
        nll = 0.5 * self.prior_precision * float(theta @ theta)
        grad = self.prior_precision * theta
        for x, margin in self._logistic_terms(theta, phi, data, kind):
            nll -= float(log_expit(margin).sum())
            grad = grad - x.T @ expit(-margin)
        return nll, grad

    def _precision(self, theta: np.ndarray, phi: np.ndarray, data: np.ndarray, kind: str) -> np.ndarray:
        """Prior precision plus the Gauss–Newton (Fisher) matrix of the likelihood at θ."""
        out = self.prior_precision * np.eye(phi.shape[1])
        for x, margin in self._logistic_terms(theta, phi, data, kind):
            p = expit(margin)
            out += (x * (p * (1 - p))[:, None]).T @ x
        return out

    def fit(self, phi: np.ndarray, answers: Answers, start: np.ndarray | None = None) -> LinearRewardModel:
        """MAP θ (``theta_``) and the Laplace covariance (``covariance_``) given the answers so far."""
        data = answers.array()
        x0 = np.zeros(phi.shape[1]) if start is None else start
        result = minimize(self._objective, x0, args=(phi, data, answers.kind), jac=True, method="L-BFGS-B",
                          options={"maxiter": 500})
        self.theta_ = result.x
        self.covariance_ = np.linalg.inv(self._precision(self.theta_, phi, data, answers.kind))
        self.converged_ = bool(result.success)
        return self

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """Posterior draws of θ (n × d) from the Laplace approximation."""
        chol = np.linalg.cholesky(self.covariance_ + 1e-12 * np.eye(len(self.theta_)))
        return self.theta_ + rng.normal(size=(n, len(self.theta_))) @ chol.T


def _entropy(p: np.ndarray, axis: int = -1) -> np.ndarray:
    p = np.clip(p, 1e-12, 1.0)
    return -(p * np.log(p)).sum(axis=axis)


def _pair_mutual_information(gaps: np.ndarray) -> np.ndarray:
    """BALD for a pairwise answer: H(E_θ p) − E_θ H(p), gaps C × K over posterior draws."""
    p = expit(gaps)
    mean = p.mean(axis=1)
    return _entropy(np.stack([mean, 1 - mean], -1)) - _entropy(np.stack([p, 1 - p], -1)).mean(axis=1)


def _candidate_pairs(n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    a = rng.integers(n, size=count)
    b = (a + 1 + rng.integers(n - 1, size=count)) % n
    return np.stack([a, b], axis=1)


def select_pairwise(phi: np.ndarray, draws: np.ndarray | None, count: int, rng: np.random.Generator, *,
                    candidates: int = 400) -> np.ndarray:
    """``count`` pairs: most informative (BALD) among random candidates, or random when ``draws`` is None."""
    pairs = _candidate_pairs(len(phi), candidates, rng)
    if draws is None:
        return pairs[:count]
    gaps = (phi[pairs[:, 0]] - phi[pairs[:, 1]]) @ draws.T
    return pairs[np.argsort(-_pair_mutual_information(gaps))[:count]]


def select_distq(phi: np.ndarray, draws: np.ndarray | None, count: int, rng: np.random.Generator, *,
                 easiness_weight: float, candidates: int = 400, shortlist: int = 40) -> np.ndarray:
    """``count`` distinguishability queries (rows a, b, c, d) trading informativeness against easiness.

    Informativeness is the mutual information between the four-way answer (which pair, which preference) and
    θ under the posterior draws; easiness is the expected probability that the labeler's preference on the pair
    it will choose is right, σ(max(|Δ₁|, |Δ₂|)).  The score is (1 − w)·MI/max MI + w·(2·easiness − 1).  Pairs
    are short-listed by the same trade-off first, then every two short-listed pairs form a candidate.
    """
    pairs = _candidate_pairs(len(phi), candidates, rng)
    if draws is None:
        return np.concatenate([pairs[:count], pairs[count:2 * count]], axis=1)
    gaps = (phi[pairs[:, 0]] - phi[pairs[:, 1]]) @ draws.T
    pair_mi = _pair_mutual_information(gaps)
    pair_score = ((1 - easiness_weight) * pair_mi / max(float(pair_mi.max()), 1e-12)
                  + easiness_weight * (2 * expit(np.abs(gaps)).mean(axis=1) - 1))
    short = np.argsort(-pair_score)[:shortlist]
    i, j = np.triu_indices(len(short), 1)
    g1, g2 = gaps[short[i]], gaps[short[j]]
    pz = expit(_soft_abs(g1) - _soft_abs(g2))
    p1, p2 = expit(g1), expit(g2)
    outcomes = np.stack([pz * p1, pz * (1 - p1), (1 - pz) * p2, (1 - pz) * (1 - p2)], axis=-1)  # C × K × 4
    mi = _entropy(outcomes.mean(axis=1)) - _entropy(outcomes).mean(axis=1)
    ease = expit(np.maximum(np.abs(g1), np.abs(g2))).mean(axis=1)
    score = (1 - easiness_weight) * mi / max(float(mi.max()), 1e-12) + easiness_weight * (2 * ease - 1)
    chosen: list[np.ndarray] = []
    used: set[int] = set()
    for k in np.argsort(-score):
        if len(chosen) == count:
            break
        if int(short[i[k]]) in used or int(short[j[k]]) in used:
            continue  # one pair per batch at most once, so a batch asks about different things
        used |= {int(short[i[k]]), int(short[j[k]])}
        chosen.append(np.concatenate([pairs[short[i[k]]], pairs[short[j[k]]]]))
    while len(chosen) < count:  # a tiny pool: fill with random pairs of pairs
        extra = _candidate_pairs(len(phi), 2, rng)
        chosen.append(extra.ravel())
    return np.asarray(chosen)
