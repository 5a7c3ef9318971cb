"""Data for the plain-prose task tests, made here with fixed seeds (none of it is the examples' data).

* ``programme.csv`` — a job-training programme: 900 people, a 0/1 ``enrolled`` column chosen on observed
  background (age, years of schooling, marital status, no diploma, earnings in 2019 and 2020), earnings in
  2022 (``earn22``) raised by exactly 1,200 for the enrolled (no clipping, so the true average effect is 1,200).
* ``tutoring.csv`` — pupils offered tutoring (``tutored``) by their prior score; the maths score rises by 4.0.
* ``hubble_bins.csv`` + ``hubble_cov.txt`` — 24 binned distance moduli (z, mu, sigma) drawn from flat wCDM with
  Ω_m = 0.30, w = −0.85 and a covariance with a strongly correlated systematic part (the ``sigma`` column is
  the statistical error alone: a fit that ignores the covariance file is a different fit).
* ``few_bins.txt`` + ``few_bins_cov.txt`` — 10 binned moduli (z, mu) of a flat ΛCDM universe with their
  covariance: enough for w0, not for wa.
* ``wafers.csv`` — two classes of wafers (``defective``) in four measured features, for distances to a
  classifier's decision boundary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


def _mu(z: np.ndarray, omega_m: float, w0: float = -1.0, wa: float = 0.0) -> np.ndarray:
    from astropy.cosmology import Flatw0waCDM

    return np.asarray(Flatw0waCDM(H0=70.0, Om0=omega_m, w0=w0, wa=wa, Tcmb0=0.0).distmod(z).value)


def programme(folder: Path) -> Path:
    rng = np.random.default_rng(11)
    n = 900
    age = rng.integers(18, 56, n)
    school = rng.integers(7, 18, n)
    married = rng.binomial(1, 0.35, n)
    nodiploma = (school < 12).astype(int)
    earn19 = np.round(np.maximum(0.0, rng.normal(9000, 5000, n)), 1)
    earn20 = np.round(np.maximum(0.0, 0.6 * earn19 + rng.normal(3000, 3000, n)), 1)
    logit = -0.3 + 0.03 * (30 - age) - 0.15 * (school - 12) - 0.00008 * (earn20 - 8000)
    enrolled = rng.binomial(1, 1 / (1 + np.exp(-logit)))
    earn22 = np.round(1200.0 * enrolled + 0.5 * earn20 + 300 * (school - 12) + 40 * (age - 35)
                      + 800 * married + rng.normal(8000, 2500, n), 1)
    header = "enrolled,age,school,married,nodiploma,earn19,earn20,earn22"
    rows = np.column_stack([enrolled, age, school, married, nodiploma, earn19, earn20, earn22])
    path = folder / "programme.csv"
    np.savetxt(path, rows, delimiter=",", header=header, comments="", fmt=["%d"] * 5 + ["%.1f"] * 3)
    return path


def tutoring(folder: Path) -> Path:
    rng = np.random.default_rng(12)
    n = 700
    prior = rng.normal(60, 12, n)
    girl = rng.binomial(1, 0.5, n)
    class_size = rng.integers(15, 34, n)
    tutored = rng.binomial(1, 1 / (1 + np.exp(0.08 * (prior - 55))))
    score = 4.0 * tutored + 0.8 * prior + 1.5 * girl - 0.2 * class_size + rng.normal(15, 6, n)
    path = folder / "tutoring.csv"
    rows = np.column_stack([np.arange(1, n + 1), tutored, np.round(prior, 1), girl, class_size, np.round(score, 2)])
    np.savetxt(path, rows, delimiter=",", header="pupil,tutored,prior_score,girl,class_size,maths_score",
               comments="", fmt=["%d", "%d", "%.1f", "%d", "%d", "%.2f"])
    return path


def hubble_bins(folder: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(13)
    z = np.round(np.geomspace(0.02, 1.4, 24), 4)
    sigma = np.full(z.size, 0.06)
    slope = 0.08 * np.log1p(z)  # a redshift-dependent systematic, correlated across bins
    cov = np.diag(sigma**2) + np.outer(slope, slope)
    mu = _mu(z, 0.30, w0=-0.85) + rng.multivariate_normal(np.zeros(z.size), cov)
    data = folder / "hubble_bins.csv"
    np.savetxt(data, np.column_stack([z, mu, sigma]), delimiter=",", header="z,mu,sigma", comments="",
               fmt="%.6f")
    cov_path = folder / "hubble_cov.txt"
    np.savetxt(cov_path, cov.ravel(), fmt="%.8e")
    return data, cov_path


def few_bins(folder: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(14)
    z = np.round(np.geomspace(0.05, 0.9, 10), 4)
    cov = np.diag(np.full(z.size, 0.05**2)) + 0.0004
    mu = _mu(z, 0.31) + rng.multivariate_normal(np.zeros(z.size), cov)
    data = folder / "few_bins.txt"
    np.savetxt(data, np.column_stack([z, mu]), fmt="%.6f")
    cov_path = folder / "few_bins_cov.txt"
    np.savetxt(cov_path, cov.ravel(), fmt="%.8e")
    return data, cov_path


def wafers(folder: Path) -> Path:
    rng = np.random.default_rng(15)
    n = 400
    defective = rng.binomial(1, 0.4, n)
    centre = np.where(defective[:, None] == 1, 0.9, -0.6)
    features = centre + rng.normal(0, 1.0, (n, 4))
    path = folder / "wafers.csv"
    np.savetxt(path, np.column_stack([np.round(features, 4), defective]), delimiter=",",
               header="thickness,resistivity,warp,haze,defective", comments="", fmt=["%.4f"] * 4 + ["%d"])
    return path


def write_csv(path: Path, header: str, rows: np.ndarray, fmt: str | list[str] = "%.4f") -> Path:
    """``rows`` written to ``path`` as a CSV table under ``header`` (no comment sign), each column in ``fmt``."""
    np.savetxt(path, rows, delimiter=",", header=header, comments="", fmt=fmt)
    return path


def moduli(folder: Path, name: str, *, seed: int, n: int, z_max: float, sigma: float, header: str,
           w0: float = -0.9) -> Path:
    """``n`` distance moduli of a flat universe with Ω_m = 0.3 and constant ``w0``, with errors ``sigma``: the
    columns z, mu and the error under ``header``'s names."""
    rng = np.random.default_rng(seed)
    z = np.sort(rng.uniform(0.02, z_max, n))
    mu = _mu(z, 0.3, w0=w0) + rng.normal(0, sigma, z.size)
    path = folder / name
    np.savetxt(path, np.column_stack([z, mu, np.full(z.size, sigma)]), delimiter=",", header=header, comments="",
               fmt="%.4f")
    return path


