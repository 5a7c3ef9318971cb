"""Write every data file of the twenty-fourth blind prose task set, deterministically.

``python tests/understanding_blind24/make_data.py`` rewrites the set's ``data/``; how every set's script runs
and how its writers fix the bytes: ``tests/prose_sets/writing.py``. The set states no answers, so no truths
file is written; the structure built into each file is described in the docstring of its writer
(``data/SOURCES.md`` points here).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

if __name__ == "__main__":  # run as a script: the shared writers live in the tests package
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.prose_sets.writing import (
    Writers,
    ar_chain,
    array,
    correlated_cov,
    distance_modulus,
    expit,
    gzip_text,
    json_lines,
    main,
    npy_bytes,
    npz,
    ordered,
    table,
    write_covariance,
)

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def dairy_footbath(out: Path) -> None:
    """Dairy cows: a copper footbath routine (binary) was used more on older, high-yield cows early in lactation;
    it shortens the days lame over the winter by about 2.5."""
    rng = np.random.default_rng(24101)
    n = 420
    parity = rng.integers(1, 7, n)
    milk = rng.normal(32, 6, n)
    dim = rng.uniform(5, 300, n)
    bath = rng.binomial(1, expit(0.25 * (parity - 3) + 0.04 * (milk - 32) - 0.002 * (dim - 150)))
    lame = np.clip(9 - 2.5 * bath + 1.2 * (parity - 3) + 0.15 * (milk - 32) - 0.01 * (dim - 150)
                   + rng.normal(0, 2.5, n), 0, None)
    table(out / "herd_footbath_winter.csv", {
        "cow": [f"C{i:04d}" for i in range(n)], "parity": parity, "milk_kg": milk, "days_in_milk": dim,
        "footbath": bath, "lame_days": lame},
        {"milk_kg": ".1f", "days_in_milk": ".0f", "lame_days": ".1f"})


@writer
def vineyard_irrigation(out: Path) -> None:
    """Vineyard blocks: irrigation (mm over the season, continuous) went to young vines on shallow soils and
    steep slopes; each mm lowers the harvest sugar (degrees Brix) by about 0.008."""
    rng = np.random.default_rng(24102)
    n = 300
    age = rng.uniform(3, 40, n)
    slope = rng.uniform(0, 25, n)
    soil = rng.uniform(30, 150, n)
    irr = np.clip(90 - 1.2 * (age - 20) + 1.5 * (slope - 12) - 0.5 * (soil - 90) + rng.normal(0, 25, n), 0, None)
    brix = 23 - 0.008 * irr + 0.04 * (age - 20) + 0.05 * (slope - 12) - 0.01 * (soil - 90) + rng.normal(0, 0.6, n)
    table(out / "block_water_brix.csv", {
        "block": [f"B{i:03d}" for i in range(n)], "vine_age": age, "slope_pct": slope, "soil_depth_cm": soil,
        "irrigation_mm": irr, "brix": brix},
        {"vine_age": ".0f", "slope_pct": ".1f", "soil_depth_cm": ".0f", "irrigation_mm": ".0f", "brix": ".2f"})


@writer
def textile_consolidant(out: Path) -> None:
    """Museum textiles: a consolidant (binary) was applied mostly to fragile objects, whose fragility shows only
    in image embeddings (24 columns, a linear image of it plus noise); it lowers the flaking score by about 1.2."""
    rng = np.random.default_rng(24103)
    n = 320
    age = rng.uniform(50, 400, n)
    rh = rng.normal(50, 6, n)
    frail = rng.normal(0, 1, n)
    treat = rng.binomial(1, expit(1.3 * frail + 0.003 * (age - 200)))
    flake = 5 - 1.2 * treat + 1.5 * frail + 0.004 * (age - 200) + 0.03 * (rh - 50) + rng.normal(0, 0.7, n)
    load = rng.normal(0, 1, 24)
    emb = np.outer(frail, load) + rng.normal(0, 0.5, (n, 24))
    table(out / "tapestry_flaking_survey.csv", {
        "object": [f"T{i:04d}" for i in range(n)], "object_age_years": age, "gallery_rh_pct": rh,
        "consolidant": treat, "flake_score": flake},
        {"object_age_years": ".0f", "gallery_rh_pct": ".1f", "flake_score": ".2f"})
    array(out / "tapestry_photo_vectors.npy", emb)


@writer
def rail_grinding(out: Path) -> None:
    """Rail segments, tab-separated without a header row: segment, tonnage, curve radius, rail age, whether the
    segment was ground (binary; more on tight, heavily used curves) and defects per km; grinding removes about
    0.4 defects per km."""
    rng = np.random.default_rng(24104)
    n = 500
    ton = rng.gamma(4, 6, n)
    radius = rng.uniform(300, 3000, n)
    age = rng.uniform(1, 35, n)
    grind = rng.binomial(1, expit(0.06 * (ton - 24) - 0.0012 * (radius - 1600)))
    defects = np.clip(1.5 - 0.4 * grind + 0.03 * (ton - 24) - 0.0004 * (radius - 1600) + 0.02 * (age - 18)
                      + rng.normal(0, 0.35, n), 0, None)
    table(out / "track_segments_export.tsv", {
        "seg": [f"S{i:04d}" for i in range(n)], "ton": ton, "rad": radius, "age": age, "grind": grind,
        "def": defects}, {"ton": ".1f", "rad": ".0f", "age": ".1f", "def": ".2f"}, sep="\t", header=False)


# ------------------------------------------------------------------------------------------------ surveys

REGION = ["upland", "lowland", "coastal"]
HIVES = ["1_5", "6_20", "21_plus"]
TREAT = ["yes", "sometimes", "no"]
WORRY = ["very", "somewhat", "not"]


@writer
def beekeepers(out: Path) -> None:
    """Beekeepers asked in two waves (2023, 2025) about varroa treatment and pesticide worry, with design
    weights; larger operations over-respond; a reference sample from the apiary register with its own weights.
    Treating rises between waves."""
    rng = np.random.default_rng(24105)
    rows = {k: [] for k in ("keeper", "wave", "base_wt", "region", "hive_band", "q_varroa_treat",
                            "q_pesticide_worry")}
    for wave, n, shift in ((2023, 380, 0.0), (2025, 420, 0.9)):
        region = rng.choice(REGION, n, p=[0.3, 0.45, 0.25])
        hives = rng.choice(HIVES, n, p=[0.4, 0.35, 0.25])
        s1 = shift + 0.6 * (hives != "1_5") + 0.2 * (region == "lowland")
        s2 = 0.5 * (region == "lowland") - 0.2 * (hives == "21_plus")
        rows["keeper"] += [f"K{wave}{i:03d}" for i in range(n)]
        rows["wave"] += [wave] * n
        rows["base_wt"] += list(rng.uniform(0.5, 2.0, n))
        rows["region"] += list(region)
        rows["hive_band"] += list(hives)
        rows["q_varroa_treat"] += ordered(rng, s1, TREAT, (-0.4, 0.7))
        rows["q_pesticide_worry"] += ordered(rng, s2, WORRY, (-0.5, 0.6))
    table(out / "apiary_two_wave_panel.csv", rows, {"base_wt": ".3f"})
    m = 900
    table(out / "apiary_register_draw.csv", {
        "region": rng.choice(REGION, m, p=[0.35, 0.4, 0.25]), "hive_band": rng.choice(HIVES, m, p=[0.7, 0.22, 0.08]),
        "reg_wt": rng.uniform(0.8, 1.25, m)}, {"reg_wt": ".3f"})


AGEB = ["under_30", "30_64", "65_up"]
CARD = ["adult", "concession"]
SUNDAY = ["open", "no_pref", "closed"]
FINES = ["abolish", "reduce", "keep"]


@writer
def library_users(out: Path) -> None:
    """Library users asked about Sunday opening and overdue fines; older card holders over-respond; census
    margins for age band and card type; a chatbot's answer shares per question, as a whole and in the persona
    of each age band."""
    rng = np.random.default_rng(24106)
    n = 520
    age = rng.choice(AGEB, n, p=[0.15, 0.4, 0.45])
    card = rng.choice(CARD, n, p=[0.6, 0.4])
    s1 = 0.8 * (age == "under_30") - 0.3 * (age == "65_up")
    s2 = 0.6 * (card == "concession") + 0.3 * (age == "under_30")
    table(out / "library_users_poll.csv", {
        "resp": np.arange(1, n + 1), "age_band": age, "card_type": card,
        "q_sunday": ordered(rng, s1, SUNDAY, (-0.4, 0.5)), "q_fines": ordered(rng, s2, FINES, (-0.2, 1.0))})
    table(out / "borough_card_margins.csv", {
        "variable": ["age_band"] * 3 + ["card_type"] * 2, "level": AGEB + CARD,
        "share": [0.34, 0.48, 0.18, 0.7, 0.3]}, {"share": ".2f"})
    q, a, s, g = [], [], [], []
    shares = {"": ([0.6, 0.25, 0.15], [0.35, 0.4, 0.25]), "under_30": ([0.75, 0.15, 0.10], [0.55, 0.3, 0.15]),
              "30_64": ([0.6, 0.25, 0.15], [0.3, 0.45, 0.25]), "65_up": ([0.35, 0.3, 0.35], [0.2, 0.35, 0.45])}
    for group, (sun, fin) in shares.items():
        for question, answers, sh in (("q_sunday", SUNDAY, sun), ("q_fines", FINES, fin)):
            q += [question] * 3
            a += answers
            s += sh
            g += [group] * 3
    table(out / "chatbot_persona_answers.csv", {"question": q, "answer": a, "share": s, "subgroup": g},
          {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def ferry_engine(out: Path) -> None:
    """Ferry main-engine crossings, unlabelled: exhaust temperature spread, lube oil pressure, crankcase
    pressure, fuel rack and vibration; about 3% of crossings carry an injector fault (not marked)."""
    rng = np.random.default_rng(24107)
    n = 600
    bad = rng.random(n) < 0.03
    table(out / "ferry_engine_crossings.csv", {
        "egt_spread_c": rng.gamma(6, 3, n) + 35 * bad, "lube_bar": rng.normal(4.2, 0.2, n) - 0.5 * bad,
        "crankcase_mbar": rng.normal(1.0, 0.3, n) + 1.2 * bad * rng.random(n),
        "rack_pct": rng.normal(68, 6, n), "vib_mm_s": rng.gamma(5, 0.8, n) + 3 * bad},
        {"egt_spread_c": ".1f", "lube_bar": ".2f", "crankcase_mbar": ".2f", "rack_pct": ".1f", "vib_mm_s": ".2f"})


@writer
def salmon_pens(out: Path) -> None:
    """Salmon pen days: oxygen, temperature, feed taken, lice count, current and turbidity; die-off days
    (die_off 1, about 6%) show low oxygen, warm water and poor feeding."""
    rng = np.random.default_rng(24108)
    n = 1500
    bad = rng.random(n) < 0.06
    table(out / "pen_daily_sensors.csv", {
        "oxygen_mg_l": rng.normal(8.5, 0.8, n) - 2.0 * bad * rng.random(n),
        "temp_c": rng.normal(11, 2, n) + 3 * bad * rng.random(n),
        "feed_pct": rng.normal(92, 5, n) - 25 * bad * rng.random(n), "lice_per_fish": rng.gamma(2, 0.3, n),
        "current_cm_s": rng.gamma(4, 3, n), "turbidity_ntu": rng.gamma(2, 1, n) + 2 * bad * rng.random(n),
        "die_off": bad},
        {"oxygen_mg_l": ".2f", "temp_c": ".1f", "feed_pct": ".1f", "lice_per_fish": ".2f", "current_cm_s": ".1f",
         "turbidity_ntu": ".2f"})


@writer
def seismic_glitches(out: Path) -> None:
    """Seismometer station windows: eight spectral and amplitude features; about 5% are instrument glitches
    (y = 1). Arrays X and y."""
    rng = np.random.default_rng(24109)
    n = 1000
    y = (rng.random(n) < 0.05).astype(np.int64)
    x = rng.normal(0, 1, (n, 8))
    x[y == 1] += rng.normal(0, 1.2, (int(y.sum()), 8)) + np.array([2.0, -1.0, 0.0, 1.5, 0.0, 0.0, -0.8, 1.0])
    npz(out / "station_window_features.npz", {"X": npy_bytes(x), "y": npy_bytes(y, "<i8")})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def honey_nmr(out: Path) -> None:
    """Honey samples: five NMR marker intensities; authentic honey (authentic 1) is separated from syrup-cut
    honey by a nearly linear rule."""
    rng = np.random.default_rng(24110)
    n = 600
    x = rng.normal(0, 1, (n, 5))
    score = 1.4 * x[:, 0] - 0.9 * x[:, 1] + 0.6 * x[:, 3] + rng.normal(0, 0.5, n)
    table(out / "honey_nmr_markers.csv", {
        "proline": x[:, 0], "hmf": x[:, 1], "sucrose": x[:, 2], "diastase": x[:, 3], "moisture": x[:, 4],
        "authentic": (score > 0).astype(int)}, {k: ".3f" for k in ("proline", "hmf", "sucrose", "diastase", "moisture")})


@writer
def avalanche_days(out: Path) -> None:
    """Avalanche forecast days: new snow, wind, temperature trend, weak-layer depth; avalanche days (y = 1) lie
    inside a curved region. Arrays X and y."""
    rng = np.random.default_rng(24111)
    n = 700
    x = rng.normal(0, 1, (n, 4))
    y = ((x[:, 0] ** 2 + 0.8 * x[:, 1] ** 2 + 0.5 * x[:, 2]) < 1.4).astype(np.int64)
    npz(out / "slope_day_snowpack.npz", {"X": npy_bytes(x), "y": npy_bytes(y, "<i8")})


@writer
def loaf_collapse(out: Path) -> None:
    """Bakery loaves: collapse (collapsed 1) driven by proof time and hydration; flour protein matters through
    hydration (bakers add water to strong flour)."""
    rng = np.random.default_rng(24112)
    n = 650
    protein = rng.normal(12, 1, n)
    hydr = 65 + 2.5 * (protein - 12) + rng.normal(0, 2, n)
    proof = rng.normal(75, 12, n)
    oven = rng.normal(230, 8, n)
    amb = rng.normal(22, 3, n)
    p = expit(-1 + 0.05 * (proof - 75) + 0.25 * (hydr - 65) + 0.15 * (protein - 12) + 0.1 * (amb - 22))
    table(out / "bake_log_loaves.csv", {
        "proof_min": proof, "hydration_pct": hydr, "oven_c": oven, "flour_protein_pct": protein,
        "ambient_c": amb, "collapsed": rng.binomial(1, p)},
        {"proof_min": ".0f", "hydration_pct": ".1f", "oven_c": ".0f", "flour_protein_pct": ".2f", "ambient_c": ".1f"})


# ------------------------------------------------------------------------------------------------ chains

@writer
def glacier_chain(out: Path) -> None:
    """A weighted chain of an ice-flow model (Glen exponent, log10 rate factor, basal slip ratio) with a
    CosmoSIS-style header, gzip-compressed; it starts away from the centre and settles in about 150 rows."""
    rng = np.random.default_rng(24113)
    centre = np.array([3.1, -24.2, 0.35])
    x = ar_chain(rng, 2400, centre, np.array([0.15, 0.12, 0.04]), np.array([4.0, -23.0, 0.6]), 150.0)
    w = rng.integers(1, 4, 2400)
    post = -0.5 * (((x - centre) / np.array([0.15, 0.12, 0.04])) ** 2).sum(1) - 120
    gzip_text(out / "icefield_flowlaw_chain.txt.gz",
              "#flow_law--glen_n\tflow_law--log10_a\tbasal--slip_ratio\tweight\tpost\n"
              + "".join(f"{r[0]:.4f}\t{r[1]:.4f}\t{r[2]:.4f}\t{k}\t{p:.3f}\n" for r, k, p in zip(x, w, post,
                                                                                             strict=True)))


@writer
def pk_chains(out: Path) -> None:
    """Two chains of a one-compartment pharmacokinetic model (clearance CL, volume V, absorption ka, residual
    sigma) after the sampler's own warm-up: they start at the centre."""
    rng = np.random.default_rng(24114)
    centre = np.array([4.2, 38.0, 1.1, 0.22])
    sd = np.array([0.3, 2.5, 0.12, 0.02])
    for tag in ("one", "two"):
        x = ar_chain(rng, 1200, centre, sd, centre, 1.0)
        (out / f"vanco_pk_chain_{tag}.txt").write_text(
            "# CL V ka sigma\n" + "".join(f"{r[0]:.4f} {r[1]:.3f} {r[2]:.4f} {r[3]:.4f}\n" for r in x))


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def wcdm_mock(out: Path) -> None:
    """110 distance moduli of a flat wCDM mock (Omega_m 0.30, w -0.9) out to z 1.4; diagonal errors."""
    rng = np.random.default_rng(24115)
    n = 110
    z = np.sort(rng.uniform(0.02, 1.4, n))
    err = rng.uniform(0.08, 0.13, n)
    mu = distance_modulus(z, 0.30, w0=-0.9) + rng.normal(0, err)
    table(out / "w_course_mock_mu.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def magnitude_mock(out: Path) -> None:
    """90 peak magnitudes (mb = mu + M, M = -19.3 at H0 70) of a flat LCDM mock (Omega_m 0.32) to z 1.0."""
    rng = np.random.default_rng(24116)
    n = 90
    z = np.sort(rng.uniform(0.015, 1.0, n))
    err = rng.uniform(0.1, 0.15, n)
    mb = distance_modulus(z, 0.32) - 19.3 + rng.normal(0, err)
    table(out / "peak_mag_survey.csv", {"z": z, "mb": mb, "mb_err": err},
          {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})


@writer
def joint_w_sn(out: Path) -> None:
    """50 distance moduli of a flat LCDM mock (Omega_m 0.31, w -1) to z 1.2 with a correlated covariance, for a
    CMB + supernova fit with constant w."""
    rng = np.random.default_rng(24117)
    n = 50
    z = np.sort(rng.uniform(0.02, 1.2, n))
    err = rng.uniform(0.07, 0.11, n)
    cov = correlated_cov(z, err, 0.02, 0.4)
    mu = distance_modulus(z, 0.31) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "deep_field_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    write_covariance(out / "deep_field_sn_cov.txt", cov)


# ------------------------------------------------------------------------------------------------ bayes

@writer
def colony_losses(out: Path) -> None:
    """Honeybee colonies over winter: loss (colony_lost 1) rises with mite load and falls with stores."""
    rng = np.random.default_rng(24118)
    n = 250
    mites = rng.gamma(2, 1.5, n)
    stores = rng.normal(18, 4, n)
    alt = rng.uniform(50, 900, n)
    lost = rng.binomial(1, expit(-1.0 + 0.6 * (mites - 3) - 0.25 * (stores - 18)))
    table(out / "overwinter_colony_checks.csv", {
        "varroa_per_100": mites, "winter_stores_kg": stores, "apiary_altitude_m": alt, "colony_lost": lost},
        {"varroa_per_100": ".1f", "winter_stores_kg": ".1f", "apiary_altitude_m": ".0f"})


@writer
def ferry_delays(out: Path) -> None:
    """48 crossings: arrival minus timetable (minutes), a half-and-half mixture of two unit-variance humps at
    -2 and +3 (two berths)."""
    rng = np.random.default_rng(24119)
    n = 48
    which = rng.random(n) < 0.5
    dev = np.where(which, -2.0, 3.0) + rng.normal(0, 1, n)
    table(out / "harbour_arrival_offsets.csv", {"sailing": [f"F{i:03d}" for i in range(n)], "offset_min": dev},
          {"offset_min": ".2f"})


@writer
def glacier_stakes(out: Path) -> None:
    """Ablation stakes on a glacier: surface speed (m/a) smooth in along- and across-flow position; 38 stakes
    to train on and 22 check stakes in a second file."""
    rng = np.random.default_rng(24120)
    for name, n in (("stake_speeds_2024.csv", 38), ("stake_speeds_check.csv", 22)):
        along = rng.uniform(0, 6, n)
        across = rng.uniform(-1, 1, n)
        v = 40 + 12 * np.sin(along / 1.5) - 25 * across ** 2 + rng.normal(0, 1.0, n)
        table(out / name, {"along_km": along, "across_km": across, "speed_m_a": v},
              {"along_km": ".3f", "across_km": ".3f", "speed_m_a": ".2f"})


@writer
def radome_pattern(out: Path) -> None:
    """Gain of an antenna under a hexagonal radome at 800 directions (unit vectors): the pattern is unchanged
    by a sixth of a turn about the vertical and by mirroring through the horizontal plane."""
    rng = np.random.default_rng(24121)
    n = 800
    v = rng.normal(0, 1, (n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    phi = np.arctan2(v[:, 1], v[:, 0])
    g = 2 * v[:, 2] ** 2 + 0.8 * np.cos(6 * phi) * (1 - v[:, 2] ** 2) ** 3 + rng.normal(0, 0.2, n)
    table(out / "radome_gain_directions.csv", {"ux": v[:, 0], "uy": v[:, 1], "uz": v[:, 2], "gain_db": g},
          {"ux": ".9f", "uy": ".9f", "uz": ".9f", "gain_db": ".4f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def coffee_loans(out: Path) -> None:
    """Smallholder coffee farms: farm size (ha) drives yield (t), which drives savings (k); the lender's rule
    is a fixed linear score (see the task)."""
    rng = np.random.default_rng(24122)
    n = 60
    farm = rng.gamma(3, 0.8, n)
    yld = 0.8 * farm + rng.normal(0, 1.0, n) + 1.0
    sav = 1.5 * yld + rng.normal(0, 2.0, n)
    table(out / "cooperative_farm_ledger.csv", {"farm_ha": farm, "yield_t": yld, "savings_k": sav},
          {"farm_ha": ".2f", "yield_t": ".2f", "savings_k": ".2f"})


@writer
def bus_pass(out: Path) -> None:
    """Residents: a free bus pass (binary) taken up more by those the rollout reached early (six instrument
    features in a separate array) and by keen walkers (unobserved); weekly active-travel minutes (0 to 300)
    with the true effect per resident in true_effect."""
    rng = np.random.default_rng(24123)
    n = 500
    age = rng.uniform(18, 80, n)
    car = rng.binomial(1, 0.55, n)
    z = rng.normal(0, 1, (n, 6))
    keen = rng.normal(0, 1, n)
    take = rng.binomial(1, expit(1.2 * z[:, 0] - 0.8 * z[:, 2] + 0.7 * keen - 0.5 * car))
    eff = 40 - 0.3 * (age - 50) - 15 * car
    mins = np.clip(120 + eff * take + 25 * keen - 30 * car - 0.5 * (age - 50) + rng.normal(0, 20, n), 0, 300)
    table(out / "bus_pass_residents.csv", {
        "age": age, "car_owner": car, "bus_pass": take, "active_min": mins, "true_effect": eff},
        {"age": ".0f", "active_min": ".0f", "true_effect": ".2f"})
    array(out / "rollout_instrument_matrix.npy", z)


@writer
def pharmacy_followup(out: Path) -> None:
    """Discharged patients: a risk score and the adverse drug events counted in the next 90 days (higher is
    worse), correlated about 0.55."""
    rng = np.random.default_rng(24124)
    n = 2000
    latent = rng.normal(0, 1, n)
    score = 0.55 * latent + np.sqrt(1 - 0.55 ** 2) * rng.normal(0, 1, n)
    events = np.round(np.exp(0.6 * latent) * 2 + rng.normal(0, 0.3, n), 1)
    table(out / "discharge_risk_events.csv", {"risk_score": score, "adverse_events": events},
          {"risk_score": ".3f", "adverse_events": ".1f"})


# ------------------------------------------------------------------------------------------------ lm

SPECIES = ["wren", "robin", "blackcap", "chiffchaff", "dunnock"]
CALLS = ["song", "alarm", "contact", "begging"]


@writer
def birdcall_vectors(out: Path) -> None:
    """360 bird-call clips embedded by an audio model (16 columns): each embedding is a species vector plus a
    call-type vector plus noise (additive); the labels file gives species and call type per row."""
    rng = np.random.default_rng(24125)
    sp_vec = rng.normal(0, 1, (5, 16))
    ct_vec = rng.normal(0, 1, (4, 16))
    sp = rng.integers(0, 5, 360)
    ct = rng.integers(0, 4, 360)
    emb = sp_vec[sp] + ct_vec[ct] + rng.normal(0, 0.4, (360, 16))
    array(out / "dawn_chorus_embeddings.npy", emb)
    table(out / "dawn_chorus_labels.csv", {"clip": [f"clip{i:03d}" for i in range(360)],
                                           "species": [SPECIES[i] for i in sp], "call_type": [CALLS[i] for i in ct]})


CURATORS = ["Ines Marlow", "Tomas Reyk", "Aiko Brandt", "Lena Okafor", "Pavel Sorn", "Marta Quist",
            "Olu Hendry", "Sara Vick", "Noor Castell", "Jon Ebbe", "Rui Falk", "Edda Lamm"]
MATERIALS = ["bronze", "silk", "glass", "pewter", "lacquer", "linen"]
ITEMS = ["astrolabe", "map", "ewer", "fan", "screen", "sampler"]
ROOMS = ["gallery 2", "gallery 5", "the north stores", "the paper vault", "the loans bay", "gallery 9"]


@writer
def registry_stream(out: Path) -> None:
    """Three monthly batches of collection-registry corrections, twelve distinct objects each (36 in all): who
    conserves an object or where it is kept; each edit has a rephrasing and an untouched fact (the year the
    object was acquired) for locality."""
    rng = np.random.default_rng(24126)
    objects = [f"{m} {i}" for m in MATERIALS for i in ITEMS]
    order = rng.permutation(len(objects))
    recs = []
    for j, k in enumerate(order):
        obj, t = objects[k], j // 12
        year = str(1850 + int(rng.integers(0, 150)))
        if j % 2 == 0:
            who = CURATORS[int(rng.integers(0, len(CURATORS)))]
            recs.append({"timestep": t, "subject": obj, "relation": "conservator",
                         "prompt": f"The conservator of the {obj} is", "object": who,
                         "rephrase": f"Who conserves the {obj}? It is",
                         "locality_prompt": f"The {obj} was acquired in", "locality_answer": year})
        else:
            room = ROOMS[int(rng.integers(0, len(ROOMS)))]
            recs.append({"timestep": t, "subject": obj, "relation": "location",
                         "prompt": f"The {obj} is kept in", "object": room,
                         "rephrase": f"You will find the {obj} in",
                         "locality_prompt": f"The {obj} was acquired in", "locality_answer": year})
    json_lines(out / "collection_registry_edits.jsonl", recs)


@writer
def dose_questions(out: Path) -> None:
    """600 weight-based dose questions: weight in kg times mg per kg, the answer in mg (whole numbers)."""
    rng = np.random.default_rng(24127)
    w = rng.integers(3, 60, 600)
    per = rng.choice([5, 10, 12, 15, 20], 600)
    table(out / "paediatric_dose_drills.csv", {
        "question": [f"{a} kg at {b} mg/kg =" for a, b in zip(w, per, strict=True)], "value": w * per})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def gravity_stations(out: Path) -> None:
    """Gravity meter readings over a buried Roman villa: station, easting, northing, elevation, observed gravity
    (mGal)."""
    rng = np.random.default_rng(24128)
    n = 120
    e = rng.uniform(0, 200, n)
    nn = rng.uniform(0, 150, n)
    h = 40 + 0.05 * e + rng.normal(0, 0.5, n)
    g = 980612.0 - 0.3086 * h + 0.15 * np.exp(-((e - 100) ** 2 + (nn - 70) ** 2) / 800) + rng.normal(0, 0.01, n)
    table(out / "villa_gravity_stations.csv", {"station": [f"G{i:03d}" for i in range(n)], "easting_m": e,
                                               "northing_m": nn, "elev_m": h, "g_obs_mgal": g},
          {"easting_m": ".1f", "northing_m": ".1f", "elev_m": ".2f", "g_obs_mgal": ".3f"})


@writer
def claims_triangle(out: Path) -> None:
    """A cumulative paid-claims run-off triangle: accident years 2016 to 2023 by development year."""
    rng = np.random.default_rng(24129)
    factors = [2.4, 1.45, 1.18, 1.08, 1.04, 1.02, 1.01]
    cols = {"accident_year": list(range(2016, 2024))}
    first = rng.uniform(900, 1300, 8)
    cum = [first]
    for f in factors:
        cum.append(cum[-1] * f * rng.uniform(0.97, 1.03, 8))
    for d in range(8):
        cols[f"dev_{d + 1}"] = [f"{cum[d][i]:.0f}" if i + d <= 7 else "" for i in range(8)]
    table(out / "motor_paid_runoff.csv", cols)


# ------------------------------------------------------------------------------------------------ asks

@writer
def ration_trial(out: Path) -> None:
    """Cows on the old or the new ration: two candidate 'output' outcomes (milk yield and milk solids), both
    moved by the ration, plus parity and days in milk."""
    rng = np.random.default_rng(24130)
    n = 300
    parity = rng.integers(1, 6, n)
    dim = rng.uniform(10, 280, n)
    new = rng.binomial(1, expit(0.3 * (parity - 3)))
    milk = 30 + 1.5 * new + 1.0 * (parity - 3) - 0.03 * (dim - 140) + rng.normal(0, 3, n)
    solids = 2.3 + 0.08 * new + 0.002 * (dim - 140) + rng.normal(0, 0.15, n)
    table(out / "ration_switch_herd.csv", {
        "cow": [f"R{i:03d}" for i in range(n)], "parity": parity, "days_in_milk": dim, "new_ration": new,
        "milk_kg_day": milk, "solids_kg_day": solids}, {"days_in_milk": ".0f", "milk_kg_day": ".1f",
                                                         "solids_kg_day": ".3f"})


@writer
def two_sn_tables(out: Path) -> None:
    """Two supernova tables of the same kind (z, mu, mu_err): a low-z sample and a deep sample, flat LCDM
    (Omega_m 0.3)."""
    for name, seed, zmax in (("sn_nearby_batch.csv", 24131, 0.15), ("sn_deep_batch.csv", 24132, 1.3)):
        rng = np.random.default_rng(seed)
        n = 40
        z = np.sort(rng.uniform(0.01, zmax, n))
        err = rng.uniform(0.1, 0.16, n)
        table(out / name, {"z": z, "mu": distance_modulus(z, 0.3) + rng.normal(0, err), "mu_err": err},
              {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def grape_grades(out: Path) -> None:
    """Grape loads graded premium (grade_premium 1) or standard from sugar, acidity, botrytis share and
    berry weight."""
    rng = np.random.default_rng(24133)
    n = 400
    sugar = rng.normal(23, 1.5, n)
    ta = rng.normal(6.5, 0.8, n)
    bot = rng.gamma(1.5, 2, n)
    berry = rng.normal(1.4, 0.2, n)
    prem = rng.binomial(1, expit(1.2 * (sugar - 23) - 0.4 * (bot - 3) + 0.5 * (ta - 6.5)))
    table(out / "intake_grape_loads.csv", {"brix": sugar, "ta_g_l": ta, "botrytis_pct": bot, "berry_g": berry,
                                           "grade_premium": prem},
          {"brix": ".1f", "ta_g_l": ".2f", "botrytis_pct": ".1f", "berry_g": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
