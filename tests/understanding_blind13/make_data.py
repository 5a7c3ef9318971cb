"""Write every data file of the thirteenth blind prose task set, deterministically.

``python tests/understanding_blind13/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
def dairy_robot(out: Path) -> None:
    """Dairy cows: robotic milking (binary) was adopted more in larger herds and for Holsteins and younger cows;
    it adds about 1.6 kg of milk a day."""
    rng = np.random.default_rng(13101)
    n = 520
    parity = rng.integers(1, 7, n)
    dim = rng.uniform(10, 300, n)
    herd = rng.integers(40, 400, n)
    holstein = rng.binomial(1, 0.6, n)
    robot = rng.binomial(1, expit(-0.3 + 0.006 * (herd - 220) + 0.6 * holstein - 0.2 * (parity - 3)))
    milk = 28 + 1.6 * robot + 1.5 * (parity > 1) - 0.035 * (dim - 150) + 0.01 * (herd - 220) + 4 * holstein \
        + rng.normal(0, 3, n)
    table(out / "dairy_robot_milking.csv", {
        "cow": [f"C{i:04d}" for i in range(n)], "robot": robot, "parity": parity, "days_in_milk": dim,
        "herd_size": herd, "holstein": holstein, "milk_kg": milk}, {"days_in_milk": ".0f", "milk_kg": ".2f"})


@writer
def bus_lanes(out: Path) -> None:
    """Bus routes: kilometres of bus lane (continuous) were built on longer, busier routes with more stops;
    each kilometre cuts the average lateness by about 0.35 minutes."""
    rng = np.random.default_rng(13102)
    n = 400
    route_km = rng.uniform(5, 35, n)
    stops = np.round(route_km * rng.uniform(1.5, 3, n)).astype(int)
    peak = rng.beta(4, 6, n)
    boardings = rng.gamma(3, 2.5, n)
    lane = np.clip(0.15 * route_km + 0.25 * boardings + 3 * (peak - 0.4) + rng.normal(0, 1.5, n), 0, None)
    late = np.clip(2.5 - 0.35 * lane + 0.08 * route_km + 0.04 * stops + 4 * (peak - 0.4) + 0.1 * boardings
                   + rng.normal(0, 0.8, n), 0, None)
    table(out / "bus_lane_routes.csv", {
        "route": [f"R{i:03d}" for i in range(n)], "bus_lane_km": lane, "route_km": route_km, "stops": stops,
        "peak_share": peak, "boardings_k": boardings, "mins_late": late},
        {"bus_lane_km": ".2f", "route_km": ".1f", "peak_share": ".3f", "boardings_k": ".2f", "mins_late": ".2f"})


CATEGORIES = {  # item nouns, base return logit, propensity of a prepaid label
    "footwear": (["trainers", "ankle boots", "loafers", "sandals"], 0.6, 0.8),
    "dresses": (["wrap dress", "midi dress", "shirt dress", "slip dress"], 0.9, 0.9),
    "denim": (["straight jeans", "skinny jeans", "denim jacket", "cargo jeans"], 0.5, 0.6),
    "kitchen": (["saucepan set", "chef knife", "cast iron skillet", "salad spinner"], -1.2, -0.6),
    "books": (["hardback atlas", "cookbook", "crime paperback", "field guide"], -1.8, -1.0),
    "phone": (["phone case", "screen protector", "charging cable", "car mount"], -0.6, -0.3),
}
ADJECTIVES = ["classic", "lightweight", "premium", "everyday", "slim", "oversized", "vintage", "compact"]
COLOURS = ["black", "navy", "olive", "rust", "cream", "grey", "burgundy", "sand"]


@writer
def returns_orders(out: Path) -> None:
    """Online orders: a prepaid return label (binary) went mostly with fashion items, which are returned more
    anyway; the category is visible only in the product description. The label raises the chance of a return
    by about 6 points."""
    rng = np.random.default_rng(13103)
    n = 320
    cats = list(CATEGORIES)
    cat = rng.choice(len(cats), n)
    price = rng.gamma(3, 15, n)
    tenure = rng.integers(1, 96, n)
    desc, label, ret = [], [], []
    for i in range(n):
        nouns, base, prop = CATEGORIES[cats[cat[i]]]
        desc.append(f"{rng.choice(ADJECTIVES)} {rng.choice(COLOURS)} {rng.choice(nouns)}")
        lab = rng.random() < expit(prop - 0.01 * (price[i] - 45))
        label.append(int(lab))
        ret.append(int(rng.random() < expit(base + 0.3 * lab + 0.01 * (price[i] - 45) - 0.005 * (tenure[i] - 48))))
    table(out / "returns_orders.csv", {
        "order_id": [f"O{i:05d}" for i in range(n)], "prepaid_label": label, "price_gbp": price,
        "tenure_months": tenure, "description": desc, "returned": ret}, {"price_gbp": ".2f"})


@writer
def phototherapy(out: Path) -> None:
    """Psoriasis patients: narrowband UVB (binary) was given more often to patients whose lesions look a certain
    way in a 20-d image embedding (and to older, more severe patients); it adds about 12 points of PASI
    improvement."""
    rng = np.random.default_rng(13104)
    n = 420
    latent = rng.normal(size=(n, 4))
    emb = latent @ (rng.normal(size=(4, 20)) / 2) + 0.3 * rng.normal(size=(n, 20))
    age = rng.uniform(18, 80, n)
    pasi0 = rng.gamma(4, 3.5, n)
    uvb = rng.binomial(1, expit(0.7 * latent[:, 0] - 0.5 * latent[:, 2] + 0.02 * (age - 49) + 0.05 * (pasi0 - 14)))
    improve = np.clip(45 + 12 * uvb + 8 * latent[:, 0] + 5 * latent[:, 1] - 4 * latent[:, 2] - 0.1 * (age - 49)
                      + 0.3 * (pasi0 - 14) + rng.normal(0, 8, n), 0, 100)
    table(out / "phototherapy_patients.csv", {
        "patient": [f"D{i:04d}" for i in range(n)], "nb_uvb": uvb, "age": age, "baseline_pasi": pasi0,
        "pasi_improvement_pct": improve}, {"age": ".0f", "baseline_pasi": ".1f", "pasi_improvement_pct": ".1f"})
    array(out / "phototherapy_lesion_embeddings.npy", emb)


@writer
def parlour_additive(out: Path) -> None:
    """Cows given a feed additive (binary) and their somatic cell count; no lameness score in the file."""
    rng = np.random.default_rng(13105)
    n = 300
    parity = rng.integers(1, 7, n)
    dim = rng.uniform(10, 300, n)
    additive = rng.binomial(1, 0.45, n)
    scc = np.exp(4.8 - 0.15 * additive + 0.12 * parity + 0.001 * dim + rng.normal(0, 0.5, n))
    table(out / "parlour_additive_cows.csv", {
        "cow": [f"P{i:04d}" for i in range(n)], "additive": additive, "parity": parity, "days_in_milk": dim,
        "scc_k_per_ml": scc}, {"days_in_milk": ".0f", "scc_k_per_ml": ".0f"})


@writer
def teledermatology(out: Path) -> None:
    """Teledermatology referral (binary) and a 0/1 biopsy within six months, with unseen lesion severity; a
    10-d array of GP-practice features (distance, list size, photo kit, ...) shifts referral only."""
    rng = np.random.default_rng(13106)
    n = 600
    age = rng.normal(0, 1, n)
    skin = rng.integers(1, 7, n)
    severity = rng.normal(size=n)
    practice = rng.normal(size=(n, 10))
    drive = practice[:, :4] @ np.array([0.9, -0.7, 0.5, 0.4])
    tele = rng.binomial(1, expit(0.2 + drive + 0.5 * severity + 0.2 * age))
    biopsy = rng.binomial(1, expit(-1.2 - 0.7 * tele + 0.9 * severity + 0.3 * age + 0.1 * (skin - 3)))
    table(out / "teledermatology_referrals.csv", {
        "patient": [f"T{i:04d}" for i in range(n)], "age_z": age, "fitzpatrick": skin, "tele_referral": tele,
        "biopsy_6m": biopsy}, {"age_z": ".3f"})
    array(out / "gp_practice_features.npy", practice)


@writer
def absence_predictions(out: Path) -> None:
    """Pupils: a model's predicted days absent next year and the days actually missed (more = worse)."""
    rng = np.random.default_rng(13107)
    n = 900
    latent = rng.normal(size=n)
    pred = np.clip(12 + 6 * (0.7 * latent + rng.normal(0, 0.6, n)), 0, None)
    actual = np.clip(np.round(12 + 7 * latent + rng.normal(0, 4, n)), 0, None)
    table(out / "maths_absence_predictions.csv", {
        "pupil": [f"U{i:04d}" for i in range(n)], "predicted_absence": pred, "absence_days": actual},
        {"predicted_absence": ".1f", "absence_days": ".0f"})


