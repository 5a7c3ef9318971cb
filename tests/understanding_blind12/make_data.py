"""Write every data file of the twelfth blind prose task set, deterministically.

``python tests/understanding_blind12/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
    json_lines,
    main,
    npy_bytes,
    npz,
    ordered,
    table,
)

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def ward_discharge(out: Path) -> None:
    """Medical-ward admissions: the nurse-led discharge protocol (binary) was used more for younger patients with
    fewer comorbidities and elective admissions; it shortens the stay by about 0.8 days."""
    rng = np.random.default_rng(12101)
    n = 600
    age = rng.uniform(40, 95, n)
    charlson = rng.poisson(2.0, n)
    emergency = rng.binomial(1, 0.6, n)
    weekend = rng.binomial(1, 2 / 7, n)
    nurse = rng.binomial(1, expit(0.3 - 0.03 * (age - 68) - 0.25 * (charlson - 2) - 0.5 * emergency))
    los = np.clip(5.5 - 0.8 * nurse + 0.05 * (age - 68) + 0.7 * (charlson - 2) + 1.2 * emergency + 0.6 * weekend
                  + rng.gamma(2, 0.8, n) - 1.6, 0.5, None)
    table(out / "ward_discharge_protocol.csv", {
        "admission": [f"W{i:04d}" for i in range(n)], "nurse_led": nurse, "age": age, "charlson": charlson,
        "emergency_admit": emergency, "weekend_admit": weekend, "los_days": los},
        {"age": ".0f", "los_days": ".2f"})


@writer
def trawl_mesh(out: Path) -> None:
    """Trawl hauls: codend mesh size (mm, continuous) was larger in deeper, colder water and on longer tows;
    each extra millimetre cuts undersized bycatch by about 0.15 kg."""
    rng = np.random.default_rng(12102)
    n = 500
    depth = rng.uniform(40, 220, n)
    sst = rng.normal(9, 1.5, n)
    tow = rng.uniform(1.5, 5, n)
    mesh = np.clip(100 + 0.08 * (depth - 130) - 2.0 * (sst - 9) + 3 * (tow - 3.25) + rng.normal(0, 7, n), 70, 140)
    bycatch = np.clip(30 - 0.15 * (mesh - 100) + 0.05 * (depth - 130) + 1.5 * (sst - 9) + 4 * (tow - 3.25)
                      + rng.normal(0, 3, n), 0, None)
    table(out / "trawl_mesh_hauls.csv", {
        "haul": [f"H{i:04d}" for i in range(n)], "mesh_mm": mesh, "depth_m": depth, "sst_c": sst, "tow_hours": tow,
        "bycatch_kg": bycatch}, {"mesh_mm": ".1f", "depth_m": ".0f", "sst_c": ".2f", "tow_hours": ".2f",
                                 "bycatch_kg": ".2f"})


@writer
def feeder_batteries(out: Path) -> None:
    """Rural distribution feeders: community batteries went to longer, more wooded, stormier feeders; they cut
    the yearly customer outage minutes by about 40."""
    rng = np.random.default_rng(12103)
    n = 450
    km = rng.gamma(3, 12, n)
    customers = rng.integers(80, 2500, n)
    trees = rng.beta(2, 4, n) * 100
    storms = rng.poisson(9, n)
    battery = rng.binomial(1, expit(-0.4 + 0.02 * (km - 36) + 0.015 * (trees - 33) + 0.05 * (storms - 9)))
    minutes = np.clip(210 - 40 * battery + 2.2 * (km - 36) + 1.1 * (trees - 33) + 6 * (storms - 9)
                      - 0.01 * (customers - 1300) + rng.normal(0, 30, n), 0, None)
    table(out / "feeder_battery_outages.csv", {
        "feeder": [f"FD{i:03d}" for i in range(n)], "battery": battery, "feeder_km": km, "customers": customers,
        "tree_cover_pct": trees, "storm_days": storms, "outage_min": minutes},
        {"feeder_km": ".1f", "tree_cover_pct": ".1f", "outage_min": ".0f"})


@writer
def loyalty_app(out: Path) -> None:
    """Grocery customers: app users (binary) differ in a latent shopping profile that only a 16-d embedding of
    their past baskets carries; the app adds about 4 GBP per weekly basket."""
    rng = np.random.default_rng(12104)
    n = 500
    latent = rng.normal(size=(n, 3))
    mixing = rng.normal(size=(3, 16)) / np.sqrt(3)
    emb = latent @ mixing + 0.3 * rng.normal(size=(n, 16))
    tenure = rng.integers(1, 120, n)
    visits = rng.poisson(6, n)
    app = rng.binomial(1, expit(0.8 * latent[:, 0] - 0.5 * latent[:, 1] + 0.01 * (tenure - 60)))
    basket = np.clip(42 + 4 * app + 6 * latent[:, 0] + 3 * latent[:, 1] - 2 * latent[:, 2] + 0.8 * (visits - 6)
                     + rng.normal(0, 5, n), 3, None)
    table(out / "loyalty_app_customers.csv", {
        "customer": [f"CU{i:04d}" for i in range(n)], "app_user": app, "tenure_months": tenure,
        "visits_prior_month": visits, "basket_gbp": basket}, {"basket_gbp": ".2f"})
    array(out / "loyalty_customer_embeddings.npy", emb)


@writer
def icu_stepdown(out: Path) -> None:
    """Transfers from intensive care: early step-down (binary) and readmission within 72 h; no acuity score."""
    rng = np.random.default_rng(12105)
    n = 380
    age = rng.uniform(25, 90, n)
    vent = rng.gamma(2, 1.5, n)
    early = rng.binomial(1, expit(0.2 - 0.02 * (age - 60) - 0.2 * (vent - 3)))
    readmit = rng.binomial(1, expit(-2 + 0.3 * early + 0.02 * (age - 60) + 0.15 * (vent - 3)))
    table(out / "icu_stepdown_transfers.csv", {
        "stay": [f"I{i:04d}" for i in range(n)], "early_stepdown": early, "age": age, "vent_days": vent,
        "readmit_72h": readmit}, {"age": ".0f", "vent_days": ".1f"})


@writer
def vaccine_bounds(out: Path) -> None:
    """Influenza vaccination (binary) of older adults with an unseen frailty; distance to the clinic and the
    pharmacy, an SMS reminder and a lottery entry shift uptake; the outcome is a 0/1 hospital admission."""
    rng = np.random.default_rng(12106)
    n = 700
    age = rng.normal(0, 1, n)
    chronic = rng.binomial(1, 0.35, n)
    frail = rng.normal(size=n)
    clinic = rng.gamma(2, 3, n)
    pharm = rng.gamma(2, 1.5, n)
    sms = rng.binomial(1, 0.5, n)
    lottery = rng.binomial(1, 0.3, n)
    vacc = rng.binomial(1, expit(0.3 - 0.15 * (clinic - 6) - 0.2 * (pharm - 3) + 0.9 * sms + 0.6 * lottery
                                 - 0.6 * frail + 0.3 * age))
    admitted = rng.binomial(1, expit(-1.6 - 0.9 * vacc + 0.8 * frail + 0.4 * age + 0.5 * chronic))
    table(out / "vaccine_uptake_districts.csv", {
        "person": [f"P{i:04d}" for i in range(n)], "age_z": age, "chronic": chronic, "clinic_km": clinic,
        "pharmacy_km": pharm, "sms_reminder": sms, "lottery_entry": lottery, "vaccinated": vacc,
        "admitted": admitted}, {"age_z": ".3f", "clinic_km": ".2f", "pharmacy_km": ".2f"})


@writer
def fisher_income(out: Path) -> None:
    """Small-scale fishing households: a model's predicted yearly income and the income realised (low = worse)."""
    rng = np.random.default_rng(12107)
    n = 800
    latent = rng.normal(size=n)
    pred = 4200 + 900 * (0.6 * latent + rng.normal(0, 0.7, n))
    realised = np.clip(4200 + 1100 * latent + rng.normal(0, 500, n), 150, None)
    table(out / "fisher_income_predictions.csv", {
        "household": [f"FH{i:04d}" for i in range(n)], "pred_income": pred, "realised_income": realised},
        {"pred_income": ".0f", "realised_income": ".0f"})


