"""Write every data file of the eleventh blind prose task set, deterministically.

``python tests/understanding_blind11/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
    distance_modulus,
    expit,
    gzip_text,
    main,
    ordered,
    table,
    write_covariance,
)

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def hedgerows(out: Path) -> None:
    """Flower-rich hedgerow strips were planted on smaller, less sprayed fields nearer woodland; they add about
    9 bumblebees per transect walk."""
    rng = np.random.default_rng(11101)
    n = 480
    area = rng.gamma(4, 2.5, n)
    spray = rng.poisson(3, n)
    wood = rng.gamma(2, 300, n)
    clover = rng.beta(2, 6, n) * 100
    strip = rng.binomial(1, expit(0.2 - 0.08 * (area - 10) - 0.25 * (spray - 3) - 0.001 * (wood - 600)))
    bees = np.clip(30 + 9 * strip - 0.6 * (area - 10) - 2.5 * (spray - 3) - 0.01 * (wood - 600)
                   + 0.2 * (clover - 25) + rng.normal(0, 6, n), 0, None)
    table(out / "arable_hedgerow_transects.csv", {
        "field_code": [f"F{i:04d}" for i in range(n)], "flower_strip": strip, "field_ha": area,
        "spray_passes": spray, "woodland_dist_m": wood, "clover_cover_pct": clover, "bumblebees_per_walk": bees},
        {"field_ha": ".2f", "woodland_dist_m": ".0f", "clover_cover_pct": ".1f", "bumblebees_per_walk": ".0f"})


@writer
def speech_therapy(out: Path) -> None:
    """No header row. Columns: child id, weekly therapy hours (continuous), age in months, hearing loss (dB),
    siblings, vocabulary score. Children with lower starting ages and more hearing loss get more hours; each
    hour adds about 4 words."""
    rng = np.random.default_rng(11102)
    n = 430
    age = rng.uniform(24, 60, n)
    loss = rng.gamma(2, 8, n)
    sib = rng.poisson(1.2, n)
    hours = np.clip(2.5 - 0.03 * (age - 42) + 0.04 * (loss - 16) + rng.normal(0, 0.7, n), 0.25, 6)
    vocab = 120 + 4 * hours + 2.1 * (age - 42) - 0.9 * (loss - 16) + 3 * sib + rng.normal(0, 12, n)
    table(out / "toddler_speech_hours.tsv", {
        "id": [f"C{i:03d}" for i in range(n)], "hours": hours, "age": age, "loss": loss, "sib": sib,
        "vocab": vocab}, {"hours": ".2f", "age": ".1f", "loss": ".1f", "vocab": ".0f"}, sep="\t", header=False)


@writer
def solar_fridges(out: Path) -> None:
    """Rural clinics: solar fridges went to remoter, hotter, bigger clinics; they cut vaccine doses discarded
    for temperature excursions by about 3 percentage points."""
    rng = np.random.default_rng(11103)
    n = 560
    dist = rng.gamma(3, 15, n)
    temp = rng.normal(31, 3, n)
    doses = rng.gamma(4, 150, n)
    outages = rng.poisson(6, n)
    fridge = rng.binomial(1, expit(-0.3 + 0.012 * (dist - 45) + 0.06 * (temp - 31) + 0.05 * (outages - 6)))
    waste = np.clip(8 - 3 * fridge + 0.04 * (dist - 45) + 0.3 * (temp - 31) + 0.4 * (outages - 6)
                    + rng.normal(0, 2, n), 0, None)
    table(out / "clinic_cold_chain_waste.csv", {
        "clinic": [f"K{i:03d}" for i in range(n)], "solar_fridge": fridge, "road_km": dist, "mean_temp_c": temp,
        "monthly_doses": doses, "grid_outages_month": outages, "pct_doses_discarded": waste},
        {"road_km": ".1f", "mean_temp_c": ".1f", "monthly_doses": ".0f", "pct_doses_discarded": ".2f"})


@writer
def fee_amnesty(out: Path) -> None:
    """Library members offered a late-fee amnesty (binary) were older and had larger debts; the amnesty adds
    about 1.2 items borrowed per month."""
    rng = np.random.default_rng(11104)
    n = 700
    age = rng.integers(16, 85, n)
    debt = rng.gamma(2, 6, n)
    branch_km = rng.gamma(2, 1.5, n)
    years = rng.integers(0, 30, n)
    amnesty = rng.binomial(1, expit(-0.5 + 0.02 * (age - 45) + 0.06 * (debt - 12)))
    loans = np.clip(3 + 1.2 * amnesty - 0.08 * (debt - 12) - 0.3 * (branch_km - 3) + 0.03 * (years - 15)
                    + rng.normal(0, 1.5, n), 0, None)
    table(out / "library_fee_amnesty_members.csv", {
        "member": [f"L{i:05d}" for i in range(n)], "amnesty_offered": amnesty, "age_years": age,
        "fines_owed_gbp": debt, "km_to_branch": branch_km, "years_member": years, "loans_per_month": loans},
        {"fines_owed_gbp": ".2f", "km_to_branch": ".2f", "loans_per_month": ".2f"})


@writer
def reading_recovery(out: Path) -> None:
    """Pupils with a reading-recovery flag and reading scores at two follow-ups (6 and 12 months)."""
    rng = np.random.default_rng(11105)
    n = 520
    base = rng.normal(95, 12, n)
    fsm = rng.binomial(1, 0.3, n)
    rr = rng.binomial(1, expit(-0.5 - 0.05 * (base - 95) + 0.4 * fsm))
    s6 = base + 5 * rr - 2 * fsm + rng.normal(0, 6, n)
    s12 = base + 3 * rr - 3 * fsm + rng.normal(0, 7, n)
    table(out / "reading_recovery_pupils.csv", {
        "pupil": [f"R{i:04d}" for i in range(n)], "reading_recovery": rr, "baseline_score": base,
        "free_meals": fsm, "score_6m": s6, "score_12m": s12},
        {"baseline_score": ".1f", "score_6m": ".1f", "score_12m": ".1f"})


@writer
def flood_bounds(out: Path) -> None:
    """Flood-insurance take-up (binary) with an unseen risk attitude; a 12-column rainfall-forecast feature
    array shifts take-up; the outcome is a 0/1 'recovered within a year'."""
    rng = np.random.default_rng(11106)
    n = 640
    income = rng.normal(0, 1, n)
    elev = rng.gamma(2, 5, n)
    attitude = rng.normal(size=n)
    z = rng.normal(size=(n, 12))
    insured = rng.binomial(1, expit(-0.1 + z[:, :4] @ np.array([0.9, -0.6, 0.5, 0.4]) + 0.7 * attitude
                                    + 0.3 * income))
    recovered = rng.binomial(1, expit(-0.2 + 1.0 * insured + 0.6 * attitude + 0.4 * income + 0.03 * (elev - 10)))
    table(out / "flood_household_recovery.csv", {
        "household": [f"H{i:04d}" for i in range(n)], "income_z": income, "elevation_m": elev,
        "insured": insured, "recovered_1y": recovered}, {"income_z": ".3f", "elevation_m": ".1f"})
    array(out / "flood_forecast_features.npy", z)


@writer
def arrears(out: Path) -> None:
    """Tenants' predicted arrears risk from a model (higher = worse) and the months in arrears that followed."""
    rng = np.random.default_rng(11107)
    n = 900
    latent = rng.normal(size=n)
    pred = 0.55 * latent + rng.normal(0, 0.8, n)
    months = np.clip(2 + 1.5 * latent + rng.normal(0, 0.6, n), 0, None)
    table(out / "tenancy_arrears_scores.csv", {
        "tenancy": [f"T{i:04d}" for i in range(n)], "predicted_risk": pred, "months_in_arrears": months},
        {"predicted_risk": ".4f", "months_in_arrears": ".2f"})