@writer
def algebra_pupils(out: Path) -> None:
    """Algebra pupils: attendance drives homework completion, both drive the quiz average, and the three decide
    whether the pupil passes the end-of-year test. Rows 3, 8 and 15 are struggling pupils."""
    rng = np.random.default_rng(13108)
    n = 300
    attend = np.clip(rng.normal(88, 8, n), 40, 100)
    homework = np.clip(0.3 + 0.006 * (attend - 88) + rng.normal(0, 0.15, n) + 0.4, 0, 1)
    quiz = np.clip(40 + 0.5 * (attend - 88) + 25 * (homework - 0.7) + rng.normal(0, 8, n) + 15, 0, 100)
    for i in (3, 8, 15):
        attend[i], homework[i], quiz[i] = 70 + i, 0.35 + 0.01 * i, 30 + i
    passed = rng.binomial(1, expit(0.08 * (quiz - 55) + 3 * (homework - 0.7) + 0.03 * (attend - 88)))
    passed[[3, 8, 15]] = 0
    table(out / "algebra_pupils.csv", {"attendance_pct": attend, "homework_rate": homework, "quiz_avg": quiz,
                                       "passed": passed},
          {"attendance_pct": ".1f", "homework_rate": ".3f", "quiz_avg": ".1f"})


# ------------------------------------------------------------------------------------------------ surveys

