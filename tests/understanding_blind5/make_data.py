"""Write every data file of the fifth blind prose task set, deterministically.

``python tests/understanding_blind5/make_data.py`` rewrites ``tests/understanding_blind5/data/``; ``--out DIR``
writes elsewhere (``test_set.py`` does that and compares checksums with the committed files). Each file is
simulated here with numpy alone from its own seed; floats are written with fixed formats so the bytes do not
depend on the platform, and the one array is written as ``.npy`` by hand (a fixed header, little-endian float32).
Nothing here uses cmbagent's code. The set states no answers, so no truths file is written; the structure built
into each file is described in ``data/SOURCES.md``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

if __name__ == "__main__":  # run as a script: the shared writers live in the tests package
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.prose_sets.writing import Writers, array, expit, main, table

HERE = Path(__file__).resolve().parent
writer = Writers()
C_KM_S = 299792.458


def distance_modulus(z: np.ndarray, om: float, w0: float = -1.0, wa: float = 0.0, h0: float = 70.0,
                     ode: float | None = None) -> np.ndarray:
    """mu = 5 log10(D_L / 10 pc) for a CPL (or curved Lambda, when ``ode`` is given) background, no radiation."""
    grid = np.linspace(0.0, float(z.max()) * 1.001, 4001)
    a = 1.0 / (1.0 + grid)
    de = np.exp(3 * (1 + w0 + wa) * np.log(1 + grid) - 3 * wa * (1 - a))
    ok = 0.0 if ode is None else 1.0 - om - ode
    e = np.sqrt(om * (1 + grid) ** 3 + (1 - om - ok if ode is None else ode) * de + ok * (1 + grid) ** 2)
    inv = 1.0 / e
    dc_grid = np.concatenate([[0.0], np.cumsum((inv[1:] + inv[:-1]) / 2 * np.diff(grid))])
    dc = np.interp(z, grid, dc_grid) * C_KM_S / h0
    if ok > 0:
        dm = C_KM_S / h0 / np.sqrt(ok) * np.sinh(np.sqrt(ok) * dc * h0 / C_KM_S)
    elif ok < 0:
        dm = C_KM_S / h0 / np.sqrt(-ok) * np.sin(np.sqrt(-ok) * dc * h0 / C_KM_S)
    else:
        dm = dc
    return np.asarray(5 * np.log10((1 + z) * dm) + 25)


def ar_chain(rng: np.random.Generator, n: int, centre: np.ndarray, sd: np.ndarray, start: np.ndarray,
             settle: int) -> np.ndarray:
    """An AR(1) chain around ``centre`` whose first ``settle`` rows creep in from ``start``."""
    x = np.empty((n, len(centre)))
    cur = start.astype(float)
    for i in range(n):
        pull = 0.98 if i < settle else 0.55
        cur = centre + pull * (cur - centre) + np.sqrt(1 - pull ** 2) * sd * rng.normal(0, 1, len(centre))
        x[i] = cur
    return x


# ------------------------------------------------------------------------------------------ causal effects

@writer
def library_fees(out: Path) -> None:
    """Fee waivers went to bigger, busier branches in poorer areas; a waiver adds about 55 loans a month."""
    rng = np.random.default_rng(5101)
    n = 480
    stock = rng.gamma(6, 5, n)
    hours = rng.integers(20, 61, n)
    students = np.clip(rng.normal(12, 6, n), 0, 45)
    decile = rng.integers(1, 11, n)
    waived = rng.binomial(1, expit(-0.4 + 0.03 * (stock - 30) + 0.03 * (hours - 40) - 0.2 * (decile - 5.5)))
    loans = (300 + 9 * stock + 6 * (hours - 40) + 4 * students + 12 * decile + 55 * waived
             + rng.normal(0, 60, n))
    table(out / "library_fee_waiver.csv", {
        "branch_code": [f"LB-{i:03d}" for i in range(1, n + 1)], "audit_year": rng.integers(2021, 2025, n),
        "fee_waived": waived, "stock_k": stock, "opening_hours": hours, "pct_students": students,
        "deprivation_decile": decile, "loans_per_month": loans},
        {"stock_k": ".1f", "pct_students": ".1f", "loans_per_month": ".0f"})


@writer
def skylarks(out: Path) -> None:
    """Grazing pressure (livestock units per ha) is higher on low, short-sward plots; each unit costs 0.9 territories."""
    rng = np.random.default_rng(5102)
    n = 300
    hedge = rng.gamma(3, 120, n)
    sward = rng.uniform(3, 35, n)
    altitude = rng.uniform(20, 420, n)
    lu = np.clip(2.2 - 0.04 * (sward - 15) - 0.002 * (altitude - 200) + rng.normal(0, 0.5, n), 0.1, 4.5)
    terr = np.clip(4 + 0.08 * sward - 0.004 * hedge + 0.004 * altitude - 0.9 * lu + rng.normal(0, 1.0, n), 0, None)
    table(out / "skylark_plots_2023.csv", {
        "plot_code": [f"SK{i:03d}" for i in range(n)], "lu_per_ha": lu, "skylark_territories": terr,
        "hedge_m": hedge, "sward_cm": sward, "altitude_m": altitude,
        "observer": list(rng.choice(["JT", "MW", "AO", "PB"], n))},
        {"lu_per_ha": ".2f", "skylark_territories": ".1f", "hedge_m": ".0f", "sward_cm": ".1f", "altitude_m": ".0f"},
        header=False)


@writer
def hygiene(out: Path) -> None:
    """A new inspection scheme went to premises whose notes mention problems; it raises the next score by 4."""
    rng = np.random.default_rng(5103)
    n = 260
    prev = np.clip(rng.normal(72, 12, n), 20, 100)
    seats = rng.integers(0, 121, n)
    trouble = rng.binomial(1, expit(-0.5 - 0.05 * (prev - 72)))
    good = ["clean prep area", "fridge logs complete", "staff trained recently", "pest control contract current",
            "handwash basin stocked", "allergen matrix up to date"]
    bad = ["grease build-up behind fryer", "no probe thermometer", "mouse droppings in store",
           "raw and cooked stored together", "cleaning schedule missing", "cracked floor tiles in kitchen"]
    notes = []
    for t in trouble:
        pool = (bad if t else good)
        picks = rng.choice(len(pool), 2, replace=False)
        extra = good[int(rng.integers(len(good)))] if t else bad[int(rng.integers(len(bad)))] if rng.random() < 0.2 \
            else good[int(rng.integers(len(good)))]
        notes.append("; ".join([pool[int(picks[0])], pool[int(picks[1])], extra]))
    scheme = rng.binomial(1, expit(-0.6 + 1.4 * trouble - 0.02 * (prev - 72)))
    nxt = np.clip(prev * 0.6 + 30 - 9 * trouble + 0.03 * seats + 4 * scheme + rng.normal(0, 5, n), 0, 100)
    table(out / "hygiene_inspections.csv", {
        "premises_id": [f"FH{40000 + 7 * i}" for i in range(n)], "new_scheme": scheme, "score_prev": prev,
        "seats": seats, "inspection_notes": notes, "score_next": nxt},
        {"score_prev": ".0f", "score_next": ".0f"})


@writer
def cycling(out: Path) -> None:
    """Cycling is confounded by unobserved fitness; dock distance, gradient and lane share shift it."""
    rng = np.random.default_rng(5104)
    n = 600
    age = rng.integers(20, 66, n)
    bmi = np.clip(rng.normal(26, 4, n), 17, 45)
    fit = rng.normal(0, 1, n)
    dock = rng.gamma(2, 0.8, n)
    grad = rng.uniform(0, 9, n)
    lane = rng.uniform(0, 1, n)
    cycled = rng.binomial(1, expit(0.3 - 0.6 * dock - 0.25 * grad + 1.5 * lane + 0.9 * fit - 0.05 * (bmi - 26)))
    cate = -1.2 - 0.03 * (age - 40)
    rate = np.clip(4 + 0.06 * (age - 40) + 0.2 * (bmi - 26) - 1.2 * fit + cate * cycled, 0.2, None)
    sick = np.clip(rng.poisson(rate), 0, 20)
    table(out / "cycle_commute_sickness.csv", {
        "staff_ref": [f"S{i:05d}" for i in range(n)], "age": age, "bmi": bmi, "cycled": cycled,
        "sick_days": sick, "dist_dock_km": dock, "hill_gradient_pct": grad, "lane_share": lane, "true_cate": cate},
        {"bmi": ".1f", "dist_dock_km": ".2f", "hill_gradient_pct": ".1f", "lane_share": ".3f", "true_cate": ".3f"})


@writer
def rent_subsidy(out: Path) -> None:
    """Income drives savings and rent (0.3 and 0.2 per thousand); the council's rule is linear and given."""
    rng = np.random.default_rng(5105)
    n = 24
    income = rng.normal(28, 10, n).clip(8, 70)
    savings = (0.3 * income + rng.normal(0, 5, n)).clip(0, None)
    rent = (0.2 * income + rng.normal(6, 3, n)).clip(3, None)
    score = 0.08 * rent - 0.05 * income - 0.02 * savings + 0.5
    for row in (2, 5):  # the two rows the task asks about are refused under the rule
        if score[row] > 0:
            income[row] += (score[row] + 0.3) / 0.05
    table(out / "rent_subsidy_applicants.csv", {
        "applicant_ref": [f"RS-{1200 + i}" for i in range(n)], "income_k": income, "savings_k": savings,
        "rent_k": rent}, {"income_k": ".1f", "savings_k": ".1f", "rent_k": ".1f"})


