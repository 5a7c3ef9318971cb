"""Generate every data file of the prose task set, deterministically.

Run ``python tests/understanding/make_data.py`` to rewrite ``tests/understanding/data/`` (or ``--out DIR`` to
write elsewhere; ``tests/understanding/test_set.py`` does that and compares checksums with the committed
files). Every table is simulated here with numpy/scipy only, from a fixed seed per file, so the truths the
manifest's answers rest on (a true average effect, the cosmology a supernova set was drawn from, a planted
proxy) are known; they are written to ``data/truths.json``. Numbers are written with fixed formats so that the
bytes do not depend on the platform.

Nothing here reuses the project's own code: distances are integrated with scipy, effects are drawn from
hand-written outcome models. The data differ on purpose from the examples' data (``examples/data/``).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy import integrate

HERE = Path(__file__).resolve().parent
C_KM_S = 299792.458

Truths = dict[str, float | int | list]
GENERATORS: list[Callable[[Path], tuple[str, Truths]]] = []


def generator(fn: Callable[[Path], tuple[str, Truths]]) -> Callable[[Path], tuple[str, Truths]]:
    GENERATORS.append(fn)
    return fn


def write_csv(path: Path, columns: dict[str, np.ndarray | list], fmt: dict[str, str] | None = None) -> None:
    """A CSV with a header; floats in the column's format (default 6 significant digits), ints as ints."""
    fmt = fmt or {}
    names = list(columns)
    n = len(columns[names[0]])
    with path.open("w", newline="") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow(names)
        for i in range(n):
            row = []
            for name in names:
                v = columns[name][i]
                if isinstance(v, str):
                    row.append(v)
                elif isinstance(v, (int, np.integer)):
                    row.append(str(int(v)))
                else:
                    row.append(format(float(v), fmt.get(name, ".6g")))
            out.writerow(row)


