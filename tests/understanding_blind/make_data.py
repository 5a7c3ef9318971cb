"""Write every data file of the blind prose task set, deterministically.

``python tests/understanding_blind/make_data.py`` rewrites ``tests/understanding_blind/data/``; ``--out DIR``
writes elsewhere (``test_set.py`` does that and compares checksums with the committed files). Each file is
simulated here with numpy alone from its own seed; floats are written with fixed formats so the bytes do not
depend on the platform. Nothing here uses cmbagent's code. This set states no answers, so no truths file is
written; the structure built into each file is described in ``data/SOURCES.md``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

if __name__ == "__main__":  # run as a script: the shared writers live in the tests package
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.prose_sets.writing import Writers, expit, json_lines, main, table

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def reef_transects(out: Path) -> None:
    """No-take zones placed on deeper, better-covered reefs far from ports; protection adds biomass."""
    rng = np.random.default_rng(3101)
    n = 412
    depth = rng.uniform(2, 18, n)
    coral = np.clip(rng.beta(3, 4, n), 0.02, 0.95)
    port = rng.gamma(3, 6, n)
    wave = rng.uniform(0, 1, n)
    no_take = rng.binomial(1, expit(-2.2 + 0.08 * depth + 2.5 * coral + 0.04 * port))
    biomass = (300 + 12 * depth + 900 * coral + 6 * port - 150 * wave + 160 * no_take
               + rng.normal(0, 120, n))
    table(out / "reef_transects_2023.csv", {
        "site_id": [f"RT{i:03d}" for i in range(1, n + 1)], "surveyed_year": rng.integers(2019, 2024, n),
        "no_take": no_take, "depth_m": depth, "coral_cover_frac": coral, "dist_port_km": port,
        "wave_exposure": wave, "biomass_kg_ha": biomass},
        {"depth_m": ".1f", "coral_cover_frac": ".3f", "dist_port_km": ".1f", "wave_exposure": ".2f",
         "biomass_kg_ha": ".0f"})


ROLES = ["data analyst", "site engineer", "nurse practitioner", "warehouse supervisor", "backend developer",
         "account manager", "laboratory technician", "policy officer"]
LEVEL_WORDS = {1: "junior", 2: "mid-level", 3: "senior", 4: "lead"}
PERKS = ["flexible hours", "a pension match", "a training budget", "private health cover", "a cycle scheme",
         "generous leave"]


@writer
def job_ads(out: Path) -> None:
    """Salary disclosure raises applications by about 12; senior and remote adverts disclose more often."""
    rng = np.random.default_rng(3102)
    n = 300
    level = rng.integers(1, 5, n)
    remote = rng.binomial(1, 0.35, n)
    role = rng.integers(0, len(ROLES), n)
    urgent = rng.binomial(1, 0.3, n)
    shown = rng.binomial(1, expit(-1.0 + 0.4 * level + 0.6 * remote + 0.8 * urgent))
    applicants = np.maximum(0, np.round(25 - 3 * level + 10 * remote + 15 * urgent + 12 * shown
                                        + rng.normal(0, 6, n))).astype(int)
    texts = []
    for i in range(n):
        perks = rng.choice(PERKS, 2, replace=False)
        opener = "Immediate start." if urgent[i] else "We are growing the team."
        where = "Fully remote within the UK." if remote[i] else "Based at our city-centre office."
        texts.append(f"{opener} {LEVEL_WORDS[int(level[i])].capitalize()} {ROLES[role[i]]} wanted. {where} "
                     f"We offer {perks[0]} and {perks[1]}.")
    table(out / "job_ads_salary.csv", {
        "ad_id": [f"JA-{i:04d}" for i in range(n)], "salary_shown": shown, "remote_ok": remote,
        "seniority_level": level, "ad_text": texts, "applicants_30d": applicants})


@writer
def seed_adoption(out: Path) -> None:
    """Drought-tolerant seed, yield share in [0, 1], five radio-exposure instruments; skill confounds."""
    rng = np.random.default_rng(3103)
    n = 900
    farm = rng.gamma(2, 1.2, n)
    age = rng.integers(22, 75, n)
    radio = rng.uniform(0, 1, (n, 5))
    skill = rng.normal(0, 1, n)
    adopt = rng.binomial(1, expit(-1 + 1.5 * radio[:, 0] + 1.0 * radio[:, 2] - 0.5 * radio[:, 4] + 0.8 * skill
                                  + 0.1 * farm))
    share = np.clip(0.45 + 0.12 * adopt + 0.08 * skill - 0.002 * (age - 45) + 0.02 * farm
                    + rng.normal(0, 0.1, n), 0, 1)
    cols: dict[str, Sequence[object] | np.ndarray] = {"hh_id": np.arange(1, n + 1), "farm_size_ha": farm,
                                                        "head_age": age}
    for j in range(5):
        cols[f"radio_z{j + 1}"] = radio[:, j]
    cols |= {"adopted_dts": adopt, "yield_share": share}
    table(out / "seed_adoption_survey.csv", cols, {"farm_size_ha": ".2f", "yield_share": ".3f",
                                                   **{f"radio_z{j + 1}": ".3f" for j in range(5)}})


@writer
def daycase(out: Path) -> None:
    """Pre-assessment measurements; rows 3, 18 and 40 fail the clinic's linear day-case screen."""
    rng = np.random.default_rng(3104)
    n = 60
    age = rng.integers(25, 80, n).astype(float)
    bmi = np.round(rng.normal(27, 4, n), 1)
    sbp = np.round(95 + 0.4 * age + 0.9 * bmi + rng.normal(0, 8, n))
    hba1c = np.round(3.6 + 0.07 * bmi + rng.normal(0, 0.4, n), 1)
    for row in (3, 18, 40):
        age[row] += 8
        bmi[row] = round(bmi[row] + 6, 1)
        sbp[row] += 12
        hba1c[row] = round(hba1c[row] + 0.8, 1)
    score = 9.5 - 0.03 * age - 0.12 * bmi - 0.02 * sbp - 0.4 * hba1c
    assert all(score[r] < 0 for r in (3, 18, 40)) and (score > 0).sum() >= 10
    table(out / "daycase_eligibility.csv", {
        "patient_no": np.arange(1001, 1001 + n), "age_years": age.astype(int), "bmi": bmi,
        "systolic_bp": sbp.astype(int), "hba1c": hba1c}, {"bmi": ".1f", "hba1c": ".1f"})