@writer
def microloans(out: Path) -> None:
    """Fishing-cooperative members applying for a boat-engine microloan: boat age, last season's catch (t) and
    outstanding debt (k). No label: the bank's linear rule and the causal weights are stated in the task."""
    rng = np.random.default_rng(12108)
    n = 40
    boat = rng.uniform(2, 30, n)
    catch = 40 - 0.6 * boat + rng.normal(0, 6, n)
    debt = 10 + 0.3 * boat - 0.1 * catch + rng.normal(0, 3, n)
    table(out / "coop_microloan_applicants.csv", {"boat_age_yr": boat, "catch_t": catch, "debt_k": debt},
          {"boat_age_yr": ".1f", "catch_t": ".1f", "debt_k": ".2f"})


# ------------------------------------------------------------------------------------------------ surveys

AGES = ["18-34", "35-54", "55+"]
LIKERT = ["agree", "neutral", "disagree"]


@writer
def dialect_waves(out: Path) -> None:
    """A regional-dialect attitude survey in two waves (2019, 2023); the North and the young are
    over-represented, and agreement that dialect belongs in school rises between the waves. A census
    microdata extract (region, age group) is the reference sample."""
    rng = np.random.default_rng(12109)
    n = 640
    wave = rng.choice([2019, 2023], n)
    region = rng.choice(["North", "Midlands", "South"], n, p=[0.5, 0.3, 0.2])
    age = rng.choice(AGES, n, p=[0.45, 0.35, 0.2])
    school = ordered(rng, 0.5 * (region == "North") + 0.4 * (wave == 2023) - 0.3 * (age == "55+"), LIKERT,
                     (-0.6, 0.4))
    jobs = ordered(rng, -0.3 * (region == "South") + 0.2 * (age == "18-34"), LIKERT, (-0.5, 0.5))
    table(out / "dialect_attitudes_waves.csv", {
        "resp": np.arange(1, n + 1), "wave": wave, "region": region, "age_group": age,
        "q_dialect_school": school, "q_accent_jobs": jobs})
    m = 1200
    table(out / "dialect_census_sample.csv", {
        "region": rng.choice(["North", "Midlands", "South"], m, p=[0.3, 0.3, 0.4]),
        "age_group": rng.choice(AGES, m, p=[0.3, 0.35, 0.35])})


