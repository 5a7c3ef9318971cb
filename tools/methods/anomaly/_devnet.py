"""A DevNet-style deviation network (Pang, Shen, van den Hengel, KDD 2019), the weakly supervised baseline.

A small network maps each row to a scalar score. Scores of normal data are pulled towards a Gaussian
prior N(0, 1) through the *deviation* ``(phi(x) - mean(r)) / std(r)`` of ``r`` drawn from that prior:
unlabeled rows (mostly normal) are penalised by ``|dev|`` and labeled anomalies by ``max(0, a - dev)``,
so anomalies must deviate by at least ``a`` standard deviations. Batches are balanced (half labeled
anomalies) because the labeled anomalies are so few.

The defaults are the original paper's "shallow" DevNet (one hidden layer of 20, RMSprop, 50 epochs of 20
batches of 512). The WSAD-DT paper compared against deepod's DevNet instead (hidden 100-50 without bias,
Adam, 100 epochs of batch 64); on the ADBench protocol with 10 labeled anomalies (seeds 1-3) that one
scored mean AUC-PR 0.858 / 0.907 / 0.532 on cardio / thyroid / satellite, these defaults 0.760 / 0.929 /
0.751: neither configuration is uniformly the weaker baseline.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods.anomaly._io import check_features
from cmbagent.tools.methods.anomaly._wsad import pick_device

__all__ = ["DevNet"]


class DevNet:
    """Deviation network for weakly supervised anomaly detection (scikit-learn conventions).

    Args:
        hidden: hidden layer widths (ReLU); DevNet's default "shallow" net has one layer of 20.
        epochs: training epochs.
        batches_per_epoch: balanced batches drawn per epoch.
        batch_size: rows per batch (half labeled anomalies).
        margin: the deviation ``a`` labeled anomalies must exceed.
        n_reference: draws from the N(0, 1) prior per batch.
        learning_rate: RMSprop learning rate.
        weight_decay: L2 penalty.
        device: ``"auto"``, ``"cpu"`` or ``"cuda"``.
        n_threads: torch CPU threads during fit; ``None`` keeps torch's setting.
        random_state: seed.
    """

    def __init__(
        self,
        *,
        hidden: tuple[int, ...] = (20,),
        epochs: int = 50,
        batches_per_epoch: int = 20,
        batch_size: int = 512,
        margin: float = 5.0,
        n_reference: int = 5000,
        learning_rate: float = 1e-3,
        weight_decay: float = 1e-2,
        device: str = "auto",
        n_threads: int | None = None,
        random_state: int | None = 0,
    ) -> None:
        self.hidden = hidden
        self.epochs = epochs
        self.batches_per_epoch = batches_per_epoch
        self.batch_size = batch_size
        self.margin = margin
        self.n_reference = n_reference
        self.learning_rate = learning_rate
        self.weight_decay = weight_decay
        self.device = device
        self.n_threads = n_threads
        self.random_state = random_state

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.__init__.__kwdefaults__}  # type: ignore[misc]

    def fit(self, X: Any, y: Any) -> DevNet:
        """Train on ``X`` with partial labels ``y`` (1 = labeled anomaly, 0 = unlabeled)."""
        import torch

        if self.epochs < 1 or self.batch_size < 2 or self.batches_per_epoch < 1:
            raise UserError("DevNet: epochs, batches_per_epoch >= 1 and batch_size >= 2 are required")
        X = check_features(X)
        y = np.asarray(y).ravel().astype(int)
        if y.shape[0] != X.shape[0]:
            raise DataError(f"X has {X.shape[0]} rows but y has {y.shape[0]}")
        anomalies, unlabeled = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
        if anomalies.size == 0 or unlabeled.size == 0:
            raise DataError("DevNet needs at least one labeled anomaly (y=1) and one unlabeled row (y=0)")
        old_threads = torch.get_num_threads()
        if self.n_threads is not None:
            torch.set_num_threads(int(self.n_threads))
        try:
            torch.manual_seed(int(np.random.default_rng(self.random_state).integers(2**31 - 1)))
            rng = np.random.default_rng(self.random_state)
            self.device_ = pick_device(self.device)
            self.n_features_in_ = X.shape[1]
            layers: list[Any] = []
            width = X.shape[1]
            for h in self.hidden:
                layers += [torch.nn.Linear(width, int(h)), torch.nn.ReLU()]
                width = int(h)
            layers.append(torch.nn.Linear(width, 1))
            self.network_ = torch.nn.Sequential(*layers).to(self.device_)
            optimizer = torch.optim.RMSprop(
                self.network_.parameters(), lr=self.learning_rate, weight_decay=self.weight_decay
            )
            Xt = torch.as_tensor(X, dtype=torch.float32, device=self.device_)
            half = self.batch_size // 2
            labels = torch.cat([torch.zeros(half), torch.ones(half)]).to(self.device_)
            for _ in range(self.epochs * self.batches_per_epoch):
                rows = np.concatenate([rng.choice(unlabeled, half), rng.choice(anomalies, half)])
                score = self.network_(Xt[torch.as_tensor(rows, device=self.device_)]).squeeze(1)
                ref = torch.randn(self.n_reference, device=self.device_)
                dev = (score - ref.mean()) / ref.std()
                loss = ((1 - labels) * dev.abs() + labels * torch.clamp(self.margin - dev, min=0)).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        finally:
            torch.set_num_threads(old_threads)
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """The learned anomaly score (higher = more anomalous)."""
        import torch

        if not hasattr(self, "network_"):
            raise UserError("this DevNet instance is not fitted yet; call fit(X, y) first")
        X = check_features(X)
        with torch.no_grad():
            out = self.network_(torch.as_tensor(X, dtype=torch.float32, device=self.device_)).squeeze(1)
        return out.cpu().numpy().astype(np.float64)

    def predict(self, X: Any) -> np.ndarray:
        """1 where the deviation exceeds the margin's midpoint (score > margin / 2)."""
        return (self.decision_function(X) > self.margin / 2).astype(int)
