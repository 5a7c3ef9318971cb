"""Write every data file of the sixteenth blind prose task set, deterministically.

``python tests/understanding_blind16/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
    ordered,
    table,
)

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def catchment_dams(out: Path) -> None:
    """Upland catchments: check dams (binary) were built in wetter, steeper, less forested catchments; they cut
    sediment yield by about 120 t/km^2 a year."""
    rng = np.random.default_rng(16101)
    n = 320
    rain = rng.uniform(600, 1800, n)
    slope = rng.uniform(2, 35, n)
    forest = rng.uniform(5, 90, n)
    dams = rng.binomial(1, expit(0.001 * (rain - 1200) + 0.03 * (slope - 18) - 0.01 * (forest - 47)))
    sed = np.clip(400 - 120 * dams + 0.25 * (rain - 1200) + 12 * (slope - 18) - 3 * (forest - 47)
                  + rng.normal(0, 60, n), 0, None)
    table(out / "catchment_check_dams.csv", {
        "catchment": [f"CA{i:03d}" for i in range(n)], "check_dams": dams, "annual_rain_mm": rain,
        "mean_slope_pct": slope, "forest_cover_pct": forest, "sediment_t_km2": sed},
        {"annual_rain_mm": ".0f", "mean_slope_pct": ".1f", "forest_cover_pct": ".1f", "sediment_t_km2": ".1f"})


@writer
def tutoring_pupils(out: Path) -> None:
    """Pupils: hours of small-group tutoring (continuous) went to pupils with lower prior attainment, free school
    meals and lower attendance; each hour adds about 0.25 scaled-score points in maths."""
    rng = np.random.default_rng(16102)
    n = 450
    prior = rng.uniform(80, 120, n)
    fsm = rng.binomial(1, 0.25, n)
    attend = rng.uniform(80, 100, n)
    hours = np.clip(20 - 0.3 * (prior - 100) + 6 * fsm - 0.3 * (attend - 90) + rng.normal(0, 6, n), 0, None)
    maths = 100 + 0.25 * hours + 0.6 * (prior - 100) - 2 * fsm + 0.4 * (attend - 90) + rng.normal(0, 5, n)
    table(out / "tutoring_hours_pupils.csv", {
        "pupil": [f"PU{i:04d}" for i in range(n)], "tutoring_hours": hours, "prior_attainment": prior,
        "fsm": fsm, "attendance_pct": attend, "maths_scaled": maths},
        {"tutoring_hours": ".1f", "prior_attainment": ".0f", "attendance_pct": ".1f", "maths_scaled": ".1f"})


COMPETITION = {  # what a store manager writes, local competition (-1 none, 0 some, 1 strong)
    1: ["a discount grocer opened across the road in spring", "two budget chains now share our car park",
        "customers keep quoting the discounter's flyer at the tills"],
    0: ["there is a convenience shop at the end of the high street", "a farm shop sells some of the same lines",
        "the market on Saturdays takes a little trade"],
    -1: ["no other grocer within three miles", "we are the only food shop in the village",
         "the nearest supermarket is a twenty minute drive"],
}
STORE_EXTRAS = ["Parking is tight at weekends.", "Staff turnover was low this year.", "Chilled aisle refitted.",
                "Deliveries arrive before seven.", "Bakery counter closed on Mondays.", "New manager since June."]


@writer
def store_price_match(out: Path) -> None:
    """Grocery stores: a price-match promise (binary) was switched on where the manager's note describes strong
    local competition (visible only in the note); it raises the average basket by about 2.5 pounds."""
    rng = np.random.default_rng(16103)
    n = 280
    area = rng.uniform(600, 3000, n)
    foot = rng.gamma(6, 10, n)
    notes, pm, basket = [], [], []
    for i in range(n):
        c = int(rng.integers(-1, 2))
        notes.append(f"{rng.choice(COMPETITION[c])}. {rng.choice(STORE_EXTRAS)}")
        p = int(rng.random() < expit(1.2 * c + 0.0005 * (area[i] - 1800)))
        pm.append(p)
        basket.append(42 + 2.5 * p - 4 * c + 0.002 * (area[i] - 1800) + 0.05 * (foot[i] - 60) + rng.normal(0, 3))
    table(out / "store_price_match.csv", {
        "store": [f"ST{i:03d}" for i in range(n)], "price_match": pm, "floor_area_m2": area, "footfall_k": foot,
        "manager_note": notes, "basket_gbp": basket},
        {"floor_area_m2": ".0f", "footfall_k": ".1f", "basket_gbp": ".2f"})


@writer
def pig_batches(out: Path) -> None:
    """Pig finishing batches: an autogenous vaccine (binary) went to batches whose barn cough recordings look a
    certain way in a 16-d audio embedding, and to large herds; it cuts mortality by about 1.5 percentage points."""
    rng = np.random.default_rng(16104)
    n = 320
    latent = rng.normal(size=(n, 3))
    emb = latent @ (rng.normal(size=(3, 16)) / 2) + 0.3 * rng.normal(size=(n, 16))
    herd = rng.uniform(300, 1500, n)
    parity = rng.uniform(1.5, 5, n)
    vacc = rng.binomial(1, expit(0.8 * latent[:, 0] + 0.002 * (herd - 900) - 0.2 * (parity - 3)))
    mort = np.clip(8 - 1.5 * vacc + 1.2 * latent[:, 0] - 0.5 * latent[:, 2] + 0.001 * (herd - 900)
                   + 0.3 * (parity - 3) + rng.normal(0, 1.0, n), 0, None)
    table(out / "pig_farm_batches.csv", {
        "batch": [f"PB{i:04d}" for i in range(n)], "vaccinated": vacc, "herd_size": herd,
        "sow_parity_mean": parity, "mortality_pct": mort},
        {"herd_size": ".0f", "sow_parity_mean": ".2f", "mortality_pct": ".2f"})
    array(out / "barn_cough_audio_emb.npy", emb)


@writer
def altitude_runners(out: Path) -> None:
    """Distance runners (tab separated): a block at an altitude camp (binary) went to fitter, higher-mileage
    runners; it improves a 5 km time trial by about 8 s."""
    rng = np.random.default_rng(16105)
    n = 240
    vo2 = rng.normal(62, 6, n)
    km = rng.uniform(60, 160, n)
    age = rng.uniform(19, 38, n)
    camp = rng.binomial(1, expit(0.1 * (vo2 - 62) + 0.015 * (km - 110)))
    imp = 10 + 8 * camp + 0.5 * (vo2 - 62) + 0.1 * (km - 110) - 0.3 * (age - 28) + rng.normal(0, 6, n)
    table(out / "altitude_camp_runners.tsv", {
        "runner": [f"R{i:03d}" for i in range(n)], "altitude_camp": camp, "vo2max": vo2, "weekly_km": km,
        "age_yr": age, "tt_improvement_s": imp},
        {"vo2max": ".1f", "weekly_km": ".0f", "age_yr": ".0f", "tt_improvement_s": ".1f"}, sep="\t")


@writer
def storecard(out: Path) -> None:
    """Store-card applicants: savings and debt both grow with income (0.2 and 0.1 per unit); rows 1, 4 and 9 are
    low-income applicants the stated linear rule declines."""
    rng = np.random.default_rng(16106)
    n = 60
    income = rng.normal(35, 10, n)
    savings = 0.2 * income + rng.normal(0, 2, n)
    debt = np.clip(0.1 * income + rng.normal(0, 4, n), 0, None)
    for i, (a, b, c) in {1: (22, 1.5, 9), 4: (26, 2.0, 8), 9: (19, 0.8, 6)}.items():
        income[i], savings[i], debt[i] = a, b, c
    table(out / "storecard_applicants.csv", {
        "applicant": [f"SC{i:03d}" for i in range(n)], "income_k": income, "savings_k": savings,
        "debt_k": debt}, {"income_k": ".1f", "savings_k": ".2f", "debt_k": ".2f"})


@writer
def heat_pumps(out: Path) -> None:
    """Homes: heat-pump uptake (binary) with unseen engagement; winter comfort scored 0 to 10. Eight features of
    the grant scheme and installer network (a separate array) shift uptake only."""
    rng = np.random.default_rng(16107)
    n = 500
    area = rng.uniform(50, 180, n)
    age = rng.uniform(5, 110, n)
    u = rng.normal(size=n)
    z = rng.normal(size=(n, 8))
    hp = rng.binomial(1, expit(0.9 * z[:, 0] + 0.6 * z[:, 1] - 0.5 * z[:, 2] + 0.3 * z[:, 3] * z[:, 4]
                               + 0.5 * u - 0.005 * (age - 50)))
    comfort = np.clip(5 + 1.5 * hp - 0.02 * (age - 50) + 0.01 * (area - 100) + u + rng.normal(0, 1, n), 0, 10)
    table(out / "heat_pump_homes.csv", {
        "home": [f"H{i:04d}" for i in range(n)], "heat_pump": hp, "floor_area_m2": area, "house_age_yr": age,
        "comfort_0_10": comfort}, {"floor_area_m2": ".0f", "house_age_yr": ".0f", "comfort_0_10": ".1f"})
    array(out / "heat_pump_grant_instr.npy", z)


# ------------------------------------------------------------------------------------------------ surveys

ATTITUDE = ["agree", "neutral", "disagree"]
AGE3 = ["18-34", "35-54", "55+"]
REGIONS = ["north", "midlands", "south"]


@writer
def dialect_survey(out: Path) -> None:
    """Attitudes to regional dialect in two waves (2019, 2023); the young and the north are over-sampled, and
    agreement that dialect belongs in schools rose between waves. Census margins and a model's answer shares."""
    rng = np.random.default_rng(16108)
    n = 700
    wave = rng.choice([2019, 2023], n)
    age = rng.choice(AGE3, n, p=[0.45, 0.35, 0.2])
    region = rng.choice(REGIONS, n, p=[0.5, 0.25, 0.25])
    school = ordered(rng, 0.5 * (wave == 2023) + 0.4 * (region == "north") - 0.3 * (age == "55+"), ATTITUDE,
                     (-0.3, 0.7))
    bcast = ordered(rng, 0.2 * (wave == 2023) + 0.3 * (age == "18-34"), ATTITUDE, (-0.5, 0.5))
    table(out / "dialect_attitude_survey.csv", {
        "resp": np.arange(1, n + 1), "wave": wave, "age_band": age, "region": region,
        "q_dialect_school": school, "q_dialect_broadcast": bcast})
    rows = [("age_band", "18-34", 0.28), ("age_band", "35-54", 0.34), ("age_band", "55+", 0.38),
            ("region", "north", 0.30), ("region", "midlands", 0.30), ("region", "south", 0.40)]
    table(out / "dialect_region_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                               "share": [r[2] for r in rows]}, {"share": ".2f"})
    shares = {"q_dialect_school": (0.45, 0.30, 0.25), "q_dialect_broadcast": (0.50, 0.30, 0.20)}
    table(out / "dialect_chatbot_shares.csv", {
        "question": [q for q in shares for _ in ATTITUDE], "answer": [a for _ in shares for a in ATTITUDE],
        "share": [s for q in shares for s in shares[q]]}, {"share": ".2f"})


YES3 = ["yes", "unsure", "no"]
VISITS = ["school", "family", "solo"]


@writer
def museum_visitors(out: Path) -> None:
    """Museum visitors with design weights (base_wt); solo visitors answered more. A weighted sample from the
    ticketing system (tix_weight) and a model's answers as three visitor personas."""
    rng = np.random.default_rng(16109)
    n = 500
    age = rng.choice(AGE3, n, p=[0.3, 0.3, 0.4])
    visit = rng.choice(VISITS, n, p=[0.15, 0.35, 0.5])
    clear = ordered(rng, 0.4 * (visit == "family") - 0.3 * (age == "55+"), YES3, (-0.6, 0.4))
    back = ordered(rng, 0.5 * (visit == "solo") + 0.2 * (age == "18-34"), YES3, (-0.4, 0.6))
    table(out / "museum_summer_intercepts.csv", {
        "resp": np.arange(1, n + 1), "base_wt": rng.uniform(0.5, 2.0, n), "age_band": age, "visit_type": visit,
        "q_exhibit_clear": clear, "q_would_return": back}, {"base_wt": ".3f"})
    m = 900
    table(out / "museum_ticketing_sample.csv", {
        "age_band": rng.choice(AGE3, m, p=[0.3, 0.4, 0.3]), "visit_type": rng.choice(VISITS, m, p=[0.3, 0.45, 0.25]),
        "tix_weight": rng.uniform(0.7, 1.5, m)}, {"tix_weight": ".3f"})
    shares = {"school": (0.6, 0.3, 0.1, 0.5, 0.3, 0.2), "family": (0.7, 0.2, 0.1, 0.6, 0.25, 0.15),
              "solo": (0.5, 0.3, 0.2, 0.7, 0.2, 0.1)}
    q, a, s, g = [], [], [], []
    for persona, vals in shares.items():
        for j, question in enumerate(["q_exhibit_clear", "q_would_return"]):
            for k, ans in enumerate(YES3):
                q.append(question)
                a.append(ans)
                s.append(vals[3 * j + k])
                g.append(persona)
    table(out / "museum_model_personas.csv", {"question": q, "answer": a, "share": s, "subgroup": g},
          {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def parcel_scans(out: Path) -> None:
    """Parcel tracking summaries; about 4% were misrouted (misrouted = 1), with longer dwell, more hub hops and
    longer gaps between scans."""
    rng = np.random.default_rng(16110)
    n = 900
    bad = rng.random(n) < 0.04
    table(out / "parcel_scan_summary.csv", {
        "dwell_h": rng.gamma(3, 4, n) + 10 * bad, "hub_hops": rng.poisson(2, n) + rng.poisson(2, n) * bad,
        "scan_gap_h": rng.gamma(2, 3, n) + 6 * bad, "weight_kg": rng.gamma(2, 1.5, n),
        "declared_value": rng.gamma(2, 30, n), "misrouted": bad.astype(int)},
        {"dwell_h": ".2f", "scan_gap_h": ".2f", "weight_kg": ".2f", "declared_value": ".2f"})


@writer
def substation_log(out: Path) -> None:
    """Substation transformer sensors; about 6% are faulty. Crews inspected about a fifth of the units (more of the
    suspicious ones): inspected is 1 for a confirmed fault, 0 for a unit found healthy, blank where nobody went."""
    rng = np.random.default_rng(16111)
    n = 700
    bad = rng.random(n) < 0.06
    h2 = rng.gamma(3, 20, n) + 60 * bad
    checked = rng.random(n) < np.where(bad, 0.6, 0.18)
    table(out / "substation_sensor_log.csv", {
        "oil_temp_c": rng.normal(65, 6, n) + 6 * bad, "load_pct": rng.uniform(30, 95, n), "dissolved_h2_ppm": h2,
        "vibration_mm_s": rng.gamma(4, 0.5, n) + 1.0 * bad, "partial_discharge_pc": rng.gamma(2, 50, n) + 120 * bad,
        "inspected": [str(int(b)) if c else "" for b, c in zip(bad, checked, strict=True)]},
        {"oil_temp_c": ".1f", "load_pct": ".1f", "dissolved_h2_ppm": ".1f", "vibration_mm_s": ".3f",
         "partial_discharge_pc": ".0f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def weld_trials(out: Path) -> None:
    """Weld beads: porosity defects (0/1) against current, travel speed and wire feed (logistic); an operator id
    column that is not an input."""
    rng = np.random.default_rng(16112)
    n = 220
    cur = rng.uniform(120, 220, n)
    travel = rng.uniform(3, 9, n)
    wire = rng.uniform(5, 12, n)
    y = rng.binomial(1, expit(-0.8 - 0.02 * (cur - 170) + 0.5 * (travel - 6) + 0.15 * (wire - 8.5)))
    table(out / "weld_bead_trials.csv", {"operator_id": rng.integers(1, 7, n), "current_a": cur,
                                         "travel_mm_s": travel, "wire_feed_m_min": wire, "porosity_defect": y},
          {"current_a": ".0f", "travel_mm_s": ".2f", "wire_feed_m_min": ".2f"})


@writer
def zero_point(out: Path) -> None:
    """36 standard stars on one night: catalogue minus instrumental magnitude about 0.18 at airmass 1.5, falling
    0.12 mag per unit airmass, scatter 0.02 mag."""
    rng = np.random.default_rng(16113)
    n = 36
    am = rng.uniform(1.05, 2.2, n)
    table(out / "zero_point_standards.csv", {
        "star": [f"SA{100 + i}" for i in range(n)], "airmass": am,
        "dmag": 0.18 - 0.12 * (am - 1.5) + rng.normal(0, 0.02, n)}, {"airmass": ".3f", "dmag": ".4f"})


@writer
def creep_tests(out: Path) -> None:
    """Creep tests of an alloy: log10 creep rate rising with temperature (with a knee near 600 C) and stress; 40
    training specimens and 20 check specimens."""
    rng = np.random.default_rng(16114)

    def rows(m: int) -> dict[str, object]:
        t = rng.uniform(500, 700, m)
        s = rng.uniform(80, 200, m)
        lr = -8 + 0.8 * np.tanh((t - 600) / 40) + 0.01 * (s - 140) + 0.3 * np.sin(s / 25) + rng.normal(0, 0.05, m)
        return {"temp_c": t, "stress_mpa": s, "log_creep_rate": lr}

    fmt = {"temp_c": ".1f", "stress_mpa": ".1f", "log_creep_rate": ".4f"}
    table(out / "creep_tests_train.csv", rows(40), fmt)
    table(out / "creep_tests_check.csv", rows(20), fmt)


@writer
def grain_orientation(out: Path) -> None:
    """Indentation hardness against two orientation angles of the grains (radians): the pattern repeats every
    quarter turn in each angle and is unchanged when the two angles are exchanged."""
    rng = np.random.default_rng(16115)
    n = 400
    p1 = rng.uniform(0, 2 * np.pi, n)
    p2 = rng.uniform(0, 2 * np.pi, n)
    y = np.cos(4 * p1) + np.cos(4 * p2) + 0.5 * np.cos(4 * p1) * np.cos(4 * p2) + rng.normal(0, 0.3, n)
    table(out / "grain_orientation_hardness.csv", {"phi1_rad": p1, "phi2_rad": p2, "hardness_dev": y},
          {"phi1_rad": ".6f", "phi2_rad": ".6f", "hardness_dev": ".4f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def dovekie_sn(out: Path) -> None:
    """60 peak magnitudes (M -19.3 at H0 70) of a flat wCDM sample (Omega_m 0.30, w -0.9)."""
    rng = np.random.default_rng(16116)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.4, n))
    err = rng.uniform(0.1, 0.15, n)
    mb = distance_modulus(z, 0.30, w0=-0.9) - 19.3 + rng.normal(0, err)
    table(out / "dovekie_sn_mb.csv", {"z": z, "mb": mb, "mb_err": err}, {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})


@writer
def kittiwake_sn(out: Path) -> None:
    """40 calibrated distance moduli (flat, Omega_m 0.33, H0 73) with a covariance written without a count line."""
    rng = np.random.default_rng(16117)
    n = 40
    z = np.sort(rng.uniform(0.01, 0.9, n))
    err = rng.uniform(0.1, 0.16, n)
    cov = correlated_cov(z, err, 0.03, 0.3)
    mu = distance_modulus(z, 0.33, h0=73.0) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "kittiwake_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    (out / "kittiwake_sn_cov.txt").write_text("".join(f"{v:.5e}\n" for v in cov.ravel()))


@writer
def timedelay_chain(out: Path) -> None:
    """A gzipped CosmoSIS-style chain of a lensed-quasar time-delay run (omega_m, h0, omega_k, like, post,
    weight), 2,400 rows settling over the first tenth."""
    rng = np.random.default_rng(16118)
    n = 2400
    centre = np.array([0.31, 0.725, -0.01])
    sd = np.array([0.04, 0.018, 0.03])
    x = ar_chain(rng, n, centre, sd, np.array([0.45, 0.66, 0.08]), 120.0)
    like = -0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) - 12.0
    weight = rng.integers(1, 4, n)
    lines = ["#cosmological_parameters--omega_m\tcosmological_parameters--h0\tcosmological_parameters--omega_k"
             "\tlike\tpost\tweight"]
    lines += [f"{r[0]:.5f}\t{r[1]:.5f}\t{r[2]:.5f}\t{lk:.4f}\t{lk - 1.5:.4f}\t{w:d}"
              for r, lk, w in zip(x, like, weight, strict=True)]
    gzip_text(out / "timedelay_cosmosis_chain.txt.gz", "\n".join(lines) + "\n")


@writer
def cluster_chains(out: Path) -> None:
    """Three plain-header chains of a cluster mass-richness fit (alpha_mor, beta_mor, sigma_lnm), 600 rows each."""
    rng = np.random.default_rng(16119)
    centre = np.array([1.05, 0.35, 0.25])
    sd = np.array([0.06, 0.05, 0.03])
    starts = ([1.3, 0.2, 0.4], [0.9, 0.5, 0.15], [1.2, 0.45, 0.35])
    for tag, start in zip("ABC", starts, strict=True):
        x = ar_chain(rng, 600, centre, sd, np.array(start), 25.0, rho=0.5)
        lines = ["# alpha_mor beta_mor sigma_lnm"] + [f"{r[0]:.5f} {r[1]:.5f} {r[2]:.5f}" for r in x]
        (out / f"cluster_mor_chain{tag}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ robustness

@writer
def variable_stars(out: Path) -> None:
    """Light-curve features of periodic variables: RR Lyrae (rr_lyrae = 1) against other variables, separated
    nonlinearly in period, amplitude, skewness and colour."""
    rng = np.random.default_rng(16120)
    n = 600
    rr = rng.random(n) < 0.3
    table(out / "variable_star_features.csv", {
        "period_d": rng.lognormal(np.where(rr, -0.6, 0.3), np.where(rr, 0.25, 0.9)),
        "amplitude_mag": rng.gamma(np.where(rr, 6, 2), np.where(rr, 0.12, 0.2)),
        "skewness": rng.normal(np.where(rr, -0.8, 0.0), 0.5), "colour_gr": rng.normal(np.where(rr, 0.25, 0.6), 0.2),
        "rr_lyrae": rr.astype(int)},
        {"period_d": ".5f", "amplitude_mag": ".3f", "skewness": ".3f", "colour_gr": ".3f"})


@writer
def squad_injuries(out: Path) -> None:
    """A squad's training-load weeks: hamstring injury (injured) against acute:chronic load ratio, sprint metres,
    earlier injuries and age (close to linear on the logit scale)."""
    rng = np.random.default_rng(16121)
    n = 420
    acwr = rng.gamma(20, 0.055, n)
    sprint = rng.uniform(200, 1400, n)
    prior = rng.poisson(0.8, n)
    age = rng.uniform(18, 35, n)
    y = rng.binomial(1, expit(-2.2 + 2.5 * (acwr - 1.1) + 0.001 * (sprint - 800) + 0.4 * prior + 0.05 * (age - 26)))
    table(out / "squad_load_injury.csv", {"acute_chronic_ratio": acwr, "sprint_m_week": sprint,
                                          "prior_injuries": prior, "age_yr": age, "injured": y},
          {"acute_chronic_ratio": ".3f", "sprint_m_week": ".0f", "age_yr": ".0f"})


@writer
def school_exams(out: Path) -> None:
    """Schools' pupils: passing the exam (passed) against the school's free-meal share, class size, teacher
    experience and attendance; the meal share is partly carried by attendance."""
    rng = np.random.default_rng(16122)
    n = 600
    meal = rng.beta(2, 5, n)
    attend = np.clip(96 - 12 * meal + rng.normal(0, 2, n), 70, 100)
    size = rng.uniform(18, 34, n)
    exp_yr = rng.gamma(3, 3, n)
    logit = 0.5 - 2.0 * (meal - 0.28) + 0.15 * (attend - 92) - 0.04 * (size - 26) + 0.05 * (exp_yr - 9)
    table(out / "school_exam_outcomes.csv", {"free_meal_share": meal, "class_size": size, "teacher_exp_yr": exp_yr,
                                             "attendance_pct": attend, "passed": rng.binomial(1, expit(logit))},
          {"free_meal_share": ".3f", "class_size": ".0f", "teacher_exp_yr": ".1f", "attendance_pct": ".1f"})


# ------------------------------------------------------------------------------------------------ lm

TENSES = ["present", "past", "future", "perfect", "conditional"]
PERSONS = ["1sg", "2sg", "3sg", "1pl", "3pl"]
LEMMAS = ["cantar", "beber", "vivir", "hablar", "comer", "subir", "mirar", "correr", "abrir", "tomar", "leer",
          "partir"]


@writer
def verb_forms(out: Path) -> None:
    """Embeddings (24-d) of inflected verb forms: tense and person each add a direction of their own (an additive
    representation) plus noise; 12 lemmas for each of the 25 tense-person cells. Labels: lemma, tense, person."""
    rng = np.random.default_rng(16123)
    a = rng.normal(size=(5, 24))
    b = rng.normal(size=(5, 24))
    emb, lem, ten, per = [], [], [], []
    for t in range(5):
        for p in range(5):
            for lemma in LEMMAS:
                emb.append(a[t] + b[p] + 0.4 * rng.normal(size=24))
                lem.append(lemma)
                ten.append(TENSES[t])
                per.append(PERSONS[p])
    array(out / "verb_form_embeddings.npy", np.array(emb))
    table(out / "verb_form_labels.csv", {"lemma": lem, "tense": ten, "person": per})


DEPOTS = ["Leeds", "Derby", "Carlisle", "Swindon", "Ipswich", "Exeter", "Wrexham", "Dundee", "Hull", "Preston"]


@writer
def depot_stream(out: Path) -> None:
    """A stream of route reassignments over three timesteps (eight per step): which depot serves a route, with a
    rephrased question per edit and, as a control, a route that was not reassigned and its depot."""
    rng = np.random.default_rng(16124)
    order = rng.permutation(np.arange(10, 90))
    routes, kept = order[:24], order[24:48]
    records = []
    for i, route in enumerate(routes):
        depot = DEPOTS[int(rng.integers(len(DEPOTS)))]
        records.append({"timestep": i // 8 + 1, "subject": f"route {route}", "relation": "served from",
                        "prompt": f"The depot serving route {route} is", "object": depot,
                        "rephrase": f"Route {route} now leaves from the depot in",
                        "locality_prompt": f"The depot serving route {kept[i]} is",
                        "locality_answer": DEPOTS[int(rng.integers(len(DEPOTS)))]})
    json_lines(out / "depot_edit_stream.jsonl", records)


@writer
def gallery_needles(out: Path) -> None:
    """Five needles about works in a gallery, each with a question that needs one step of world knowledge, its
    literal version and the answer."""
    rows = [
        ("In the end it was Marguerite who cleaned the varnish off a panel hanging near the Rijksmuseum.",
         "Which conservator has worked in Amsterdam?", "Marguerite",
         "Which conservator has worked near the Rijksmuseum?"),
        ("As it happens, Tobias catalogued prints in a small room overlooking the Alhambra.",
         "Which cataloguer has worked in Granada?", "Tobias", "Which cataloguer has worked overlooking the Alhambra?"),
        ("By then Oyelaran had hung an exhibition a short walk from the Hermitage.",
         "Which curator has worked in Saint Petersburg?", "Oyelaran",
         "Which curator has worked a short walk from the Hermitage?"),
        ("Years ago Beatriz photographed the frescoes next to the Sagrada Familia.",
         "Which photographer has worked in Barcelona?", "Beatriz",
         "Which photographer has worked next to the Sagrada Familia?"),
        ("Once, Kwabena framed a triptych in a studio facing the Acropolis.",
         "Which framer has worked in Athens?", "Kwabena", "Which framer has worked facing the Acropolis?"),
    ]
    table(out / "gallery_needles.csv", {"needle": [r[0] for r in rows], "question": [r[1] for r in rows],
                                        "answer": [r[2] for r in rows], "literal_question": [r[3] for r in rows]})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def river_peaks(out: Path) -> None:
    """Annual maximum discharge of a river gauge, 1970-2024 (Gumbel, location 320, scale 90 m^3/s)."""
    rng = np.random.default_rng(16125)
    years = np.arange(1970, 2025)
    table(out / "river_gauge_annual_peaks.csv", {"water_year": years, "peak_m3s": rng.gumbel(320, 90, years.size)},
          {"peak_m3s": ".1f"})


@writer
def variable_epochs(out: Path) -> None:
    """150 irregular epochs of one pulsating star over 200 nights (period 0.5671 d, amplitude 0.4 mag)."""
    rng = np.random.default_rng(16126)
    t = np.sort(60000 + rng.uniform(0, 200, 150))
    ph = ((t - 60000) / 0.5671) % 1
    mag = 15.2 + 0.2 * np.sin(2 * np.pi * ph) + 0.08 * np.sin(4 * np.pi * ph + 1) + rng.normal(0, 0.03, t.size)
    table(out / "pulsator_epochs.csv", {"mjd": t, "v_mag": mag, "v_err": np.full(t.size, 0.03)},
          {"mjd": ".5f", "v_mag": ".4f", "v_err": ".3f"})


@writer
def timing_gates(out: Path) -> None:
    """40 sprinters timed over 30 m by two gate systems at once (system B reads about 0.03 s slower)."""
    rng = np.random.default_rng(16127)
    true = rng.normal(4.3, 0.2, 40)
    table(out / "sprint_timing_gates.csv", {
        "athlete": [f"A{i:02d}" for i in range(40)], "gate_a_s": true + rng.normal(0, 0.02, 40),
        "gate_b_s": true + 0.03 + rng.normal(0, 0.025, 40)}, {"gate_a_s": ".3f", "gate_b_s": ".3f"})


@writer
def shelter_stays(out: Path) -> None:
    """Days in an animal shelter for 300 dogs until adoption (adopted = 1) or censoring (0), by size."""
    rng = np.random.default_rng(16128)
    size = rng.choice(["small", "medium", "large"], 300, p=[0.3, 0.4, 0.3])
    days = rng.exponential(np.where(size == "large", 40, np.where(size == "medium", 25, 15)))
    adopted = rng.random(300) < 0.85
    table(out / "shelter_stay_days.csv", {"dog": [f"D{i:03d}" for i in range(300)], "size": size,
                                          "days": np.ceil(days).astype(int), "adopted": adopted.astype(int)})


@writer
def loyalty_shoppers(out: Path) -> None:
    """Shoppers: loyalty-app users against non-users with two spend columns (online and in store)."""
    rng = np.random.default_rng(16129)
    n = 400
    age = rng.uniform(18, 80, n)
    dist = rng.gamma(2, 3, n)
    app = rng.binomial(1, expit(-0.04 * (age - 45) - 0.1 * (dist - 6)))
    table(out / "loyalty_app_shoppers.csv", {
        "shopper": [f"L{i:04d}" for i in range(n)], "app_user": app, "age_yr": age, "distance_km": dist,
        "spend_online_gbp": rng.gamma(2, 20, n) + 15 * app, "spend_instore_gbp": rng.gamma(3, 25, n) + 5 * app},
        {"age_yr": ".0f", "distance_km": ".1f", "spend_online_gbp": ".2f", "spend_instore_gbp": ".2f"})


@writer
def xray_chains(out: Path) -> None:
    """Two chains of an X-ray cluster gas-fraction fit (runs A and B, one with a recalibrated temperature scale)."""
    rng = np.random.default_rng(16130)
    for tag, centre in (("A", [0.30, 0.125]), ("B", [0.29, 0.131])):
        x = ar_chain(rng, 400, np.array(centre), np.array([0.02, 0.004]), np.array(centre) * 1.2, 15.0)
        lines = ["# Omega_m f_gas"] + [f"{r[0]:.5f} {r[1]:.5f}" for r in x]
        (out / f"xray_fgas_run{tag}.txt").write_text("\n".join(lines) + "\n")


@writer
def gearbox_scada(out: Path) -> None:
    """Wind-turbine gearbox SCADA summaries with two fault columns from two audits that disagree."""
    rng = np.random.default_rng(16131)
    n = 500
    bad = rng.random(n) < 0.05
    table(out / "gearbox_scada_summary.csv", {
        "oil_temp_c": rng.normal(58, 5, n) + 5 * bad, "bearing_temp_c": rng.normal(62, 6, n) + 6 * bad,
        "power_kw": rng.uniform(200, 3000, n), "rotor_rpm": rng.uniform(8, 16, n),
        "fault_audit_2023": (bad & (rng.random(n) < 0.7)).astype(int),
        "fault_audit_2024": (bad & (rng.random(n) < 0.8) | (rng.random(n) < 0.01)).astype(int)},
        {"oil_temp_c": ".1f", "bearing_temp_c": ".1f", "power_kw": ".0f", "rotor_rpm": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