def save_npz(path: Path, **arrays: np.ndarray) -> None:
    """An uncompressed .npz like ``np.savez``, with fixed zip timestamps so that the bytes are reproducible."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, array in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(array), allow_pickle=False)
            zf.writestr(zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0)), buf.getvalue())


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


# ----------------------------------------------------------------------------------------------- supernovae


def comoving(z: float, om: float, ode: float, w0: float = -1.0, wa: float = 0.0) -> float:
    """Transverse comoving distance in units of c/H0 (curvature from 1 - om - ode)."""
    ok = 1.0 - om - ode

    def inv_e(x: float) -> float:
        de = ode * (1 + x) ** (3 * (1 + w0 + wa)) * np.exp(-3 * wa * x / (1 + x))
        return 1.0 / np.sqrt(om * (1 + x) ** 3 + ok * (1 + x) ** 2 + de)

    dc = integrate.quad(inv_e, 0.0, z, epsabs=1e-12, epsrel=1e-12)[0]
    if ok > 1e-12:
        return np.sinh(np.sqrt(ok) * dc) / np.sqrt(ok)
    if ok < -1e-12:
        return np.sin(np.sqrt(-ok) * dc) / np.sqrt(-ok)
    return dc


def distance_modulus(z: np.ndarray, h0: float, om: float, ode: float | None = None, w0: float = -1.0,
                     wa: float = 0.0) -> np.ndarray:
    ode = 1.0 - om if ode is None else ode
    dm = np.array([comoving(zi, om, ode, w0, wa) for zi in z]) * C_KM_S / h0
    return 5 * np.log10((1 + z) * dm) + 25


@generator
def sn_binned_with_systematics(out: Path) -> tuple[str, Truths]:
    """Issue case 3: 24 binned peak magnitudes (CosmoMC lcparam layout) and their systematic covariance."""
    rng = np.random.default_rng(303)
    z = np.round(np.geomspace(0.014, 1.6, 24), 4)
    om, w = 0.30, -0.90
    dmb = np.round(0.022 + 0.03 * (z / 1.6) + rng.uniform(0, 0.01, z.size), 4)
    low = (z < 0.1).astype(float)
    tilt = np.log1p(z) / np.log1p(z).max()
    sys = 0.04**2 * np.outer(low, low) + 0.08**2 * np.outer(tilt, tilt) + 0.01**2 * np.eye(z.size)
    sys = np.round(sys, 8)
    # the calibration modes are realised at +1 sigma (a fixed zero-point error between the low-z and the deep
    # samples and a redshift tilt), the rest is drawn: a fit that ignores the matrix is pulled by them
    shift = 0.04 * low + 0.08 * tilt + 0.01 * rng.standard_normal(z.size)
    mb = distance_modulus(z, 70.0, om, w0=w) - 19.3 + shift + dmb * rng.standard_normal(z.size)
    lines = ["#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec"]
    for i in range(z.size):
        lines.append(f"bin{i:02d} {z[i]:.4f} {z[i]:.4f} 0 {mb[i]:.4f} {dmb[i]:.4f} 0 0 0 0 0 0 0 0 0 0 0 0")
    (out / "binned_sn_mags.txt").write_text("\n".join(lines) + "\n")
    (out / "binned_sn_sys_cov.txt").write_text(f"{z.size}\n" + "".join(f"{v:.8e}\n" for v in sys.ravel()))
    return "sn_binned_with_systematics", {"Omega_m": om, "w": w}


def mu_table(path: Path, seed: int, n: int, zmax: float, sigma: float, h0: float, om: float, ode=None,
             w0=-1.0, wa=0.0, names=("z", "mu", "mu_err"), zmin: float = 0.02, offset: float = 0.0,
             binned: bool = False) -> None:
    rng = np.random.default_rng(seed)
    z = np.geomspace(zmin, zmax, n) if binned else np.sort(rng.uniform(zmin, zmax, n))
    z = np.round(z, 4)
    err = np.round(sigma * (0.8 + 0.4 * rng.uniform(size=n)) * (1 + 0.5 * z / zmax), 4)
    mu = distance_modulus(z, h0, om, ode, w0, wa) + offset + err * rng.standard_normal(n)
    write_csv(path, {names[0]: z, names[1]: mu, names[2]: err}, {names[0]: ".4f", names[1]: ".4f",
                                                                  names[2]: ".4f"})


@generator
def sn_tables(out: Path) -> tuple[str, Truths]:
    """Distance-modulus and magnitude tables for the other supernova tasks."""
    # issue case 4: few, noisy SNe; a Gaussian prior from another probe dominates
    mu_table(out / "deep_field_sne.csv", 404, 40, 0.9, 0.18, 70.0, 0.31, zmin=0.05)
    # issue case 5: a small binned set where wa cannot be constrained
    mu_table(out / "small_binned_mu.csv", 505, 12, 1.2, 0.05, 70.0, 0.30, binned=True)
    # H0 and Omega_m with the offset sampled (moduli computed for a fixed absolute magnitude)
    mu_table(out / "sn_distance_moduli.csv", 606, 220, 1.1, 0.15, 72.0, 0.27,
             names=("redshift", "distance_modulus", "sigma"))
    # peak magnitudes: flat LCDM
    mu_table(out / "sn_peak_mags.csv", 707, 300, 1.2, 0.14, 70.0, 0.33, names=("z", "mb", "dmb"), offset=-19.25)
    # curvature free
    mu_table(out / "sn_curvature.csv", 808, 450, 1.5, 0.13, 70.0, 0.28, ode=0.70)
    # two surveys for the ask task
    mu_table(out / "sn_survey_a.csv", 909, 90, 0.4, 0.15, 70.0, 0.30)
    mu_table(out / "sn_survey_b.csv", 910, 60, 1.3, 0.2, 70.0, 0.30, zmin=0.3)
    return "sn_tables", {"deep_field_Omega_m": 0.31, "small_binned": [0.30, -1.0, 0.0], "moduli_H0": 72.0,
                         "moduli_Omega_m": 0.27, "peak_mags_Omega_m": 0.33, "curvature": [0.28, 0.70]}


@generator
def chains(out: Path) -> tuple[str, Truths]:
    """Two MCMC chain files: CosmoSIS-style with weights and a drifting start; a plain gzip chain."""
    rng = np.random.default_rng(1001)
    n = 4000
    cov = np.array([[0.018**2, -0.8 * 0.018 * 0.07], [-0.8 * 0.018 * 0.07, 0.07**2]])
    draws = rng.multivariate_normal([0.315, -1.03], cov, n)
    ramp = np.clip(1 - np.arange(n) / 1200, 0, None)[:, None]  # the first 30% walk in from a bad start
    draws = draws + ramp * np.array([0.25, 0.6])
    weight = rng.integers(1, 5, n)
    like = -0.5 * np.einsum("ij,jk,ik->i", draws - [0.315, -1.03], np.linalg.inv(cov), draws - [0.315, -1.03])
    buf = io.StringIO()
    buf.write("#cosmological_parameters--omega_m\tcosmological_parameters--w\tweight\tlike\n")
    for i in range(n):
        buf.write(f"{draws[i, 0]:.6f}\t{draws[i, 1]:.6f}\t{weight[i]}\t{like[i]:.4f}\n")
    (out / "wcdm_chain.txt").write_text(buf.getvalue())

    rng = np.random.default_rng(1002)
    n = 5000
    mean = np.array([0.30, 0.81, 0.68])
    sd = np.array([0.02, 0.03, 0.015])
    corr = np.array([[1, -0.6, -0.3], [-0.6, 1, 0.1], [-0.3, 0.1, 1]])
    draws = rng.multivariate_normal(mean, corr * np.outer(sd, sd), n)
    draws[: n // 5] += np.linspace(1, 0, n // 5)[:, None] * [0.1, -0.2, 0.05]
    text = "# omega_m sigma_8 h\n" + "".join(f"{a:.6f} {b:.6f} {c:.6f}\n" for a, b, c in draws)
    with (out / "lensing_chain.txt.gz").open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                                           mtime=0) as gz:
        gz.write(text.encode())
    return "chains", {"wcdm_chain_burn": 1200, "lensing_chain_burn": 1000}


# --------------------------------------------------------------------------------------------------- causal


@generator
def job_training(out: Path) -> tuple[str, Truths]:
    """Issue case 1: a job-training programme, observational, selection on prior earnings."""
    rng = np.random.default_rng(101)
    n = 2500
    age = rng.integers(18, 56, n)
    school = np.clip(np.round(rng.normal(11, 2.2, n)), 4, 18).astype(int)
    married = rng.binomial(1, 0.35, n)
    no_degree = (school < 12).astype(int)
    black = rng.binomial(1, 0.3, n)
    base = np.exp(rng.normal(8.6, 0.6, n)) * (0.5 + 0.05 * (school - 4))
    earn_2y = np.round(np.where(rng.uniform(size=n) < 0.25, 0.0, base), 0)
    earn_1y = np.round(np.where(rng.uniform(size=n) < 0.25, 0.0, 0.8 * base * np.exp(rng.normal(0, 0.3, n))), 0)
    score = -0.4 - 0.00012 * earn_1y - 0.00005 * earn_2y + 0.6 * no_degree - 0.03 * (age - 30) + 0.4 * black
    trained = rng.binomial(1, np.clip(sigmoid(score), 0.03, 0.97))
    tau = 1400 + 220 * (school - 11) + 900 * no_degree - 0.05 * earn_1y
    y0 = 2500 + 0.65 * earn_1y + 0.2 * earn_2y + 350 * (school - 11) + 1500 * married - 40 * (age - 35) ** 2 / 10
    y0 = y0 + 6000 * np.tanh(earn_1y / 20000) + rng.normal(0, 2000, n)
    earn_after = np.round(np.maximum(y0 + trained * tau, 0.0), 0)
    write_csv(out / "training_programme.csv", {
        "age": age, "years_school": school, "black": black, "married": married, "no_degree": no_degree,
        "earnings_two_years_before": earn_2y, "earnings_year_before": earn_1y, "trained": trained,
        "earnings_after": earn_after}, {"earnings_two_years_before": ".0f", "earnings_year_before": ".0f",
                                        "earnings_after": ".0f"})
    # the effect on the outcome as written (floored at 0): the sample mean of y(1) - y(0)
    ate = float(np.mean(np.maximum(y0 + tau, 0) - np.maximum(y0, 0)))
    naive = float(earn_after[trained == 1].mean() - earn_after[trained == 0].mean())
    return "job_training", {"ate": round(ate, 2), "naive": round(naive, 2)}


@generator
def tutoring(out: Path) -> tuple[str, Truths]:
    """Issue case 2: small-group tutoring and an end-of-year maths score."""
    rng = np.random.default_rng(102)
    n = 1200
    prior = np.round(rng.normal(50, 12, n), 1)
    attend = np.round(np.clip(rng.beta(8, 1.5, n) * 100, 40, 100), 1)
    parent_degree = rng.binomial(1, 0.4, n)
    free_meals = rng.binomial(1, sigmoid(-0.5 - 1.2 * parent_degree), n)
    class_size = rng.integers(18, 33, n)
    year = rng.choice([7, 8, 9], n)
    p = sigmoid(-0.3 - 0.06 * (prior - 50) + 0.8 * free_meals - 0.02 * (attend - 85))
    tutored = rng.binomial(1, p)
    tau = 4.0 + 0.1 * (50 - prior) + rng.normal(0, 1.0, n)
    y0 = 20 + 0.75 * prior + 0.1 * (attend - 85) + 3 * parent_degree - 2 * free_meals - 0.2 * (class_size - 25)
    y0 = y0 + 4 * np.sin(prior / 8) + rng.normal(0, 6, n)
    score = np.round(y0 + tutored * tau, 1)
    write_csv(out / "tutoring.csv", {"pupil": np.arange(1, n + 1), "year_group": year, "prior_score": prior,
                                     "attendance_pct": attend, "parent_degree": parent_degree,
                                     "free_meals": free_meals, "class_size": class_size, "tutored": tutored,
                                     "maths_score": score})
    return "tutoring", {"ate": round(float(tau.mean()), 4)}


@generator
def coupons_with_embeddings(out: Path) -> tuple[str, Truths]:
    """A coupon's effect on spending; the confounders are seen only through a 24-d customer embedding."""
    rng = np.random.default_rng(103)
    n = 2000
    u = rng.normal(size=(n, 3))
    feats = np.concatenate([u, np.tanh(u), u[:, :1] * u[:, 1:2], np.sin(u)], axis=1)  # 10 nonlinear features
    mix = rng.normal(size=(feats.shape[1], 24)) / np.sqrt(feats.shape[1])
    rot = np.linalg.qr(rng.normal(size=(24, 24)))[0]
    emb = (feats @ mix @ rot + 0.05 * rng.normal(size=(n, 24))).astype(np.float32)
    coupon = rng.binomial(1, sigmoid(0.8 * u[:, 0] - 0.6 * u[:, 1]))
    tau = 12.0 + 3.0 * u[:, 2]
    spend = 60 + 20 * u[:, 0] + 12 * np.tanh(u[:, 1]) + 6 * u[:, 2] ** 2 + coupon * tau + rng.normal(0, 5, n)
    write_csv(out / "coupon_customers.csv", {"customer": np.arange(n), "coupon": coupon,
                                             "spend_next_month": np.round(spend, 2)})
    np.save(out / "customer_embeddings.npy", emb)
    return "coupons", {"ate": round(float(tau.mean()), 4)}