AGES = ["16-29", "30-49", "50-64", "65+"]
SCALE = ["yes", "unsure", "no"]


@writer
def commuter_survey(out: Path) -> None:
    """A commuter survey with two questionnaire forms (A neutral, B mentioning the fare rise); the young and the
    inner boroughs are over-represented. Margins of the city's adult population by age and borough group."""
    rng = np.random.default_rng(13109)
    n = 700
    form = rng.choice(["A", "B"], n)
    age = rng.choice(AGES, n, p=[0.35, 0.35, 0.2, 0.1])
    borough = rng.choice(["inner", "outer"], n, p=[0.65, 0.35])
    fare = ordered(rng, -0.6 * (form == "B") + 0.3 * (age == "65+") - 0.2 * (borough == "outer"), SCALE,
                   (-0.5, 0.5))
    night = ordered(rng, 0.6 * (age == "16-29") + 0.2 * (borough == "inner"), SCALE, (-0.4, 0.6))
    table(out / "commuter_survey_forms.csv", {
        "resp_id": np.arange(1, n + 1), "form": form, "age_group": age, "borough": borough,
        "q_fare_fair": fare, "q_more_night_buses": night})
    rows = [("age_group", "16-29", 0.22), ("age_group", "30-49", 0.34), ("age_group", "50-64", 0.24),
            ("age_group", "65+", 0.20), ("borough", "inner", 0.42), ("borough", "outer", 0.58)]
    table(out / "commuter_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                         "share": [r[2] for r in rows]}, {"share": ".2f"})


@writer
def dairy_farmers(out: Path) -> None:
    """Dairy farmers asked twice (two weeks apart) about cutting antibiotic use, and once about grazing; large
    herds answered more. A register sample with weights (pw) of all farms by region and herd band, and an
    assistant's answer shares for both questions."""
    rng = np.random.default_rng(13110)
    n = 420
    region = rng.choice(["west", "north", "east"], n, p=[0.5, 0.3, 0.2])
    band = rng.choice(["small", "medium", "large"], n, p=[0.2, 0.35, 0.45])
    anti = ordered(rng, 0.4 * (band == "large") - 0.3 * (region == "east"), SCALE, (-0.5, 0.5))
    retest = [a if rng.random() < 0.75 else str(rng.choice(SCALE)) for a in anti]
    graze = ordered(rng, 0.5 * (region == "west") - 0.4 * (band == "large"), SCALE, (-0.3, 0.7))
    table(out / "farmer_attitudes.csv", {
        "farm": [f"F{i:04d}" for i in range(n)], "region": region, "herd_band": band, "q_antibiotics": anti,
        "q_antibiotics_retest": retest, "q_grazing": graze})
    m = 900
    table(out / "farm_register_sample.csv", {
        "region": rng.choice(["west", "north", "east"], m, p=[0.4, 0.35, 0.25]),
        "herd_band": rng.choice(["small", "medium", "large"], m, p=[0.45, 0.35, 0.2]),
        "pw": rng.uniform(8, 14, m)}, {"pw": ".2f"})
    shares = {"q_antibiotics": (0.55, 0.25, 0.20), "q_grazing": (0.40, 0.30, 0.30)}
    table(out / "assistant_farm_answers.csv", {
        "question": [q for q in shares for _ in SCALE], "answer": [a for _ in shares for a in SCALE],
        "share": [s for q in shares for s in shares[q]]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def turbine_scada(out: Path) -> None:
    """Ten-minute SCADA summaries of wind turbines; about 5% precede a confirmed gearbox fault (gearbox_fault)."""
    rng = np.random.default_rng(13111)
    n = 700
    fault = rng.random(n) < 0.05
    wind = rng.weibull(2.2, n) * 9
    power = np.clip(2000 * (1 - np.exp(-(wind / 9) ** 3)) + rng.normal(0, 80, n), 0, None)
    table(out / "turbine_scada_faults.csv", {
        "wind_ms": wind, "power_kw": power * np.where(fault, 0.9, 1.0),
        "gearbox_oil_c": rng.normal(55, 4, n) + 7 * fault, "bearing_c": rng.normal(48, 3, n) + 5 * fault,
        "vibration_mm_s": rng.gamma(4, 0.6, n) + 2.5 * fault, "rotor_rpm": rng.normal(14, 1.2, n) - 0.6 * fault,
        "nacelle_temp_c": rng.normal(30, 5, n), "gearbox_fault": fault.astype(int)},
        {"wind_ms": ".2f", "power_kw": ".0f", "gearbox_oil_c": ".2f", "bearing_c": ".2f", "vibration_mm_s": ".3f",
         "rotor_rpm": ".2f", "nacelle_temp_c": ".1f"})


@writer
def motor_claims(out: Path) -> None:
    """Motor insurance claims with no fraud label; about 3% are staged (late reporting, many parties, high
    repair cost for the car's value)."""
    rng = np.random.default_rng(13112)
    n = 800
    staged = rng.random(n) < 0.03
    table(out / "motor_claims_unlabelled.csv", {
        "claim_gbp": rng.gamma(3, 1200, n) * np.where(staged, 2.2, 1.0),
        "car_value_gbp": rng.gamma(5, 2500, n), "days_to_report": rng.poisson(3, n) + rng.poisson(12, n) * staged,
        "parties": 1 + rng.poisson(0.4, n) + rng.poisson(2, n) * staged,
        "policy_age_days": rng.gamma(2, 300, n) * np.where(staged, 0.2, 1.0),
        "incident_hour": np.where(rng.random(n) < np.where(staged, 0.6, 0.15), rng.integers(0, 6, n),
                                  rng.integers(6, 24, n))},
        {"claim_gbp": ".0f", "car_value_gbp": ".0f", "policy_age_days": ".0f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def transit_candidates(out: Path) -> None:
    """Transit candidates from a photometric survey: planets (planet = 1) against eclipsing binaries and
    systematics, separated in a curved way by depth, duration and the odd/even depth difference."""
    rng = np.random.default_rng(13113)
    n = 500
    planet = rng.random(n) < 0.4
    depth = rng.lognormal(np.where(planet, 6.5, 7.4), 0.6)
    duration = rng.lognormal(np.where(planet, 1.0, 1.3), 0.35)
    snr = rng.gamma(3, 5, n) + 7
    odd_even = np.abs(rng.normal(0, np.where(planet, 0.5, 2.0)))
    secondary = rng.lognormal(np.where(planet, 2.0, 3.5), 0.8)
    table(out / "vetting_transit_candidates.csv", {
        "depth_ppm": depth, "duration_h": duration, "snr": snr, "odd_even_sigma": odd_even,
        "secondary_ppm": secondary, "planet": planet.astype(int)},
        {"depth_ppm": ".1f", "duration_h": ".3f", "snr": ".2f", "odd_even_sigma": ".3f", "secondary_ppm": ".2f"})


@writer
def home_claims(out: Path) -> None:
    """Home insurance claims over 5,000 GBP (claim_over_5k): roof age and flood zone drive them; a postcode risk
    score carries little of its own and is mostly redundant with the flood zone."""
    rng = np.random.default_rng(13114)
    n = 700
    roof = rng.gamma(3, 8, n)
    flood = rng.integers(0, 4, n)
    postcode = 0.5 * flood + rng.normal(0, 0.4, n)
    insured = rng.gamma(4, 60, n)
    prior = rng.poisson(0.6, n)
    logit = -1.8 + 0.04 * (roof - 24) + 0.6 * (flood - 1.5) + 0.15 * postcode + 0.003 * (insured - 240) + 0.4 * prior
    table(out / "home_claims_severity.csv", {
        "roof_age_yr": roof, "flood_zone": flood, "postcode_risk": postcode, "sum_insured_k": insured,
        "prior_claims": prior, "claim_over_5k": rng.binomial(1, expit(logit))},
        {"roof_age_yr": ".1f", "postcode_risk": ".3f", "sum_insured_k": ".1f"})


@writer
def pet_claims(out: Path) -> None:
    """Pet insurance renewals with two income columns (gross and net of tax) and a lapse label."""
    rng = np.random.default_rng(13115)
    n = 500
    gross = rng.lognormal(10.4, 0.4, n)
    net = gross * rng.uniform(0.68, 0.8, n)
    age = rng.uniform(0.5, 14, n)
    claims = rng.poisson(0.8, n)
    lapse = rng.binomial(1, expit(-1 + 0.15 * (age - 7) - 0.00003 * (net - 25000) + 0.3 * claims))
    table(out / "pet_insurance_renewals.csv", {
        "pet_age_yr": age, "claims_last_year": claims, "owner_income_gross": gross, "owner_income_net": net,
        "lapsed": lapse}, {"pet_age_yr": ".1f", "owner_income_gross": ".0f", "owner_income_net": ".0f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def patch_tests(out: Path) -> None:
    """Patch-test clinic: a positive nickel reaction (0/1) against age, atopy and weekly hours of metal contact."""
    rng = np.random.default_rng(13116)
    n = 150
    age = rng.uniform(16, 75, n)
    atopy = rng.binomial(1, 0.3, n)
    hours = rng.gamma(2, 6, n)
    table(out / "patch_test_reactions.csv", {
        "age": age, "atopy": atopy, "contact_hours_wk": hours,
        "nickel_positive": rng.binomial(1, expit(-1.0 - 0.02 * (age - 45) + 0.8 * atopy + 0.06 * (hours - 12)))},
        {"age": ".0f", "contact_hours_wk": ".1f"})


@writer
def dunlin_wings(out: Path) -> None:
    """Wing lengths of 56 dunlins as z-scores against the ringing-station mean: two subspecies mixed roughly
    half and half, about 2.6 standard units apart."""
    rng = np.random.default_rng(13117)
    n = 56
    group = rng.random(n) < 0.5
    table(out / "dunlin_wing_z.csv", {"wing_z": np.where(group, -1.3, 1.3) + rng.normal(0, 1, n)},
          {"wing_z": ".3f"})


@writer
def storm_peaks(out: Path) -> None:
    """64 storms in an upland catchment: event rainfall, antecedent soil moisture, the gauge's slope class and
    the peak flow (m3/s), which rises nonlinearly with rain on wet soil."""
    rng = np.random.default_rng(13118)
    n = 64
    rain = rng.uniform(10, 90, n)
    soil = rng.uniform(0.1, 0.5, n)
    slope = rng.integers(1, 4, n)
    peak = 2 + 0.002 * rain ** 2 * (0.5 + 2 * soil) + 3 * np.sin(soil * 12) + rng.normal(0, 1.0, n)
    table(out / "catchment_storm_peaks.csv", {"rain_mm": rain, "soil_moist": soil, "slope_class": slope,
                                              "peak_flow": peak},
          {"rain_mm": ".1f", "soil_moist": ".3f", "peak_flow": ".2f"})


@writer
def first_motions(out: Path) -> None:
    """P-wave first-motion amplitudes of a vertical strike-slip source on the focal sphere (unit take-off
    vectors ux, uy, uz): the pattern sin^2(theta) sin(2 phi) is unchanged by a half turn about the vertical and
    by mirroring through the horizontal plane."""
    rng = np.random.default_rng(13119)
    n = 500
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    amp = 2 * v[:, 0] * v[:, 1] + rng.normal(0, 0.1, n)
    table(out / "first_motion_amplitudes.csv", {"ux": v[:, 0], "uy": v[:, 1], "uz": v[:, 2], "amp": amp},
          {"ux": ".9f", "uy": ".9f", "uz": ".9f", "amp": ".4f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def vesper_sn(out: Path) -> None:
    """120 distance moduli of a flat universe with evolving dark energy (Omega_m 0.31, w0 -0.85, wa -0.5)."""
    rng = np.random.default_rng(13120)
    n = 120
    z = np.sort(rng.uniform(0.02, 1.6, n))
    err = rng.uniform(0.1, 0.15, n)
    mu = distance_modulus(z, 0.31, w0=-0.85, wa=-0.5) + rng.normal(0, err)
    table(out / "vesper_survey_sn_mu.csv", {"z": z, "mu": mu, "sigma_mu": err},
          {"z": ".4f", "mu": ".4f", "sigma_mu": ".3f"})


@writer
def lantern_sn(out: Path) -> None:
    """60 standardised peak magnitudes (M -19.3 at H0 70) of a slightly closed Lambda universe (Omega_m 0.33,
    Omega_de 0.72) with a covariance file (count line first)."""
    rng = np.random.default_rng(13121)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.2, n))
    err = rng.uniform(0.1, 0.16, n)
    cov = correlated_cov(z, err, 0.025, 0.4)
    mb = distance_modulus(z, 0.33, 0.72) - 19.3 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "lantern_sn_mb.csv", {"z": z, "mb": mb, "dmb": err}, {"z": ".4f", "mb": ".4f", "dmb": ".3f"})
    (out / "lantern_sn_mb_cov.txt").write_text(f"{n}\n" + "".join(f"{v:.5e}\n" for v in cov.ravel()))


@writer
def ember_sn(out: Path) -> None:
    """80 distance moduli of flat Lambda-CDM (Omega_m 0.28) with columns redshift, distmod, dmu."""
    rng = np.random.default_rng(13122)
    n = 80
    z = np.sort(rng.uniform(0.015, 1.0, n))
    err = rng.uniform(0.12, 0.18, n)
    mu = distance_modulus(z, 0.28, h0=71.0) + rng.normal(0, err)
    table(out / "ember_sn_distances.csv", {"redshift": z, "distmod": mu, "dmu": err},
          {"redshift": ".4f", "distmod": ".4f", "dmu": ".3f"})


@writer
def tidewater_sn(out: Path) -> None:
    """50 distance moduli (flat, Omega_m 0.30, w -0.95) for a joint fit with the CMB, diagonal errors."""
    rng = np.random.default_rng(13123)
    n = 50
    z = np.sort(rng.uniform(0.03, 1.3, n))
    err = rng.uniform(0.11, 0.17, n)
    mu = distance_modulus(z, 0.30, w0=-0.95, h0=67.0) + rng.normal(0, err)
    table(out / "tidewater_sn_joint.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def sn_batches(out: Path) -> None:
    """Two observing seasons of the same programme, one file each (spring 45 and autumn 38 supernovae)."""
    rng = np.random.default_rng(13124)
    for name, n in (("sn_batch_spring.csv", 45), ("sn_batch_autumn.csv", 38)):
        z = np.sort(rng.uniform(0.02, 1.1, n))
        err = rng.uniform(0.11, 0.16, n)
        table(out / name, {"z": z, "mu": distance_modulus(z, 0.3) + rng.normal(0, err), "mu_err": err},
              {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def cosmosis_chain(out: Path) -> None:
    """A weighted CosmoSIS chain of a cosmic-shear run (omega_m, sigma_8, h0 as little h, w; weight and post
    columns), 1,200 rows settling over the first few percent."""
    rng = np.random.default_rng(13125)
    centre = np.array([0.292, 0.781, 0.703, -1.04])
    sd = np.array([0.024, 0.031, 0.028, 0.16])
    x = ar_chain(rng, 1200, centre, sd, np.array([0.36, 0.70, 0.66, -0.7]), 25.0)
    weight = rng.uniform(0.2, 1.0, 1200)
    post = -0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) - 310.0
    lines = ["#cosmological_parameters--omega_m\tcosmological_parameters--sigma_8\tcosmological_parameters--h0\t"
             "cosmological_parameters--w\tweight\tpost", "#sampler=multinest"]
    lines += ["\t".join([f"{r[0]:.5f}", f"{r[1]:.5f}", f"{r[2]:.5f}", f"{r[3]:.4f}", f"{w:.4f}", f"{p:.3f}"])
              for r, w, p in zip(x, weight, post, strict=True)]
    (out / "cosmosis_shear_chain.txt").write_text("\n".join(lines) + "\n")


@writer
def bao_chains(out: Path) -> None:
    """Four plain-header chains of one BAO + supernova wCDM run (Omega_m, w0, H0), 600 rows each."""
    rng = np.random.default_rng(13126)
    centre = np.array([0.312, -0.97, 68.1])
    sd = np.array([0.014, 0.05, 0.9])
    starts = ([0.36, -0.8, 70.0], [0.27, -1.2, 66.0], [0.33, -0.9, 69.5], [0.29, -1.1, 67.0])
    for i, start in enumerate(starts, 1):
        x = ar_chain(rng, 600, centre, sd, np.array(start), 40.0, rho=0.3)
        lines = ["# Omega_m w0 H0"] + [f"{r[0]:.5f} {r[1]:.4f} {r[2]:.3f}" for r in x]
        (out / f"bao_sn_walk_{i}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

STATION = {
    "when": ["At 02:10 UTC", "Mid-morning", "Shortly after the noon check", "In the late shift", "Before dawn",
             "At the weekly service", "During the storm", "After the power cut"],
    "who": ["the technician", "the night operator", "the visiting engineer", "the station warden",
            "the student on placement", "the maintenance crew"],
    "did": ["recentred the masses on", "checked the GPS clock of", "cleaned the connector of",
            "replaced the desiccant in", "logged a calibration pulse on", "levelled"],
    "what": ["the broadband seismometer", "the short-period vertical", "the strong-motion unit",
             "the borehole sensor", "the digitiser", "the backup datalogger"],
    "note": ["noise floor normal", "a spike from the generator", "microseisms high with the swell",
             "traffic noise from the access road", "timing locked", "a small regional event on the trace",
             "door seal damp again", "battery at 12.6 volts"],
}


@writer
def seismic_vault_log(out: Path) -> None:
    """A synthetic seismic-vault station logbook (about 5,000 words of dated entries), for a haystack."""
    rng = np.random.default_rng(13127)
    entries = []
    for day in range(220):
        month = ["January", "February", "March", "April"][day // 55]
        parts = [f"{1 + day % 28} {month}."]
        for _ in range(int(rng.integers(1, 3))):
            parts.append(f"{rng.choice(STATION['when'])} {rng.choice(STATION['who'])} {rng.choice(STATION['did'])} "
                         f"{rng.choice(STATION['what'])}; {rng.choice(STATION['note'])}.")
        entries.append(" ".join(parts))
    text = "\n".join(" ".join(entries[i:i + 6]) for i in range(0, len(entries), 6)) + "\n"
    (out / "seismic_vault_log.txt").write_text(text)


@writer
def timetable_sums(out: Path) -> None:
    """1,200 journey-time sums: three leg durations in minutes (prompt) and the total (answer)."""
    rng = np.random.default_rng(13128)
    n = 1200
    legs = rng.integers(1, 60, size=(n, 3))
    table(out / "timetable_sums.csv", {
        "question": [f"{a}+{b}+{c}=" for a, b, c in legs], "total_minutes": legs.sum(axis=1)})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def quake_swarm(out: Path) -> None:
    """P and S arrival picks of a small earthquake swarm at eight stations (seconds after the origin minute)."""
    rng = np.random.default_rng(13129)
    stations = rng.uniform(-30, 30, size=(8, 2))
    rows = []
    for ev in range(40):
        src = np.array([rng.normal(2, 3), rng.normal(-4, 3), rng.uniform(3, 12)])
        t0 = rng.uniform(0, 50)
        for s, (x, y) in enumerate(stations):
            dist = np.sqrt((x - src[0]) ** 2 + (y - src[1]) ** 2 + src[2] ** 2)
            rows.append((f"E{ev:03d}", f"ST{s + 1}", x, y, t0 + dist / 6.0 + rng.normal(0, 0.03),
                         t0 + dist / 3.5 + rng.normal(0, 0.06)))
    table(out / "swarm_arrival_picks.csv", {
        "event": [r[0] for r in rows], "station": [r[1] for r in rows], "station_x_km": [r[2] for r in rows],
        "station_y_km": [r[3] for r in rows], "p_time_s": [r[4] for r in rows], "s_time_s": [r[5] for r in rows]},
        {"station_x_km": ".2f", "station_y_km": ".2f", "p_time_s": ".3f", "s_time_s": ".3f"})


@writer
def larch_plots(out: Path) -> None:
    """Dominant height of larch on permanent plots, remeasured every five years (site index curves)."""
    rng = np.random.default_rng(13130)
    rows = []
    for plot in range(60):
        site = rng.normal(24, 3)
        for age in range(10, 61, 5):
            h = site * (1 - np.exp(-0.045 * age)) ** 1.4 / (1 - np.exp(-0.045 * 50)) ** 1.4 + rng.normal(0, 0.4)
            rows.append((f"LP{plot:02d}", age, h))
    table(out / "larch_plot_remeasures.csv", {"plot": [r[0] for r in rows], "stand_age": [r[1] for r in rows],
                                              "top_height_m": [r[2] for r in rows]}, {"top_height_m": ".2f"})


@writer
def skylark_transects(out: Path) -> None:
    """Perpendicular distances (m) of skylarks seen from 24 farmland line transects of 1 km, with a half-normal
    detection function (sigma 60 m) and a cluster size per sighting."""
    rng = np.random.default_rng(13131)
    rows = []
    for tr in range(24):
        n = int(rng.poisson(40))
        d = np.abs(rng.normal(0, 60, 3 * n))
        d = d[d < 250][:n]
        for x in d:
            rows.append((f"TR{tr + 1:02d}", x, int(1 + rng.poisson(0.3))))
    table(out / "skylark_transect_distances.csv", {
        "transect": [r[0] for r in rows], "perp_distance_m": [r[1] for r in rows], "cluster_size": [r[2] for r in rows]},
        {"perp_distance_m": ".1f"})


@writer
def river_maxima(out: Path) -> None:
    """Annual maximum daily flow (m3/s) at a river gauge, 1962-2024, from a GEV (location 180, scale 55,
    shape 0.1)."""
    rng = np.random.default_rng(13132)
    years = np.arange(1962, 2025)
    u = rng.random(years.size)
    xi = 0.1
    q = 180 + 55 * ((-np.log(u)) ** (-xi) - 1) / xi
    table(out / "river_annual_maxima.csv", {"water_year": years, "max_flow_m3s": q}, {"max_flow_m3s": ".1f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
