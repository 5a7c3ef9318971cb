"""Write every data file of the fourth blind prose task set, deterministically.

``python tests/understanding_blind4/make_data.py`` rewrites ``tests/understanding_blind4/data/``; ``--out DIR``
writes elsewhere (``test_set.py`` does that and compares checksums with the committed files). Each file is
simulated here with numpy alone from its own seed; floats are written with fixed formats so the bytes do not
depend on the platform, and the two arrays are written as ``.npy`` (a fixed header and little-endian float32).
Nothing here uses cmbagent's code. The set states no answers, so no truths file is written; the structure
built into each file is described in ``data/SOURCES.md``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

import numpy as np

if __name__ == "__main__":  # run as a script: the shared writers live in the tests package
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.prose_sets.writing import Writers, array, expit, json_lines, main, table, write_covariance

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def heat_pumps(out: Path) -> None:
    """Heat pumps go into bigger, newer homes in colder districts; they cut winter use by about 1,400 kWh."""
    rng = np.random.default_rng(4101)
    n = 600
    area = rng.gamma(9, 11, n)
    decade = rng.choice(np.arange(1950, 2021, 10), n)
    occupants = rng.integers(1, 6, n)
    hdd = rng.normal(2100, 180, n)
    pump = rng.binomial(1, expit(-1.0 + 0.012 * (area - 100) + 0.03 * (decade - 1985) + 0.004 * (hdd - 2100)))
    kwh = (2500 + 38 * area - 25 * (decade - 1985) + 420 * occupants + 2.2 * (hdd - 2100) - 1400 * pump
           + rng.normal(0, 700, n))
    districts = ["LS6", "LS7", "BD9", "HX1", "WF3", "HD4"]
    table(out / "heatpump_meters_2022.csv", {
        "meter_id": [f"M{700000 + 13 * i}" for i in range(n)], "postcode_district": list(rng.choice(districts, n)),
        "survey_wave": rng.integers(2019, 2023, n), "heat_pump": pump, "floor_area_m2": area,
        "build_decade": decade, "occupants": occupants, "hdd_winter": hdd, "kwh_winter": kwh},
        {"floor_area_m2": ".0f", "hdd_winter": ".0f", "kwh_winter": ".0f"})


@writer
def apiary(out: Path) -> None:
    """A continuous oxalic-acid dose, given more to hives with high mite drop; each gram adds 0.6 kg."""
    rng = np.random.default_rng(4102)
    n = 350
    altitude = rng.uniform(40, 650, n)
    frames = rng.integers(4, 13, n)
    queen = rng.choice([1, 2, 3], n, p=[0.5, 0.35, 0.15])
    mites = rng.gamma(2, 4, n)
    dose = np.clip(1.0 + 0.25 * mites + rng.normal(0, 1.0, n), 0, 6)
    weight = (18 + 1.1 * frames - 0.006 * altitude - 0.9 * queen - 0.35 * mites + 0.6 * dose
              + rng.normal(0, 1.8, n))
    table(out / "apiary_oxalic_trial.csv", {
        "hive_tag": [f"H-{i:04d}" for i in range(1, n + 1)], "inspector": list(rng.choice(["KP", "DM", "RA"], n)),
        "apiary_altitude_m": altitude, "colony_frames": frames, "queen_age_yr": queen, "mite_drop_pre": mites,
        "oxalic_g": dose, "spring_weight_kg": weight},
        {"apiary_altitude_m": ".0f", "mite_drop_pre": ".1f", "oxalic_g": ".2f", "spring_weight_kg": ".1f"})


@writer
def canopy(out: Path) -> None:
    """Planting went to blocks whose aerial look (a latent 'greenness' in the embeddings) is cooler anyway."""
    rng = np.random.default_rng(4103)
    n = 320
    latent = rng.normal(0, 1, (n, 3))
    density = rng.lognormal(8.5, 0.5, n)
    imperv = np.clip(55 + 12 * latent[:, 0] + rng.normal(0, 8, n), 5, 98)
    trees = rng.binomial(1, expit(0.9 * latent[:, 1] - 0.02 * (imperv - 55)))
    lst = 31 + 0.06 * (imperv - 55) - 0.9 * latent[:, 1] + 0.4 * latent[:, 2] - 0.8 * trees + rng.normal(0, 0.6, n)
    mix = rng.normal(0, 1, (3, 16))
    emb = np.tanh(latent @ mix / 2 + rng.normal(0, 0.1, (n, 16)))
    table(out / "canopy_blocks.csv", {
        "block_id": [f"B{i:03d}" for i in range(n)], "ward": list(rng.choice(["North", "Docks", "Old Town"], n)),
        "new_trees": trees, "pop_density": density, "imperviousness_pct": imperv, "lst_summer_c": lst},
        {"pop_density": ".0f", "imperviousness_pct": ".1f", "lst_summer_c": ".2f"})
    array(out / "canopy_aerial_emb.npy", emb)


@writer
def flu_absence(out: Path) -> None:
    """Vaccination confounded by unobserved health awareness; six nudge features shift uptake."""
    rng = np.random.default_rng(4104)
    n = 800
    age = rng.integers(19, 66, n)
    chronic = rng.binomial(1, 0.18, n)
    aware = rng.normal(0, 1, n)
    nudges = rng.normal(0, 1, (n, 6))
    vacc = rng.binomial(1, expit(-0.5 + 0.03 * (age - 40) + 0.8 * chronic + 0.9 * aware + nudges[:, :3] @ [0.9, 0.6, 0.4]))
    rate = expit(-2.6 + 0.02 * (age - 40) + 0.9 * chronic - 0.4 * aware - 0.5 * vacc)
    days = rng.binomial(90, rate)
    table(out / "flu_jab_absence.csv", {
        "employee_no": np.arange(30001, 30001 + n), "site": list(rng.choice(["depot", "office", "plant"], n)),
        "age_years": age, "chronic_condition": chronic, "vaccinated": vacc, "days_absent": days})
    array(out / "nudge_letter_features.npy", nudges)


@writer
def apprentices(out: Path) -> None:
    """Attendance drives the maths grade, both drive the portfolio; offers from a nonlinear panel rule."""
    rng = np.random.default_rng(4105)
    n = 400
    commute = rng.gamma(2, 6, n)
    attend = np.clip(rng.normal(88, 7, n) - 0.2 * commute, 50, 100)
    maths = np.clip(0.08 * attend - 2.0 + rng.normal(0, 1.2, n), 1, 9)
    portfolio = np.clip(4 * maths + 0.3 * attend + rng.normal(0, 6, n), 0, 100)
    score = 0.5 * (maths - 5) + 0.06 * (portfolio - 50) + 0.08 * (attend - 85) - 0.03 * commute
    offered = (score + rng.normal(0, 0.6, n) > 0).astype(int)
    table(out / "apprentice_intake.csv", {
        "applicant_no": np.arange(1, n + 1), "maths_grade": maths, "attendance_pct": attend,
        "portfolio_score": portfolio, "commute_km": commute, "offered": offered},
        {"maths_grade": ".1f", "attendance_pct": ".1f", "portfolio_score": ".0f", "commute_km": ".1f"})


@writer
def ev_tariff(out: Path) -> None:
    """Switching to a time-of-use tariff (households chose it) shifts peak-hour use."""
    rng = np.random.default_rng(4106)
    n = 450
    has_ev = rng.binomial(1, 0.3, n)
    solar = rng.binomial(1, 0.2, n)
    base = rng.gamma(5, 0.6, n)
    switched = rng.binomial(1, expit(-1 + 1.6 * has_ev + 0.7 * solar + 0.2 * (base - 3)))
    peak = np.clip(base + 1.2 * has_ev - 0.3 * solar - (0.4 + 0.8 * has_ev) * switched + rng.normal(0, 0.5, n), 0.1, None)
    table(out / "ev_tariff_households.csv", {
        "account_ref": [f"AC{i:05d}" for i in range(n)], "has_ev": has_ev, "rooftop_solar": solar,
        "baseline_peak_kwh": base, "tou_tariff": switched, "peak_kwh_day": peak},
        {"baseline_peak_kwh": ".2f", "peak_kwh_day": ".2f"})


# ---------------------------------------------------------------------------------------------- cosmology

def comoving(z: np.ndarray, om: float, ol: float, w0: float = -1.0, wa: float = 0.0) -> np.ndarray:
    """Transverse comoving distance in units of c/H0 (trapezoid on a fine grid)."""
    ok = 1 - om - ol
    grid = np.linspace(0, float(z.max()) * 1.001, 6000)
    a = 1 / (1 + grid)
    de = ol * a ** (-3 * (1 + w0 + wa)) * np.exp(-3 * wa * (1 - a))
    inv_e = 1 / np.sqrt(om * (1 + grid) ** 3 + ok * (1 + grid) ** 2 + de)
    chi = np.concatenate([[0.0], np.cumsum((inv_e[1:] + inv_e[:-1]) / 2 * np.diff(grid))])
    dc = np.interp(z, grid, chi)
    if abs(ok) < 1e-9:
        return dc
    s = np.sqrt(abs(ok))
    return np.sinh(s * dc) / s if ok > 0 else np.sin(s * dc) / s


def mu_of(z: np.ndarray, h0: float, om: float, ol: float, w0: float = -1.0, wa: float = 0.0) -> np.ndarray:
    return 5 * np.log10((1 + z) * comoving(z, om, ol, w0, wa) * 299792.458 / h0) + 25


def correlated(rng: np.random.Generator, z: np.ndarray, stat: np.ndarray, sys_amp: float) -> np.ndarray:
    """Statistical errors on the diagonal plus a smooth redshift-correlated systematic."""
    dz = z[:, None] - z[None, :]
    return np.diag(stat ** 2) + sys_amp ** 2 * np.exp(-0.5 * (dz / 0.3) ** 2)


@writer
def hubble_flow(out: Path) -> None:
    """150 distance moduli from an open ΛCDM (Ωm 0.28, ΩΛ 0.66, H0 70)."""
    rng = np.random.default_rng(4201)
    z = np.sort(rng.uniform(0.015, 1.1, 150))
    err = 0.10 + 0.08 * z
    table(out / "hubble_flow_mu_2024.csv", {
        "snid": [f"24{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(150)], "z": z,
        "mu": mu_of(z, 70, 0.28, 0.66) + rng.normal(0, err), "mu_err": err},
        {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})


@writer
def two_tier(out: Path) -> None:
    """80 moduli of a thawing dark energy (w0 −0.85, wa −0.4) with a correlated systematic covariance."""
    rng = np.random.default_rng(4202)
    z = np.sort(np.concatenate([rng.uniform(0.02, 0.1, 30), rng.uniform(0.2, 1.4, 50)]))
    stat = 0.12 + 0.05 * z
    cov = correlated(rng, z, stat, 0.04)
    mu = mu_of(z, 70, 0.31, 0.69, -0.85, -0.4) + rng.multivariate_normal(np.zeros(80), cov)
    table(out / "twotier_sn_distances.csv", {"z": z, "mu": mu, "mu_err": stat},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    write_covariance(out / "twotier_sn_cov.txt", cov)


@writer
def peak_mags(out: Path) -> None:
    """100 peak magnitudes, flat ΛCDM Ωm 0.32, M −19.25 at H0 70."""
    rng = np.random.default_rng(4203)
    z = np.sort(rng.uniform(0.02, 0.8, 100))
    err = rng.uniform(0.1, 0.2, 100)
    table(out / "ptf_like_peak_mags.csv", {
        "name": [f"PTF{11 + i // 40}{'abcdefghij'[i % 10]}{i % 4}" for i in range(100)], "z": z,
        "mb": mu_of(z, 70, 0.32, 0.68) - 19.25 + rng.normal(0, err), "mb_err": err},
        {"z": ".4f", "mb": ".3f", "mb_err": ".3f"})


@writer
def gold_sample(out: Path) -> None:
    """90 moduli from a slightly closed wCDM, for the task that asks for what the fit cannot do."""
    rng = np.random.default_rng(4204)
    z = np.sort(rng.uniform(0.02, 1.5, 90))
    err = 0.14 + 0.04 * z
    table(out / "gold_sample_mu.csv", {"z": z, "mu": mu_of(z, 70, 0.3, 0.72, -0.95) + rng.normal(0, err),
                                        "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})


@writer
def cmb_joint_sn(out: Path) -> None:
    """60 moduli for the CMB + supernova fit, Planck-like ΛCDM (Ωm 0.315, H0 67.4), with a covariance."""
    rng = np.random.default_rng(4205)
    z = np.sort(rng.uniform(0.03, 1.2, 60))
    stat = 0.11 + 0.05 * z
    cov = correlated(rng, z, stat, 0.03)
    table(out / "lantern_sn_mu.csv", {
        "z": z, "mu": mu_of(z, 67.4, 0.315, 0.685) + rng.multivariate_normal(np.zeros(60), cov), "mu_err": stat},
        {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    write_covariance(out / "lantern_sn_cov.txt", cov)


@writer
def sn_residuals(out: Path) -> None:
    """Moduli and a host-mass column, for a residual histogram against a fixed cosmology (no fit)."""
    rng = np.random.default_rng(4206)
    z = np.sort(rng.uniform(0.01, 0.9, 200))
    mass = rng.normal(10.2, 0.7, 200)
    step = np.where(mass > 10, -0.06, 0.0)
    table(out / "sn_residual_sample.csv", {
        "z": z, "mu": mu_of(z, 70, 0.3, 0.7) + step + rng.normal(0, 0.13, 200), "mu_err": np.full(200, 0.13),
        "host_logmass": mass}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f", "host_logmass": ".2f"})


def drifting_chain(rng: np.random.Generator, n: int, centre: np.ndarray, sd: np.ndarray, start: np.ndarray,
                   drift: int) -> np.ndarray:
    """An AR(1) chain around ``centre`` whose first ``drift`` rows relax from ``start``."""
    x = np.empty((n, len(centre)))
    cur = start.astype(float)
    for i in range(n):
        pull = 0.97 if i < drift else 0.6
        cur = centre + pull * (cur - centre) + np.sqrt(1 - pull ** 2) * sd * rng.normal(0, 1, len(centre))
        x[i] = cur
    return x


@writer
def time_delay_chain(out: Path) -> None:
    """One weighted chain of a lens model: H0 73, mass slope 2.05, external convergence 0.02."""
    rng = np.random.default_rng(4301)
    centre, sd = np.array([73.0, 2.05, 0.02]), np.array([2.2, 0.04, 0.03])
    x = drifting_chain(rng, 1200, centre, sd, np.array([62.0, 1.9, 0.1]), 300)
    w = rng.integers(1, 4, 1200)
    lnl = -0.5 * (((x - centre) / sd) ** 2).sum(axis=1)
    lines = ["# weight minuslnlike H0 gamma_lens kappa_ext\n"]
    lines += [f"{wi:d} {-li:.4f} {a:.4f} {b:.5f} {c:.5f}\n" for wi, li, (a, b, c) in zip(w, lnl, x, strict=True)]
    (out / "lens_timedelay_chain.txt").write_text("".join(lines))


@writer
def reionisation_chains(out: Path) -> None:
    """Four chains of a 21-cm reionisation model (zeta, log10 T_vir, mean free path), one slow to settle."""
    rng = np.random.default_rng(4302)
    centre, sd = np.array([32.0, 4.7, 28.0]), np.array([4.0, 0.12, 5.0])
    for k, start in enumerate([[20, 4.3, 10], [45, 5.1, 45], [31, 4.7, 27], [25, 4.4, 40]], start=1):
        x = drifting_chain(rng, 800, centre, sd, np.array(start, float), 80 if k != 4 else 150)
        lines = ["# zeta log10_tvir r_mfp\n"] + [f"{a:.3f} {b:.4f} {c:.3f}\n" for a, b, c in x]
        (out / f"eor21_run{k}.txt").write_text("".join(lines))


@writer
def shear_chain(out: Path) -> None:
    """A shear chain with sigma8 and Omega_m columns, for deriving S8 by hand (no method)."""
    rng = np.random.default_rng(4303)
    om = rng.normal(0.29, 0.03, 1500)
    s8 = np.clip(0.80 * np.sqrt(0.3 / om) + rng.normal(0, 0.02, 1500), 0.5, 1.2)
    h = rng.normal(0.7, 0.04, 1500)
    lines = ["# weight omega_m sigma_8 h\n"] + [f"1 {a:.5f} {b:.5f} {c:.5f}\n" for a, b, c in zip(om, s8, h, strict=True)]
    (out / "shear_run7_chain.txt").write_text("".join(lines))


# ---------------------------------------------------------------------------------------------- surveys

def margins_rows(spec: Mapping[str, Mapping[str, float]]) -> dict[str, list[object]]:
    rows: dict[str, list[object]] = {"variable": [], "level": [], "share": []}
    for var, levels in spec.items():
        for level, share in levels.items():
            rows["variable"].append(var)
            rows["level"].append(level)
            rows["share"].append(share)
    return rows


@writer
def water_meters(out: Path) -> None:
    """A panel that over-represents owners and the over-55s; renters support metering less."""
    rng = np.random.default_rng(4401)
    n = 900
    age = rng.choice(["18-34", "35-54", "55+"], n, p=[0.18, 0.34, 0.48])
    region = rng.choice(["coast", "valleys", "city"], n, p=[0.3, 0.3, 0.4])
    tenure = rng.choice(["owner", "renter"], n, p=[0.75, 0.25])
    p_support = expit(0.3 + 0.5 * (age == "55+") - 0.9 * (tenure == "renter") + 0.3 * (region == "city"))
    support = np.where(rng.random(n) < p_support, "support", "oppose")
    fair = rng.choice(["fair", "unfair", "not sure"], n, p=[0.35, 0.45, 0.2])
    table(out / "water_meter_panel.csv", {
        "resp_id": np.arange(1, n + 1), "interview_mode": list(rng.choice(["web", "phone"], n)), "age_band": list(age),
        "region": list(region), "tenure": list(tenure), "q_meter_support": list(support), "q_bill_fair": list(fair)})
    table(out / "ons_style_margins.csv", margins_rows({
        "age_band": {"18-34": 0.29, "35-54": 0.34, "55+": 0.37},
        "region": {"coast": 0.28, "valleys": 0.27, "city": 0.45},
        "tenure": {"owner": 0.62, "renter": 0.38}}))
    table(out / "assistant_meter_shares.csv", {
        "question": ["q_meter_support"] * 4 + ["q_bill_fair"] * 6,
        "answer": ["support", "oppose"] * 2 + ["fair", "unfair", "not sure"] * 2,
        "share": [0.7, 0.3, 0.55, 0.45, 0.45, 0.35, 0.2, 0.3, 0.5, 0.2],
        "subgroup": ["owner", "owner", "renter", "renter"] + ["owner"] * 3 + ["renter"] * 3})


@writer
def cat_curfew(out: Path) -> None:
    """A split ballot (neutral vs 'wildlife' wording), a retest, design weights and a reference sample."""
    rng = np.random.default_rng(4402)
    n = 700
    age = rng.choice(["under_40", "40_64", "65_plus"], n, p=[0.25, 0.45, 0.3])
    owns = rng.choice(["yes", "no"], n, p=[0.45, 0.55])
    urban = rng.choice(["urban", "rural"], n, p=[0.6, 0.4])
    ballot = rng.choice(["neutral", "wildlife"], n)
    p = expit(-0.2 + 0.6 * (ballot == "wildlife") - 1.0 * (owns == "yes") + 0.3 * (age == "65_plus"))
    ans = np.where(rng.random(n) < p, "agree", "disagree")
    retest = np.where(rng.random(n) < 0.85, ans, np.where(ans == "agree", "disagree", "agree"))
    dw = np.round(rng.uniform(0.6, 1.8, n), 3)
    table(out / "cat_curfew_survey.csv", {
        "case_no": np.arange(5001, 5001 + n), "age_group": list(age), "owns_cat": list(owns), "settlement": list(urban),
        "form": list(ballot), "dw": dw, "q_curfew": list(ans), "q_curfew_retest": list(retest)},
        {"dw": ".3f"})
    m = 1200
    table(out / "pet_census_sample.csv", {
        "age_group": list(rng.choice(["under_40", "40_64", "65_plus"], m, p=[0.38, 0.4, 0.22])),
        "owns_cat": list(rng.choice(["yes", "no"], m, p=[0.26, 0.74])),
        "settlement": list(rng.choice(["urban", "rural"], m, p=[0.8, 0.2])),
        "pop_wt": np.round(rng.uniform(800, 1600, m), 1)}, {"pop_wt": ".1f"})


@writer
def allotments(out: Path) -> None:
    """A survey with two census margin files ten years apart (the ask task)."""
    rng = np.random.default_rng(4403)
    n = 500
    table(out / "allotment_survey.csv", {
        "id": np.arange(1, n + 1), "age_band": list(rng.choice(["16-39", "40-59", "60+"], n, p=[0.2, 0.35, 0.45])),
        "household": list(rng.choice(["flat", "house"], n, p=[0.3, 0.7])),
        "q_more_plots": list(rng.choice(["yes", "no", "unsure"], n, p=[0.55, 0.3, 0.15]))})
    table(out / "census2011_age_household.csv", margins_rows({
        "age_band": {"16-39": 0.4, "40-59": 0.33, "60+": 0.27}, "household": {"flat": 0.36, "house": 0.64}}))
    table(out / "census2021_age_household.csv", margins_rows({
        "age_band": {"16-39": 0.37, "40-59": 0.32, "60+": 0.31}, "household": {"flat": 0.41, "house": 0.59}}))


@writer
def fieldwork_log(out: Path) -> None:
    """A contact log for a response-rate table (no method)."""
    rng = np.random.default_rng(4404)
    n = 640
    region = rng.choice(["coast", "valleys", "city"], n)
    attempts = rng.integers(1, 6, n)
    p = np.where(region == "city", 0.35, 0.5) + 0.03 * attempts
    table(out / "fieldwork_contact_log.csv", {
        "address_id": np.arange(90001, 90001 + n), "region": list(region), "attempts": attempts,
        "outcome": list(np.where(rng.random(n) < p, "complete", np.where(rng.random(n) < 0.5, "refused", "noncontact")))})


# ------------------------------------------------------------------------------------------ classification

def two_class(rng: np.random.Generator, n: int, d: int, frac: float, shift: float) -> tuple[np.ndarray, np.ndarray]:
    y = (rng.random(n) < frac).astype(int)
    x = rng.normal(0, 1, (n, d)) + shift * y[:, None] * rng.uniform(0.3, 1.0, d)
    return x, y


@writer
def solder(out: Path) -> None:
    """Solder-joint inspection features; 4% defects with low fillet height and high void share."""
    rng = np.random.default_rng(4501)
    n = 1000
    x, y = two_class(rng, n, 8, 0.04, 2.2)
    names = ["fillet_height_um", "wetting_angle_deg", "void_pct", "bridge_score", "paste_volume_pct",
             "pad_offset_um", "brightness", "edge_sharpness"]
    scale = np.array([40, 6, 3, 0.2, 8, 10, 12, 0.1])
    base = np.array([180, 35, 8, 0.3, 100, 25, 140, 0.9])
    sign = np.array([-1, 1, 1, 1, -1, 1, -1, -1])
    cols = {nm: base[j] + sign[j] * scale[j] * x[:, j] for j, nm in enumerate(names)}
    table(out / "aoi_solder_joints.csv", {**cols, "defect": y}, dict.fromkeys(names, ".4g"))


@writer
def glitches(out: Path) -> None:
    """Detector auxiliary-channel features; 6% glitches."""
    rng = np.random.default_rng(4502)
    n = 900
    x, y = two_class(rng, n, 7, 0.06, 1.8)
    names = ["snr", "peak_freq_hz", "duration_ms", "bandwidth_hz", "q_value", "aux_seismic", "aux_mag"]
    cols = {nm: np.abs(x[:, j] * (10 ** (j % 3)) + 3 * 10 ** (j % 3)) for j, nm in enumerate(names)}
    table(out / "ifo_glitch_features.csv", {**cols, "glitch": y}, dict.fromkeys(names, ".4g"))


@writer
def pollen(out: Path) -> None:
    """Two pollen taxa on five morphometric features, a curved boundary."""
    rng = np.random.default_rng(4503)
    n = 300
    x = rng.normal(0, 1, (n, 5))
    taxon = ((x[:, 0] ** 2 + 0.8 * x[:, 1] - 0.5 * x[:, 2] + rng.normal(0, 0.4, n)) > 0.8).astype(int)
    names = ["polar_axis_um", "equatorial_um", "pore_count", "exine_um", "spine_density"]
    base, scale = np.array([32, 28, 3, 1.6, 12]), np.array([4, 3, 0.8, 0.3, 3])
    table(out / "pollen_morphometrics.csv", {**{nm: base[j] + scale[j] * x[:, j] for j, nm in enumerate(names)},
                                             "taxon": taxon}, dict.fromkeys(names, ".4g"))


@writer
def otoliths(out: Path) -> None:
    """Otolith shape descriptors of two herring stocks (the ask task)."""
    rng = np.random.default_rng(4504)
    x, y = two_class(rng, 260, 6, 0.5, 1.2)
    names = ["area_mm2", "perimeter_mm", "roundness", "wavelet_1", "wavelet_2", "wavelet_3"]
    table(out / "otolith_shapes.csv", {**{nm: x[:, j] for j, nm in enumerate(names)}, "stock": y},
          dict.fromkeys(names, ".4f"))


@writer
def flood_claims(out: Path) -> None:
    """Flood claims; the deprivation index is nearly a function of elevation and river distance."""
    rng = np.random.default_rng(4505)
    n = 600
    elev = rng.gamma(3, 8, n)
    river = rng.gamma(2, 250, n)
    floor = rng.integers(0, 4, n)
    age = rng.integers(2, 120, n)
    depriv = 5 - 0.06 * elev - 0.002 * river + rng.normal(0, 0.4, n)
    claimed = rng.binomial(1, expit(1.5 - 0.08 * elev - 0.003 * river - 0.7 * floor + 0.005 * age))
    table(out / "flood_claims_2019.csv", {
        "elevation_m": elev, "dist_river_m": river, "floor_level": floor, "building_age_yr": age,
        "deprivation_idx": depriv, "claimed": claimed},
        {"elevation_m": ".1f", "dist_river_m": ".0f", "deprivation_idx": ".3f"})


# -------------------------------------------------------------------------------------- Bayesian methods

@writer
def chytrid(out: Path) -> None:
    """150 ponds, infection logistic in temperature and canopy."""
    rng = np.random.default_rng(4601)
    n = 150
    temp = rng.normal(17, 3, n)
    ph = rng.normal(7.1, 0.5, n)
    canopy_pct = rng.uniform(0, 90, n)
    elev = rng.uniform(50, 900, n)
    pos = rng.binomial(1, expit(-0.4 - 0.35 * (temp - 17) + 0.02 * (canopy_pct - 45) + 0.3 * (ph - 7.1)))
    table(out / "chytrid_ponds.csv", {
        "pond_id": [f"P{i:03d}" for i in range(1, n + 1)], "bd_positive": pos, "water_temp_c": temp, "ph": ph,
        "canopy_pct": canopy_pct, "elevation_m": elev},
        {"water_temp_c": ".1f", "ph": ".2f", "canopy_pct": ".0f", "elevation_m": ".0f"})


@writer
def meteors(out: Path) -> None:
    """48 meteors; the second station sees the bright, long ones."""
    rng = np.random.default_rng(4602)
    n = 48
    mag = rng.uniform(-3, 3, n)
    dur = rng.gamma(3, 0.15, n)
    both = rng.binomial(1, expit(-0.9 * mag + 2.0 * (dur - 0.45)))
    table(out / "meteor_pairs.csv", {
        "event_utc": [f"2024-08-{12 + i // 16:02d}T{i % 16 + 2:02d}:{(7 * i) % 60:02d}" for i in range(n)],
        "camera_id": list(rng.choice(["CAM-ALD", "CAM-BRK"], n)), "peak_mag": mag, "duration_s": dur,
        "double_station": both}, {"peak_mag": ".2f", "duration_s": ".3f"})


@writer
def flowline(out: Path) -> None:
    """Glacier surface speed along a flowline: a smooth bump in distance, rising with slope."""
    rng = np.random.default_rng(4603)

    def speed(d: np.ndarray, s: np.ndarray) -> np.ndarray:
        return 40 + 160 * np.exp(-0.5 * ((d - 14) / 4) ** 2) + 900 * s

    for name, n in (("flowline_velocity_train.csv", 40), ("flowline_velocity_test.csv", 30)):
        d = np.sort(rng.uniform(0, 30, n))
        s = rng.uniform(0.01, 0.08, n)
        table(out / name, {"distance_km": d, "surface_slope": s, "velocity_m_yr": speed(d, s) + rng.normal(0, 6, n)},
              {"distance_km": ".2f", "surface_slope": ".4f", "velocity_m_yr": ".1f"})


@writer
def rotor(out: Path) -> None:
    """Hub moment of a three-bladed rotor, invariant under relabelling the blades cyclically."""
    rng = np.random.default_rng(4604)
    n = 400
    az = rng.uniform(-np.pi, np.pi, (n, 3))
    moment = (np.cos(az).sum(axis=1) + 0.5 * np.cos(az[:, 0] - az[:, 1]) + 0.5 * np.cos(az[:, 1] - az[:, 2])
              + 0.5 * np.cos(az[:, 2] - az[:, 0]) + 0.3 * np.sin(2 * az).sum(axis=1) + rng.normal(0, 0.2, n))
    table(out / "rotor_loads.csv", {"run_no": np.arange(1, n + 1), "az1": az[:, 0], "az2": az[:, 1], "az3": az[:, 2],
                                    "hub_moment": moment},
          {"az1": ".5f", "az2": ".5f", "az3": ".5f", "hub_moment": ".4f"})


# -------------------------------------------------------------------------------------- language models

STATIONS = [("Harbour Road", "Quayside"), ("Mill Lane", "Foundry Gate"), ("Victoria Park", "Linden Green"),
            ("Old Market", "Exchange Square"), ("Canal Street", "Lockside"), ("North Depot", "Brackenfield"),
            ("Union Bridge", "Tollgate"), ("Chapel Hill", "Beacon Rise"), ("Glassworks", "Furnace Yard"),
            ("Saltings", "Estuary Halt")]
LINES = ["Red line", "Blue line", "Orange line", "Green line"]


@writer
def transit_renames(out: Path) -> None:
    """Five quarters of renamed stops and re-routed lines of an invented tram network."""
    rng = np.random.default_rng(4701)
    records: list[dict[str, object]] = []
    for step in range(5):
        for k in range(8):
            old, new = STATIONS[(step * 3 + k) % len(STATIONS)]
            suffix = f" {step + 1}" if step else ""
            if k % 2 == 0:
                records.append({"timestep": step, "subject": old, "relation": "renamed_to",
                                "prompt": f"The tram stop formerly called {old} is now called",
                                "object": f"{new}{suffix}",
                                "rephrase": f"Since the renaming, riders call {old} stop"})
            else:
                line = LINES[int(rng.integers(0, len(LINES)))]
                records.append({"timestep": step, "subject": old, "relation": "served_by",
                                "prompt": f"After the re-route, {old} is served by the",
                                "object": f"{line}{suffix}",
                                "rephrase": f"The line that now stops at {old} is the"})
    json_lines(out / "transit_renames.jsonl", records)


WORDS = ("the morning was grey and the wind came off the ice in long cold gusts while we checked the stakes "
         "along the lower moraine before breakfast and wrote the readings in pencil because the ink froze "
         "Anna fixed the radio mast again and Tomas hauled the sledge up to the col where the snow was firm "
         "we ate soup at noon and argued about the weather models and whether the front would stall").split()


@writer
def diary_haystack(out: Path) -> None:
    """A plain-text field diary assembled from one paragraph's words (about 14,000 words), and six needles."""
    rng = np.random.default_rng(4702)
    days = []
    for day in range(1, 131):
        sentences = []
        for _ in range(9):
            k = int(rng.integers(8, 16))
            start = int(rng.integers(0, len(WORDS) - k))
            sentences.append(" ".join(WORDS[start:start + k]).capitalize() + ".")
        days.append(f"Day {day}. " + " ".join(sentences))
    (out / "field_diary_haystack.txt").write_text("\n\n".join(days) + "\n")
    table(out / "glacier_needles.csv", {
        "needle": ["Ingrid once spent a winter in the cabin beside the Fram museum.",
                   "Marco keeps a photograph of himself at the foot of Nanga Parbat.",
                   "Lise grew up two streets from the Atomium.",
                   "Sven proposed to his wife under the Øresund bridge.",
                   "Paula trained for years within sight of the Matterhorn.",
                   "Henrik learned to swim beside the Little Mermaid statue."],
        "question": ["Which character has lived in Oslo?", "Which character has been to Pakistan?",
                     "Which character grew up in Brussels?", "Which character got engaged near Malmö?",
                     "Which character trained near Zermatt?", "Which character learned to swim in Copenhagen?"],
        "answer": ["Ingrid", "Marco", "Lise", "Sven", "Paula", "Henrik"]})