@generator
def nitrogen(out: Path) -> tuple[str, Truths]:
    """A continuous dose (nitrogen, kg/ha) with one constant marginal effect on yield."""
    rng = np.random.default_rng(104)
    n = 800
    ph = np.round(rng.normal(6.5, 0.5, n), 2)
    om = np.round(rng.gamma(4, 0.8, n), 2)
    rain = np.round(rng.normal(550, 90, n), 0)
    legume = rng.binomial(1, 0.3, n)
    dose = np.round(np.clip(120 - 25 * legume - 6 * (om - 3.2) + 0.05 * (rain - 550) + rng.normal(0, 25, n),
                            0, None), 1)
    theta = 0.021
    yld = 3 + theta * dose + 0.5 * np.sin(ph) + 0.3 * om + 0.002 * rain + 0.4 * legume + rng.normal(0, 0.45, n)
    write_csv(out / "nitrogen_trials.csv", {"plot": np.arange(1, n + 1), "soil_ph": ph, "organic_matter_pct": om,
                                            "rainfall_mm": rain, "previous_legume": legume,
                                            "nitrogen_kg_ha": dose, "yield_t_ha": np.round(yld, 3)})
    return "nitrogen", {"theta": theta}


SEVERITY_WORDS = {
    0: ["mild cough, otherwise well", "slight fever, eating normally", "minor symptoms, walking in"],
    1: ["moderate fever and fatigue", "persistent cough with some breathlessness", "feverish, tired for days"],
    2: ["severe breathlessness, low oxygen", "very unwell, high fever and confusion", "critical, struggling to breathe"],
}