@writer
def evictions(out: Path) -> None:
    """A risk score (higher = more at risk) against weeks of arrears a year later; R² about 0.3."""
    rng = np.random.default_rng(5106)
    n = 700
    latent = rng.normal(0, 1, n)
    score = np.clip(50 + 15 * (0.55 * latent + 0.84 * rng.normal(0, 1, n)), 0, 100)
    arrears = np.clip(np.round(4 + 3.5 * latent + rng.normal(0, 1.0, n)), 0, None)
    table(out / "eviction_backtest.csv", {
        "tenancy_ref": [f"T{880000 + 3 * i}" for i in range(n)], "risk_score": score, "arrears_weeks": arrears},
        {"risk_score": ".1f", "arrears_weeks": ".0f"})


@writer
def oat_trial(out: Path) -> None:
    """A randomised nitrogen trial on oats: four doses in six blocks, plots randomised within blocks."""
    rng = np.random.default_rng(5107)
    rows: dict[str, list[object]] = {"block": [], "plot": [], "n_kg_ha": [], "yield_t_ha": []}
    for b in range(1, 7):
        eff = rng.normal(0, 0.3)
        for p, dose in enumerate(rng.permutation([0, 40, 80, 120]), start=1):
            for rep in range(3):
                rows["block"].append(f"B{b}")
                rows["plot"].append(f"B{b}P{p}{'abc'[rep]}")
                rows["n_kg_ha"].append(int(dose))
                rows["yield_t_ha"].append(5.0 + eff + 0.022 * dose - 0.00009 * dose ** 2 + rng.normal(0, 0.35))
    table(out / "oat_fertiliser_trial.csv", rows, {"yield_t_ha": ".2f"})


