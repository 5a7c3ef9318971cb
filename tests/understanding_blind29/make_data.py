"""Write every data file of the twenty-ninth blind prose task set, deterministically.

``python tests/understanding_blind29/make_data.py`` rewrites the set's ``data/`` (``--out DIR`` writes elsewhere);
how every set's script runs and how its writers fix the bytes: ``tests/prose_sets/writing.py``. The set states no
answers, so no truths file is written; the structure built into each file is described in the docstring of its
writer (``data/SOURCES.md`` points here).
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
    correlated_cov,
    distance_modulus,
    expit,
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
def vineyard(out: Path) -> None:
    """Vineyard blocks: inter-row cover crops (binary) are sown more on steep, wet blocks with old vines; they
    lower the yield by about 0.4 t/ha."""
    rng = np.random.default_rng(29101)
    n = 520
    slope = rng.gamma(2.0, 3.0, n)
    age = rng.integers(4, 45, n)
    rain = rng.normal(650, 110, n)
    clay = rng.uniform(8, 40, n)
    cover = rng.binomial(1, expit(-0.3 + 0.08 * (slope - 6) + 0.004 * (rain - 650) + 0.02 * (age - 20)))
    yld = (9.0 - 0.4 * cover - 0.05 * (slope - 6) - 0.03 * (age - 20) + 0.002 * (rain - 650) + 0.02 * (clay - 24)
           + rng.normal(0, 0.8, n))
    table(out / "vineyard_cover_blocks.csv", {
        "block": [f"B{i:03d}" for i in range(n)], "slope_pct": slope, "vine_age": age, "rain_mm": rain,
        "clay_pct": clay, "cover_crop": cover, "yield_t_ha": yld},
        {"slope_pct": ".1f", "rain_mm": ".0f", "clay_pct": ".1f", "yield_t_ha": ".2f"})


@writer
def remote_hours(out: Path) -> None:
    """Staff survey: weekly hours worked from home (a dose, 0 to 40) chosen more by long commuters and parents;
    each extra hour lowers an exhaustion score by 0.05."""
    rng = np.random.default_rng(29102)
    n = 700
    commute = rng.gamma(2.0, 20.0, n)
    tenure = rng.gamma(2.0, 3.0, n)
    kids = rng.integers(0, 4, n)
    grade = rng.integers(1, 8, n)
    hours = np.clip(8 + 0.15 * commute + 2.5 * kids + rng.normal(0, 6, n), 0, 40)
    exhaustion = 3.0 - 0.05 * hours + 0.01 * commute + 0.15 * kids + 0.05 * grade + rng.normal(0, 0.6, n)
    table(out / "homeworking_staff_survey.tsv", {
        "staff_id": [f"S{i:04d}" for i in range(n)], "commute_min": commute, "tenure_yr": tenure,
        "children": kids, "pay_grade": grade, "wfh_hours": hours, "exhaustion": exhaustion},
        {"commute_min": ".0f", "tenure_yr": ".1f", "wfh_hours": ".1f", "exhaustion": ".3f"}, sep="\t")


@writer
def village_roads(out: Path) -> None:
    """Villages: paving of the access road (binary) went to villages that look more built-up from space (the first
    two embedding dimensions carry it) and are nearer town; paving raises log consumption by 0.15. The tile
    embeddings (16 numbers per village, same row order) are a headerless CSV."""
    rng = np.random.default_rng(29103)
    n = 450
    latent = rng.normal(0, 1, (n, 3))
    emb = latent @ rng.normal(0, 1, (3, 16)) * 0.5 + rng.normal(0, 0.3, (n, 16))
    pop = rng.gamma(3, 0.8, n)
    km = rng.gamma(2, 8, n)
    paved = rng.binomial(1, expit(0.6 * latent[:, 0] - 0.03 * (km - 16) + 0.1 * (pop - 2.4)))
    cons = 7.2 + 0.15 * paved + 0.2 * latent[:, 0] - 0.1 * latent[:, 1] - 0.01 * (km - 16) + rng.normal(0, 0.3, n)
    table(out / "road_paving_villages.csv", {
        "village": [f"VL{i:03d}" for i in range(n)], "pop_thousands": pop, "km_to_market": km, "paved": paved,
        "log_consumption": cons}, {"pop_thousands": ".2f", "km_to_market": ".1f", "log_consumption": ".3f"})
    cols = {f"e{j}": emb[:, j] for j in range(16)}
    table(out / "village_tile_embeddings.csv", cols, {k: ".4f" for k in cols}, header=False)


# ------------------------------------------------------------------------------------------------ surveys

VAX = ["agree", "unsure", "disagree"]
TRUST = ["high", "medium", "low"]
REGIONS = ["north", "midlands", "south"]
SEXES = ["female", "male"]


@writer
def vaccine_panel(out: Path) -> None:
    """An online panel on vaccine attitudes with a split ballot (version B words the first question as a
    'requirement'); the south and women over-respond; a reference sample of the adult population with its own
    weights; a chatbot's sampled answers, one row per answer."""
    rng = np.random.default_rng(29104)
    n = 600
    region = rng.choice(REGIONS, n, p=[0.2, 0.3, 0.5])
    sex = rng.choice(SEXES, n, p=[0.62, 0.38])
    ballot = rng.choice(["A", "B"], n)
    s = 0.4 * (region == "south") - 0.3 * (region == "north") + 0.2 * (sex == "female") - 0.45 * (ballot == "B")
    table(out / "vaccine_panel_wave.csv", {
        "resp": [f"R{i:04d}" for i in range(n)], "region": region, "sex": sex, "version": ballot,
        "q_school_vax": ordered(rng, s, VAX, (-0.5, 0.6)),
        "q_trust_agency": ordered(rng, 0.3 * (region == "south") + 0.1 * (sex == "female"), TRUST, (-0.6, 0.7))})
    m = 900
    table(out / "adult_reference_sample.csv", {
        "region": rng.choice(REGIONS, m, p=[0.35, 0.35, 0.3]), "sex": rng.choice(SEXES, m, p=[0.51, 0.49]),
        "ref_wt": rng.uniform(0.6, 1.6, m)}, {"ref_wt": ".3f"})
    q = ["q_school_vax"] * 40 + ["q_trust_agency"] * 40
    a = list(rng.choice(VAX, 40, p=[0.6, 0.3, 0.1])) + list(rng.choice(TRUST, 40, p=[0.5, 0.35, 0.15]))
    table(out / "assistant_sampled_replies.csv", {"question": q, "answer": a})