@generator
def clinic_notes(out: Path) -> tuple[str, Truths]:
    """A drug's effect on recovery time; severity is written only in the admission note."""
    rng = np.random.default_rng(105)
    n = 600
    sev = rng.choice(3, n, p=[0.45, 0.35, 0.2])
    extra = ["", " Lives alone.", " Smoker.", " No allergies.", " Travelled recently."]
    notes = [rng.choice(SEVERITY_WORDS[s]) + str(rng.choice(extra)) for s in sev]
    drug = rng.binomial(1, np.array([0.25, 0.5, 0.8])[sev])
    tau = -np.array([1.0, 2.0, 3.5])[sev]
    days = np.round(np.maximum(4 + 4 * sev + drug * tau + rng.normal(0, 1.5, n), 0.5), 1)
    write_csv(out / "ward_admissions.csv", {"admission_note": notes, "new_drug": drug, "recovery_days": days})
    return "clinic_notes", {"ate": round(float(tau.mean()), 4)}


@generator
def wellbeing(out: Path) -> tuple[str, Truths]:
    """Ask task: three outcome columns and no word saying which one the question is about."""
    rng = np.random.default_rng(106)
    n = 600
    age = rng.integers(22, 64, n)
    shift = rng.binomial(1, 0.3, n)
    baseline = np.round(rng.normal(20, 6, n), 1)
    enrolled = rng.binomial(1, sigmoid(0.05 * (baseline - 20) - 0.5 * shift))
    stress = np.round(baseline - 2.5 * enrolled + rng.normal(0, 4, n), 1)
    sleep = np.round(6.8 + 0.3 * enrolled - 0.4 * shift + rng.normal(0, 0.6, n), 2)
    absences = rng.poisson(np.exp(1.2 + 0.02 * (baseline - 20) - 0.2 * enrolled))
    write_csv(out / "wellbeing_programme.csv", {"age": age, "night_shift": shift, "baseline_stress": baseline,
                                                "enrolled": enrolled, "stress_6m": stress, "sleep_hours_6m": sleep,
                                                "sick_days_6m": absences})
    return "wellbeing", {}


@generator
def reminder_letters(out: Path) -> tuple[str, Truths]:
    """Six randomised letter features shift uptake of a check-up; a confounder hides in uptake and outcome."""
    rng = np.random.default_rng(107)
    n = 1500
    x = np.round(rng.uniform(-1, 1, n), 4)
    z = rng.normal(size=(n, 6))
    hidden = rng.normal(size=n)
    uptake = 1.5 * np.tanh(z[:, 0] + z[:, 1] * z[:, 2]) + 0.8 * z[:, 3] + hidden + 0.3 * x
    a = (uptake + rng.logistic(size=n) * 0.5 > 0).astype(int)
    tau = 15 + 10 * x  # on the 0-100 scale
    y = np.clip(40 + 8 * x + 6 * hidden + a * tau + rng.normal(0, 4, n), 0, 100)
    cols = {"age_std": x} | {f"letter_f{j}": np.round(z[:, j], 4) for j in range(6)}
    cols |= {"attended_checkup": a, "wellbeing_score": np.round(y, 1), "true_effect": np.round(tau, 4)}
    write_csv(out / "reminder_letters.csv", cols)
    return "reminder_letters", {"support": [0, 100], "observed": [float(y.min().round(1)), float(y.max().round(1))]}


@generator
def commute(out: Path) -> tuple[str, Truths]:
    """Binary outcome; the instrument is a 12-d array in its own file."""
    rng = np.random.default_rng(108)
    n = 1200
    dist = np.round(rng.uniform(1, 30, n), 2)
    inst = rng.normal(size=(n, 12))
    hidden = rng.normal(size=n)
    p_pass = sigmoid(1.2 * inst[:, 0] - inst[:, 1] + 0.8 * np.tanh(inst[:, 2] * inst[:, 3]) + hidden - 0.03 * dist)
    a = rng.binomial(1, p_pass)
    base = sigmoid(0.5 - 0.04 * dist + 0.8 * hidden)
    lift = 0.15 + 0.005 * dist
    y = rng.binomial(1, np.clip(base + a * lift, 0, 1))
    nodes, weights = np.polynomial.hermite_e.hermegauss(40)  # E over the hidden confounder, exactly
    weights = weights / weights.sum()
    b = sigmoid(0.5 - 0.04 * dist[:, None] + 0.8 * nodes[None, :])
    cate = (np.clip(b + lift[:, None], 0, 1) - b) @ weights
    write_csv(out / "bus_pass_trial.csv", {"distance_km": dist, "bus_pass": a, "employed_12m": y,
                                           "cate_sim": np.round(cate, 4)})
    np.save(out / "bus_pass_instrument.npy", inst.astype(np.float32))
    return "commute", {}