def orchard(folder: Path) -> Path:
    """Fruit set per orchard row: two inputs that matter, one that does not, and a row label."""
    rng = np.random.default_rng(16)
    n = 60
    chill = rng.uniform(400, 1200, n)
    bees = rng.uniform(0, 10, n)
    wind = rng.uniform(0, 30, n)
    fruit = 0.05 * chill + 3.0 * bees + rng.normal(0, 4, n)
    path = folder / "orchard.csv"
    np.savetxt(path, np.column_stack([np.arange(1, n + 1), np.round(chill, 1), np.round(bees, 2), np.round(wind, 1),
                                      np.round(fruit, 2)]),
               delimiter=",", header="row_id,chill_hours,hives_per_ha,wind_kmh,fruit_set", comments="",
               fmt=["%d", "%.1f", "%.2f", "%.1f", "%.2f"])
    return path


def ferry_panel(folder: Path) -> tuple[Path, Path]:
    """A two-round panel on a ferry timetable (design weights, answers) and a weighted reference sample."""
    rng = np.random.default_rng(17)
    n = 300
    rows = ["resp,year,dw,age_group,island,car_owner,favour_timetable,fare_fair"]
    for i in range(n):
        rows.append(",".join([f"R{i:04d}", str(2023 + i % 2), f"{rng.uniform(0.5, 2.0):.3f}",
                              str(rng.choice(["18-39", "40-64", "65+"])), str(rng.choice(["north", "south"])),
                              str(rng.choice(["yes", "no"])), str(rng.choice(["yes", "no", "unsure"])),
                              str(rng.choice(["agree", "disagree"]))]))
    panel = folder / "ferry_panel.csv"
    panel.write_text("\n".join(rows) + "\n")
    ref = ["age_group,island,car_owner,w_ref"]
    for _ in range(200):
        ref.append(",".join([str(rng.choice(["18-39", "40-64", "65+"])), str(rng.choice(["north", "south"])),
                             str(rng.choice(["yes", "no"])), f"{rng.uniform(0.5, 1.5):.3f}"]))
    reference = folder / "ferry_reference.csv"
    reference.write_text("\n".join(ref) + "\n")
    return panel, reference


def read_with(path: Path, text: str) -> Any:
    """The offline reading of ``text`` (no title) with the one data file ``path``, profiled as pre-flight does."""
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    return read_task(text=text, title="", data_files=[path.name], profiles=profile_inputs({path.name: path}))


def read_files(text: str, *files: Path) -> Any:
    """The offline reading of ``text`` (no title) with the data files ``files``, profiled as pre-flight does."""
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    return read_task(text=text, title="", data_files=[f.name for f in files],
                     profiles=profile_inputs({f.name: f for f in files}))


def read_text(text: str) -> Any:
    """The offline reading of ``text`` (no title) with no data file."""
    from cmbagent.agents import read_task

    return read_task(text=text, title="", data_files=[], profiles=[])


def asked(reading: Any) -> list[str]:
    """Everything a reading asks the user: missing arguments, questions and files it could not read."""
    understanding = reading.understanding
    return [*understanding.missing, *understanding.questions, *reading.unread]


def clear(reading: Any, method: str) -> dict[str, Any]:
    """The arguments of a reading that chose ``method`` and asks nothing (the assertions say what went wrong)."""
    assert reading.method == method, reading.choice
    assert not asked(reading), asked(reading)
    return dict(reading.understanding.arguments)