AGES = ["16_34", "35_59", "60_plus"]
BOROUGHS = ["east", "west"]
HOURS = ["extend", "keep", "reduce"]
EBOOK = ["more", "same", "fewer"]


@writer
def library(out: Path) -> None:
    """Library users asked about opening hours and e-books in two rounds (2022, 2024); older users over-respond;
    support for longer hours grows between the rounds; council margins of age band and borough; a bot's answer
    shares."""
    rng = np.random.default_rng(29105)
    n = 560
    rnd = np.where(np.arange(n) < 280, "2022", "2024")
    age = rng.choice(AGES, n, p=[0.2, 0.35, 0.45])
    bor = rng.choice(BOROUGHS, n, p=[0.6, 0.4])
    s1 = 0.4 * (rnd == "2024") + 0.3 * (age == "16_34") - 0.2 * (age == "60_plus")
    s2 = 0.5 * (age == "16_34") - 0.4 * (age == "60_plus") + 0.1 * (bor == "east")
    table(out / "library_user_rounds.csv", {
        "user": [f"L{i:04d}" for i in range(n)], "round": rnd, "age_band": age, "borough": bor,
        "q_hours": ordered(rng, s1, HOURS, (-0.8, 0.4)), "q_ebooks": ordered(rng, s2, EBOOK, (-0.4, 0.5))})
    table(out / "council_age_borough_margins.csv", {
        "variable": ["age_band"] * 3 + ["borough"] * 2, "level": AGES + BOROUGHS,
        "share": [0.34, 0.41, 0.25, 0.52, 0.48]}, {"share": ".2f"})
    table(out / "helpdesk_bot_shares.csv", {
        "question": ["q_hours"] * 3 + ["q_ebooks"] * 3, "answer": HOURS + EBOOK,
        "share": [0.55, 0.35, 0.10, 0.50, 0.40, 0.10]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def turbine(out: Path) -> None:
    """Ten-minute SCADA windows of wind turbines, 5% with a failing gearbox bearing (hot oil and bearing, more
    vibration, power below the curve); X has 7 features, y marks the failing windows."""
    rng = np.random.default_rng(29106)
    n = 1200
    bad = rng.random(n) < 0.05
    wind = rng.weibull(2.0, n) * 9
    power = np.clip(2000 * expit((wind - 8) / 1.5), 0, None) * (1 - bad * rng.uniform(0.05, 0.2, n))
    oil = rng.normal(55, 4, n) + bad * rng.uniform(4, 12, n)
    bearing = rng.normal(62, 5, n) + bad * rng.uniform(5, 15, n)
    vib = rng.gamma(3, 0.4, n) + bad * rng.uniform(0.8, 2.5, n)
    amb = rng.normal(12, 6, n)
    rpm = 10 + wind * 1.1 + rng.normal(0, 0.5, n)
    x = np.column_stack([wind, power, oil, bearing, vib, amb, rpm])
    npz(out / "turbine_gearbox_windows.npz", {"X": npy_bytes(x), "y": npy_bytes(bad.astype(np.int64), "<i8")})


@writer
def water_meters(out: Path) -> None:
    """Hourly district water meter summaries, unlabelled: about 3% show a burst-like pattern (high night flow,
    low pressure)."""
    rng = np.random.default_rng(29107)
    n = 800
    bad = rng.random(n) < 0.03
    night = rng.gamma(4, 0.5, n) + bad * rng.uniform(3, 8, n)
    day = rng.normal(14, 3, n) + bad * rng.uniform(1, 4, n)
    press = rng.normal(3.2, 0.2, n) - bad * rng.uniform(0.4, 1.0, n)
    temp = rng.normal(11, 3, n)
    table(out / "district_meter_hours.csv", {
        "night_flow_ls": night, "day_flow_ls": day, "pressure_bar": press, "water_temp_c": temp},
        {"night_flow_ls": ".3f", "day_flow_ls": ".3f", "pressure_bar": ".3f", "water_temp_c": ".2f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def pollen(out: Path) -> None:
    """Pollen grains of two genera (Quercus, Fagus) measured under the microscope: five overlapping
    morphometric features; the label column is 'genus' (not a name found automatically)."""
    rng = np.random.default_rng(29108)
    n = 480
    g = rng.binomial(1, 0.45, n)
    table(out / "pollen_grain_measures.csv", {
        "polar_um": rng.normal(30 + 8 * g, 3.5, n), "equatorial_um": rng.normal(26 + 6 * g, 3.2, n),
        "exine_um": rng.normal(1.6 + 0.3 * g, 0.35, n), "colpus_len_um": rng.normal(20 + 3 * g, 4, n),
        "roughness": rng.normal(0.5 - 0.1 * g, 0.15, n),
        "genus": np.where(g == 1, "Fagus", "Quercus")},
        {"polar_um": ".2f", "equatorial_um": ".2f", "exine_um": ".3f", "colpus_len_um": ".2f", "roughness": ".3f"})


@writer
def clinic_marker(out: Path) -> None:
    """A clinic's panel of eight blood markers and a binary outcome (readmission), with feature names stored in
    the archive; 'crp_mg_l' matters and is partly redundant with 'ferritin' and 'wbc'."""
    rng = np.random.default_rng(29109)
    n = 700
    names = ["age", "crp_mg_l", "ferritin", "wbc", "albumin", "creatinine", "sodium", "hba1c"]
    base = rng.normal(0, 1, (n, 8))
    base[:, 2] = 0.6 * base[:, 1] + 0.8 * base[:, 2]
    base[:, 3] = 0.5 * base[:, 1] + 0.85 * base[:, 3]
    y = rng.binomial(1, expit(-0.8 + 0.4 * base[:, 0] + 0.5 * base[:, 1] - 0.4 * base[:, 4] + 0.3 * base[:, 5]))
    npz(out / "readmission_marker_panel.npz", {
        "X": npy_bytes(base), "y": npy_bytes(y.astype(np.int64), "<i8"),
        "feature_names": npy_bytes(np.array(names), "<U12")})


# ------------------------------------------------------------------------------------------------ chains

@writer
def timedelay_chain(out: Path) -> None:
    """A weighted chain of a lensed-quasar time-delay model: weight, H0, the lens power-law slope gamma and the
    external convergence kext, plain '#' header, 2,400 rows settling over about 60 rows."""
    rng = np.random.default_rng(29110)
    x = ar_chain(rng, 2400, np.array([72.5, 2.05, 0.02]), np.array([2.4, 0.06, 0.03]),
                 np.array([60.0, 1.7, 0.2]), 60.0, rho=0.6)
    w = rng.integers(1, 5, 2400)
    (out / "quasar_delay_chain.txt").write_text(
        "# weight H0 gamma kext\n" + "".join(f"{w[i]} {r[0]:.3f} {r[1]:.4f} {r[2]:.4f}\n" for i, r in enumerate(x)))


@writer
def rv_chains(out: Path) -> None:
    """Three chains of a radial-velocity planet fit (semi-amplitude in m/s, period in days, eccentricity,
    jitter), plain '#' header, 1,600 rows each, started far apart and settling over about 150 rows."""
    rng = np.random.default_rng(29111)
    centre = np.array([12.4, 41.7, 0.18, 2.1])
    sd = np.array([0.8, 0.3, 0.04, 0.3])
    for tag, start in (("north", [20.0, 44.0, 0.5, 5.0]), ("east", [5.0, 39.0, 0.02, 0.5]),
                       ("south", [16.0, 40.0, 0.35, 4.0])):
        x = ar_chain(rng, 1600, centre, sd, np.array(start), 150.0, rho=0.6)
        (out / f"rv_walk_{tag}.txt").write_text(
            "# amplitude period ecc jitter\n" + "".join(f"{r[0]:.4f} {r[1]:.4f} {r[2]:.4f} {r[3]:.4f}\n" for r in x))


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def sn_evolving(out: Path) -> None:
    """240 distance moduli of a flat w0-wa cosmology (Omega_m 0.31, w0 -0.9, wa -0.3), CSV with columns zcmb, mu,
    dmu."""
    rng = np.random.default_rng(29112)
    n = 240
    z = np.sort(rng.uniform(0.02, 1.6, n))
    err = rng.uniform(0.03, 0.07, n)
    table(out / "deep_survey_moduli.csv", {
        "zcmb": z, "mu": distance_modulus(z, 0.31, w0=-0.9, wa=-0.3) + rng.normal(0, err), "dmu": err},
        {"zcmb": ".4f", "mu": ".4f", "dmu": ".4f"})


@writer
def sn_magnitudes(out: Path) -> None:
    """160 peak B magnitudes (mb = mu - 19.3 at H0 70) of a flat wCDM (Omega_m 0.29, w -1.1) with errors."""
    rng = np.random.default_rng(29113)
    n = 160
    z = np.sort(rng.uniform(0.015, 1.3, n))
    e = rng.uniform(0.05, 0.10, n)
    table(out / "ztf_hst_peak_b.csv", {
        "z": z, "mb": distance_modulus(z, 0.29, w0=-1.1) - 19.3 + rng.normal(0, e), "dmb": e},
        {"z": ".4f", "mb": ".4f", "dmb": ".3f"})


@writer
def sn_h0(out: Path) -> None:
    """64 distance moduli of a flat LCDM (Omega_m 0.30, H0 71) with a covariance (diagonal errors plus a
    correlated floor of 0.025 mag)."""
    rng = np.random.default_rng(29114)
    n = 64
    z = np.sort(rng.uniform(0.01, 0.8, n))
    err = rng.uniform(0.08, 0.15, n)
    cov = correlated_cov(z, err, 0.025, 0.3)
    mu = distance_modulus(z, 0.30, h0=71.0) + np.linalg.cholesky(cov) @ rng.normal(0, 1, n)
    table(out / "calibrated_mu_sample.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    write_covariance(out / "calibrated_mu_sample_cov.txt", cov)


# ------------------------------------------------------------------------------------------------ bayes

@writer
def seedlings(out: Path) -> None:
    """42 tree seedlings: survival (0/1) through the first winter against canopy openness and browsing pressure."""
    rng = np.random.default_rng(29115)
    n = 42
    canopy = rng.uniform(5, 60, n)
    browse = rng.uniform(0, 1, n)
    y = rng.binomial(1, expit(0.5 + 0.05 * (canopy - 30) - 2.0 * (browse - 0.5)))
    table(out / "seedling_winter_survival.csv", {
        "plot": [f"P{i:02d}" for i in range(n)], "canopy_open_pct": canopy, "browse_index": browse, "survived": y},
        {"canopy_open_pct": ".1f", "browse_index": ".3f"})


@writer
def soil_probe(out: Path) -> None:
    """A capacitance soil-moisture probe against gravimetric moisture: 64 samples, smooth non-linear in the probe
    reading, with noise; a second column (probe temperature) barely matters."""
    rng = np.random.default_rng(29116)
    n = 64
    raw = rng.uniform(200, 800, n)
    temp = rng.uniform(5, 30, n)
    vwc = 5 + 30 * expit((raw - 500) / 90) + 0.02 * (temp - 15) + rng.normal(0, 1.2, n)
    table(out / "probe_vs_gravimetric.csv", {"raw_counts": raw, "probe_temp_c": temp, "vwc_pct": vwc},
          {"raw_counts": ".0f", "probe_temp_c": ".1f", "vwc_pct": ".2f"})


@writer
def ring_density(out: Path) -> None:
    """A Python file with an unnormalised ring-shaped density in two dimensions (radius 2, width 0.3)."""
    (out / "annulus_logdensity.py").write_text(
        '"""Unnormalised log density of a ring of radius 2 and width 0.3 in the plane."""\n\n'
        "import torch\n\n\n"
        "def log_prob(z: torch.Tensor) -> torch.Tensor:\n"
        "    r = torch.sqrt((z ** 2).sum(dim=-1) + 1e-12)\n"
        "    return -0.5 * ((r - 2.0) / 0.3) ** 2\n")


@writer
def rotor(out: Path) -> None:
    """Blade-root strain of a three-bladed rotor against two angles (rotor azimuth and nacelle yaw, radians):
    the signal repeats every third of a turn in each angle; train and test tables."""
    rng = np.random.default_rng(29117)
    for name, n in (("rotor_strain_train.csv", 400), ("rotor_strain_test.csv", 300)):
        a = rng.uniform(0, 2 * np.pi, n)
        b = rng.uniform(0, 2 * np.pi, n)
        f = np.cos(3 * a) + 0.5 * np.cos(3 * b) + 0.3 * np.sin(3 * (a + b))
        table(out / name, {"azimuth": a, "yaw": b, "strain": f + rng.normal(0, 0.25, n)},
              {"azimuth": ".5f", "yaw": ".5f", "strain": ".4f"})


# ------------------------------------------------------------------------------------------------ causal models

@writer
def apprentices(out: Path) -> None:
    """Apprenticeship applicants: school points cause aptitude, both cause the interview mark; admission depends
    on all three."""
    rng = np.random.default_rng(29118)
    n = 400
    school = rng.normal(45, 10, n)
    apt = 0.5 * school + rng.normal(0, 6, n)
    interview = 0.05 * school + 0.08 * apt + rng.normal(5, 1.2, n)
    admitted = rng.binomial(1, expit(0.06 * (school - 45) + 0.08 * (apt - 22.5) + 0.9 * (interview - 9.05)))
    table(out / "craft_apprentice_offers.csv", {
        "school_points": school, "aptitude": apt, "interview": interview, "admitted": admitted},
        {"school_points": ".1f", "aptitude": ".1f", "interview": ".2f"})


@writer
def flu_letters(out: Path) -> None:
    """Older patients: five letter-design features (randomised) shift flu vaccination; vaccination lowers a
    winter hospitalisation indicator, confounded by frailty (unobserved); age and a comorbidity count observed."""
    rng = np.random.default_rng(29119)
    n = 900
    z = rng.normal(0, 1, (n, 5))
    age = rng.uniform(65, 90, n)
    como = rng.poisson(1.5, n)
    frail = rng.normal(0, 1, n)
    vax = rng.binomial(1, expit(0.8 * z[:, 0] - 0.6 * z[:, 2] + 0.4 * z[:, 4] - 0.5 * frail))
    hosp = rng.binomial(1, expit(-2 + 0.04 * (age - 75) + 0.3 * como + 0.7 * frail - 0.6 * vax))
    cols = {f"letter_{j}": z[:, j] for j in range(5)}
    table(out / "flu_letter_trial.csv", {
        "age": age, "comorbidities": como, **cols, "vaccinated": vax, "hospitalised": hosp},
        {"age": ".1f", **{k: ".3f" for k in cols}})


@writer
def smallholders(out: Path) -> None:
    """Smallholder farms: a satellite model's predicted maize yield against the realised yield (R² about 0.4)."""
    rng = np.random.default_rng(29120)
    n = 1000
    truth = rng.normal(2.2, 0.8, n)
    pred = 2.2 + 0.63 * (truth - 2.2) + rng.normal(0, 0.5, n)
    table(out / "farm_yield_forecasts.csv", {
        "farm": [f"F{i:04d}" for i in range(n)], "predicted_t_ha": pred, "realised_t_ha": truth},
        {"predicted_t_ha": ".3f", "realised_t_ha": ".3f"})


# ------------------------------------------------------------------------------------------------ language

PLACES = ["the quay", "the net loft", "the ice house", "the chandlery", "the slipway", "the fish market",
          "the harbour office", "the lifeboat station", "the breakwater", "the tide gauge"]
DOINGS = ["was painted again", "took on a new hand", "smelt of tar and rope", "stood empty by noon",
          "was busy with crates", "lost a shutter in the gale", "had its lamps lit early", "was swept at dawn",
          "kept the old ledger", "heard the bell twice"]
WEATHER = ["A grey swell ran in.", "The wind backed to the west.", "Rain came over the headland.",
           "The glass fell all afternoon.", "It was calm until the evening.", "Fog lay on the water."]


@writer
def logbook(out: Path) -> None:
    """A made-up harbour master's logbook (about 6,000 words) assembled from short phrases, as a plain-text
    haystack."""
    rng = np.random.default_rng(29121)
    lines = []
    for day in range(1, 181):
        parts = [f"Day {day}."]
        for _ in range(4):
            parts.append(f"{PLACES[rng.integers(10)].capitalize()} {DOINGS[rng.integers(10)]}.")
        parts.append(WEATHER[rng.integers(6)])
        lines.append(" ".join(parts))
    (out / "harbour_master_log.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ near misses

@writer
def counties(out: Path) -> None:
    """A county-by-year panel (2012–2021) of a minimum-wage rise adopted in different years, with teen
    employment."""
    rng = np.random.default_rng(29122)
    rows = {"county": [], "year": [], "adopt_year": [], "teen_emp_rate": []}
    for c in range(60):
        adopt = [2015, 2017, 2019, 0][c % 4]
        fe = rng.normal(0.3, 0.04)
        for yr in range(2012, 2022):
            eff = -0.01 if adopt and yr >= adopt else 0.0
            rows["county"].append(f"C{c:02d}")
            rows["year"].append(yr)
            rows["adopt_year"].append(adopt)
            rows["teen_emp_rate"].append(fe + 0.002 * (yr - 2012) + eff + rng.normal(0, 0.01))
    table(out / "county_wage_panel.csv", rows, {"teen_emp_rate": ".4f"})


@writer
def pump_series(out: Path) -> None:
    """A pump's vibration RMS every ten minutes for three weeks, with two level shifts (a bearing change and a
    misalignment)."""
    rng = np.random.default_rng(29123)
    n = 3 * 7 * 144
    level = np.where(np.arange(n) < 1100, 2.0, np.where(np.arange(n) < 2300, 2.6, 2.2))
    table(out / "pump_vibration_rms.csv", {"minute": np.arange(n) * 10, "rms_mm_s": level + rng.normal(0, 0.15, n)},
          {"rms_mm_s": ".3f"})


@writer
def wells(out: Path) -> None:
    """Nitrate in 150 wells with coordinates (km), spatially correlated."""
    rng = np.random.default_rng(29124)
    n = 150
    xy = rng.uniform(0, 40, (n, 2))
    d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
    field = np.linalg.cholesky(np.exp(-d / 8) + 1e-8 * np.eye(n)) @ rng.normal(0, 1, n)
    table(out / "well_nitrate_survey.csv", {
        "east_km": xy[:, 0], "north_km": xy[:, 1], "nitrate_mg_l": np.exp(2.5 + 0.5 * field)},
        {"east_km": ".2f", "north_km": ".2f", "nitrate_mg_l": ".2f"})


@writer
def coders(out: Path) -> None:
    """Five coders each rate 200 open-ended survey replies into four themes, with some disagreement."""
    rng = np.random.default_rng(29125)
    truth = rng.integers(0, 4, 200)
    cols = {}
    for c in range(5):
        noisy = np.where(rng.random(200) < 0.25, rng.integers(0, 4, 200), truth)
        cols[f"coder_{c + 1}"] = [["cost", "access", "quality", "other"][v] for v in noisy]
    table(out / "reply_theme_codes.csv", {"reply": [f"Q{i:03d}" for i in range(200)], **cols})


# ------------------------------------------------------------------------------------------------ asks

@writer
def two_fitters(out: Path) -> None:
    """The same 80 supernovae standardised by two light-curve fitters (SALT2 and SALT3), slightly different
    distances."""
    rng = np.random.default_rng(29126)
    z = np.sort(rng.uniform(0.02, 1.0, 80))
    err = rng.uniform(0.1, 0.16, 80)
    mu = distance_modulus(z, 0.3)
    for tag, shift in (("salt2", 0.0), ("salt3", 0.03)):
        table(out / f"hubble_flow_{tag}.csv", {"z": z, "mu": mu + shift * z + rng.normal(0, err), "mu_err": err},
              {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})


@writer
def jobs_programme(out: Path) -> None:
    """Jobseekers: enrolment in a training programme and completion of it (a subset of enrollees) as two
    columns, earnings a year later."""
    rng = np.random.default_rng(29127)
    n = 600
    age = rng.uniform(18, 60, n)
    edu = rng.integers(8, 18, n)
    prior = rng.gamma(2, 6000, n)
    enrol = rng.binomial(1, expit(-0.2 - 0.02 * (age - 35) + 0.1 * (edu - 12)))
    complete = enrol * rng.binomial(1, expit(0.5 + 0.15 * (edu - 12)), n)
    earn = 14000 + 900 * enrol + 1800 * complete + 0.4 * prior + 300 * (edu - 12) + rng.normal(0, 3000, n)
    table(out / "jobseeker_training.csv", {
        "age": age, "education_yr": edu, "prior_earnings": prior, "enrolled": enrol, "completed": complete,
        "earnings_next_year": earn}, {"age": ".0f", "prior_earnings": ".0f", "earnings_next_year": ".0f"})


@writer
def wrasse(out: Path) -> None:
    """Wrasse photographed on a reef: body measurements with two label columns, the species (two of them) and
    the sex (female or terminal-phase male)."""
    rng = np.random.default_rng(29128)
    n = 350
    sp = rng.binomial(1, 0.5, n)
    sex = rng.binomial(1, 0.35, n)
    table(out / "reef_wrasse_morphs.csv", {
        "length_cm": rng.normal(14 + 2 * sp + 3 * sex, 2, n), "depth_ratio": rng.normal(0.28 + 0.03 * sp, 0.02, n),
        "fin_rays": rng.normal(11 + sp, 0.8, n), "stripe_count": rng.normal(3 + 2 * sex, 0.9, n),
        "species": np.where(sp == 1, "T_lunare", "T_pavo"), "sex": np.where(sex == 1, "male_tp", "female")},
        {"length_cm": ".1f", "depth_ratio": ".3f", "fin_rays": ".1f", "stripe_count": ".1f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