@writer
def shelter_backtest(out: Path) -> None:
    """A risk model's predicted shelter nights against realised nights (high is bad), R² about 0.3."""
    rng = np.random.default_rng(3105)
    n = 2000
    latent = rng.normal(0, 1, n)
    pred = 20 + 12 * (0.55 * latent + np.sqrt(1 - 0.55 ** 2) * rng.normal(0, 1, n))
    nights = np.maximum(0, np.round(25 + 18 * latent))
    table(out / "shelter_risk_backtest.csv", {
        "household": np.arange(1, n + 1), "predicted_shelter_days": np.maximum(pred, 0),
        "shelter_days_next_yr": nights.astype(int)}, {"predicted_shelter_days": ".1f"})


# ------------------------------------------------------------------------------------------------ cosmology

def comoving(z: np.ndarray, om: float, ol: float, w: float = -1.0) -> np.ndarray:
    """Transverse comoving distance in c/H0 units for a curved background (trapezoid integral)."""
    grid = np.linspace(0.0, float(np.max(z)) * 1.001, 20001)
    ok = 1 - om - ol
    e = np.sqrt(om * (1 + grid) ** 3 + ok * (1 + grid) ** 2 + ol * (1 + grid) ** (3 * (1 + w)))
    inv = 1 / e
    chi = np.interp(z, grid, np.concatenate([[0.0], np.cumsum(0.5 * (inv[1:] + inv[:-1]) * np.diff(grid))]))
    if abs(ok) < 1e-8:
        return chi
    s = np.sqrt(abs(ok))
    return np.sinh(s * chi) / s if ok > 0 else np.sin(s * chi) / s


