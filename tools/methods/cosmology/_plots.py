"""Figures: triangle plot of the posterior (GetDist) and a Hubble diagram with residuals.

The Hubble diagram drives matplotlib through ``Figure`` + the Agg canvas (no pyplot, no global backend
switch); GetDist draws with pyplot, so its figure is closed as soon as it is written.  Importing this module
costs nothing until a figure is drawn.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cmbagent.tools.methods.cosmology._likelihood import LABELS, SNLikelihood

__all__ = ["corner_plot", "getdist_samples", "hubble_diagram"]


def corner_plot(
    samples: NDArray[np.float64],
    names: Sequence[str],
    path: Path,
    *,
    truths: Sequence[float] | None = None,
    weights: NDArray[np.float64] | None = None,
    labels: dict[str, str] | None = None,
) -> Path:
    """Triangle plot (1D marginals and 2D 68%/95% contours) written to ``path``, drawn by GetDist.

    GetDist (Lewis 2019, arXiv:1910.13970) estimates the densities with boundary-corrected kernels whose width
    it chooses from the chain's effective sample size and correlation, the same estimates as Planck's and
    Cobaya's figures; the contours enclose 68% and 95% of the (weighted) samples.  ``truths`` are marked in
    red (the best fit, in our fits).
    """
    from getdist import plots
    from matplotlib import MatplotlibDeprecationWarning
    from matplotlib import pyplot as plt

    names = list(names)
    chain = getdist_samples(samples, names, weights=weights, labels=labels)
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        # GetDist 1.7's tick locator reads a matplotlib attribute deprecated in 3.11: its noise, not ours
        warnings.simplefilter("ignore", MatplotlibDeprecationWarning)
        plotter = plots.get_subplot_plotter(width_inch=max(3.5, 2.2 * len(names)))
        plotter.settings.title_limit = 1  # 68% limits above each 1D panel
        markers = dict(zip(names, truths, strict=True)) if truths is not None else None
        try:
            plotter.triangle_plot(chain, names, filled=True, markers=markers, marker_args={"color": "tab:red"})
            plotter.export(str(path), dpi=110)
        finally:
            plt.close(plotter.fig)
    return path


def getdist_samples(samples: NDArray[np.float64] | list[NDArray[np.float64]], names: Sequence[str], *,
                    weights: NDArray[np.float64] | list[NDArray[np.float64]] | None = None,
                    labels: dict[str, str] | None = None) -> Any:
    """A GetDist ``MCSamples`` of (weighted) samples whose burn-in has already been removed; a list of arrays
    is several chains (for GetDist's R-1 between them)."""
    from getdist import MCSamples

    names = list(names)
    text = {n: (labels or {}).get(n, LABELS.get(n, n)).strip("$") for n in names}
    data: Any = [np.asarray(c, dtype=float) for c in samples] if isinstance(samples, list) else \
        np.asarray(samples, dtype=float)
    # GetDist splits combined chains with their log-likelihoods; ours are not needed, zeros stand in
    loglikes: Any = [np.zeros(len(c)) for c in data] if isinstance(data, list) else np.zeros(len(data))
    with contextlib.redirect_stdout(io.StringIO()):  # GetDist prints "Removed no burn in"
        return MCSamples(samples=data, weights=weights, loglikes=loglikes, names=names,
                         labels=[text[n] for n in names], sampler="mcmc", ignore_rows=0,
                         settings={"smooth_scale_2D": 0.3, "smooth_scale_1D": 0.3})


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