# ---------------------------------------------------------------------------------------------- cosmology

@writer
def kiln_supernovae(out: Path) -> None:
    """120 moduli of flat wCDM (Omega_m 0.30, w -0.9) with a host-type column."""
    rng = np.random.default_rng(5201)
    z = np.sort(rng.uniform(0.02, 1.1, 120))
    err = 0.10 + 0.08 * z + rng.uniform(0, 0.04, 120)
    mu = distance_modulus(z, 0.30, w0=-0.9) + rng.normal(0, 1, 120) * err
    table(out / "kiln_sn_moduli.csv", {
        "sn_name": [f"Kiln-{17000 + 11 * i}" for i in range(120)], "z": z, "mu": mu, "mu_err": err,
        "host_type": list(rng.choice(["spiral", "elliptical", "irregular"], 120))},
        {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})


@writer
def cepheid_anchored(out: Path) -> None:
    """90 moduli on an absolute scale: flat LCDM, Omega_m 0.33, H0 72.5."""
    rng = np.random.default_rng(5202)
    n = 90
    z = np.sort(rng.uniform(0.012, 0.8, n))
    zhel = z + rng.normal(0, 0.0008, n)
    err = 0.12 + rng.uniform(0, 0.06, n)
    mu = distance_modulus(z, 0.33, h0=72.5) + rng.normal(0, 1, n) * err
    table(out / "cepheid_anchored_mu.csv", {
        "cid": [f"C{i:03d}" for i in range(n)], "zcmb": z, "zhel": zhel, "distmod": mu, "sigma_mu": err},
        {"zcmb": ".5f", "zhel": ".5f", "distmod": ".4f", "sigma_mu": ".4f"})


