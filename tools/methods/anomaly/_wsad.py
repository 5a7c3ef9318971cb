"""The WSAD-DT estimator (:class:`WSADDT`) and the torch device choice it shares with DevNet: the model is
described in :mod:`cmbagent.tools.methods.anomaly.wsad_dt`, whose tool runs it through the protocol
(:mod:`cmbagent.tools.methods.anomaly._protocol`); both use it from here, so neither imports the other back.

torch is imported inside methods: the method registry imports this module and must stay light.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods.anomaly._io import check_features

__all__ = ["WSADDT", "pick_device"]


def pick_device(device: str | None = None) -> Any:
    """The torch device to train on: ``device`` if given, else CUDA when available, else CPU."""
    import torch

    if device is not None and device != "auto":
        try:
            return torch.device(device)
        except RuntimeError as exc:
            raise UserError(f"unknown torch device {device!r}; use 'cpu', 'cuda' or 'auto'") from exc
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class WSADDT:
    """Weakly supervised anomaly detector with dual-tailed kernels (scikit-learn conventions).

    Args:
        n_estimators: ensemble members; the unlabeled rows are split into this many disjoint parts.
        epochs: passes over the training set (each member draws ``n_rows / batch_size`` batches per epoch).
        batch_size: rows per batch and member. The reference uses 64; 256 takes a quarter of the
            steps for the same epochs and gave the same AUC-PR within seed noise on cardio and thyroid.
        hidden: widths of the encoder's hidden layers (bias-free linear + SELU).
        latent_dim: dimension of the latent space holding the centroids.
        alpha: Student-t degrees of freedom of the heavy-tailed kernel (small = heavy tails).
        gamma_normal: precision of the Gaussian in-class kernel of the normal centroid, ``exp(-gamma d^2)``.
        gamma_anomaly: precision of the Gaussian in-class kernel of the anomaly centroid.
        diversity_weight: weight of the within-class kernel diversity regulariser.
        diversity_sample: rows per class used for the regulariser in each batch.
        anomaly_share: expected fraction of labeled anomalies in a batch (weighted sampling, with
            replacement). ``None`` (default) uses the reference's weights, 2/n_unlabeled per unlabeled row
            and 1/n_anomalies per anomaly, i.e. a share of ``1 / (1 + 2 / n_estimators)`` (about 0.71 for 5
            members); a fixed 1/3 cost about 0.03 mean AUC-PR on cardio.
        learning_rate: Adam learning rate.
        weight_decay: Adam weight decay.
        learn_centroids: whether the centroids are trained with the encoder. Default ``False``, as in the
            reference: the centroids stay at their initial values and only the encoder moves.
        max_grad_norm: per-member gradient-norm clip.
        device: ``"auto"`` (CUDA if present), ``"cpu"`` or ``"cuda"``.
        n_threads: torch CPU threads during fit/predict; ``None`` keeps torch's setting.
        random_state: seed of every random choice (partition, init, batches).
    """

    def __init__(
        self,
        *,
        n_estimators: int = 5,
        epochs: int = 100,
        batch_size: int = 256,
        hidden: tuple[int, ...] = (100, 50),
        latent_dim: int = 128,
        alpha: float = 0.2,
        gamma_normal: float = 2.0,
        gamma_anomaly: float = 1.0,
        diversity_weight: float = 1.0,
        diversity_sample: int = 8,
        anomaly_share: float | None = None,
        learning_rate: float = 1e-3,
        weight_decay: float = 1e-5,
        learn_centroids: bool = False,
        max_grad_norm: float = 1.0,
        device: str = "auto",
        n_threads: int | None = None,
        random_state: int | None = 0,
    ) -> None:
        self.n_estimators = n_estimators
        self.epochs = epochs
        self.batch_size = batch_size
        self.hidden = hidden
        self.latent_dim = latent_dim
        self.alpha = alpha
        self.gamma_normal = gamma_normal
        self.gamma_anomaly = gamma_anomaly
        self.diversity_weight = diversity_weight
        self.diversity_sample = diversity_sample
        self.anomaly_share = anomaly_share
        self.learning_rate = learning_rate
        self.weight_decay = weight_decay
        self.learn_centroids = learn_centroids
        self.max_grad_norm = max_grad_norm
        self.device = device
        self.n_threads = n_threads
        self.random_state = random_state

    # ----------------------------------------------------------------- scikit-learn plumbing
    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.__init__.__kwdefaults__}  # type: ignore[misc]

    def set_params(self, **params: Any) -> WSADDT:
        for key, value in params.items():
            if key not in self.__init__.__kwdefaults__:  # type: ignore[misc]
                raise UserError(f"WSADDT has no parameter {key!r}; valid: {sorted(self.get_params())}")
            setattr(self, key, value)
        return self

    def _validate_params(self) -> None:
        positive_ints = {
            "n_estimators": self.n_estimators,
            "epochs": self.epochs,
            "batch_size": self.batch_size,
            "latent_dim": self.latent_dim,
            "diversity_sample": self.diversity_sample,
        }
        for key, value in positive_ints.items():
            if not isinstance(value, (int, np.integer)) or value < 1:
                raise UserError(f"WSADDT: {key} must be a positive integer, got {value!r}")
        for key in ("alpha", "gamma_normal", "gamma_anomaly", "learning_rate", "max_grad_norm"):
            if not getattr(self, key) > 0:
                raise UserError(f"WSADDT: {key} must be > 0, got {getattr(self, key)!r}")
        if self.anomaly_share is not None and not 0.0 < self.anomaly_share < 1.0:
            raise UserError(f"WSADDT: anomaly_share must lie in (0, 1), got {self.anomaly_share!r}")
        if self.diversity_weight < 0 or self.weight_decay < 0:
            raise UserError("WSADDT: diversity_weight and weight_decay must be >= 0")
        if any(int(h) < 1 for h in self.hidden):
            raise UserError(f"WSADDT: hidden widths must be positive, got {self.hidden!r}")

    # ----------------------------------------------------------------- fit
    def fit(self, X: Any, y: Any) -> WSADDT:
        """Train on ``X`` with partial labels ``y`` (1 = labeled anomaly, 0 = unlabeled/normal)."""
        import torch

        self._validate_params()
        X = check_features(X)
        y = np.asarray(y).ravel()
        if y.shape[0] != X.shape[0]:
            raise DataError(f"X has {X.shape[0]} rows but y has {y.shape[0]}; pass one label per row")
        if not np.isin(y, (0, 1)).all():
            raise DataError("y must hold 0 (unlabeled or normal) and 1 (labeled anomaly) only")
        y = y.astype(int)
        n_anomalies = int(y.sum())
        if n_anomalies == 0:
            raise DataError(
                "no anomalies are labeled (y has no 1s); WSAD-DT needs at least one labeled anomaly -- "
                "label some, or pseudo-label the top scores of an unsupervised detector"
            )
        if n_anomalies == y.size:
            raise DataError("every row is labeled as an anomaly; WSAD-DT needs unlabeled/normal rows too")
        n_unlabeled = int((y == 0).sum())
        if n_unlabeled < self.n_estimators:
            raise DataError(
                f"only {n_unlabeled} unlabeled rows for {self.n_estimators} ensemble members; lower n_estimators"
            )

        self.device_ = pick_device(self.device)
        self.n_features_in_ = X.shape[1]
        old_threads = torch.get_num_threads()
        if self.n_threads is not None:
            torch.set_num_threads(int(self.n_threads))
        try:
            self._fit(X, y)
        finally:
            torch.set_num_threads(old_threads)
        return self

    def _fit(self, X: np.ndarray, y: np.ndarray) -> None:
        import torch

        rng = np.random.default_rng(self.random_state)
        gen = torch.Generator(device="cpu").manual_seed(int(rng.integers(2**31 - 1)))
        device = self.device_
        K = int(self.n_estimators)

        # Partition the unlabeled rows; every member gets all labeled anomalies.
        unlabeled = rng.permutation(np.flatnonzero(y == 0))
        anomalies = np.flatnonzero(y == 1)
        parts = np.array_split(unlabeled, K)
        pool = max(len(p) for p in parts) + len(anomalies)
        index = np.zeros((K, pool), dtype=np.int64)
        weight = np.zeros((K, pool), dtype=np.float64)
        for k, part in enumerate(parts):
            members = np.concatenate([part, anomalies])
            index[k, : len(members)] = members
            if self.anomaly_share is None:  # the reference's weights: 2/n_unlabeled per unlabeled row,
                # 1/n_anomalies per anomaly, so a member sees anomalies 1 / (1 + 2 |part| / n_unlabeled) of the time
                weight[k, : len(part)] = 2.0 / len(unlabeled)
                weight[k, len(part) : len(members)] = 1.0 / len(anomalies)
            else:
                weight[k, : len(part)] = (1.0 - self.anomaly_share) / len(part)
                weight[k, len(part) : len(members)] = self.anomaly_share / len(anomalies)

        Xt = torch.as_tensor(X, dtype=torch.float32, device=device)
        yt = torch.as_tensor(y, dtype=torch.long, device=device)
        index_t = torch.as_tensor(index, device=device)
        weight_t = torch.as_tensor(weight, dtype=torch.float32)

        # Batched encoder weights: layer l has shape (K, fan_in, fan_out), PyTorch's Linear init.
        sizes = [X.shape[1], *[int(h) for h in self.hidden], int(self.latent_dim)]
        weights = []
        for fan_in, fan_out in itertools.pairwise(sizes):
            bound = 1.0 / math.sqrt(fan_in)
            w = (torch.rand(K, fan_in, fan_out, generator=gen) * 2 - 1) * bound
            weights.append(w.to(device).requires_grad_(True))
        self.weights_ = weights

        # Centroids at the class means of the untrained encoder, pushed away from 0 per coordinate.
        with torch.no_grad():
            centres = []
            for k, part in enumerate(parts):
                z = self._encode_member(Xt[torch.as_tensor(part, device=device)], k)
                za = self._encode_member(Xt[torch.as_tensor(anomalies, device=device)], k)
                centres.append(torch.stack([z.mean(0), za.mean(0)]))
            c = torch.stack(centres)  # (K, 2, latent)
            small = c.abs() < 0.1
            c = torch.where(small, torch.where(c < 0, -0.1, 0.1), c)
        self.centroids_ = c.clone().requires_grad_(self.learn_centroids)
        params = [*weights] + ([self.centroids_] if self.learn_centroids else [])
        optimizer = torch.optim.Adam(params, lr=self.learning_rate, weight_decay=self.weight_decay)

        B = int(self.batch_size)
        per_epoch = max(1, math.ceil(X.shape[0] / B))
        steps = per_epoch * int(self.epochs)
        self.loss_curve_: list[float] = []
        epoch_loss = 0.0
        for step in range(steps):
            if step % per_epoch == 0:  # draw a whole epoch of batches at once: one call, not one per step
                draws = torch.multinomial(weight_t, B * per_epoch, replacement=True, generator=gen).to(device)
                epoch_rows = torch.gather(index_t, 1, draws).view(K, per_epoch, B)
            rows = epoch_rows[:, step % per_epoch]  # (K, B)
            xb, yb = Xt[rows], yt[rows]
            z = self._encode(xb)
            loss = self._loss(z, yb, gen)
            optimizer.zero_grad()
            loss.sum().backward()
            self._clip(params)
            optimizer.step()
            epoch_loss = epoch_loss + loss.detach().mean()
            if (step + 1) % per_epoch == 0:
                self.loss_curve_.append(float(epoch_loss) / per_epoch)
                epoch_loss = 0.0
        for w in self.weights_:
            w.requires_grad_(False)
        self.centroids_.requires_grad_(False)

    def _encode(self, x: Any) -> Any:
        """Batched encoder: ``x`` (K, n, d) -> (K, n, latent)."""
        import torch

        h = x
        for i, w in enumerate(self.weights_):
            h = torch.bmm(h, w)
            if i < len(self.weights_) - 1:
                h = torch.nn.functional.selu(h)
        return h

    def _encode_member(self, x: Any, k: int) -> Any:
        import torch

        h = x
        for i, w in enumerate(self.weights_):
            h = h @ w[k]
            if i < len(self.weights_) - 1:
                h = torch.nn.functional.selu(h)
        return h

    def _student_t(self, d2: Any) -> Any:
        return (1.0 + d2 / self.alpha) ** (-(self.alpha + 1.0) / 2.0)

    def _loss(self, z: Any, yb: Any, gen: Any) -> Any:
        """Per-member loss, shape (K,)."""
        import torch

        eps = 1e-6
        c = self.centroids_
        d2n = ((z - c[:, 0:1, :]) ** 2).sum(-1)  # (K, B)
        d2a = ((z - c[:, 1:2, :]) ** 2).sum(-1)
        is_anom = yb == 1
        # In-class: light-tailed Gaussian; out-of-class: heavy-tailed Student-t.
        kn = torch.where(is_anom, self._student_t(d2n), torch.exp(-self.gamma_normal * d2n))
        ka = torch.where(is_anom, torch.exp(-self.gamma_anomaly * d2a), self._student_t(d2a))
        total = kn + ka + eps
        qn = (kn / total).clamp(eps, 1 - eps)
        qa = (ka / total).clamp(eps, 1 - eps)
        own = torch.where(is_anom, qa, qn)
        other = torch.where(is_anom, qn, qa)
        per_point = -torch.log(own) - torch.log(1 - other)
        fa = is_anom.float()
        fn = 1.0 - fa
        # Each class's mean loss, weighted equally (a class absent from the batch contributes 0).
        loss_n = (per_point * fn).sum(1) / fn.sum(1).clamp(min=1.0)
        loss_a = (per_point * fa).sum(1) / fa.sum(1).clamp(min=1.0)
        loss = loss_n + loss_a
        if self.diversity_weight > 0:
            loss = loss + self.diversity_weight * (
                self._diversity(z, fn, 2.0 * 0.1**2, gen) + self._diversity(z, fa, 2.0, gen)
            )
        return loss

    def _diversity(self, z: Any, mask: Any, two_sigma2: float, gen: Any) -> Any:
        """Mean off-diagonal Gaussian similarity among a few random rows of one class, per member.

        Exact duplicates (the same labeled anomaly drawn twice) are excluded: their similarity is 1 by
        construction and says nothing about collapse.
        """
        import torch

        m = int(self.diversity_sample)
        noise = torch.rand(mask.shape, generator=gen).to(z.device)
        order = torch.argsort(noise - 2.0 * mask, dim=1)[:, :m]  # class rows first, random order
        chosen = torch.gather(mask, 1, order)  # 1 where the pick really is of this class
        zs = torch.gather(z, 1, order.unsqueeze(-1).expand(-1, -1, z.shape[-1]))
        d2 = ((zs.unsqueeze(2) - zs.unsqueeze(1)) ** 2).sum(
            -1
        )  # (K, m, m); cheaper to differentiate than cdist
        valid = (d2 > 1e-12) & (chosen.unsqueeze(1) * chosen.unsqueeze(2) > 0)
        valid = valid & ~torch.eye(zs.shape[1], dtype=torch.bool, device=z.device)
        k = torch.exp(-d2 / two_sigma2) * valid
        return k.sum((1, 2)) / valid.sum((1, 2)).clamp(min=1)

    def _clip(self, params: list[Any]) -> None:
        """Clip each member's gradient norm separately (as if members were trained apart)."""
        import torch

        with torch.no_grad():
            sq = sum((p.grad.reshape(p.shape[0], -1) ** 2).sum(1) for p in params if p.grad is not None)
            scale = (self.max_grad_norm / (sq.sqrt() + 1e-6)).clamp(max=1.0)
            for p in params:
                if p.grad is not None:
                    p.grad.mul_(scale.view(-1, *([1] * (p.dim() - 1))))

    # ----------------------------------------------------------------- predict
    def _check_fitted(self) -> None:
        if not hasattr(self, "weights_"):
            raise UserError("this WSADDT instance is not fitted yet; call fit(X, y) first")

    def member_scores(self, X: Any) -> np.ndarray:
        """Anomaly score of every member, shape (n_estimators, n_rows)."""
        import torch

        self._check_fitted()
        X = check_features(X)
        if X.shape[1] != self.n_features_in_:
            raise DataError(f"X has {X.shape[1]} features but the model was fitted on {self.n_features_in_}")
        old_threads = torch.get_num_threads()
        if self.n_threads is not None:
            torch.set_num_threads(int(self.n_threads))
        try:
            out = []
            with torch.no_grad():
                for start in range(0, X.shape[0], 8192):
                    xb = torch.as_tensor(X[start : start + 8192], dtype=torch.float32, device=self.device_)
                    z = self._encode(xb.unsqueeze(0).expand(len(self.centroids_), -1, -1))
                    c = self.centroids_
                    pn = self._student_t(((z - c[:, 0:1, :]) ** 2).sum(-1))
                    pa = self._student_t(((z - c[:, 1:2, :]) ** 2).sum(-1))
                    out.append((1.0 - pn / (pn + pa + 1e-12)).cpu().numpy())
        finally:
            torch.set_num_threads(old_threads)
        return np.concatenate(out, axis=1).astype(np.float64)

    def decision_function(self, X: Any) -> np.ndarray:
        """Anomaly score in [0, 1]: ``1 - q_normal`` averaged over the ensemble (higher = more anomalous)."""
        return self.member_scores(X).mean(axis=0)

    def predict(self, X: Any) -> np.ndarray:
        """1 where the ensemble puts the point nearer the anomaly centroid (score > 0.5), else 0."""
        return (self.decision_function(X) > 0.5).astype(int)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.get_params().items() if v != self.__init__.__kwdefaults__[k]}  # type: ignore[misc]
        return f"WSADDT({', '.join(f'{k}={v!r}' for k, v in changed.items())})"