@writer
def lowz_moduli(out: Path) -> None:
    """180 distance moduli, curved LCDM (Omega_m 0.30, Omega_L 0.72), H0 = 72."""
    rng = np.random.default_rng(3106)
    n = 180
    z = np.sort(np.concatenate([rng.uniform(0.015, 0.1, 60), rng.uniform(0.1, 0.8, 120)]))
    mu = 5 * np.log10((1 + z) * comoving(z, 0.30, 0.72) * 299792.458 / 72.0) + 25
    err = rng.uniform(0.1, 0.2, n)
    table(out / "snia_distance_moduli_lowz.csv", {
        "name": [f"sim{i:03d}" for i in range(n)], "zcmb": z, "mu": mu + rng.normal(0, err), "dmu": err},
        {"zcmb": ".5f", "mu": ".4f", "dmu": ".3f"})


@writer
def deepfield_mb(out: Path) -> None:
    """150 SALT-style peak magnitudes in flat wCDM (Omega_m 0.3, w = -0.9), M = -19.3."""
    rng = np.random.default_rng(3107)
    n = 150
    z = np.sort(rng.uniform(0.05, 1.1, n))
    zhel = z + rng.normal(0, 0.0005, n)
    mu = 5 * np.log10((1 + zhel) * comoving(z, 0.3, 0.7, -0.9) * 299792.458 / 70.0) + 25
    err = rng.uniform(0.08, 0.18, n)
    table(out / "deepfield_sn_mb.csv", {"zcmb": z, "zhel": zhel, "mb": mu - 19.3 + rng.normal(0, err),
                                        "dmb": err}, {"zcmb": ".5f", "zhel": ".5f", "mb": ".4f", "dmb": ".3f"})


@writer
def cluster_chains(out: Path) -> None:
    """Three weighted chains of a cluster-count fit (Omega_m, S8, sigma8, h), started at different points."""
    for k, (start, seed) in enumerate([((0.38, 0.70), 3108), ((0.22, 0.86), 3109), ((0.31, 0.81), 3110)]):
        rng = np.random.default_rng(seed)
        n = 1000
        cov = np.array([[0.02 ** 2, -0.6 * 0.02 * 0.018], [-0.6 * 0.02 * 0.018, 0.018 ** 2]])
        draws = rng.multivariate_normal([0.30, 0.79], cov, n)
        drift = np.clip(1 - np.arange(n) / 250, 0, 1)[:, None]
        draws = draws + drift * (np.array(start) - np.array([0.30, 0.79]))
        om, s8 = draws[:, 0], draws[:, 1]
        sigma8 = s8 / np.sqrt(om / 0.3)
        h = rng.normal(0.70, 0.03, n)
        weight = rng.integers(1, 5, n)
        mlp = 0.5 * ((om - 0.3) / 0.02) ** 2 + 0.5 * ((s8 - 0.79) / 0.018) ** 2 + rng.gamma(2, 0.5, n)
        lines = ["# weight minuslogpost Omega_m S8 sigma8 h"]
        lines += [f"{w:d} {a:.4f} {b:.5f} {c:.5f} {d:.5f} {e:.4f}"
                  for w, a, b, c, d, e in zip(weight, mlp, om, s8, sigma8, h, strict=True)]
        (out / f"cluster_chain_{'abc'[k]}.txt").write_text("\n".join(lines) + "\n")