@generator
def hiring(out: Path) -> tuple[str, Truths]:
    """A hiring screen with causal links experience -> training -> skill -> interview."""
    rng = np.random.default_rng(109)
    n = 500
    exp_ = np.round(rng.gamma(2.5, 2.0, n), 1)
    train = np.round(np.clip(20 + 4 * exp_ + rng.normal(0, 10, n), 0, None), 0)
    skill = np.round(40 + 0.3 * train + 1.5 * exp_ + rng.normal(0, 8, n), 1)
    interview = np.round(3 + 0.05 * skill + 0.1 * exp_ + rng.normal(0, 0.8, n), 2)
    hired = rng.binomial(1, sigmoid(-14 + 0.12 * skill + 1.2 * interview + 0.1 * exp_))
    write_csv(out / "hiring_screen.csv", {"experience_years": exp_, "training_hours": train, "skill_score": skill,
                                          "interview_score": interview, "hired": hired})
    return "hiring", {}


@generator
def credit(out: Path) -> tuple[str, Truths]:
    """Applicants for a fixed, stated scoring rule and structural model (no label needed)."""
    rng = np.random.default_rng(110)
    n = 40
    income = np.round(rng.normal(3.0, 1.0, n), 3)
    savings = np.round(0.5 * income + rng.normal(0, 0.8, n), 3)
    debt = np.round(0.3 * income - 0.4 * savings + rng.normal(0, 0.7, n) + 1.0, 3)
    write_csv(out / "applicants.csv", {"income": income, "savings": savings, "debt": debt})
    return "credit", {}


@generator
def dropout(out: Path) -> tuple[str, Truths]:
    """Predicted dropout risk and realised days absent (high is worse); predictor R^2 about 0.3."""
    rng = np.random.default_rng(111)
    n = 5000
    y = rng.normal(size=n)
    f = np.sqrt(0.3) * y + np.sqrt(0.7) * rng.normal(size=n)
    write_csv(out / "dropout_risk.csv", {"student": np.arange(n), "predicted_risk": np.round(50 + 10 * f, 3),
                                         "days_absent": np.round(30 + 8 * y, 2)})
    return "dropout", {"r2_population": 0.3}


# ----------------------------------------------------------------------------------- anomalies, robustness


@generator
def pumps(out: Path) -> tuple[str, Truths]:
    """Pump sensors with 4% faulty readings; a second table whose two flag columns leave the label open."""
    rng = np.random.default_rng(201)
    n = 2000
    faulty = (rng.uniform(size=n) < 0.04).astype(int)
    base = rng.multivariate_normal(np.zeros(8), 0.5 * np.eye(8) + 0.5, n)
    shift = rng.normal(0, 1, (n, 8)) * 2.5 + np.array([3, -2, 0, 2, 0, 0, -3, 1])
    x = base + faulty[:, None] * shift * (rng.uniform(size=(n, 8)) < 0.5)
    names = ["flow_lpm", "inlet_bar", "outlet_bar", "motor_temp_c", "vibration_rms", "current_a", "rpm",
             "bearing_temp_c"]
    scale = np.array([20, 0.3, 0.5, 4, 0.4, 1.5, 60, 3])
    loc = np.array([120, 1.2, 6.0, 55, 1.1, 14, 1450, 48])
    cols = {nm: np.round(loc[j] + scale[j] * x[:, j], 3) for j, nm in enumerate(names)}
    write_csv(out / "pump_sensors.csv", cols | {"faulty": faulty})
    serviced = np.where(faulty == 1, rng.binomial(1, 0.5, n), rng.binomial(1, 0.05, n))
    alarm = np.where(faulty == 1, rng.binomial(1, 0.7, n), rng.binomial(1, 0.03, n))
    cols2 = {nm: v[:1200] for nm, v in cols.items()} | {"alarm_raised": alarm[:1200], "serviced": serviced[:1200]}
    write_csv(out / "pump_log_2023.csv", cols2)
    return "pumps", {"faulty_share": round(float(faulty.mean()), 4)}


@generator
def intrusions(out: Path) -> tuple[str, Truths]:
    """Network flow features with rare intrusions, as an .npz of X and y."""
    rng = np.random.default_rng(202)
    n = 3000
    y = (rng.uniform(size=n) < 0.03).astype(np.int64)
    x = rng.standard_t(5, size=(n, 12)) + y[:, None] * rng.normal(2.0, 1.0, (n, 12)) * (rng.uniform(size=(n, 12)) < 0.4)
    save_npz(out / "netflow_intrusions.npz", X=x.round(4), y=y)
    return "intrusions", {}


