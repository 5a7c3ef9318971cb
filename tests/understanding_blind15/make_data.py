"""Write every data file of the fifteenth blind prose task set, deterministically.

``python tests/understanding_blind15/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
    main,
    ordered,
    table,
)

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def orchard_blocks(out: Path) -> None:
    """Apple orchard blocks: hail netting (binary) went to higher, older, steeper blocks; it adds about 4 t/ha
    of marketable fruit. No fruit-drop column."""
    rng = np.random.default_rng(15101)
    n = 350
    elev = rng.uniform(200, 900, n)
    age = rng.uniform(3, 30, n)
    slope = rng.uniform(0, 18, n)
    netted = rng.binomial(1, expit(0.004 * (elev - 550) + 0.04 * (age - 16) + 0.05 * (slope - 9)))
    yld = 38 + 4 * netted - 0.01 * (elev - 550) + 0.2 * (age - 16) - 0.3 * slope + rng.normal(0, 4, n)
    table(out / "orchard_blocks.csv", {
        "block": [f"OB{i:03d}" for i in range(n)], "netted": netted, "elevation_m": elev, "tree_age_yr": age,
        "slope_deg": slope, "marketable_t_ha": yld},
        {"elevation_m": ".0f", "tree_age_yr": ".0f", "slope_deg": ".1f", "marketable_t_ha": ".2f"})


@writer
def clinic_staffing(out: Path) -> None:
    """Primary-care clinics: practice-nurse hours a week (continuous) are higher in large, deprived, rural
    lists; each 10 hours cut emergency readmissions by about 0.3 per 100 patients."""
    rng = np.random.default_rng(15102)
    n = 400
    size = rng.uniform(2, 18, n)
    dep = rng.uniform(0, 1, n)
    rural = rng.binomial(1, 0.3, n)
    hours = np.clip(20 + 3 * size + 15 * dep + 8 * rural + rng.normal(0, 10, n), 0, None)
    readmit = 6 - 0.03 * hours + 0.1 * size + 3 * dep + 0.5 * rural + rng.normal(0, 0.8, n)
    table(out / "clinic_staffing.csv", {
        "clinic": [f"C{i:04d}" for i in range(n)], "nurse_hours_week": hours, "list_size_k": size,
        "deprivation_idx": dep, "rural": rural, "readmit_per_100": readmit},
        {"nurse_hours_week": ".1f", "list_size_k": ".2f", "deprivation_idx": ".3f", "readmit_per_100": ".2f"})


TONES = {  # phrases of a tenant's complaint, hostility score
    "calm": (["could you please look at the damp in the bedroom", "the boiler has been slow since March",
              "I would like a date for the window repair"], -0.8),
    "angry": (["this is the fourth time I have written and nobody cares", "I am sick of being ignored",
               "I will stop paying until this is fixed"], 1.0),
    "worried": (["my daughter has asthma and the mould is spreading", "I am scared the ceiling will come down",
                 "the heating failed and we have a newborn"], 0.3),
}
EXTRAS = ["Flat on the third floor.", "We moved in two years ago.", "The neighbours have the same issue.",
          "I work days so evenings suit me.", "Photos can be sent on request.", "The letting agent knows."]


@writer
def tenancy_disputes(out: Path) -> None:
    """Tenancy disputes: mediation (binary) was offered more where the complaint text is hostile (visible only in
    the text); mediation raises resolution within 90 days by about 10 points."""
    rng = np.random.default_rng(15103)
    n = 260
    kinds = list(TONES)
    arrears = rng.gamma(2, 300, n)
    years = rng.uniform(0.5, 15, n)
    texts, med, res = [], [], []
    for i in range(n):
        phrases, h = TONES[kinds[int(rng.integers(3))]]
        texts.append(f"Dear housing office, {rng.choice(phrases)}. {rng.choice(EXTRAS)}")
        m = rng.random() < expit(1.0 * h + 0.0005 * (arrears[i] - 600))
        med.append(int(m))
        res.append(int(rng.random() < expit(0.2 + 0.45 * m - 0.9 * h - 0.0008 * (arrears[i] - 600)
                                            + 0.03 * years[i])))
    table(out / "tenancy_disputes.csv", {
        "case_id": [f"T{i:04d}" for i in range(n)], "mediation": med, "arrears_gbp": arrears,
        "tenancy_years": years, "complaint_text": texts, "resolved_90d": res},
        {"arrears_gbp": ".0f", "tenancy_years": ".1f"})


@writer
def calf_pens(out: Path) -> None:
    """Dairy calves: metaphylactic antibiotics (binary) went to calves whose lung ultrasound looks a certain way
    in a 12-d image embedding, and to light calves without good colostrum; treatment adds about 60 g/day of
    gain."""
    rng = np.random.default_rng(15104)
    n = 300
    latent = rng.normal(size=(n, 3))
    emb = latent @ (rng.normal(size=(3, 12)) / 2) + 0.3 * rng.normal(size=(n, 12))
    bw = rng.normal(40, 5, n)
    colo = rng.binomial(1, 0.7, n)
    treat = rng.binomial(1, expit(0.7 * latent[:, 0] - 0.05 * (bw - 40) - 0.6 * colo))
    adg = 750 + 60 * treat - 70 * latent[:, 0] + 30 * latent[:, 1] + 6 * (bw - 40) + 40 * colo + rng.normal(0, 60, n)
    table(out / "calf_pens.csv", {
        "calf": [f"K{i:04d}" for i in range(n)], "metaphylaxis": treat, "birth_weight_kg": bw,
        "colostrum_ok": colo, "adg_g_day": adg}, {"birth_weight_kg": ".1f", "adg_g_day": ".0f"})
    array(out / "calf_lung_ultrasound_emb.npy", emb)


@writer
def bike_segments(out: Path) -> None:
    """Street segments (no header row): a protected cycle lane (binary) went to busy, wide, flat streets; it cuts
    cyclist injuries by about 0.8 a year. Columns: street, protected_lane, traffic_aadt, width_m, slope_pct,
    cyclist_injuries."""
    rng = np.random.default_rng(15105)
    n = 380
    aadt = rng.gamma(4, 3000, n)
    width = rng.uniform(6, 20, n)
    slope = rng.uniform(0, 8, n)
    lane = rng.binomial(1, expit(0.00004 * (aadt - 12000) + 0.07 * (width - 13) - 0.1 * (slope - 4)))
    inj = np.clip(2.5 - 0.8 * lane + 0.0001 * (aadt - 12000) - 0.05 * (width - 13) + 0.1 * slope
                  + rng.normal(0, 0.6, n), 0, None)
    table(out / "bike_street_segments.csv", {
        "street": [f"S{i:04d}" for i in range(n)], "protected_lane": lane, "traffic_aadt": aadt, "width_m": width,
        "slope_pct": slope, "cyclist_injuries": inj},
        {"traffic_aadt": ".0f", "width_m": ".1f", "slope_pct": ".1f", "cyclist_injuries": ".2f"}, header=False)


@writer
def microloans(out: Path) -> None:
    """Microloan applicants: months employed and age drive savings; repayment depends on savings and months
    employed. Rows 2 and 7 are young applicants with little savings."""
    rng = np.random.default_rng(15106)
    n = 300
    age = rng.uniform(19, 60, n)
    months = np.clip(0.8 * (age - 18) + rng.normal(0, 6, n), 0, None)
    savings = np.clip(0.05 * age + 0.04 * months + rng.normal(0, 1, n), 0, None)
    repaid = rng.binomial(1, expit(-2.5 + 0.6 * savings + 0.03 * months))
    age[2], months[2], savings[2] = 22, 3, 0.4
    age[7], months[7], savings[7] = 25, 5, 0.8
    table(out / "microloan_applicants.csv", {
        "applicant": [f"M{i:04d}" for i in range(n)], "age_yr": age, "savings_k": savings,
        "months_employed": months, "repaid": repaid},
        {"age_yr": ".0f", "savings_k": ".2f", "months_employed": ".0f"})


@writer
def hearing_aids(out: Path) -> None:
    """Older adults: hearing-aid uptake (binary) and a cognitive score bounded by 0 and 30, with unseen
    engagement; distance to the audiologist and the clinic waiting time shift uptake only."""
    rng = np.random.default_rng(15107)
    n = 600
    age = rng.uniform(60, 90, n)
    loss = rng.uniform(25, 70, n)
    engage = rng.normal(size=n)
    dist = rng.uniform(1, 40, n)
    wait = rng.gamma(3, 4, n)
    aid = rng.binomial(1, expit(0.5 - 0.06 * (dist - 20) - 0.08 * (wait - 12) + 0.03 * (loss - 45) + 0.5 * engage))
    score = np.clip(26 + 1.2 * aid - 0.15 * (age - 75) - 0.04 * (loss - 45) + 1.0 * engage
                    + rng.normal(0, 1.5, n), 0, 30)
    table(out / "hearing_fitting_cohort.csv", {
        "person": [f"P{i:04d}" for i in range(n)], "age_yr": age, "baseline_loss_db": loss,
        "audiologist_km": dist, "clinic_wait_weeks": wait, "aid_fitted": aid, "cognition_score": score},
        {"age_yr": ".0f", "baseline_loss_db": ".0f", "audiologist_km": ".1f", "clinic_wait_weeks": ".1f",
         "cognition_score": ".1f"})


@writer
def arrears_scores(out: Path) -> None:
    """Tenants: a risk score (prediction) and months in arrears a year later (higher is worse); R^2 about 0.3."""
    rng = np.random.default_rng(15108)
    n = 900
    truth = rng.gamma(2, 1.5, n)
    score = truth + rng.normal(0, 2.2, n)
    table(out / "tenant_arrears_scores.csv", {"tenant": [f"R{i:04d}" for i in range(n)], "risk_score": score,
                                              "months_in_arrears": truth},
          {"risk_score": ".3f", "months_in_arrears": ".2f"})


# ------------------------------------------------------------------------------------------------ surveys

AGREE = ["agree", "neutral", "disagree"]
AGES = ["16-29", "30-59", "60+"]


@writer
def ferry_commuters(out: Path) -> None:
    """Ferry commuters on fares and the timetable, in two questionnaire forms (A asks about the fare first,
    B second); the young are over-sampled. Census margins by age band and island, and a model's answer shares."""
    rng = np.random.default_rng(15109)
    n = 560
    form = rng.choice(["A", "B"], n)
    age = rng.choice(AGES, n, p=[0.45, 0.4, 0.15])
    island = rng.choice(["north", "south", "outer"], n, p=[0.4, 0.4, 0.2])
    fare = ordered(rng, -0.3 * (form == "B") + 0.3 * (age == "60+") - 0.4 * (island == "outer"), AGREE, (-0.4, 0.6))
    tt = ordered(rng, 0.2 * (island == "north") - 0.2 * (age == "16-29"), AGREE, (-0.5, 0.5))
    table(out / "ferry_commuter_survey.csv", {
        "resp": np.arange(1, n + 1), "form": form, "age_band": age, "island": island, "q_fare_fair": fare,
        "q_timetable_ok": tt})
    rows = [("age_band", "16-29", 0.22), ("age_band", "30-59", 0.48), ("age_band", "60+", 0.30),
            ("island", "north", 0.45), ("island", "south", 0.35), ("island", "outer", 0.20)]
    table(out / "ferry_census_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                             "share": [r[2] for r in rows]}, {"share": ".2f"})
    shares = {"q_fare_fair": (0.30, 0.40, 0.30), "q_timetable_ok": (0.55, 0.25, 0.20)}
    table(out / "ferry_model_shares.csv", {
        "question": [q for q in shares for _ in AGREE], "answer": [a for _ in shares for a in AGREE],
        "share": [s for q in shares for s in shares[q]]}, {"share": ".2f"})


@writer
def allotment_holders(out: Path) -> None:
    """Allotment holders on the new watering rules, asked twice two weeks apart (q_water_rules and its retest);
    men and long-standing holders answered more. A weighted register sample of all holders."""
    rng = np.random.default_rng(15110)
    n = 420
    gender = rng.choice(["woman", "man"], n, p=[0.35, 0.65])
    tenure = rng.choice(["<5y", "5-15y", ">15y"], n, p=[0.2, 0.35, 0.45])
    score = 0.4 * (tenure == "<5y") - 0.3 * (gender == "man")
    first = ordered(rng, score, AGREE, (-0.4, 0.5))
    again = [a if rng.random() < 0.75 else str(rng.choice(AGREE)) for a in first]
    table(out / "allotment_holder_answers.csv", {
        "holder": [f"AL{i:04d}" for i in range(n)], "gender": gender, "tenure_band": tenure,
        "q_water_rules": first, "q_water_rules_retest": again})
    m = 800
    table(out / "allotment_register.csv", {
        "gender": rng.choice(["woman", "man"], m, p=[0.5, 0.5]),
        "tenure_band": rng.choice(["<5y", "5-15y", ">15y"], m, p=[0.35, 0.35, 0.3]),
        "reg_weight": rng.uniform(0.8, 1.4, m)}, {"reg_weight": ".3f"})


@writer
def harbour_residents(out: Path) -> None:
    """Harbour residents on a marina expansion with two weight columns (base and trimmed)."""
    rng = np.random.default_rng(15111)
    n = 300
    age = rng.choice(AGES, n)
    w = rng.uniform(0.4, 3.0, n)
    table(out / "harbour_marina_survey.csv", {
        "resp": np.arange(1, n + 1), "age_band": age, "w_base": w, "w_trimmed": np.clip(w, 0.6, 2.2),
        "q_marina": ordered(rng, 0.3 * (age == "60+"), AGREE, (-0.5, 0.5))}, {"w_base": ".3f", "w_trimmed": ".3f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def bearing_vibration(out: Path) -> None:
    """Vibration summaries of pump bearings; about 3% are confirmed faults (fault = 1) with somewhat higher
    kurtosis, crest factor and envelope energy."""
    rng = np.random.default_rng(15112)
    n = 850
    bad = rng.random(n) < 0.03
    table(out / "bearing_vibration.csv", {
        "rms_g": rng.gamma(4, 0.05, n) + 0.04 * bad, "kurtosis": rng.normal(3, 0.4, n) + 0.7 * bad,
        "crest_factor": rng.normal(3.5, 0.5, n) + 0.5 * bad, "envelope_energy": rng.gamma(3, 1, n) + 1.5 * bad,
        "temp_c": rng.normal(55, 5, n), "fault": bad.astype(int)},
        {"rms_g": ".4f", "kurtosis": ".3f", "crest_factor": ".3f", "envelope_energy": ".3f", "temp_c": ".1f"})


@writer
def meter_tamper(out: Path) -> None:
    """Electricity meter readings; about 5% had confirmed tampering (tamper_confirmed) with night-time dips,
    flat profiles and reverse-flow flags."""
    rng = np.random.default_rng(15113)
    n = 800
    bad = rng.random(n) < 0.05
    table(out / "meter_readings.csv", {
        "kwh_month": rng.gamma(6, 50, n) * np.where(bad, 0.6, 1.0), "night_share": rng.beta(4, 8, n) - 0.15 * bad,
        "profile_std": rng.gamma(5, 0.2, n) * np.where(bad, 0.4, 1.0), "reverse_flags": rng.poisson(0.2, n)
        + rng.poisson(3, n) * bad, "tamper_confirmed": bad.astype(int)},
        {"kwh_month": ".1f", "night_share": ".4f", "profile_std": ".4f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def frog_calls(out: Path) -> None:
    """Acoustic detections: tree frog calls (tree_frog = 1) against other sources, separated nonlinearly."""
    rng = np.random.default_rng(15114)
    n = 560
    tf = rng.random(n) < 0.4
    table(out / "frog_call_features.csv", {
        "dominant_khz": rng.lognormal(np.where(tf, 1.0, 0.5), 0.3), "pulse_rate_hz": rng.gamma(np.where(tf, 8, 3), 5),
        "call_ms": rng.lognormal(np.where(tf, 4.5, 5.2), 0.4), "harmonicity": rng.beta(np.where(tf, 4, 2), 3),
        "tree_frog": tf.astype(int)},
        {"dominant_khz": ".3f", "pulse_rate_hz": ".2f", "call_ms": ".1f", "harmonicity": ".3f"})


@writer
def crop_blight(out: Path) -> None:
    """Potato plots: late blight (blight) against weather; leaf wetness hours add a little beyond humidity and
    rain, which it tracks."""
    rng = np.random.default_rng(15115)
    n = 600
    rain = rng.gamma(2, 8, n)
    hum = rng.uniform(60, 100, n)
    wet = 0.2 * rain + 0.15 * (hum - 60) + rng.normal(0, 2, n)
    temp = rng.uniform(8, 26, n)
    logit = -2 + 0.04 * (rain - 16) + 0.05 * (hum - 80) + 0.05 * (wet - 9) - 0.05 * np.abs(temp - 17)
    table(out / "potato_blight_plots.csv", {
        "rain_mm": rain, "humidity_pct": hum, "leaf_wetness_h": wet, "mean_temp_c": temp,
        "blight": rng.binomial(1, expit(logit))},
        {"rain_mm": ".1f", "humidity_pct": ".1f", "leaf_wetness_h": ".2f", "mean_temp_c": ".1f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def seed_germination(out: Path) -> None:
    """Seeds: germination (0/1) against scarification, soaking hours and temperature (logistic)."""
    rng = np.random.default_rng(15116)
    n = 200
    scar = rng.binomial(1, 0.5, n)
    soak = rng.uniform(0, 24, n)
    temp = rng.uniform(10, 30, n)
    y = rng.binomial(1, expit(-1 + 1.2 * scar + 0.05 * soak + 0.04 * (temp - 20)))
    table(out / "seed_germination.csv", {"scarified": scar, "soak_h": soak, "temp_c": temp, "germinated": y},
          {"soak_h": ".1f", "temp_c": ".1f"})


@writer
def moth_wingspans(out: Path) -> None:
    """Wingspans of 40 moths from a light trap as the difference from a field-guide value of 34 mm: an even mix
    of two species centred near -2 and +2.5 mm, each with a spread of about 1 mm."""
    rng = np.random.default_rng(15117)
    n = 40
    sp = rng.integers(0, 2, n)
    table(out / "moth_wingspans.csv", {"wingspan_dev_mm": np.where(sp == 0, -2.0, 2.5) + rng.normal(0, 1.0, n)},
          {"wingspan_dev_mm": ".2f"})


@writer
def soil_respiration(out: Path) -> None:
    """56 soil collars: CO2 flux rising nonlinearly with temperature and peaking at middling moisture; a collar
    id column that is not an input."""
    rng = np.random.default_rng(15118)
    n = 56
    temp = rng.uniform(4, 24, n)
    moist = rng.uniform(10, 50, n)
    flux = 1.5 * np.exp(0.07 * temp) * np.exp(-((moist - 30) / 15) ** 2) + rng.normal(0, 0.2, n)
    table(out / "soil_collar_flux.csv", {"collar": [f"SC{i:02d}" for i in range(n)], "soil_temp_c": temp,
                                         "moisture_pct": moist, "co2_flux": flux},
          {"soil_temp_c": ".2f", "moisture_pct": ".1f", "co2_flux": ".3f"})


@writer
def ionosphere_sphere(out: Path) -> None:
    """Total-electron-content anomaly at 300 receiver stations on the unit sphere (x, y, z): invariant under
    rotation by a sixth of a turn about the polar axis and under reflection through the equator."""
    rng = np.random.default_rng(15119)
    n = 300
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    phi = np.arctan2(v[:, 1], v[:, 0])
    y = 0.8 * np.cos(6 * phi) * (1 - v[:, 2] ** 2) ** 3 + 1.2 * v[:, 2] ** 2 + rng.normal(0, 0.2, n)
    table(out / "tec_station_anomaly.csv", {"x": v[:, 0], "y": v[:, 1], "z": v[:, 2], "tec_anomaly": y},
          {"x": ".8f", "y": ".8f", "z": ".8f", "tec_anomaly": ".4f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def wren_sn(out: Path) -> None:
    """70 distance moduli of an evolving dark energy (flat, Omega_m 0.31, w0 -0.85, wa -0.5)."""
    rng = np.random.default_rng(15120)
    n = 70
    z = np.sort(rng.uniform(0.02, 1.6, n))
    err = rng.uniform(0.1, 0.15, n)
    mu = distance_modulus(z, 0.31, w0=-0.85, wa=-0.5) + rng.normal(0, err)
    table(out / "wren_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def lark_sn(out: Path) -> None:
    """45 standardised magnitudes (M -19.3 at H0 70) of a curved Lambda model (Omega_m 0.32, Omega_de 0.66),
    whitespace separated (zcmb, mb, dmb), with a covariance file that starts with its count line."""
    rng = np.random.default_rng(15121)
    n = 45
    z = np.sort(rng.uniform(0.02, 1.2, n))
    err = rng.uniform(0.1, 0.15, n)
    cov = correlated_cov(z, err, 0.025, 0.35)
    mb = distance_modulus(z, 0.32, 0.66) - 19.3 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "lark_sn_mb.txt", {"zcmb": z, "mb": mb, "dmb": err}, {"zcmb": ".4f", "mb": ".4f", "dmb": ".3f"},
          sep=" ")
    (out / "lark_mb_cov.txt").write_text(f"{n}\n" + "".join(f"{v:.5e}\n" for v in cov.ravel()))


@writer
def wagtail_sn(out: Path) -> None:
    """35 distance moduli (flat, Omega_m 0.315) for a joint fit with the CMB, with a covariance (count line)."""
    rng = np.random.default_rng(15122)
    n = 35
    z = np.sort(rng.uniform(0.03, 1.1, n))
    err = rng.uniform(0.11, 0.16, n)
    cov = correlated_cov(z, err, 0.02, 0.5)
    mu = distance_modulus(z, 0.315, h0=67.4) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "wagtail_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    (out / "wagtail_sn_cov.txt").write_text(f"{n}\n" + "".join(f"{v:.5e}\n" for v in cov.ravel()))


@writer
def finch_sn(out: Path) -> None:
    """50 supernovae with distance moduli from two light-curve fitters (two mu columns) and one error column."""
    rng = np.random.default_rng(15123)
    n = 50
    z = np.sort(rng.uniform(0.02, 1.0, n))
    err = rng.uniform(0.1, 0.15, n)
    mu = distance_modulus(z, 0.3) + rng.normal(0, err)
    table(out / "finch_sn_two_fitters.csv", {"z": z, "mu_salt": mu, "mu_bayesn": mu + rng.normal(0.02, 0.05, n),
                                             "mu_err": err},
          {"z": ".4f", "mu_salt": ".4f", "mu_bayesn": ".4f", "mu_err": ".3f"})


@writer
def lensing_chain(out: Path) -> None:
    """A Cobaya-style weighted chain of a weak-lensing run (weight, minuslogpost, omegam, sigma8, S8), 2,000
    rows settling over the first few percent."""
    rng = np.random.default_rng(15124)
    centre = np.array([0.29, 0.82])
    sd = np.array([0.025, 0.04])
    x = ar_chain(rng, 2000, centre, sd, np.array([0.36, 0.72]), 60.0)
    s8 = x[:, 1] * np.sqrt(x[:, 0] / 0.3)
    weight = rng.integers(1, 4, 2000)
    post = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 80.0
    lines = ["#    weight  minuslogpost  omegam  sigma8  S8"]
    lines += [f"{w:d} {p:.4f} {r[0]:.5f} {r[1]:.5f} {s:.5f}" for w, p, r, s in zip(weight, post, x, s8, strict=True)]
    (out / "shear_s8_chain.txt").write_text("\n".join(lines) + "\n")


@writer
def bbn_chains(out: Path) -> None:
    """Four plain-header chains of one nucleosynthesis run (ombh2, nnu, yhe), 500 rows each."""
    rng = np.random.default_rng(15125)
    centre = np.array([0.0222, 3.0, 0.245])
    sd = np.array([0.0004, 0.2, 0.003])
    starts = ([0.023, 3.5, 0.25], [0.021, 2.6, 0.24], [0.0226, 3.3, 0.248], [0.0218, 2.8, 0.242])
    for tag, start in zip("1234", starts, strict=True):
        x = ar_chain(rng, 500, centre, sd, np.array(start), 20.0, rho=0.3)
        lines = ["# ombh2 nnu yhe"] + [f"{r[0]:.6f} {r[1]:.4f} {r[2]:.5f}" for r in x]
        (out / f"bbn_neff_run{tag}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

LOG = {
    "when": ["At first light", "During the forenoon watch", "At noon", "In the afternoon", "At dusk",
             "Through the middle watch", "Before dawn", "At eight bells"],
    "who": ["the mate", "the bosun", "the lookout", "the second officer", "the cook", "the helmsman"],
    "did": ["took a sounding of twelve fathoms", "noted a fresh breeze from the south west",
            "reported a sail on the horizon", "set the topsails", "checked the bilge and found it dry",
            "logged the barometer steady", "saw a pod of porpoises off the bow", "reefed the mainsail"],
    "end": ["Course held north by east.", "Weather fair.", "All hands well.", "Sea moderate.",
            "Nothing further to report.", "Lamps lit at sunset."],
}


@writer
def ship_logbook(out: Path) -> None:
    """A synthetic sailing-ship logbook (about 7,000 words) for a haystack, built from short word lists."""
    rng = np.random.default_rng(15126)
    days = []
    for d in range(200):
        parts = [f"Day {d + 1}."]
        for _ in range(2):
            parts.append(f"{rng.choice(LOG['when'])} {rng.choice(LOG['who'])} {rng.choice(LOG['did'])}.")
        parts.append(str(rng.choice(LOG["end"])))
        days.append(" ".join(parts))
    (out / "brig_logbook.txt").write_text("\n".join(" ".join(days[i:i + 4]) for i in range(0, 200, 4)) + "\n")


@writer
def digit_sums(out: Path) -> None:
    """Prompts asking for the sum of three two-digit numbers (question, result), 800 rows."""
    rng = np.random.default_rng(15127)
    a = rng.integers(10, 100, size=(800, 3))
    table(out / "three_term_sums.csv", {"question": [f"{x} + {y} + {z} =" for x, y, z in a],
                                        "result": a.sum(axis=1)})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def glacier_balance(out: Path) -> None:
    """Annual mass balance (m w.e.) of one glacier, 1965-2024, with a negative trend and autocorrelation."""
    rng = np.random.default_rng(15128)
    years = np.arange(1965, 2025)
    e = np.zeros(years.size)
    for i in range(1, years.size):
        e[i] = 0.4 * e[i - 1] + rng.normal(0, 0.4)
    table(out / "glacier_mass_balance.csv", {"year": years, "balance_mwe": -0.2 - 0.015 * (years - 1965) + e},
          {"balance_mwe": ".3f"})


@writer
def beetle_recaptures(out: Path) -> None:
    """Ground beetles marked and recaptured over six pitfall sessions (session, caught, marked_in_catch,
    newly_marked)."""
    rng = np.random.default_rng(15129)
    n_pop, marked, rows = 900, 0, []
    for s in range(1, 7):
        caught = int(rng.binomial(n_pop, 0.08))
        recap = int(rng.binomial(caught, marked / n_pop)) if marked else 0
        rows.append((s, caught, recap, caught - recap))
        marked += caught - recap
    table(out / "beetle_pitfall_sessions.csv", {"session": [r[0] for r in rows], "caught": [r[1] for r in rows],
                                                "marked_in_catch": [r[2] for r in rows],
                                                "newly_marked": [r[3] for r in rows]})


@writer
def mosquito_bioassay(out: Path) -> None:
    """Insecticide bioassay: mosquitoes exposed at eight doses in four replicates (dose, exposed, dead), probit
    in log dose."""
    from math import erf

    rng = np.random.default_rng(15130)
    doses = np.array([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0])
    rows = []
    for d in doses:
        p = 0.5 * (1 + erf((np.log10(d) + 0.9) * 2.0 / np.sqrt(2)))
        for rep in range(4):
            rows.append((d, rep + 1, 25, int(rng.binomial(25, p))))
    table(out / "mosquito_bioassay.csv", {"dose_ug": [r[0] for r in rows], "replicate": [r[1] for r in rows],
                                          "exposed": [r[2] for r in rows], "dead": [r[3] for r in rows]},
          {"dose_ug": ".2f"})


@writer
def wind_mast(out: Path) -> None:
    """Ten-minute mean wind speeds at 80 m from a met mast (Weibull, shape 2.1, scale 8.5 m/s), 2,000 rows."""
    rng = np.random.default_rng(15131)
    speed = 8.5 * rng.weibull(2.1, 2000)
    table(out / "met_mast_80m.csv", {"interval": np.arange(1, 2001), "speed_ms": speed,
                                     "direction_deg": rng.uniform(0, 360, 2000)},
          {"speed_ms": ".2f", "direction_deg": ".0f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