@writer
def camb_cls(out: Path) -> None:
    """An analytic stand-in for a CAMB lensed C_ell table (not CAMB output): ell, TT, EE, BB, TE in muK^2."""
    ell = np.arange(2, 2501)
    x = ell / 220.0
    dl_tt = 1000 * (1 + 4.5 * np.exp(-((ell - 220) / 90) ** 2)) * np.exp(-ell / 1400) + 200 * (
        1 + np.cos(np.pi * (x - 1) * 1.1)) * np.exp(-ell / 1100)
    dl_ee = 40 * np.exp(-ell / 1200) * (1 + np.cos(np.pi * (x - 0.5) * 1.1)) + 0.02
    dl_bb = 0.1 * (ell / 1000) ** 1.5 * np.exp(-ell / 2000)
    dl_te = 120 * np.sin(np.pi * (x - 0.3) * 1.1) * np.exp(-ell / 900)
    to_cl = 2 * np.pi / (ell * (ell + 1))
    lines = ["#    L    TT             EE             BB             TE"]
    lines += [f"{lv:6d} {a:.6e} {b:.6e} {c:.6e} {d:.6e}" for lv, a, b, c, d in
              zip(ell, dl_tt * to_cl, dl_ee * to_cl, dl_bb * to_cl, dl_te * to_cl, strict=True)]
    (out / "camb_lensed_cls_run3.dat").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------- anomaly and robustness

@writer
def quasar_bal(out: Path) -> None:
    """1,200 quasar spectra summaries; 3% broad-absorption-line objects with deep, wide troughs."""
    rng = np.random.default_rng(3111)
    n = 1200
    bal = np.zeros(n, dtype=int)
    bal[rng.choice(n, 36, replace=False)] = 1
    civ = rng.normal(30, 8, n) - 25 * bal + rng.normal(0, 3, n) * bal
    siiv = rng.normal(8, 3, n) - 6 * bal
    trough = np.abs(rng.normal(0, 200, n)) + bal * rng.gamma(4, 600, n)
    slope = rng.normal(-1.5, 0.4, n) + 0.6 * bal
    fwhm = rng.lognormal(np.log(4500), 0.3, n)
    snr = rng.gamma(5, 3, n)
    table(out / "quasar_bal_features.csv", {
        "civ_ew_a": civ, "siiv_ew_a": siiv, "trough_width_kms": trough, "cont_slope": slope,
        "fwhm_civ_kms": fwhm, "snr_median": snr, "is_bal": bal},
        {"civ_ew_a": ".2f", "siiv_ew_a": ".2f", "trough_width_kms": ".0f", "cont_slope": ".3f",
         "fwhm_civ_kms": ".0f", "snr_median": ".1f"})


@writer
def seismic(out: Path) -> None:
    """600 regional events, quarry blasts (shallow, high P/S) against earthquakes."""
    rng = np.random.default_rng(3112)
    n = 600
    blast = rng.binomial(1, 0.4, n)
    table(out / "seismic_discriminants.csv", {
        "ps_ratio_lo": rng.normal(0.0, 0.3, n) + 0.5 * blast, "ps_ratio_hi": rng.normal(-0.2, 0.3, n) + 0.3 * blast,
        "depth_km": np.abs(rng.normal(9, 5, n)) * (1 - 0.8 * blast) + 0.3,
        "complexity": rng.normal(1.0, 0.25, n) - 0.2 * blast, "spectral_ratio": rng.normal(0.4, 0.2, n),
        "is_blast": blast}, {"ps_ratio_lo": ".3f", "ps_ratio_hi": ".3f", "depth_km": ".2f", "complexity": ".3f",
                             "spectral_ratio": ".3f"})


@writer
def landslides(out: Path) -> None:
    """800 mapped cells; slope and rainfall drive failures, road distance is correlated with slope."""
    rng = np.random.default_rng(3113)
    n = 800
    slope = rng.uniform(2, 45, n)
    rain = rng.gamma(3, 25, n)
    ndvi = np.clip(rng.normal(0.55, 0.15, n), 0, 1)
    soil = rng.gamma(2, 0.6, n)
    road = np.maximum(5, 1500 - 25 * slope + rng.normal(0, 250, n))
    curv = rng.normal(0, 1, n)
    slide = rng.binomial(1, expit(-6 + 0.12 * slope + 0.015 * rain - 2 * ndvi + 0.4 * soil - 0.0004 * road))
    table(out / "landslide_inventory.csv", {
        "slope_deg": slope, "rain72_mm": rain, "ndvi": ndvi, "soil_depth_m": soil, "dist_road_m": road,
        "plan_curvature": curv, "slide": slide},
        {"slope_deg": ".1f", "rain72_mm": ".1f", "ndvi": ".3f", "soil_depth_m": ".2f", "dist_road_m": ".0f",
         "plan_curvature": ".3f"})