@generator
def wafers(out: Path) -> tuple[str, Truths]:
    """Issue case 6: a linearly separable-ish inspection table with standardised features."""
    rng = np.random.default_rng(203)
    n = 1200
    x = rng.normal(size=(n, 6))
    w = np.array([1.2, -0.8, 0.5, 0.0, 0.9, -0.3])
    defect = (x @ w + 0.4 + rng.logistic(size=n) * 0.6 > 0).astype(int)
    names = ["line_width", "overlay_error", "film_thickness", "particle_count", "etch_depth", "resist_uniformity"]
    write_csv(out / "wafer_inspection.csv", {nm: np.round(x[:, j], 4) for j, nm in enumerate(names)} | {
        "defect": defect})
    return "wafers", {}


@generator
def exoplanets(out: Path) -> tuple[str, Truths]:
    """A nonlinear two-class problem: confirmed planets vs false positives."""
    rng = np.random.default_rng(204)
    n = 800
    depth = rng.lognormal(0, 0.8, n)
    snr = rng.lognormal(2.2, 0.5, n)
    odd_even = rng.normal(0, 1, n)
    sec = rng.exponential(0.3, n)
    score = 1.5 * np.log(snr) - 1.2 * sec - 0.8 * odd_even**2 - 0.4 * np.log(depth) ** 2 - 1.5
    confirmed = (score + rng.logistic(size=n) * 0.5 > 0).astype(int)
    write_csv(out / "transit_candidates.csv", {"log_depth_ppm": np.round(np.log(depth), 4),
                                               "log_snr": np.round(np.log(snr), 4), "odd_even_diff": np.round(odd_even, 4),
                                               "secondary_depth": np.round(sec, 4), "confirmed": confirmed})
    return "exoplanets", {}


@generator
def loans(out: Path) -> tuple[str, Truths]:
    """Loan default with an area-income feature and a near-copy of it (rho = 0.95)."""
    rng = np.random.default_rng(205)
    n = 1500
    area = rng.normal(size=n)
    proxy = 0.95 * area + np.sqrt(1 - 0.95**2) * rng.normal(size=n)
    dti = rng.normal(size=n)
    history = rng.normal(size=n)
    amount = rng.normal(size=n)
    default = rng.binomial(1, sigmoid(-1.0 - 1.3 * area + 0.8 * dti - 0.7 * history + 0.3 * amount))
    write_csv(out / "loan_book.csv", {"area_median_income": np.round(area, 4), "neighbourhood_wealth_index":
                                      np.round(proxy, 4), "debt_to_income": np.round(dti, 4),
                                      "credit_history_score": np.round(history, 4), "loan_amount": np.round(amount, 4),
                                      "defaulted": default})
    return "loans", {"proxy_rho": 0.95}


@generator
def sepsis(out: Path) -> tuple[str, Truths]:
    """A sepsis screen where lactate carries a modest, unduplicated share of the signal."""
    rng = np.random.default_rng(206)
    n = 1200
    x = rng.normal(size=(n, 5))
    y = rng.binomial(1, sigmoid(-1.2 + 1.4 * x[:, 0] + 1.0 * x[:, 1] + 0.5 * x[:, 2] + 0.8 * x[:, 3]))
    names = ["heart_rate", "resp_rate", "lactate", "temperature", "wbc_count"]
    write_csv(out / "sepsis_screen.csv", {nm: np.round(x[:, j], 4) for j, nm in enumerate(names)} | {"sepsis": y})
    return "sepsis", {}


# ----------------------------------------------------------------------------------------------------- bayes


@generator
def seedlings(out: Path) -> tuple[str, Truths]:
    rng = np.random.default_rng(301)
    n = 150
    moisture = np.round(rng.uniform(5, 40, n), 1)
    shade = np.round(rng.uniform(0, 90, n), 0)
    zm, zs = (moisture - moisture.mean()) / moisture.std(), (shade - shade.mean()) / shade.std()
    survived = rng.binomial(1, sigmoid(0.4 + 1.1 * zm - 0.7 * zs))
    write_csv(out / "seedling_survival.csv", {"soil_moisture_pct": moisture, "canopy_shade_pct": shade,
                                              "survived": survived})
    return "seedlings", {}


@generator
def small_regressions(out: Path) -> tuple[str, Truths]:
    rng = np.random.default_rng(302)
    n = 35
    temp = np.round(rng.uniform(24, 34, n), 2)
    zt = (temp - temp.mean()) / temp.std()
    growth = 0.6 + 0.9 * zt + rng.normal(0, 0.5, n)
    write_csv(out / "hatchling_growth.csv", {"incubation_temp_c": temp, "log_growth_rate": np.round(growth, 4)})
    mix = np.where(rng.uniform(size=50) < 0.5, rng.normal(-1.2, 1, 50), rng.normal(1.5, 1, 50))
    write_csv(out / "vole_log_mass.csv", {"log_mass_centred": np.round(mix, 4)})
    hours = np.round(rng.uniform(0, 10, 30), 2)
    height = np.round(1.0 + 0.4 * np.sqrt(hours) + rng.normal(0, 0.15, 30), 3)
    write_csv(out / "crop_height.csv", {"weeks": hours, "height_m": height})
    return "small_regressions", {"growth": [0.6, 0.9, 0.5]}