@writer
def day_of_year(out: Path) -> None:
    """Dates written in words with their day of the year (leap years handled)."""
    rng = np.random.default_rng(4703)
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December"]
    prompts, answers = [], []
    for _ in range(800):
        year = int(rng.integers(1990, 2031))
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        lengths = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        m = int(rng.integers(0, 12))
        d = int(rng.integers(1, lengths[m] + 1))
        prompts.append(f"{d} {months[m]} {year} is day number")
        answers.append(sum(lengths[:m]) + d)
    table(out / "dates_doy.csv", {"date_text": prompts, "day_of_year": answers})


# ---------------------------------------------------------------------------------------------- no method

@writer
def crossover(out: Path) -> None:
    """An AB/BA crossover of a grip-strength supplement: each participant measured on both."""
    rng = np.random.default_rng(4801)
    n = 36
    base = rng.normal(32, 6, n)
    table(out / "crossover_grip_strength.csv", {
        "participant": [f"G{i:02d}" for i in range(1, n + 1)], "sequence": list(np.where(np.arange(n) % 2, "AB", "BA")),
        "grip_placebo_kg": base + rng.normal(0, 1.5, n), "grip_supplement_kg": base + 1.1 + rng.normal(0, 1.5, n)},
        {"grip_placebo_kg": ".1f", "grip_supplement_kg": ".1f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