@writer
def hydrophone(out: Path) -> None:
    """400 acoustic clicks, dolphin against other sources."""
    rng = np.random.default_rng(3114)
    n = 400
    dolphin = rng.binomial(1, 0.5, n)
    table(out / "hydrophone_click_features.csv", {
        "peak_freq_khz": rng.normal(45, 12, n) + 30 * dolphin, "duration_ms": rng.gamma(2, 0.2, n) + 0.1 * dolphin,
        "bandwidth_khz": rng.normal(20, 6, n) + 15 * dolphin, "ici_ms": rng.gamma(3, 30, n) - 20 * dolphin,
        "is_dolphin": dolphin}, {"peak_freq_khz": ".2f", "duration_ms": ".3f", "bandwidth_khz": ".2f", "ici_ms": ".1f"})


# ----------------------------------------------------------------------------------------------- bayes

@writer
def nests(out: Path) -> None:
    """150 songbird nests; predation falls with height and cover and rises near the edge."""
    rng = np.random.default_rng(3115)
    n = 150
    height = rng.gamma(3, 0.5, n)
    cover = rng.uniform(5, 95, n)
    edge = rng.gamma(2, 20, n)
    pred = rng.binomial(1, expit(0.8 - 0.6 * height - 0.02 * cover + 0.5 - 0.015 * edge))
    table(out / "nest_predation_2022.csv", {
        "nest_id": [f"N22-{i:03d}" for i in range(1, n + 1)], "nest_height_m": height, "cover_pct": cover,
        "dist_edge_m": edge, "predated": pred}, {"nest_height_m": ".2f", "cover_pct": ".0f", "dist_edge_m": ".1f"})