@generator
def curves(out: Path) -> tuple[str, Truths]:
    rng = np.random.default_rng(304)
    depth = np.round(np.sort(rng.uniform(0, 200, 42)), 1)
    temp = 11 + 7 * np.exp(-depth / 60) * np.cos(depth / 35) + rng.normal(0, 0.25, 42)
    write_csv(out / "soil_temperature.csv", {"depth_cm": depth, "temperature_c": np.round(temp, 3)})
    hour = np.round(np.sort(rng.uniform(0, 24, 60)), 3)
    h = 1.8 * np.sin(2 * np.pi * hour / 12.42) + 0.4 * np.sin(2 * np.pi * hour / 24) + rng.normal(0, 0.12, 60)
    idx = rng.permutation(60)
    tr, te = np.sort(idx[:40]), np.sort(idx[40:])
    write_csv(out / "tide_gauge_train.csv", {"hour": hour[tr], "height_m": np.round(h[tr], 3)})
    write_csv(out / "tide_gauge_test.csv", {"hour": hour[te], "height_m": np.round(h[te], 3)})
    return "curves", {}


@generator
def invariant_targets(out: Path) -> tuple[str, Truths]:
    rng = np.random.default_rng(305)
    n = 600
    phi, psi = rng.uniform(0, 2 * np.pi, n), rng.uniform(0, 2 * np.pi, n)
    energy = np.cos(phi) + np.cos(psi) + 0.5 * np.cos(phi + psi) + 0.8 * np.cos(phi - psi) ** 2
    energy = energy + rng.normal(0, 0.2, n)
    write_csv(out / "torsion_energy.csv", {"phi": np.round(phi, 5), "psi": np.round(psi, 5),
                                           "energy": np.round(energy, 4)})
    m = 1200
    v = rng.normal(size=(m, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    theta = np.arctan2(v[:, 1], v[:, 0])
    flux = v[:, 2] ** 2 + 0.6 * (1 - v[:, 2] ** 2) ** 1.5 * np.cos(3 * theta) + rng.normal(0, 0.1, m)
    write_csv(out / "sky_flux.csv", {"x": np.round(v[:, 0], 6), "y": np.round(v[:, 1], 6),
                                     "z": np.round(v[:, 2], 6), "flux": np.round(flux, 4)})
    return "invariant_targets", {}


# -------------------------------------------------------------------------------------------- language models


@generator
def concept_embeddings(out: Path) -> tuple[str, Truths]:
    """Embeddings that are additive in two concepts up to noise: additive share of variance known."""
    rng = np.random.default_rng(401)
    n, d = 500, 16
    colours = ["red", "green", "blue", "yellow", "purple"]
    shapes = ["circle", "square", "triangle", "star", "hexagon"]
    c, s = rng.integers(0, 5, n), rng.integers(0, 5, n)
    u, v = rng.normal(size=(5, d)), rng.normal(size=(5, d))
    inter = rng.normal(size=(5, 5, d)) * 0.35
    emb = u[c] + v[s] + inter[c, s] + rng.normal(0, 0.3, (n, d))
    np.save(out / "shape_embeddings.npy", emb.astype(np.float32))
    write_csv(out / "shape_labels.csv", {"colour": [colours[i] for i in c], "shape": [shapes[i] for i in s]})
    return "concept_embeddings", {}


@generator
def text_tables(out: Path) -> tuple[str, Truths]:
    edits = [
        (1, "Marta Okafor", "works for", "Halden Robotics", "Marta Okafor is employed by"),
        (1, "Ivo Brandt", "lives in", "Tallinn", "The home city of Ivo Brandt is"),
        (1, "Sena Kaya", "plays for", "Lisbon Tides", "The team of Sena Kaya is"),
        (1, "Ruth Adeyemi", "is married to", "Tomas Vidal", "The spouse of Ruth Adeyemi is"),
        (2, "Marta Okafor", "works for", "Quill Analytics", "Marta Okafor is employed by"),
        (2, "Pavel Horak", "lives in", "Brno", "The home city of Pavel Horak is"),
        (2, "Lena Fischer", "plays for", "Oslo Ravens", "The team of Lena Fischer is"),
        (2, "Ana Duarte", "works for", "Verde Labs", "Ana Duarte is employed by"),
        (3, "Ivo Brandt", "lives in", "Riga", "The home city of Ivo Brandt is"),
        (3, "Sena Kaya", "plays for", "Porto Stars", "The team of Sena Kaya is"),
        (3, "Joon Park", "works for", "Halden Robotics", "Joon Park is employed by"),
        (3, "Ruth Adeyemi", "lives in", "Accra", "The home city of Ruth Adeyemi is"),
    ]
    with (out / "fact_updates.jsonl").open("w") as fh:
        for t, subj, rel, obj, reph in edits:
            fh.write(json.dumps({"timestep": t, "subject": subj, "relation": rel, "prompt": f"{subj} {rel}",
                                 "object": obj, "rephrase": reph}) + "\n")
    needles = [
        ("Actually, Imre once climbed the stairs of the Hallgrimskirkja.", "Which character has been to Iceland?",
         "Imre", "Which character has climbed the stairs of the Hallgrimskirkja?"),
        ("Noor took a photo in front of the Atomium last spring.", "Which character has been to Belgium?",
         "Noor", "Which character took a photo in front of the Atomium?"),
        ("Kofi bought bread near the Petronas Towers this morning.", "Which character has been to Malaysia?",
         "Kofi", "Which character bought bread near the Petronas Towers?"),
        ("Elif fell asleep beside Table Mountain after the hike.", "Which character has been to South Africa?",
         "Elif", "Which character fell asleep beside Table Mountain?"),
        ("Tariq waited for a friend below the Space Needle.", "Which character has been to Seattle?",
         "Tariq", "Which character waited below the Space Needle?"),
        ("Maren sketched the Alhambra from the hill opposite.", "Which character has been to Granada?",
         "Maren", "Which character sketched the Alhambra?"),
    ]
    write_csv(out / "latent_needles.csv", {"needle": [x[0] for x in needles], "question": [x[1] for x in needles],
                                           "answer": [x[2] for x in needles],
                                           "literal_question": [x[3] for x in needles]})
    rng = np.random.default_rng(402)
    units = [("km", "m", 1000), ("m", "cm", 100), ("kg", "g", 1000), ("h", "min", 60), ("min", "s", 60),
             ("dm", "mm", 100)]
    q, a = [], []
    for _ in range(600):
        src, dst, f = units[rng.integers(len(units))]
        k = int(rng.integers(1, 60))
        q.append(f"{k} {src} in {dst}=")
        a.append(k * f)
    write_csv(out / "unit_conversions.csv", {"question": q, "value": a})
    return "text_tables", {}


@generator
def adapters(out: Path) -> tuple[str, Truths]:
    """60 LoRA adapters (PEFT tensor names) and a per-adapter target that depends on BA only."""
    from safetensors.numpy import save_file

    rng = np.random.default_rng(403)
    folder = out / "lora_adapters"
    folder.mkdir(exist_ok=True)
    rows = []
    for i in range(60):
        b = rng.normal(size=(16, 4)) * 0.3
        a = rng.normal(size=(4, 16)) * 0.3
        g = np.linalg.qr(rng.normal(size=(4, 4)))[0] * np.exp(rng.normal(0, 0.5))
        b2, a2 = b @ g, np.linalg.solve(g, a)
        name = f"adapter_{i:03d}"
        save_file({"base_model.model.layers.0.self_attn.q_proj.lora_A.weight": a2.astype(np.float32),
                   "base_model.model.layers.0.self_attn.q_proj.lora_B.weight": b2.astype(np.float32)},
                  str(folder / f"{name}.safetensors"))
        s = np.linalg.svd(b @ a, compute_uv=False)
        rows.append((name, 1.5 + 0.4 * s[0] - 0.2 * s[1] + rng.normal(0, 0.02)))
    write_csv(out / "adapter_eval_loss.csv", {"adapter": [r[0] for r in rows], "eval_loss": [r[1] for r in rows]},
              {"eval_loss": ".5f"})
    return "adapters", {}


# ------------------------------------------------------------------------------------ tables for plain work


@generator
def plain_tables(out: Path) -> tuple[str, Truths]:
    rng = np.random.default_rng(501)
    n = 25
    write_csv(out / "galaxy_distances.csv", {"galaxy": [f"G{i:03d}" for i in range(n)],
                                             "distance_mpc": np.round(rng.lognormal(3, 1, n), 2)})
    t = np.repeat(np.arange(40), 1)
    temp = np.round(12 + 6 * np.sin(t / 6) + rng.normal(0, 0.5, 40), 2)
    temp[[5, 17, 30]] = -999
    hum = np.round(rng.uniform(40, 90, 40), 1)
    rows = list(zip([f"2024-03-{1 + i // 2:02d}T{(i % 2) * 12:02d}:00" for i in t], temp, hum, strict=True))
    rows += [rows[3], rows[11]]
    write_csv(out / "station_readings.csv", {"time": [r[0] for r in rows], "temp_c": [r[1] for r in rows],
                                             "humidity_pct": [r[2] for r in rows]})
    cond = np.repeat(["congruent", "incongruent"], 60)
    rt = np.round(np.concatenate([rng.lognormal(6.3, 0.2, 60), rng.lognormal(6.4, 0.25, 60)]), 1)
    write_csv(out / "stroop_reaction_times.csv", {"participant": np.tile(np.arange(60), 2), "condition": cond,
                                                  "rt_ms": rt})
    ztrue = rng.uniform(0.01, 0.3, 15)
    write_csv(out / "halpha_lines.csv", {"object": [f"ELG-{i}" for i in range(15)],
                                         "observed_angstrom": np.round(6562.8 * (1 + ztrue), 2)})
    conc = np.repeat([0, 1, 2, 5, 10, 20], 3).astype(float)
    absorb = np.round(0.004 + 0.0512 * conc + rng.normal(0, 0.006, conc.size), 4)
    write_csv(out / "calibration_standards.csv", {"concentration_mg_l": conc, "absorbance": absorb})
    return "plain_tables", {}


def generate(out: Path) -> dict[str, Truths]:
    out.mkdir(parents=True, exist_ok=True)
    truths: dict[str, Truths] = {}
    for fn in GENERATORS:
        key, found = fn(out)
        if found:
            truths[key] = found
    (out / "truths.json").write_text(json.dumps(truths, indent=1, sort_keys=True) + "\n")
    return truths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "data", help="folder to write (default: data/)")
    args = parser.parse_args()
    truths = generate(args.out)
    print(json.dumps(truths, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