@writer
def warehouse_loans(out: Path) -> None:
    """Small-business credit applicants (turnover, stock value, overdraft use), a causal order
    turnover -> stock -> overdraft, and a 0/1 approval."""
    rng = np.random.default_rng(11108)
    n = 160
    turnover = rng.normal(50, 15, n)
    stock = 0.4 * turnover + rng.normal(0, 5, n)
    overdraft = 30 - 0.2 * turnover + 0.3 * stock + rng.normal(0, 4, n)
    approved = rng.binomial(1, expit(0.08 * (turnover - 50) + 0.1 * (stock - 20) - 0.15 * (overdraft - 26)))
    table(out / "trade_credit_applicants.csv", {
        "turnover_k": turnover, "stock_value_k": stock, "overdraft_days": overdraft, "approved": approved},
        {"turnover_k": ".2f", "stock_value_k": ".2f", "overdraft_days": ".1f"})


# ------------------------------------------------------------------------------------------------ surveys

AGES = ["18-29", "30-44", "45-64", "65+"]


@writer
def broadband(out: Path) -> None:
    """A rural broadband survey with two questionnaire forms (A, B), a repeat of the trust question two weeks
    later, and district/tenure margins."""
    rng = np.random.default_rng(11109)
    n = 820
    district = rng.choice(["Upland", "Vale", "Coast"], n, p=[0.5, 0.3, 0.2])
    tenure = rng.choice(["own", "rent"], n, p=[0.75, 0.25])
    form = rng.choice(["A", "B"], n)
    trust = ordered(rng, 0.4 * (district == "Vale") + 0.5 * (form == "B"), ["high", "some", "low"], (-0.5, 0.7))
    retest = [t if rng.random() < 0.75 else str(rng.choice(["high", "some", "low"])) for t in trust]
    speed = ordered(rng, -0.6 * (district == "Upland"), ["fine", "slow", "unusable"], (-0.8, 0.6))
    table(out / "rural_broadband_survey.csv", {
        "resp": np.arange(1, n + 1), "district": district, "tenure": tenure, "form": form,
        "q_trust_provider": trust, "q_trust_provider_retest": retest, "q_speed": speed})
    rows = [("district", "Upland", 0.35), ("district", "Vale", 0.45), ("district", "Coast", 0.20),
            ("tenure", "own", 0.64), ("tenure", "rent", 0.36)]
    table(out / "broadband_district_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                                   "share": [r[2] for r in rows]}, {"share": ".2f"})


@writer
def allotments(out: Path) -> None:
    """Allotment holders (older, retired over-represented), a weighted reference sample of residents, and a
    model's answer shares per persona (employment status)."""
    rng = np.random.default_rng(11110)
    n = 680
    age = rng.choice(AGES, n, p=[0.1, 0.2, 0.35, 0.35])
    emp = rng.choice(["employed", "retired", "other"], n, p=[0.4, 0.45, 0.15])
    table(out / "allotment_holder_survey.csv", {
        "holder": [f"A{i:04d}" for i in range(n)], "age_group": age, "employment": emp,
        "q_more_plots": ordered(rng, 0.4 * (emp == "retired") - 0.2 * (age == "18-29"), ["agree", "neutral",
                                                                                         "disagree"], (-0.7, 0.3))})
    m = 1000
    table(out / "borough_resident_sample.csv", {
        "age_group": rng.choice(AGES, m, p=[0.24, 0.28, 0.3, 0.18]),
        "employment": rng.choice(["employed", "retired", "other"], m, p=[0.6, 0.22, 0.18]),
        "svy_weight": rng.uniform(0.5, 2.0, m)}, {"svy_weight": ".3f"})
    rows = []
    for persona, shares in (("employed", (0.45, 0.35, 0.20)), ("retired", (0.6, 0.25, 0.15)),
                            ("other", (0.5, 0.3, 0.2))):
        rows += [("q_more_plots", a, s, persona) for a, s in zip(("agree", "neutral", "disagree"), shares,
                                                                   strict=True)]
    table(out / "allotment_llm_persona_shares.csv", {
        "question": [r[0] for r in rows], "answer": [r[1] for r in rows], "share": [r[2] for r in rows],
        "subgroup": [r[3] for r in rows]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def district_heating(out: Path) -> None:
    """District-heating substations, hourly; about 5% of hours are confirmed leaks (column leak_confirmed)."""
    rng = np.random.default_rng(11111)
    n = 1400
    leak = rng.random(n) < 0.05
    table(out / "heat_substation_hours.csv", {
        "supply_temp_c": rng.normal(78, 3, n) - 2 * leak, "return_temp_c": rng.normal(45, 3, n) - 4 * leak,
        "flow_m3h": rng.gamma(6, 2, n) + 6 * leak, "pressure_bar": rng.normal(6, 0.3, n) - 0.5 * leak,
        "makeup_water_l": rng.gamma(2, 10, n) * np.where(leak, 3.0, 1.0), "leak_confirmed": leak.astype(int)},
        {"supply_temp_c": ".2f", "return_temp_c": ".2f", "flow_m3h": ".2f", "pressure_bar": ".3f",
         "makeup_water_l": ".1f"})


@writer
def escalator_vibration(out: Path) -> None:
    """Escalator gearbox vibration features with no labels at all (a few percent are faulty)."""
    rng = np.random.default_rng(11112)
    n = 900
    bad = rng.random(n) < 0.04
    table(out / "escalator_gearbox_features.csv", {
        "rms_g": rng.gamma(5, 0.02, n) + 0.1 * bad, "kurtosis": rng.normal(3, 0.3, n) + 2 * bad,
        "crest_factor": rng.normal(3.5, 0.4, n) + 1.2 * bad, "band_1k_db": rng.normal(-40, 3, n) + 8 * bad,
        "oil_temp_c": rng.normal(48, 4, n) + 6 * bad},
        {"rms_g": ".4f", "kurtosis": ".3f", "crest_factor": ".3f", "band_1k_db": ".2f", "oil_temp_c": ".1f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def kiln(out: Path) -> None:
    """Ceramic tiles from a kiln: firing features and whether the tile cracked (non-linear boundary)."""
    rng = np.random.default_rng(11113)
    n = 600
    peak = rng.normal(1180, 25, n)
    ramp = rng.uniform(2, 8, n)
    moist = rng.normal(1.2, 0.4, n)
    thick = rng.normal(9, 1, n)
    score = 0.002 * (peak - 1180) ** 2 / 4 + 0.5 * (ramp - 5) + 1.5 * (moist - 1.2) - 1.5
    table(out / "kiln_tile_firings.csv", {
        "peak_temp_c": peak, "ramp_c_min": ramp, "clay_moisture_pct": moist, "tile_mm": thick,
        "cracked": rng.binomial(1, expit(2 * score))},
        {"peak_temp_c": ".1f", "ramp_c_min": ".2f", "clay_moisture_pct": ".3f", "tile_mm": ".2f"})


@writer
def tenancy_default(out: Path) -> None:
    """Commercial tenancies that defaulted: footfall is the main driver, rent ratio is nearly redundant with it."""
    rng = np.random.default_rng(11114)
    n = 850
    foot = rng.lognormal(6, 0.6, n)
    rent = np.clip(0.5 - 0.06 * np.log(foot) + rng.normal(0, 0.03, n), 0.01, None)
    age = rng.uniform(0, 40, n)
    vacancy = rng.beta(2, 8, n)
    logit = -1.2 - 1.1 * (np.log(foot) - 6) + 1.5 * (vacancy - 0.2) + 0.01 * (age - 20)
    table(out / "high_street_tenancies.csv", {
        "footfall_daily": foot, "rent_to_turnover": rent, "lease_age_yr": age, "street_vacancy": vacancy,
        "defaulted": rng.binomial(1, expit(logit))},
        {"footfall_daily": ".0f", "rent_to_turnover": ".4f", "lease_age_yr": ".1f", "street_vacancy": ".3f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def beetles(out: Path) -> None:
    """Flour beetles exposed to a fumigant: dose, exposure temperature and death (0/1)."""
    rng = np.random.default_rng(11115)
    n = 150
    dose = rng.uniform(0.5, 3.0, n)
    temp = rng.uniform(15, 30, n)
    table(out / "fumigant_beetle_mortality.csv", {
        "dose_mg_l": dose, "temp_c": temp, "died": rng.binomial(1, expit(-3 + 1.8 * dose + 0.05 * (temp - 22)))},
        {"dose_mg_l": ".3f", "temp_c": ".1f"})


@writer
def wing_lengths(out: Path) -> None:
    """Wing lengths of 52 warblers caught at a ringing station, as deviations (mm) from a field-guide mean of
    65 mm: two overlapping groups (first-years about -1.6, adults about +1.8), each with sd 1."""
    rng = np.random.default_rng(11116)
    n = 52
    young = rng.random(n) < 0.5
    table(out / "ringing_station_wings.csv", {
        "ring": [f"X{i:03d}" for i in range(n)], "wing_dev_mm": np.where(young, -1.6, 1.8) + rng.normal(0, 1.0, n)},
        {"wing_dev_mm": ".2f"})


@writer
def bread_proving(out: Path) -> None:
    """Dough rise against proving temperature, hydration and yeast (smooth, 64 batches)."""
    rng = np.random.default_rng(11117)
    n = 64
    temp = rng.uniform(20, 34, n)
    hyd = rng.uniform(60, 80, n)
    yeast = rng.uniform(0.5, 2.0, n)
    rise = 80 * (1 - np.exp(-0.08 * (temp - 15))) + 0.6 * (hyd - 70) + 10 * np.sin(yeast) + rng.normal(0, 3, n)
    table(out / "dough_proving_batches.csv", {"proving_temp_c": temp, "hydration_pct": hyd,
                                              "yeast_pct": yeast, "rise_pct": rise},
          {"proving_temp_c": ".2f", "hydration_pct": ".1f", "yeast_pct": ".3f", "rise_pct": ".2f"})


@writer
def radome(out: Path) -> None:
    """Signal loss of a radome against the arrival direction (unit vector), invariant under turning by a third
    of a turn about the vertical and under mirroring top to bottom."""
    rng = np.random.default_rng(11118)
    n = 520
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    phi = np.arctan2(v[:, 1], v[:, 0])
    loss = 1.5 + 0.8 * v[:, 2] ** 2 + 0.5 * (1 - v[:, 2] ** 2) ** 1.5 * np.cos(3 * phi) + rng.normal(0, 0.1, n)
    table(out / "radome_direction_loss.csv", {"ux": v[:, 0], "uy": v[:, 1], "uz": v[:, 2], "loss_db": loss},
          {"ux": ".9f", "uy": ".9f", "uz": ".9f", "loss_db": ".4f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def magpie(out: Path) -> None:
    """120 distance moduli (z, mu, dmu) of flat Lambda (Omega_m 0.33, H0 68.5)."""
    rng = np.random.default_rng(11119)
    n = 120
    z = np.sort(rng.uniform(0.01, 1.2, n))
    err = rng.uniform(0.1, 0.18, n)
    table(out / "magpie_hubble_moduli.csv", {"z": z, "mu": distance_modulus(z, 0.33, h0=68.5) + rng.normal(0, err),
                                             "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def lapwing(out: Path) -> None:
    """150 standardised magnitudes of a flat w0-wa universe (w0 -0.9, wa -0.4, Omega_m 0.31, M -19.3)."""
    rng = np.random.default_rng(11120)
    n = 150
    z = np.sort(rng.uniform(0.02, 1.6, n))
    dmb = rng.uniform(0.08, 0.14, n)
    mb = distance_modulus(z, 0.31, w0=-0.9, wa=-0.4) - 19.3 + rng.normal(0, dmb)
    table(out / "lapwing_salt_mags.csv", {"zcmb": z, "zhel": z + rng.normal(0, 0.0003, n), "mb": mb, "dmb": dmb},
          {"zcmb": ".5f", "zhel": ".5f", "mb": ".5f", "dmb": ".5f"})


@writer
def dunlin(out: Path) -> None:
    """60 distance moduli of a closed-ish Lambda universe (Omega_m 0.28, Omega_de 0.78) with a covariance."""
    rng = np.random.default_rng(11121)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.5, n))
    err = rng.uniform(0.1, 0.15, n)
    cov = np.diag(err ** 2) + 0.025 ** 2 * np.exp(-np.abs(z[:, None] - z[None, :]) / 0.4)
    mu = distance_modulus(z, 0.28, 0.78, h0=70.0) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "dunlin_moduli.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    write_covariance(out / "dunlin_moduli_cov.txt", cov)


@writer
def godwit(out: Path) -> None:
    """40 distance moduli of flat Lambda (Omega_m 0.31, H0 67.7), diagonal errors, for a joint CMB fit."""
    rng = np.random.default_rng(11122)
    n = 40
    z = np.sort(rng.uniform(0.03, 1.0, n))
    err = rng.uniform(0.12, 0.18, n)
    table(out / "godwit_sn_moduli.csv", {"z": z, "mu": distance_modulus(z, 0.31, h0=67.7) + rng.normal(0, err),
                                         "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def sparrow_chain(out: Path) -> None:
    """A CosmoSIS-style chain (section--name header) of a w fit, 1,800 rows, a slow first tenth."""
    rng = np.random.default_rng(11123)
    centre = np.array([0.298, -0.97, 0.70, 0.81])
    sd = np.array([0.015, 0.06, 0.012, 0.03])
    x = ar_chain(rng, 1800, centre, sd, np.array([0.38, -0.6, 0.74, 0.7]), 60.0)
    post = -0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) - 310.0
    lines = ["#cosmological_parameters--omega_m\tcosmological_parameters--w\tcosmological_parameters--h0\t"
             "cosmological_parameters--sigma_8\tpost"]
    lines += [f"{r[0]:.5f}\t{r[1]:.4f}\t{r[2]:.5f}\t{r[3]:.5f}\t{p:.3f}" for r, p in zip(x, post, strict=True)]
    (out / "sparrow_cosmosis_w_chain.txt").write_text("\n".join(lines) + "\n")


@writer
def dipper_chains(out: Path) -> None:
    """Two gzip chains of one run (omegabh2, omegach2, H0, ns), 1,000 rows each, plain header."""
    rng = np.random.default_rng(11124)
    centre = np.array([0.02237, 0.1200, 67.4, 0.965])
    sd = np.array([0.00015, 0.0012, 0.5, 0.004])
    for k, start in zip((1, 2), ([0.0228, 0.125, 65.0, 0.98], [0.0220, 0.116, 69.5, 0.95]), strict=True):
        x = ar_chain(rng, 1000, centre, sd, np.array(start), 50.0)
        lines = ["# omegabh2 omegach2 H0 ns"]
        lines += [f"{r[0]:.6f} {r[1]:.5f} {r[2]:.3f} {r[3]:.5f}" for r in x]
        gzip_text(out / f"dipper_plik_run_{k}.txt.gz", "\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

@writer
def parcel_counts(out: Path) -> None:
    """Prompts asking for the total parcels of two vans and the numeric answer."""
    rng = np.random.default_rng(11125)
    a = rng.integers(0, 60, 600)
    b = rng.integers(0, 60, 600)
    table(out / "depot_parcel_totals.csv", {"question": [f"van {x} + van {y} =" for x, y in zip(a, b, strict=True)],
                                            "parcels": a + b})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def beehives(out: Path) -> None:
    """Winter losses of hives (0/1) nested in apiaries, with varroa counts and treatment."""
    rng = np.random.default_rng(11126)
    apiaries = 24
    rows = []
    eff = rng.normal(0, 0.8, apiaries)
    for a in range(apiaries):
        for _ in range(int(rng.integers(6, 15))):
            mites = rng.gamma(2, 3)
            treated = int(rng.random() < 0.6)
            lost = int(rng.random() < expit(-1.5 + 0.15 * mites - 0.7 * treated + eff[a]))
            rows.append((f"AP{a:02d}", mites, treated, lost))
    table(out / "apiary_winter_losses.csv", {"apiary": [r[0] for r in rows], "varroa_per_100": [r[1] for r in rows],
                                             "oxalic_treated": [r[2] for r in rows], "colony_lost": [r[3] for r in rows]},
          {"varroa_per_100": ".1f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