@writer
def trout(out: Path) -> None:
    """52 juvenile trout from one pass: two age cohorts, means 6 and 11 cm, sd 1 cm, equal halves."""
    rng = np.random.default_rng(3116)
    n = 52
    cohort = np.repeat([0, 1], n // 2)
    rng.shuffle(cohort)
    length = np.where(cohort == 0, 6.0, 11.0) + rng.normal(0, 1, n)
    weight = 0.011 * length ** 3 * np.exp(rng.normal(0, 0.08, n))
    table(out / "trout_lengths_pass2.csv", {"fish_no": np.arange(1, n + 1), "length_cm": length,
                                            "weight_g": weight}, {"length_cm": ".1f", "weight_g": ".1f"})


@writer
def soil_chambers(out: Path) -> None:
    """Soil CO2 efflux against temperature and moisture (Q10-like, moisture optimum), two months."""
    rng = np.random.default_rng(3117)
    for name, n in (("soil_chamber_train.csv", 70), ("soil_chamber_validation.csv", 40)):
        temp = rng.uniform(4, 24, n)
        vwc = rng.uniform(10, 45, n)
        flux = 1.2 * 2.0 ** ((temp - 10) / 10) * np.exp(-((vwc - 28) / 14) ** 2) + rng.normal(0, 0.15, n)
        table(out / name, {"chamber_id": rng.integers(1, 9, n), "soil_temp_c": temp, "vwc_pct": vwc,
                           "co2_flux_umol": flux}, {"soil_temp_c": ".2f", "vwc_pct": ".1f", "co2_flux_umol": ".3f"})


@writer
def antenna(out: Path) -> None:
    """Gain on the sphere, invariant under 60-degree rotations about z and under x -> -x."""
    rng = np.random.default_rng(3118)
    n = 600
    u = rng.normal(0, 1, (n, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    phi = np.arctan2(u[:, 1], u[:, 0])
    gain = 8 * u[:, 2] + 4 * u[:, 2] ** 2 + 1.5 * np.cos(6 * phi) * (1 - u[:, 2] ** 2) ** 3 + rng.normal(0, 0.3, n)
    table(out / "antenna_pattern_samples.csv", {"ux": u[:, 0], "uy": u[:, 1], "uz": u[:, 2], "gain_db": gain},
          {"ux": ".5f", "uy": ".5f", "uz": ".5f", "gain_db": ".3f"})


# -------------------------------------------------------------------------------------------- language

LIBRARIES = ["quillstream", "ferrodb", "tangletree", "mossgrid", "pebbleauth", "lanternq", "driftcache",
             "owlmetrics", "cinderhttp", "maplekit"]


@writer
def release_facts(out: Path) -> None:
    """Sixty invented library releases over six monthly timesteps, each with a rephrasing."""
    rng = np.random.default_rng(3119)
    records = []
    versions = {lib: [int(rng.integers(1, 4)), int(rng.integers(0, 10))] for lib in LIBRARIES}
    for t in range(6):
        for lib in LIBRARIES:
            major, minor = versions[lib]
            if rng.random() < 0.25:
                major, minor = major + 1, 0
            else:
                minor += 1
            versions[lib] = [major, minor]
            records.append({"timestep": t, "subject": lib,
                            "prompt": f"The latest stable release of {lib} is version",
                            "object": f"{major}.{minor}",
                            "rephrase": f"Which version of {lib} is the current stable one?"})
    json_lines(out / "package_release_facts.jsonl", records)


FRAGMENTS = [("C", 1), ("CC", 2), ("C(C)", 2), ("O", 0), ("N", 0), ("C(=O)", 1), ("c1ccccc1", 6), ("CCC", 3),
             ("Cl", 0), ("C(F)(F)F", 1), ("S", 0), ("C#N", 1)]


@writer
def smiles_counts(out: Path) -> None:
    """800 fragment-built SMILES strings and their carbon-atom counts (Cl contributes none)."""
    rng = np.random.default_rng(3120)
    prompts, counts = [], []
    for _ in range(800):
        parts = [FRAGMENTS[i] for i in rng.integers(0, len(FRAGMENTS), int(rng.integers(2, 7)))]
        parts = [("C", 1), *parts]
        smiles = "".join(p for p, _ in parts)
        prompts.append(f"Carbon atoms in {smiles} =")
        counts.append(sum(c for _, c in parts))
    table(out / "smiles_carbon_counts.csv", {"smiles_prompt": prompts, "n_carbons": counts})


REVIEWS = [("Arrived quickly and works exactly as described", "positive"),
           ("Stopped charging after two days", "negative"), ("Comfortable, but the strap feels cheap", "mixed"),
           ("Best purchase I have made this year", "positive"), ("Customer service never replied", "negative"),
           ("Does the job; nothing special", "mixed"), ("The colours are even nicer in person", "positive"),
           ("Box was crushed and a part was missing", "negative")]


@writer
def review_prompts(out: Path) -> None:
    """Forty short product reviews with a sentiment label, as instruction/label rows."""
    rng = np.random.default_rng(3121)
    records = []
    for i in range(40):
        text, label = REVIEWS[int(rng.integers(0, len(REVIEWS)))]
        records.append({"prompt": f"Review #{i + 1}: \"{text}.\" Sentiment (positive, negative or mixed):",
                        "label": label})
    json_lines(out / "review_sentiment_prompts.jsonl", records)


# --------------------------------------------------------------------------------------------- surveys

REGIONS = ["north", "south", "east", "west"]
AGES = ["18-34", "35-54", "55+"]
ANSWERS = ["support", "neutral", "oppose"]


@writer
def rewilding(out: Path) -> None:
    """Two waves of a rewilding panel (young and northern respondents under-covered), census margins and an
    assistant's answer shares."""
    rng = np.random.default_rng(3122)
    rows: dict[str, list[object]] = {k: [] for k in ("resp_id", "wave", "region", "age_band", "dw",
                                                     "wolves_return", "beaver_release")}
    rid = 0
    for wave, shift in ((2022, 0.0), (2024, 0.35)):
        for _ in range(600):
            rid += 1
            region = REGIONS[int(rng.choice(4, p=[0.15, 0.35, 0.25, 0.25]))]
            age = AGES[int(rng.choice(3, p=[0.2, 0.35, 0.45]))]
            lean = (0.6 if age == "18-34" else 0.0) - (0.5 if region == "north" else 0.0) + shift
            wolves = ANSWERS[int(rng.choice(3, p=np.exp([lean, 0.2, -lean]) / np.exp([lean, 0.2, -lean]).sum()))]
            beaver = ANSWERS[int(rng.choice(3, p=np.exp([lean + 0.8, 0.0, -lean]) /
                                            np.exp([lean + 0.8, 0.0, -lean]).sum()))]
            for key, value in (("resp_id", rid), ("wave", wave), ("region", region), ("age_band", age),
                               ("dw", float(rng.uniform(0.6, 1.6))), ("wolves_return", wolves),
                               ("beaver_release", beaver)):
                rows[key].append(value)
    table(out / "rewilding_survey_waves.csv", rows, {"dw": ".3f"})
    margins = [("region", r, s) for r, s in zip(REGIONS, [0.3, 0.3, 0.2, 0.2], strict=True)]
    margins += [("age_band", a, s) for a, s in zip(AGES, [0.3, 0.35, 0.35], strict=True)]
    table(out / "rewilding_census_margins.csv", {"variable": [m[0] for m in margins],
                                                 "level": [m[1] for m in margins], "share": [m[2] for m in margins]},
          {"share": ".2f"})
    model = [("wolves_return", "support", 0.55), ("wolves_return", "neutral", 0.30), ("wolves_return", "oppose", 0.15),
             ("beaver_release", "support", 0.70), ("beaver_release", "neutral", 0.20),
             ("beaver_release", "oppose", 0.10)]
    table(out / "assistant_rewilding_answers.csv", {"question": [m[0] for m in model], "answer": [m[1] for m in model],
                                                    "share": [m[2] for m in model]}, {"share": ".2f"})


# ---------------------------------------------------------------------------- tasks that need no method

@writer
def rr_lyrae(out: Path) -> None:
    """300 V-band epochs of an RRab star, period 0.5672 d, irregular cadence."""
    rng = np.random.default_rng(3123)
    n = 300
    t = np.sort(2459000 + rng.uniform(0, 120, n))
    phase = ((t - t[0]) / 0.5672) % 1
    v = 15.2 + 0.45 * (np.where(phase < 0.15, -phase / 0.15, (phase - 0.15) / 0.85 - 1) + 0.5)
    err = rng.uniform(0.01, 0.03, n)
    table(out / "rr_lyrae_field7.csv", {"hjd": t, "v_mag": v + rng.normal(0, err), "v_err": err},
          {"hjd": ".5f", "v_mag": ".4f", "v_err": ".4f"})


@writer
def checkout_ab(out: Path) -> None:
    """A coin-flip A/B test of a checkout page: basket value and conversion."""
    rng = np.random.default_rng(3124)
    n = 1000
    arm = np.where(rng.random(n) < 0.5, "A", "B")
    basket = rng.gamma(4, 12, n) * np.where(arm == "B", 1.05, 1.0)
    converted = rng.binomial(1, np.where(arm == "B", 0.13, 0.11))
    table(out / "checkout_ab_test.csv", {"user_id": np.arange(50001, 50001 + n), "arm": list(arm),
                                         "basket_value_eur": basket, "converted": converted},
          {"basket_value_eur": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