@writer
def supporters(out: Path) -> None:
    """A football supporters' survey with design weights (column dw), gender/age margins of the club's
    membership, and a chatbot's sampled answers as season-ticket holders and others (one row per answer)."""
    rng = np.random.default_rng(12110)
    n = 640
    age = rng.choice(AGES, n, p=[0.25, 0.4, 0.35])
    gender = rng.choice(["man", "woman"], n, p=[0.8, 0.2])
    season = rng.choice(["yes", "no"], n, p=[0.55, 0.45])
    dw = rng.uniform(0.6, 1.8, n)
    var = ordered(rng, -0.4 * (season == "yes") + 0.2 * (age == "18-34"), LIKERT, (-0.5, 0.5))
    price = ordered(rng, 0.6 * (season == "no") - 0.3 * (gender == "woman"), LIKERT, (-0.8, 0.2))
    table(out / "supporters_survey.csv", {
        "id": np.arange(1, n + 1), "age_group": age, "gender": gender, "season_ticket": season, "dw": dw,
        "q_var_fair": var, "q_prices_fair": price}, {"dw": ".3f"})
    rows = [("age_group", "18-34", 0.3), ("age_group", "35-54", 0.38), ("age_group", "55+", 0.32),
            ("gender", "man", 0.68), ("gender", "woman", 0.32)]
    table(out / "supporters_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                           "share": [r[2] for r in rows]}, {"share": ".2f"})
    answers = []
    for persona, p_var, p_price in (("yes", (0.2, 0.3, 0.5), (0.3, 0.3, 0.4)),
                                    ("no", (0.35, 0.35, 0.3), (0.15, 0.25, 0.6))):
        for question, p in (("q_var_fair", p_var), ("q_prices_fair", p_price)):
            for a in rng.choice(LIKERT, 40, p=p):
                answers.append((question, str(a), persona))
    table(out / "chatbot_supporter_answers.csv", {
        "question": [r[0] for r in answers], "answer": [r[1] for r in answers], "subgroup": [r[2] for r in answers]})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def weld_seams(out: Path) -> None:
    """Weld-seam sensor features of 800 seams (arrays X, 800 x 8, and y), about 6% defective (y = 1)."""
    rng = np.random.default_rng(12111)
    n = 800
    bad = rng.random(n) < 0.06
    x = rng.normal(size=(n, 8))
    x[:, 0] += 1.2 * bad
    x[:, 1] -= 0.9 * bad
    x[:, 3] += 1.5 * bad * rng.choice([-1, 1], n)
    x[:, 5] += 0.8 * bad
    npz(out / "weld_seam_sensors.npz", {"X": npy_bytes(x), "y": npy_bytes(bad.astype(np.int64), descr="<i8")})


@writer
def meter_tamper(out: Path) -> None:
    """Smart-meter readings per meter-month; about 4% confirmed tampering (column tamper_flag)."""
    rng = np.random.default_rng(12112)
    n = 900
    tamper = rng.random(n) < 0.04
    table(out / "meter_tamper_readings.csv", {
        "kwh_month": rng.gamma(6, 50, n) * np.where(tamper, 0.45, 1.0),
        "night_share": rng.beta(3, 7, n) + 0.15 * tamper, "voltage_sd": rng.gamma(3, 0.4, n) + 0.8 * tamper,
        "zero_read_days": rng.poisson(0.5, n) + rng.poisson(4, n) * tamper,
        "lid_open_events": rng.poisson(0.1, n) + rng.poisson(1.5, n) * tamper,
        "power_factor": np.clip(rng.normal(0.93, 0.03, n) - 0.08 * tamper, 0.5, 1.0),
        "tamper_flag": tamper.astype(int)},
        {"kwh_month": ".1f", "night_share": ".3f", "voltage_sd": ".3f", "power_factor": ".3f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def sherds(out: Path) -> None:
    """pXRF readings of pottery sherds (ppm, log-normal) and whether the sherd was imported (1) or local (0);
    the two groups differ in a curved way in strontium and zirconium."""
    rng = np.random.default_rng(12113)
    n = 420
    imported = rng.random(n) < 0.35
    sr = rng.lognormal(np.where(imported, 5.6, 5.2), 0.25)
    zr = rng.lognormal(np.where(imported, 5.0, 5.3), 0.3)
    rb = rng.lognormal(4.5, 0.3, n)
    fe = rng.normal(np.where(imported, 4.1, 4.6), 0.6)
    table(out / "sherd_xrf_provenance.csv", {"sr_ppm": sr, "zr_ppm": zr, "rb_ppm": rb, "fe_pct": fe,
                                             "imported": imported.astype(int)},
          {"sr_ppm": ".1f", "zr_ppm": ".1f", "rb_ppm": ".1f", "fe_pct": ".3f"})


@writer
def pressure_ulcers(out: Path) -> None:
    """Ward patients who developed a pressure ulcer: Braden score and immobility drive it; nurse staffing per bed
    has a small real share and is partly redundant with the ward's case mix."""
    rng = np.random.default_rng(12114)
    n = 700
    braden = rng.normal(17, 3, n)
    immob = rng.gamma(2, 2, n)
    casemix = rng.normal(0, 1, n)
    staffing = np.clip(1.2 - 0.25 * casemix + rng.normal(0, 0.15, n), 0.3, None)
    albumin = rng.normal(35, 5, n)
    logit = -1.5 - 0.35 * (braden - 17) + 0.25 * (immob - 4) - 0.6 * (staffing - 1.2) - 0.04 * (albumin - 35)
    table(out / "pressure_ulcer_wards.csv", {
        "braden": braden, "immobile_days": immob, "casemix_index": casemix, "nurses_per_bed": staffing,
        "albumin_g_l": albumin, "ulcer": rng.binomial(1, expit(logit))},
        {"braden": ".1f", "immobile_days": ".2f", "casemix_index": ".3f", "nurses_per_bed": ".3f",
         "albumin_g_l": ".1f"})


# ------------------------------------------------------------------------------------------------ bayes

LOGPOST = '''"""Unnormalised log posterior of three parameters of a cosmogenic exposure-age fit (standardised units).

z[:, 0] is the mean exposure age, z[:, 1] the log scatter between boulders and z[:, 2] the slope of the age on
boulder height; eight boulders, standard normal priors on all three.
"""

import torch

AGES = torch.tensor([1.21, 0.64, 1.87, 1.02, 0.35, 1.48, 0.91, 1.66])
HEIGHTS = torch.tensor([-1.2, -0.8, 1.4, 0.1, -1.5, 0.9, -0.3, 1.1])


def log_prob(z: torch.Tensor) -> torch.Tensor:
    mean, log_scatter, slope = z[:, 0:1], z[:, 1:2], z[:, 2:3]
    resid = (AGES - mean - slope * HEIGHTS) / torch.exp(log_scatter)
    like = -0.5 * resid.pow(2).sum(dim=1) - AGES.numel() * log_scatter[:, 0]
    prior = -0.5 * (z ** 2).sum(dim=1)
    return like + prior
'''


@writer
def exposure_age(out: Path) -> None:
    """A Python file with log_prob(z) for a 3-parameter exposure-age posterior (torch, batch of rows)."""
    (out / "cosmogenic_age_logpost.py").write_text(LOGPOST)


@writer
def serosurvey(out: Path) -> None:
    """A village serosurvey of 48 people: age, household size and seropositivity (0/1), older and larger
    households more often positive."""
    rng = np.random.default_rng(12115)
    n = 48
    age = rng.uniform(2, 70, n)
    hh = rng.integers(1, 10, n)
    table(out / "village_serosurvey.csv", {
        "age_years": age, "household_size": hh,
        "seropositive": rng.binomial(1, expit(-0.4 + 0.04 * (age - 36) + 0.25 * (hh - 5)))}, {"age_years": ".1f"})


def melt(rng: np.random.Generator, n: int) -> dict[str, np.ndarray | list[str]]:
    elev = rng.uniform(2300, 3300, n)
    debris = rng.gamma(1.2, 6, n)
    aspect = rng.uniform(-1, 1, n)
    m = 5200 - 3.1 * (elev - 2300) + 1800 * np.exp(-((debris - 2) / 3) ** 2) - 1200 * (1 - np.exp(-debris / 15))
    return {"elevation_m": elev, "debris_cm": debris, "aspect_cos": aspect,
            "melt_mm_we": m + 150 * aspect + rng.normal(0, 120, n)}


@writer
def glacier_stakes(out: Path) -> None:
    """Ablation stakes on a valley glacier: elevation, debris cover, aspect and summer melt (mm water
    equivalent); 40 stakes to train on and 30 held-out stakes from the following summer."""
    rng = np.random.default_rng(12116)
    fmt = {"elevation_m": ".0f", "debris_cm": ".1f", "aspect_cos": ".3f", "melt_mm_we": ".0f"}
    for name, n, first in (("glacier_stake_melt_train.csv", 40, 1), ("glacier_stake_melt_test.csv", 30, 101)):
        cols = melt(rng, n)
        table(out / name, {"stake": [f"S{first + i:03d}" for i in range(n)], **cols}, fmt)


@writer
def tidal_array(out: Path) -> None:
    """Tidal-array output (MW) against the semidiurnal tidal phase and the time-of-day phase (radians in
    [0, 2 pi)); output repeats every half tidal cycle (phase + pi) and is symmetric in the day phase."""
    rng = np.random.default_rng(12117)
    n = 320
    tide = rng.uniform(0, 2 * np.pi, n)
    day = rng.uniform(0, 2 * np.pi, n)
    power = 6 + 3 * np.cos(2 * tide) + 0.8 * np.cos(day) + 0.5 * np.cos(2 * tide) * np.cos(day) \
        + rng.normal(0, 0.3, n)
    table(out / "tidal_array_output.csv", {"tide_phase_rad": tide, "day_phase_rad": day, "output_mw": power},
          {"tide_phase_rad": ".5f", "day_phase_rad": ".5f", "output_mw": ".3f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def tarn_deep(out: Path) -> None:
    """90 distance moduli of a flat constant-w universe (Omega_m 0.30, w -0.92, H0 70) from a deep field."""
    rng = np.random.default_rng(12118)
    n = 90
    z = np.sort(rng.uniform(0.05, 1.4, n))
    err = rng.uniform(0.1, 0.16, n)
    mu = distance_modulus(z, 0.30, w0=-0.92) + rng.normal(0, err)
    table(out / "tarn_deep_moduli.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def corrie(out: Path) -> None:
    """75 peak magnitudes (M -19.25, flat Lambda, Omega_m 0.32) and their covariance as 75 rows of 75 values
    with no count line."""
    rng = np.random.default_rng(12119)
    n = 75
    z = np.sort(rng.uniform(0.015, 1.1, n))
    err = rng.uniform(0.09, 0.15, n)
    cov = correlated_cov(z, err, 0.03, 0.3)
    mb = distance_modulus(z, 0.32) - 19.25 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "corrie_peak_mags.csv", {"z": z, "mb": mb, "mb_err": err},
          {"z": ".5f", "mb": ".4f", "mb_err": ".4f"})
    (out / "corrie_peak_mags_cov.txt").write_text(
        "".join(" ".join(f"{v:.5e}" for v in row) + "\n" for row in cov))


@writer
def scree(out: Path) -> None:
    """70 distance moduli of a slightly open Lambda universe (Omega_m 0.27, Omega_de 0.68, H0 72.5)."""
    rng = np.random.default_rng(12120)
    n = 70
    z = np.sort(rng.uniform(0.02, 1.3, n))
    err = rng.uniform(0.11, 0.17, n)
    mu = distance_modulus(z, 0.27, 0.68, h0=72.5) + rng.normal(0, err)
    table(out / "scree_survey_moduli.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def cirque(out: Path) -> None:
    """40 distance moduli (flat, Omega_m 0.31, w -1) with a covariance file (count line first), for a joint fit."""
    rng = np.random.default_rng(12121)
    n = 40
    z = np.sort(rng.uniform(0.03, 1.2, n))
    err = rng.uniform(0.12, 0.18, n)
    cov = correlated_cov(z, err, 0.02, 0.5)
    mu = distance_modulus(z, 0.31, h0=67.5) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "cirque_sn_moduli.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    (out / "cirque_sn_moduli_cov.txt").write_text(f"{n}\n" + "".join(f"{v:.6e}\n" for v in cov.ravel()))


@writer
def fjord(out: Path) -> None:
    """80 supernovae with distance moduli from two light-curve fitters (mu_salt2, mu_bayesn), one error each."""
    rng = np.random.default_rng(12122)
    n = 80
    z = np.sort(rng.uniform(0.02, 1.0, n))
    base = distance_modulus(z, 0.3)
    table(out / "fjord_two_fitter_moduli.csv", {
        "z": z, "mu_salt2": base + rng.normal(0, 0.13, n), "err_salt2": rng.uniform(0.11, 0.15, n),
        "mu_bayesn": base + 0.03 + rng.normal(0, 0.11, n), "err_bayesn": rng.uniform(0.09, 0.13, n)},
        {"z": ".4f", "mu_salt2": ".4f", "err_salt2": ".3f", "mu_bayesn": ".4f", "err_bayesn": ".3f"})


@writer
def drumlin_chain(out: Path) -> None:
    """A Metropolis chain with integer repeat counts in a weight column (header '# weight minuslogpost ...'),
    1,000 rows, settling over the first tenth."""
    rng = np.random.default_rng(12123)
    centre = np.array([0.02242, 0.1193, 67.9, 0.809, 0.9665])
    sd = np.array([0.00014, 0.0011, 0.45, 0.008, 0.0038])
    x = ar_chain(rng, 1000, centre, sd, np.array([0.0229, 0.124, 65.5, 0.84, 0.978]), 50.0)
    weight = 1 + rng.poisson(1.2, 1000)
    mlp = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 505.0
    lines = ["# weight minuslogpost omegabh2 omegach2 H0 sigma8 ns"]
    lines += [f"{w} {m:.3f} {r[0]:.6f} {r[1]:.5f} {r[2]:.3f} {r[3]:.4f} {r[4]:.5f}"
              for w, m, r in zip(weight, mlp, x, strict=True)]
    (out / "drumlin_weighted_chain.txt").write_text("\n".join(lines) + "\n")


@writer
def serac_chains(out: Path) -> None:
    """Three plain-header chains of one wCDM run (omega_m, w, h), 700 rows each, started far apart."""
    rng = np.random.default_rng(12124)
    centre = np.array([0.305, -1.02, 0.692])
    sd = np.array([0.018, 0.07, 0.011])
    starts = ([0.40, -0.7, 0.72], [0.22, -1.4, 0.66], [0.33, -0.9, 0.70])
    for tag, start in zip("abc", starts, strict=True):
        x = ar_chain(rng, 700, centre, sd, np.array(start), 60.0)
        lines = ["# omega_m w h"] + [f"{r[0]:.5f} {r[1]:.4f} {r[2]:.5f}" for r in x]
        (out / f"serac_run_{tag}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

@writer
def glyphs(out: Path) -> None:
    """Embeddings (250 x 24) of rendered glyphs from a vision model: five letters in five typefaces, ten
    renderings each; roughly additive in letter and typeface. Labels file: letter and typeface per row."""
    rng = np.random.default_rng(12125)
    letters = ["aleph", "beth", "gimel", "daleth", "he"]
    faces = ["uncial", "rustic", "gothic", "humanist", "grotesk"]
    p = rng.normal(size=(5, 24))
    q = rng.normal(size=(5, 24)) * 0.8
    rows_l, rows_f, emb = [], [], []
    for i in range(5):
        for j in range(5):
            for _ in range(10):
                rows_l.append(letters[i])
                rows_f.append(faces[j])
                emb.append(p[i] + q[j] + 0.25 * np.tanh(p[i] * q[j]) + 0.3 * rng.normal(size=24))
    array(out / "glyph_embeddings.npy", np.array(emb))
    table(out / "glyph_concepts.csv", {"row": np.arange(250), "letter": rows_l, "typeface": rows_f})


@writer
def site_redating(out: Path) -> None:
    """A stream of revised archaeological facts in three rounds (timestep, subject, relation, prompt, object,
    rephrase): new radiocarbon phases, reassigned cultures and moved finds."""
    rng = np.random.default_rng(12126)
    sites = ["Knapp Hill", "Skara Holm", "Dun Carrow", "Lough Brae", "Tor Ennis", "Hallam Rise", "Crannog Bay",
             "Wyke Fen", "Brough Ness", "Carn Dubh", "Ashby Mound", "Rill Barrow"]
    phases = ["Early Neolithic", "Middle Neolithic", "Late Neolithic", "Beaker", "Early Bronze Age",
              "Middle Bronze Age", "Late Bronze Age", "Early Iron Age"]
    museums = ["Kelso", "Perth", "Truro", "Lewes", "Ripon", "Brecon"]
    records = []
    for step in range(3):
        for site in rng.permutation(sites)[:8]:
            if rng.random() < 0.5:
                phase = str(rng.choice(phases))
                records.append({"timestep": step, "subject": str(site), "relation": "phase",
                                "prompt": f"The main occupation of {site} dates to the", "object": phase,
                                "rephrase": f"{site} was chiefly occupied in the"})
            else:
                museum = str(rng.choice(museums))
                records.append({"timestep": step, "subject": str(site), "relation": "held_at",
                                "prompt": f"The finds from {site} are held at the museum in", "object": museum,
                                "rephrase": f"To see the {site} assemblage you must visit"})
    json_lines(out / "site_redating_edits.jsonl", records)


WORDS = {
    "time": ["At first light", "Towards noon", "In the forenoon watch", "By dusk", "After the ebb",
             "Before the flood tide", "At the change of watch", "Late in the dog watch"],
    "boat": ["the coble Grace", "the smack Endeavour", "the lugger Kittiwake", "the drifter Sunbeam",
             "the yawl Providence", "the pilot cutter", "the harbour launch", "a Dutch schuyt"],
    "verb": ["came alongside", "warped out past the pierhead", "lay off the bar", "took the ground at the slip",
             "landed", "shipped", "put back with", "reported"],
    "cargo": ["forty crans of herring", "a deckload of pit props", "coal for the gasworks",
              "salt in bags", "two passengers and the mails", "a torn trawl", "ice from the works",
              "lobster creels"],
    "weather": ["wind fresh from the north-east", "a long swell running", "fog thick on the water",
                "glass falling", "sky clearing to the west", "rain squalls", "light airs", "sea slight"],
}


@writer
def harbour_logbook(out: Path) -> None:
    """A synthetic harbour-master's logbook (about 4,500 words of dated entries) to use as a haystack."""
    rng = np.random.default_rng(12127)
    entries = []
    for day in range(320):
        month, dom = ["March", "April", "May", "June"][day // 80], 1 + (day % 80) % 28
        parts = [f"{dom} {month}."]
        for _ in range(int(rng.integers(1, 3))):
            parts.append(f"{rng.choice(WORDS['time'])}, {rng.choice(WORDS['boat'])} {rng.choice(WORDS['verb'])} "
                         f"{rng.choice(WORDS['cargo'])}; {rng.choice(WORDS['weather'])}.")
        entries.append(" ".join(parts))
    text = "\n".join(" ".join(entries[i:i + 5]) for i in range(0, len(entries), 5)) + "\n"
    (out / "harbour_logbook.txt").write_text(text)


# ------------------------------------------------------------------------------------------------ near misses

@writer
def cod_cpue(out: Path) -> None:
    """Yearly catch (t) and standardised catch per unit effort of a cod stock, 1985-2023, from a Schaefer
    surplus-production model (r 0.35, K 120,000 t)."""
    rng = np.random.default_rng(12128)
    years = np.arange(1985, 2024)
    biomass, catch, cpue = 90000.0, [], []
    for _ in years:
        c = biomass * rng.uniform(0.15, 0.3)
        cpue.append(biomass * 1e-4 * np.exp(rng.normal(0, 0.1)))
        catch.append(c)
        biomass = max(biomass + 0.35 * biomass * (1 - biomass / 120000) - c, 5000.0)
    table(out / "cod_cpue_series.csv", {"year": years, "catch_t": np.array(catch), "cpue": np.array(cpue)},
          {"catch_t": ".0f", "cpue": ".3f"})


@writer
def ice_radar(out: Path) -> None:
    """Ground-penetrating radar ice thickness (m) at 260 scattered points on an ice cap (easting, northing)."""
    rng = np.random.default_rng(12129)
    n = 260
    e = rng.uniform(0, 12000, n)
    nn = rng.uniform(0, 9000, n)
    thick = 320 - 0.00000018 * ((e - 6000) ** 2 + (nn - 4500) ** 2) * 10 + 25 * np.sin(e / 1500) \
        + rng.normal(0, 8, n)
    table(out / "radar_ice_thickness_points.csv", {"easting_m": e, "northing_m": nn, "thickness_m": thick},
          {"easting_m": ".0f", "northing_m": ".0f", "thickness_m": ".1f"})


@writer
def catheter_days(out: Path) -> None:
    """Central-line days until infection or removal (censored) on two surgical wards, with a chlorhexidine
    dressing flag."""
    rng = np.random.default_rng(12130)
    n = 340
    chg = rng.binomial(1, 0.5, n)
    age = rng.uniform(30, 90, n)
    t_inf = rng.exponential(60 / np.exp(-0.5 * chg + 0.01 * (age - 60)))
    t_rm = rng.uniform(3, 40, n)
    table(out / "central_line_days.csv", {
        "line": [f"CL{i:03d}" for i in range(n)], "chg_dressing": chg, "age": age,
        "days": np.minimum(t_inf, t_rm), "infected": (t_inf <= t_rm).astype(int)}, {"age": ".0f", "days": ".1f"})


@writer
def netball(out: Path) -> None:
    """A netball league season: home team, away team and goals, 10 teams playing each other twice."""
    rng = np.random.default_rng(12131)
    teams = ["Harriers", "Comets", "Kestrels", "Mariners", "Foxes", "Thunder", "Otters", "Rovers", "Lynx",
             "Sparks"]
    strength = rng.normal(0, 4, len(teams))
    rows = []
    for i, home in enumerate(teams):
        for j, away in enumerate(teams):
            if i != j:
                rows.append((home, away, int(rng.poisson(max(48 + strength[i] - strength[j] + 2, 20))),
                             int(rng.poisson(max(48 + strength[j] - strength[i], 20)))))
    table(out / "netball_match_results.csv", {"home": [r[0] for r in rows], "away": [r[1] for r in rows],
                                              "home_goals": [r[2] for r in rows],
                                              "away_goals": [r[3] for r in rows]})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