@writer
def heron_supernovae(out: Path) -> None:
    """60 peak magnitudes of flat w0wa (-0.8, -0.6), Omega_m 0.31, M -19.3, with a bare 60 x 60 covariance."""
    rng = np.random.default_rng(5203)
    n = 60
    z = np.sort(rng.uniform(0.03, 1.4, n))
    stat = 0.11 + 0.05 * z
    sys = 0.04 * (1 + z)
    cov = np.diag(stat ** 2) + np.outer(sys, sys) * np.exp(-np.abs(z[:, None] - z[None, :]) / 0.4)
    mb = distance_modulus(z, 0.31, w0=-0.8, wa=-0.6) - 19.3 + np.linalg.cholesky(cov) @ rng.normal(0, 1, n)
    table(out / "heron_sn_mb.csv", {
        "name": [f"HRN{i:02d}" for i in range(n)], "zcmb": z, "zhel": z, "mb": mb, "dmb": stat},
        {"zcmb": ".4f", "zhel": ".4f", "mb": ".4f", "dmb": ".4f"})
    (out / "heron_sn_cov.txt").write_text("".join(" ".join(f"{v:.6e}" for v in row) + "\n" for row in cov))


@writer
def osprey_supernovae(out: Path) -> None:
    """70 moduli of flat wCDM (Omega_m 0.31, w -1.05) for a joint fit with the CMB."""
    rng = np.random.default_rng(5204)
    z = np.sort(rng.uniform(0.015, 1.0, 70))
    err = 0.13 + 0.05 * z
    mu = distance_modulus(z, 0.31, w0=-1.05, h0=67.5) + rng.normal(0, 1, 70) * err
    table(out / "osprey_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})


@writer
def marsh_sn_and_bao(out: Path) -> None:
    """Moduli of flat LCDM (Omega_m 0.3) and five BAO D_V/r_d points of the same model."""
    rng = np.random.default_rng(5205)
    z = np.sort(rng.uniform(0.02, 0.9, 80))
    err = 0.12 + 0.06 * z
    mu = distance_modulus(z, 0.30) + rng.normal(0, 1, 80) * err
    table(out / "marsh_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    zb = np.array([0.15, 0.38, 0.51, 0.70, 0.85])
    dl = 10 ** ((distance_modulus(zb, 0.30) - 25) / 5)
    dm = dl / (1 + zb)
    hz = 70 * np.sqrt(0.3 * (1 + zb) ** 3 + 0.7)
    dv = (zb * dm ** 2 * C_KM_S / hz) ** (1 / 3) / 147.1
    table(out / "marsh_bao_dv.csv", {"z_eff": zb, "dv_over_rd": dv * (1 + rng.normal(0, 0.01, 5)),
                                     "err": dv * 0.015}, {"z_eff": ".2f", "dv_over_rd": ".3f", "err": ".3f"})


@writer
def cosmosis_chain(out: Path) -> None:
    """A CosmoSIS-style wCDM chain of 5,000 rows whose first 2,000 creep in from far away."""
    rng = np.random.default_rng(5301)
    x = ar_chain(rng, 5000, np.array([0.305, -0.97, 0.69, 0.81]), np.array([0.012, 0.05, 0.012, 0.02]),
                 np.array([0.40, -0.6, 0.74, 0.95]), 1600)
    like = -0.5 * (((x - [0.305, -0.97, 0.69, 0.81]) / [0.012, 0.05, 0.012, 0.02]) ** 2).sum(axis=1)
    head = ("#cosmological_parameters--omega_m\tcosmological_parameters--w\tcosmological_parameters--h0"
            "\tcosmological_parameters--sigma8_input\tlike\n")
    lines = [head] + [f"{a:.5f}\t{b:.4f}\t{c:.5f}\t{d:.4f}\t{e:.3f}\n" for (a, b, c, d), e in zip(x, like, strict=True)]
    (out / "cosmosis_wcdm_run3.txt").write_text("".join(lines))


@writer
def fsigma8_chains(out: Path) -> None:
    """Three chains of an RSD fit (fsigma8, Omega_m, a linear bias), each started elsewhere."""
    rng = np.random.default_rng(5302)
    centre, sd = np.array([0.45, 0.31, 1.9]), np.array([0.03, 0.02, 0.08])
    for tag, start in zip("ABC", ([0.30, 0.25, 1.6], [0.60, 0.40, 2.2], [0.46, 0.30, 1.9]), strict=True):
        x = ar_chain(rng, 1500, centre, sd, np.array(start), 120)
        lines = ["# fsigma8 Omega_m b1\n"] + [f"{a:.4f} {b:.4f} {c:.3f}\n" for a, b, c in x]
        (out / f"rsd_fs8_chain{tag}.txt").write_text("".join(lines))


# ------------------------------------------------------------------------------------------------ surveys

@writer
def fluoridation(out: Path) -> None:
    """A two-round panel on water fluoridation, older and northern people over-represented; a weighted reference."""
    rng = np.random.default_rng(5401)
    ages, regions = ["18-34", "35-54", "55+"], ["North", "Midlands", "South"]
    n = 900
    age = rng.choice(ages, n, p=[0.2, 0.35, 0.45])
    region = rng.choice(regions, n, p=[0.45, 0.3, 0.25])
    rnd = np.where(np.arange(n) < 450, 1, 2)
    p_support = 0.45 + 0.1 * (age == "55+") - 0.1 * (region == "North") + 0.05 * (rnd == 2)
    u = rng.random(n)
    answer = np.where(u < p_support, "support", np.where(u < p_support + 0.35, "oppose", "unsure"))
    table(out / "fluoridation_panel.csv", {
        "panel_member": [f"P{10000 + i}" for i in range(n)], "fieldwork_round": rnd, "age_band": list(age),
        "region": list(region), "base_wt": rng.uniform(0.6, 1.6, n), "support_fluoride": list(answer)},
        {"base_wt": ".3f"})
    m = 1500
    table(out / "fluoridation_reference.csv", {
        "age_band": list(rng.choice(ages, m, p=[0.3, 0.35, 0.35])),
        "region": list(rng.choice(regions, m, p=[0.3, 0.3, 0.4])), "ref_wt": rng.uniform(0.5, 2.0, m)},
        {"ref_wt": ".3f"})
    k = 200
    table(out / "chatbot_fluoride_answers.csv", {
        "question": ["support_fluoride"] * k,
        "answer": list(rng.choice(["support", "oppose", "unsure"], k, p=[0.62, 0.18, 0.20]))})


@writer
def four_day_week(out: Path) -> None:
    """A split ballot (wording A or B) on a four-day week, with a retest of the same question; census-style margins."""
    rng = np.random.default_rng(5402)
    n = 1100
    sex = rng.choice(["female", "male"], n, p=[0.42, 0.58])
    size = rng.choice(["micro", "small", "medium", "large"], n, p=[0.1, 0.2, 0.3, 0.4])
    wording = rng.choice(["A", "B"], n)
    p = 0.5 + 0.12 * (wording == "B") + 0.05 * (sex == "female") - 0.08 * (size == "large")
    support = np.where(rng.random(n) < p, "yes", "no")
    retest = np.where(rng.random(n) < 0.82, support, np.where(support == "yes", "no", "yes"))
    retest = np.where(rng.random(n) < 0.3, "", retest)
    table(out / "fourday_week_survey.csv", {
        "interview_code": [f"FD{i:04d}" for i in range(n)], "wording": list(wording), "sex": list(sex),
        "employer_size": list(size), "fourday_support": list(support), "fourday_support_retest": list(retest)})
    table(out / "fourday_margins.csv", {
        "variable": ["sex", "sex", "employer_size", "employer_size", "employer_size", "employer_size"],
        "level": ["female", "male", "micro", "small", "medium", "large"],
        "share": [0.48, 0.52, 0.22, 0.25, 0.23, 0.30]}, {"share": ".2f"})


# ------------------------------------------------------------------------------- anomalies and classifiers

@writer
def coins(out: Path) -> None:
    """XRF readings of 900 coins; 45 counterfeits with less nickel, more lead and a lighter density."""
    rng = np.random.default_rng(5501)
    n = 900
    fake = np.zeros(n, int)
    fake[rng.choice(n, 45, replace=False)] = 1
    cu = rng.normal(75, 1.2, n) - 3 * fake + rng.normal(0, 1.5, n) * fake
    zn = rng.normal(4, 0.5, n) + 2 * fake
    ni = rng.normal(21, 0.9, n) - 2.5 * fake
    fe = rng.gamma(4, 30, n) + 150 * fake
    pb = rng.gamma(2, 8, n) + 60 * fake
    sn = rng.gamma(2, 5, n)
    dens = rng.normal(8.9, 0.05, n) - 0.25 * fake
    diam = rng.normal(22.5, 0.03, n) + rng.normal(0, 0.08, n) * fake
    table(out / "coin_xrf.csv", {
        "cu_pct": cu, "zn_pct": zn, "ni_pct": ni, "fe_ppm": fe, "pb_ppm": pb, "sn_ppm": sn, "density_g_cm3": dens,
        "diameter_mm": diam, "counterfeit": fake},
        {"cu_pct": ".2f", "zn_pct": ".2f", "ni_pct": ".2f", "fe_ppm": ".0f", "pb_ppm": ".1f", "sn_ppm": ".1f",
         "density_g_cm3": ".3f", "diameter_mm": ".3f"})


@writer
def press_line(out: Path) -> None:
    """Unlabelled vibration features of a stamping press; about 3% of strokes come from a cracked die."""
    rng = np.random.default_rng(5502)
    n = 500
    bad = rng.random(n) < 0.03
    x = rng.normal(0, 1, (n, 6)) + np.outer(bad, [2.5, 0.0, 1.8, -2.0, 0.0, 1.2])
    names = ["rms_g", "kurtosis", "peak_hz", "crest", "band_2k", "band_8k"]
    table(out / "press_line_vibration.csv", {nm: x[:, j] for j, nm in enumerate(names)},
          dict.fromkeys(names, ".4f"))


@writer
def turbine(out: Path) -> None:
    """Turbine SCADA features with two disagreeing 0/1 flag columns (a technician's and the controller's)."""
    rng = np.random.default_rng(5503)
    n = 600
    fault = rng.random(n) < 0.05
    x = rng.normal(0, 1, (n, 5)) + np.outer(fault, [1.5, -1.0, 2.0, 0.0, 0.8])
    manual = (fault & (rng.random(n) < 0.7)).astype(int)
    scada = ((fault & (rng.random(n) < 0.9)) | (rng.random(n) < 0.04)).astype(int)
    names = ["gearbox_temp", "pitch_dev", "vib_axial", "power_resid", "yaw_err"]
    cols: dict[str, Sequence[object] | np.ndarray] = {nm: x[:, j] for j, nm in enumerate(names)}
    cols["flag_manual"] = manual
    cols["flag_scada"] = scada
    table(out / "turbine_flags.csv", cols, dict.fromkeys(names, ".4f"))


@writer
def seeds(out: Path) -> None:
    """Seed viability from five measurements; the boundary is curved in mass and moisture."""
    rng = np.random.default_rng(5504)
    n = 500
    mass = rng.normal(4.0, 0.8, n)
    length = rng.normal(6.0, 0.6, n)
    width = rng.normal(2.5, 0.3, n)
    colour = rng.uniform(0, 1, n)
    moist = rng.uniform(6, 18, n)
    viable = (0.9 * (mass - 4) - 0.08 * (moist - 12) ** 2 + 0.6 * colour + rng.normal(0, 0.5, n) > -0.7).astype(int)
    table(out / "seed_viability.csv", {
        "mass_mg": mass, "length_mm": length, "width_mm": width, "colour_index": colour, "moisture_pct": moist,
        "viable": viable}, {"mass_mg": ".3f", "length_mm": ".3f", "width_mm": ".3f", "colour_index": ".3f",
                            "moisture_pct": ".2f"})


@writer
def birdsong(out: Path) -> None:
    """Song features of two warbler species, overlapping."""
    rng = np.random.default_rng(5505)
    n = 400
    sp = rng.integers(0, 2, n)
    x = rng.normal(0, 1, (n, 4)) + np.outer(sp, [1.0, 0.6, -0.8, 0.3])
    table(out / "bird_song_features.csv", {
        "peak_khz": 4 + 0.5 * x[:, 0], "trill_rate": 12 + 2 * x[:, 1], "duration_s": 1.5 + 0.2 * x[:, 2],
        "bandwidth_khz": 3 + 0.4 * x[:, 3], "species": ["chiffchaff" if s else "willow" for s in sp]},
        {"peak_khz": ".3f", "trill_rate": ".2f", "duration_s": ".3f", "bandwidth_khz": ".3f"})


@writer
def small_business_loans(out: Path) -> None:
    """Loan defaults; the postcode risk index is mostly turnover and overdraft use, with a small effect of its own."""
    rng = np.random.default_rng(5506)
    n = 1200
    turnover = rng.lognormal(5, 0.6, n)
    years = rng.integers(0, 30, n)
    age = rng.integers(21, 70, n)
    od = rng.uniform(0, 1, n)
    post = 0.5 * od - 0.002 * turnover + rng.normal(0, 0.15, n)
    default = rng.binomial(1, expit(-1.5 + 2.0 * od - 0.004 * turnover - 0.05 * years + 0.5 * post))
    table(out / "smallbiz_loans.csv", {
        "turnover_k": turnover, "years_trading": years, "director_age": age, "overdraft_util": od,
        "postcode_risk": post, "default_12m": default},
        {"turnover_k": ".1f", "overdraft_util": ".3f", "postcode_risk": ".4f"})


@writer
def reservoir(out: Path) -> None:
    """Hourly reservoir levels for three weeks, with three spikes from a faulty float gauge."""
    rng = np.random.default_rng(5507)
    hours = np.arange(24 * 21)
    level = 12.0 - 0.004 * hours + 0.05 * np.sin(2 * np.pi * hours / 24) + rng.normal(0, 0.02, hours.size)
    level[[100, 251, 402]] += [0.9, -0.8, 1.1]
    stamps = [f"2025-03-{1 + h // 24:02d}T{h % 24:02d}:00" for h in hours]
    table(out / "reservoir_level_log.csv", {"timestamp": stamps, "level_m": level}, {"level_m": ".3f"})


# --------------------------------------------------------------------------------------- Bayesian methods

RING_LOGP = '''"""Unnormalised log density of a ring of radius 2 in the plane (radial width 0.15)."""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    radius = torch.sqrt((z ** 2).sum(dim=1) + 1e-12)
    return -0.5 * ((radius - 2.0) / 0.15) ** 2
'''


@writer
def ring_density(out: Path) -> None:
    """A user's log density as a Python file (a ring, hard for a Gaussian approximation)."""
    (out / "ring_logp.py").write_text(RING_LOGP)


@writer
def limpets(out: Path) -> None:
    """45 shell lengths from two cohorts (about 18 and 31 mm), with a quadrat label."""
    rng = np.random.default_rng(5601)
    cohort = rng.random(45) < 0.5
    length = np.where(cohort, rng.normal(18, 3, 45), rng.normal(31, 3, 45))
    table(out / "limpet_shells.csv", {"quadrat": [f"Q{1 + i // 5}" for i in range(45)],
                                      "shell_length_mm": length}, {"shell_length_mm": ".1f"})


@writer
def vineyard(out: Path) -> None:
    """Frost damage falls with elevation (cold-air drainage) and slope; aspect barely matters."""
    rng = np.random.default_rng(5602)
    n = 40
    elev = rng.uniform(80, 260, n)
    slope = rng.uniform(0, 18, n)
    aspect = rng.uniform(0, 360, n)
    dmg = np.clip(60 * np.exp(-(elev - 80) / 60) + 8 * np.cos(slope / 6) + rng.normal(0, 3, n), 0, 100)
    table(out / "vineyard_frost.csv", {"block": [f"V{i:02d}" for i in range(n)], "elevation_m": elev,
                                       "slope_deg": slope, "aspect_deg": aspect, "frost_damage_pct": dmg},
          {"elevation_m": ".1f", "slope_deg": ".2f", "aspect_deg": ".0f", "frost_damage_pct": ".1f"})


@writer
def mast_gain(out: Path) -> None:
    """Gain on the unit sphere, invariant under 120-degree turns about z and under y -> -y."""
    rng = np.random.default_rng(5603)
    n = 400
    v = rng.normal(0, 1, (n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    phi = np.arctan2(v[:, 1], v[:, 0])
    gain = 3 * v[:, 2] + 1.5 * (1 - v[:, 2] ** 2) ** 1.5 * np.cos(3 * phi) + rng.normal(0, 0.3, n)
    table(out / "mast_gain_scans.csv", {"scan_no": np.arange(1, n + 1), "x": v[:, 0], "y": v[:, 1], "z": v[:, 2],
                                        "gain_db": gain}, {"x": ".6f", "y": ".6f", "z": ".6f", "gain_db": ".4f"})


# ------------------------------------------------------------------------------------ language-model data

@writer
def dashcam(out: Path) -> None:
    """Embeddings of 250 dashcam crops: vehicle type and colour enter additively, plus noise."""
    rng = np.random.default_rng(5701)
    n = 250
    types = ["car", "van", "bus", "lorry", "bike"]
    colours = ["white", "black", "red", "blue", "grey"]
    t = rng.integers(0, 5, n)
    c = rng.integers(0, 5, n)
    pt, pc = rng.normal(0, 1, (5, 16)), rng.normal(0, 1, (5, 16))
    emb = pt[t] + pc[c] + 0.3 * rng.normal(0, 1, (n, 16))
    array(out / "dashcam_emb.npy", emb)
    table(out / "dashcam_labels.csv", {"frame": [f"f{100000 + 17 * i}" for i in range(n)],
                                       "camera": list(rng.choice(["front", "rear"], n)),
                                       "vehicle_type": [types[i] for i in t], "colour": [colours[i] for i in c]})


@writer
def timetable(out: Path) -> None:
    """Minutes between two clock times on a bus timetable."""
    rng = np.random.default_rng(5702)
    n = 600
    start = rng.integers(5 * 60, 21 * 60, n)
    gap = rng.integers(1, 180, n)
    end = start + gap
    queries = [f"from {s // 60:02d}:{s % 60:02d} to {e // 60:02d}:{e % 60:02d}" for s, e in zip(start, end, strict=True)]
    table(out / "timetable_gaps.csv", {"route": list(rng.choice(["12", "12A", "40", "X7"], n)),
                                       "query": queries, "gap_min": gap})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
