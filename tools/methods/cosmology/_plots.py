"""Figures: corner plot of the posterior and a Hubble diagram with residuals.

Matplotlib is driven through ``Figure`` + the Agg canvas (no pyplot, no global backend switch), so the
figures render the same in a headless kernel, a test worker or a notebook, and importing this module
costs nothing until a figure is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from cmbagent.tools.methods.cosmology._likelihood import LABELS, SNLikelihood

__all__ = ["corner_plot", "hubble_diagram"]


def corner_plot(
    samples: NDArray[np.float64],
    names: Sequence[str],
    path: Path,
    *,
    truths: Sequence[float] | None = None,
    weights: NDArray[np.float64] | None = None,
) -> Path:
    """Corner plot (1D and 2D marginals with 68%/95% contours) written to ``path``."""
    import corner
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    k = len(names)
    size = max(3.0, 2.4 * k)
    fig = Figure(figsize=(size, size))
    FigureCanvasAgg(fig)
    fig.subplots(k, k, squeeze=False)
    corner.corner(
        np.asarray(samples), labels=[LABELS.get(n, n) for n in names], fig=fig, truths=truths if k > 1 else None, weights=weights,
        truth_color="tab:red", quantiles=[0.158655, 0.5, 0.841345], show_titles=True, title_fmt=".4f",
        levels=(1 - np.exp(-0.5), 1 - np.exp(-2.0)), plot_datapoints=False, fill_contours=True, smooth=1.0,
    )
    if truths is not None and k == 1:  # corner cannot overplot truths on a single panel
        fig.axes[0].axvline(truths[0], color="tab:red")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path


def hubble_diagram(likelihood: SNLikelihood, best_fit: NDArray[np.float64], path: Path, *, title: str = "") -> Path:
    """Observed distances with errors, the best-fit curve, and residuals (data - best fit) below."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    data = likelihood.data
    theta = np.atleast_2d(best_fit)
    prediction = likelihood.model_mu(data.z_cmb, theta, data.z_hel)[0]
    residual = data.obs - prediction
    z_curve = np.geomspace(max(float(data.z_cmb.min()) * 0.8, 1e-3), float(data.z_cmb.max()) * 1.1, 300)
    curve = likelihood.model_mu(z_curve, theta)[0]

    fig = Figure(figsize=(7.0, 6.0))
    FigureCanvasAgg(fig)
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": (3, 1), "hspace": 0.05})
    ylabel = r"$\mu$ [mag]" if data.kind == "mu" else r"$m_B$ (corrected) [mag]"
    style = {"fmt": ".", "ms": 3, "color": "0.25", "ecolor": "0.7", "elinewidth": 0.6, "alpha": 0.8}
    top.errorbar(data.z_cmb, data.obs, yerr=data.sigma, label=f"{data.n} SNe ({data.format})", **style)
    label = ", ".join(f"{n}={v:.3f}" for n, v in zip(likelihood.names, theta[0], strict=True))
    top.plot(z_curve, curve, color="tab:red", lw=1.5, label=f"best fit {likelihood.model.description}: {label}")
    top.set_xscale("log")
    top.set_ylabel(ylabel)
    top.legend(loc="upper left", fontsize=8)
    if title:
        top.set_title(title)
    bottom.errorbar(data.z_cmb, residual, yerr=data.sigma, **style)
    bottom.axhline(0.0, color="tab:red", lw=1.0)
    bottom.set_xscale("log")
    bottom.set_xlabel(r"redshift $z$")
    bottom.set_ylabel("residual [mag]")
    limit = float(np.nanpercentile(np.abs(residual), 99.5)) * 1.3 + 0.05
    bottom.set_ylim(-limit, limit)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    return path
