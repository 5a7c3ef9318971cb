"""Write every data file of the tenth blind prose task set, deterministically.

``python tests/understanding_blind10/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
C_KM_S = 299792.458


def distance_modulus(z: np.ndarray, om: float, ode: float | None = None, w0: float = -1.0,
                     h0: float = 70.0) -> np.ndarray:
    """mu = 5 log10(D_L / 10 pc) of a background with matter, constant-w dark energy and curvature
    (flat when ``ode`` is None)."""
    ode = 1.0 - om if ode is None else ode
    ok = 1.0 - om - ode
    grid = np.linspace(0.0, float(np.max(z)) * 1.001, 8001)
    inv = 1.0 / np.sqrt(om * (1 + grid) ** 3 + ode * (1 + grid) ** (3 * (1 + w0)) + ok * (1 + grid) ** 2)
    dc = np.concatenate([[0.0], np.cumsum((inv[1:] + inv[:-1]) / 2 * np.diff(grid))])
    if abs(ok) > 1e-9:
        s = np.sqrt(abs(ok))
        dc = np.sinh(s * dc) / s if ok > 0 else np.sin(s * dc) / s
    return np.asarray(5 * np.log10((1 + z) * np.interp(z, grid, dc) * C_KM_S / h0) + 25)


# ------------------------------------------------------------------------------------------ causal effects

@writer
def seagrass_moorings(out: Path) -> None:
    """Eco-moorings went into shallower, clearer, busier plots; they add about 60 seagrass shoots per m²."""
    rng = np.random.default_rng(10101)
    n = 520
    depth = rng.uniform(1.5, 9.0, n)
    turb = rng.gamma(3, 1.5, n)
    boats = rng.poisson(12, n)
    mud = rng.beta(2, 4, n) * 100
    eco = rng.binomial(1, expit(0.1 - 0.15 * (depth - 5) - 0.08 * (turb - 4.5) + 0.04 * (boats - 12)))
    shoots = np.clip(420 + 60 * eco - 25 * (depth - 5) - 18 * (turb - 4.5) - 6 * (boats - 12) - 1.2 * (mud - 33)
                     + rng.normal(0, 45, n), 0, None)
    table(out / "eco_mooring_seagrass_plots.csv", {
        "plot_id": [f"SG{i:04d}" for i in range(n)], "bay": rng.choice(["North", "Kelp", "Gull"], n),
        "eco_mooring": eco, "depth_m": depth, "turbidity_ntu": turb, "boat_visits_wk": boats, "mud_pct": mud,
        "shoots_m2": shoots},
        {"depth_m": ".2f", "turbidity_ntu": ".2f", "mud_pct": ".1f", "shoots_m2": ".0f"})


@writer
def pharmacy_shifts(out: Path) -> None:
    """Longer night shifts fall on busier, short-staffed wards; each extra hour adds about 0.5 dispensing
    errors per 1,000 items."""
    rng = np.random.default_rng(10102)
    n = 610
    staff = rng.integers(2, 9, n)
    scripts = rng.gamma(5, 8, n)
    agency = rng.beta(2, 5, n) * 100
    hours = np.clip(10 + 0.03 * (scripts - 40) - 0.3 * (staff - 5) + 0.02 * (agency - 28) + rng.normal(0, 1.1, n),
                    7, 14)
    errors = np.clip(3.0 + 0.5 * (hours - 10) + 0.04 * (scripts - 40) - 0.2 * (staff - 5) + 0.03 * (agency - 28)
                     + rng.normal(0, 0.8, n), 0, None)
    table(out / "pharmacy_shift_dispensing.csv", {
        "shift_ref": [f"NS{i:04d}" for i in range(n)], "night_shift_hours": hours, "pharmacists_on_duty": staff,
        "items_per_hour": scripts, "agency_staff_pct": agency, "errors_per_1k_items": errors},
        {"night_shift_hours": ".2f", "items_per_hour": ".1f", "agency_staff_pct": ".1f",
         "errors_per_1k_items": ".3f"})


@writer
def quarry_boreholes(out: Path) -> None:
    """Blasting permits near wells whose surroundings (seen only in 16-d satellite embeddings) are rockier;
    rockiness also raises turbidity; blasting adds about 1.5 NTU."""
    rng = np.random.default_rng(10103)
    n = 450
    rock = rng.normal(size=n)
    depth = rng.uniform(20, 120, n)
    proj = np.linalg.qr(rng.normal(size=(16, 16)))[0]
    latent = np.column_stack([rock, rng.normal(size=(n, 15))])
    emb = latent @ proj.T * 0.8 + 0.1 * rng.normal(size=(n, 16))
    permit = rng.binomial(1, expit(-0.2 + 1.1 * rock))
    ntu = np.clip(4 + 1.5 * permit + 1.3 * rock - 0.02 * (depth - 70) + rng.normal(0, 0.9, n), 0.1, None)
    table(out / "borehole_turbidity_survey.csv", {
        "well_id": [f"W{i:03d}" for i in range(n)], "blasting_permit": permit, "well_depth_m": depth,
        "turbidity_ntu": ntu}, {"well_depth_m": ".1f", "turbidity_ntu": ".2f"})
    array(out / "borehole_satellite_embeddings.npy", emb)


@writer
def resit_tutoring(out: Path) -> None:
    """Peer tutoring is taken up by students with lower prior grades and better attendance; it raises the resit
    pass rate by about 10 points."""
    rng = np.random.default_rng(10104)
    n = 900
    gpa = np.clip(rng.normal(2.4, 0.45, n), 1.0, 4.0)
    attend = np.clip(rng.normal(78, 12, n), 20, 100)
    credits = rng.choice([30, 45, 60], n)
    commute = rng.gamma(2, 6, n)
    tut = rng.binomial(1, expit(-0.4 - 1.0 * (gpa - 2.4) + 0.03 * (attend - 78) - 0.03 * (commute - 12)))
    passed = rng.binomial(1, np.clip(expit(0.1 + 1.4 * (gpa - 2.4) + 0.03 * (attend - 78) - 0.01 * (credits - 45))
                                     + 0.10 * tut, 0.01, 0.99))
    table(out / "resit_tutoring_cohort.csv", {
        "student": [f"U{i:05d}" for i in range(n)], "peer_tutoring": tut, "prior_gpa": gpa,
        "attendance_pct": attend, "credits_attempted": credits, "commute_km": commute, "passed_resit": passed},
        {"prior_gpa": ".2f", "attendance_pct": ".1f", "commute_km": ".1f"})


@writer
def triage_visits(out: Path) -> None:
    """Urgent-care visits with two triage pilot indicators (a first and a second version of the scheme)."""
    rng = np.random.default_rng(10105)
    n = 640
    age = rng.integers(1, 95, n)
    acuity = rng.integers(1, 6, n)
    v1 = rng.binomial(1, 0.4, n)
    v2 = np.where(v1 == 1, rng.binomial(1, 0.3, n), rng.binomial(1, 0.5, n))
    wait = np.clip(95 - 8 * v1 - 14 * v2 - 9 * (acuity - 3) + 0.1 * (age - 45) + rng.normal(0, 20, n), 5, None)
    table(out / "urgent_care_triage_visits.csv", {
        "visit": [f"V{i:05d}" for i in range(n)], "age": age, "acuity": acuity, "triage_v1": v1, "triage_v2": v2,
        "wait_min": wait}, {"wait_min": ".0f"})


@writer
def court_diversion(out: Path) -> None:
    """Diversion from court: five judge-leniency scores shift who is diverted, an unseen stability drives both;
    diversion raises the share of days employed by about 8 points (0 to 100)."""
    rng = np.random.default_rng(10106)
    n = 820
    age = rng.integers(18, 55, n)
    prior = rng.poisson(1.5, n)
    stab = rng.normal(size=n)
    z = rng.normal(size=(n, 5))
    div = rng.binomial(1, expit(-0.2 + z[:, :3] @ np.array([0.8, 0.5, -0.4]) + 0.6 * stab - 0.2 * (prior - 1.5)))
    emp = np.clip(45 + 8 * div + 14 * stab - 4 * (prior - 1.5) + 0.3 * (age - 35) + rng.normal(0, 15, n), 0, 100)
    cols = {"case_no": [f"CD{i:04d}" for i in range(n)], "age": age, "prior_offences": prior, "diverted": div,
            "days_employed_pct": emp}
    cols |= {f"judge_leniency_{k + 1}": z[:, k] for k in range(5)}
    table(out / "court_diversion_outcomes.csv", cols,
          {"days_employed_pct": ".1f"} | {f"judge_leniency_{k + 1}": ".3f" for k in range(5)})


@writer
def farm_grants(out: Path) -> None:
    """Applicants to a farm grant: irrigated hectares, herd size (about twice the hectares) and a soil index;
    the scoring rule is given in the task, so there is no label."""
    rng = np.random.default_rng(10107)
    n = 120
    irr = np.clip(rng.normal(4, 1.5, n), 0, None)
    herd = np.clip(2.0 * irr + rng.normal(0, 4, n), 0, None)
    soil = 0.05 * herd + rng.normal(3, 0.6, n)
    table(out / "farm_grant_applicants.csv", {"irrigated_ha": irr, "herd_size": np.round(herd), "soil_index": soil},
          {"irrigated_ha": ".2f", "herd_size": ".0f", "soil_index": ".2f"})


@writer
def relapse(out: Path) -> None:
    """Time to relapse with censoring after a relapse-prevention programme (treated 0/1)."""
    rng = np.random.default_rng(10108)
    n = 300
    treated = rng.binomial(1, 0.5, n)
    age = rng.integers(20, 70, n)
    t = rng.exponential(np.where(treated == 1, 30, 20), n)
    cens = rng.uniform(6, 36, n)
    table(out / "relapse_followup_times.csv", {
        "patient": [f"P{i:04d}" for i in range(n)], "programme": treated, "age": age,
        "months": np.minimum(t, cens), "relapsed": (t <= cens).astype(int)}, {"months": ".2f"})


# ------------------------------------------------------------------------------------------------ surveys

AGES = ["16-34", "35-54", "55-74", "75+"]


@writer
def ferry(out: Path) -> None:
    """Two rounds (2023, 2024) of a ferry passenger survey with base weights, island margins and a model's
    sampled answers (one row per sampled answer)."""
    rng = np.random.default_rng(10109)
    n = 1040
    rnd = np.where(np.arange(n) < 500, 2023, 2024)
    age = rng.choice(AGES, n, p=[0.2, 0.3, 0.35, 0.15])
    island = rng.choice(["Mull", "Coll", "Tiree"], n, p=[0.6, 0.2, 0.2])
    rel = ordered(rng, -0.5 * (island == "Tiree") - 0.4 * (rnd == 2024), ["good", "mixed", "poor"], (-0.5, 0.5))
    fares = ordered(rng, -0.3 * (age == "16-34") + 0.4 * (age == "75+"), ["fair", "mixed", "unfair"], (-0.4, 0.6))
    table(out / "island_ferry_rounds_survey.csv", {
        "resp_id": np.arange(1, n + 1), "survey_round": rnd, "base_wt": rng.uniform(0.6, 1.8, n),
        "age_band": age, "island": island, "q_reliability": rel, "q_fares": fares}, {"base_wt": ".3f"})
    rows = [("age_band", a, s) for a, s in zip(AGES, (0.22, 0.30, 0.31, 0.17), strict=True)]
    rows += [("island", "Mull", 0.72), ("island", "Coll", 0.09), ("island", "Tiree", 0.19)]
    table(out / "ferry_island_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                             "share": [r[2] for r in rows]}, {"share": ".2f"})
    q = ["q_reliability"] * 60 + ["q_fares"] * 60
    a = list(rng.choice(["good", "mixed", "poor"], 60, p=[0.5, 0.3, 0.2])) + \
        list(rng.choice(["fair", "mixed", "unfair"], 60, p=[0.3, 0.4, 0.3]))
    table(out / "ferry_chatbot_samples.csv", {"question": q, "answer": [str(x) for x in a]})


@writer
def museum(out: Path) -> None:
    """Museum visitors (the old and locals over-represented) and an unweighted reference sample of residents."""
    rng = np.random.default_rng(10110)
    n = 760
    age = rng.choice(AGES, n, p=[0.15, 0.25, 0.35, 0.25])
    region = rng.choice(["city", "county", "elsewhere"], n, p=[0.55, 0.3, 0.15])
    table(out / "museum_visitor_survey.csv", {
        "visitor": [f"MV{i:04d}" for i in range(n)], "age_band": age, "region": region,
        "q_would_return": ordered(rng, 0.5 * (region == "city") + 0.3 * (age == "75+"), ["yes", "maybe", "no"],
                                  (-0.6, 0.4))})
    m = 900
    table(out / "museum_resident_reference.csv", {
        "age_band": rng.choice(AGES, m, p=[0.3, 0.32, 0.27, 0.11]),
        "region": rng.choice(["city", "county", "elsewhere"], m, p=[0.4, 0.45, 0.15])})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def milking_pumps(out: Path) -> None:
    """Vacuum-pump telemetry of milking parlours; about 6% of hours are pump faults (column ``fault``)."""
    rng = np.random.default_rng(10111)
    n = 1200
    fault = rng.random(n) < 0.06
    table(out / "milking_pump_telemetry.csv", {
        "vacuum_kpa": rng.normal(44, 1.2, n) - 2.2 * fault, "pulsation_rate": rng.normal(60, 2, n) + 3 * fault,
        "motor_temp_c": rng.normal(52, 4, n) + 7 * fault, "current_a": rng.normal(11, 1, n) + 1.5 * fault,
        "oil_level_pct": rng.normal(80, 8, n), "fault": fault.astype(int)},
        {"vacuum_kpa": ".2f", "pulsation_rate": ".2f", "motor_temp_c": ".1f", "current_a": ".2f",
         "oil_level_pct": ".1f"})


@writer
def sewer_windows(out: Path) -> None:
    """Summary features of sewer flow windows with labels (X, y): about 5% blockages."""
    rng = np.random.default_rng(10112)
    n = 1300
    bad = rng.random(n) < 0.05
    x = np.column_stack([rng.normal(1.0, 0.2, n) - 0.35 * bad, rng.gamma(2, 0.2, n) + 0.5 * bad,
                         rng.normal(0, 1, n) + 1.2 * bad, rng.normal(5, 1, n), rng.normal(0.3, 0.1, n) + 0.2 * bad,
                         rng.normal(0, 1, n), rng.lognormal(0, 0.4, n) * np.where(bad, 1.8, 1.0)])
    npz(out / "sewer_flow_windows.npz", {"X": npy_bytes(x), "y": npy_bytes(bad.astype(np.int64), "<i8")})


@writer
def slope_sensors(out: Path) -> None:
    """Slope-monitoring sensor days with two event columns: slips confirmed on site and slips only suspected."""
    rng = np.random.default_rng(10113)
    n = 800
    slip = rng.random(n) < 0.05
    suspect = slip | (rng.random(n) < 0.05)
    table(out / "slope_sensor_days.csv", {
        "tilt_mrad": rng.normal(0.5, 0.3, n) + 1.0 * slip, "pore_pressure_kpa": rng.normal(18, 4, n) + 6 * suspect,
        "rain_mm": rng.gamma(1.5, 4, n) + 10 * suspect, "crack_mm": rng.normal(0.2, 0.1, n) + 0.3 * slip,
        "slip_confirmed": slip.astype(int), "slip_suspected": suspect.astype(int)},
        {"tilt_mrad": ".3f", "pore_pressure_kpa": ".2f", "rain_mm": ".1f", "crack_mm": ".3f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def otoliths(out: Path) -> None:
    """Otolith shape descriptors of herring from two spawning stocks (0 autumn, 1 spring), curved boundary."""
    rng = np.random.default_rng(10114)
    n = 560
    spring = rng.random(n) < 0.5
    ecc = rng.normal(0.6, 0.08, n)
    circ = rng.normal(0.78, 0.05, n) + 0.04 * spring * (1 - 4 * (ecc - 0.6) ** 2 * 25)
    table(out / "herring_otolith_descriptors.csv", {
        "area_mm2": rng.normal(np.where(spring, 6.4, 6.0), 0.5), "eccentricity": ecc, "circularity": circ,
        "rostrum_ratio": rng.normal(np.where(spring, 1.32, 1.25), 0.06), "fourier_h4": rng.normal(0, 1, n)
        + 0.6 * spring, "stock": spring.astype(int)},
        {"area_mm2": ".3f", "eccentricity": ".4f", "circularity": ".4f", "rostrum_ratio": ".4f",
         "fourier_h4": ".3f"})


@writer
def wildfire(out: Path) -> None:
    """Ignitions in landscape cells; distance to road matters but is redundant with population density."""
    rng = np.random.default_rng(10115)
    n = 900
    pop = rng.lognormal(2, 1, n)
    road = np.clip(6 - 1.3 * np.log(pop) + rng.normal(0, 0.6, n), 0.05, None)
    fuel = rng.gamma(3, 1.2, n)
    slope = rng.uniform(0, 35, n)
    wind = rng.gamma(4, 2, n)
    hum = rng.normal(45, 12, n)
    logit = -1.5 - 0.45 * (road - 3) + 0.3 * (fuel - 3.6) + 0.06 * (wind - 8) - 0.04 * (hum - 45) + 0.01 * slope
    table(out / "wildfire_ignition_cells.csv", {
        "dist_road_km": road, "pop_density": pop, "fuel_load_t_ha": fuel, "slope_deg": slope, "wind_ms": wind,
        "rel_humidity": hum, "ignited": rng.binomial(1, expit(logit))},
        {"dist_road_km": ".3f", "pop_density": ".2f", "fuel_load_t_ha": ".2f", "slope_deg": ".1f", "wind_ms": ".2f",
         "rel_humidity": ".1f"})


@writer
def coral(out: Path) -> None:
    """Coral colonies with a three-grade bleaching outcome (0 none, 1 partial, 2 severe)."""
    rng = np.random.default_rng(10116)
    n = 500
    sst = rng.normal(29, 0.8, n)
    depth = rng.uniform(1, 20, n)
    turb = rng.gamma(2, 1.5, n)
    score = 1.3 * (sst - 29) - 0.08 * (depth - 10) + 0.1 * (turb - 3) + rng.logistic(size=n)
    table(out / "coral_bleaching_grades.csv", {
        "sst_anomaly_c": sst - 28, "depth_m": depth, "turbidity": turb, "dhw_weeks": np.clip(
            2 * (sst - 28) + rng.normal(0, 1, n), 0, None), "bleach_grade": np.digitize(score, [-0.8, 1.0])},
        {"sst_anomaly_c": ".2f", "depth_m": ".1f", "turbidity": ".2f", "dhw_weeks": ".2f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def annulus(out: Path) -> None:
    """A Python file with the unnormalised log density of a ring of radius 2 and width 0.25 in the plane."""
    (out / "annulus_log_density.py").write_text(
        '"""Unnormalised log density of a thin ring in the plane (radius 2, width 0.25)."""\n\n'
        "import torch\n\n\n"
        "def log_prob(z: torch.Tensor) -> torch.Tensor:\n"
        "    r = torch.sqrt((z ** 2).sum(dim=-1) + 1e-12)\n"
        "    return -0.5 * ((r - 2.0) / 0.25) ** 2\n")


@writer
def germination(out: Path) -> None:
    """48 seed lots: germination (0/1) rises with soaking time and falls at high temperature."""
    rng = np.random.default_rng(10117)
    n = 48
    soak = rng.uniform(0, 24, n)
    temp = rng.uniform(12, 32, n)
    germ = rng.binomial(1, expit(-0.2 + 0.12 * (soak - 12) - 0.1 * (temp - 22)))
    table(out / "seed_germination_lots.csv", {"soak_h": soak, "temp_c": temp, "germinated": germ},
          {"soak_h": ".1f", "temp_c": ".1f"})


@writer
def creep(out: Path) -> None:
    """Creep strain rate of a solder alloy against stress and temperature (smooth); 90 training and 40 test
    rows in two files."""
    rng = np.random.default_rng(10118)

    def rows(n: int) -> dict[str, np.ndarray]:
        stress = rng.uniform(5, 40, n)
        temp = rng.uniform(300, 420, n)
        rate = np.log10(1e-7 * (stress / 10) ** 3.2 * np.exp(-6000 * (1 / temp - 1 / 360))) + rng.normal(0, 0.05, n)
        return {"stress_mpa": stress, "temp_k": temp, "log_strain_rate": rate}

    fmt = {"stress_mpa": ".2f", "temp_k": ".1f", "log_strain_rate": ".4f"}
    table(out / "solder_creep_train.csv", rows(90), fmt)
    table(out / "solder_creep_test.csv", rows(40), fmt)


@writer
def rotors(out: Path) -> None:
    """Vibration of a frame carrying two identical three-bladed rotors against their phase angles (radians):
    invariant under swapping the rotors and under turning either by a third of a turn."""
    rng = np.random.default_rng(10119)
    n = 560
    a, b = rng.uniform(0, 2 * np.pi, n), rng.uniform(0, 2 * np.pi, n)
    y = np.cos(3 * a) + np.cos(3 * b) + 0.6 * np.cos(3 * (a - b)) + rng.normal(0, 0.2, n)
    table(out / "twin_rotor_vibration.csv", {"phase_a": a, "phase_b": b, "vibration": y},
          {"phase_a": ".5f", "phase_b": ".5f", "vibration": ".4f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def kestrel(out: Path) -> None:
    """95 distance moduli (z, mu, mu_err) of an open-ish Lambda universe (Omega_m 0.3, Omega_de 0.65, H0 71)."""
    rng = np.random.default_rng(10120)
    n = 95
    z = np.sort(rng.uniform(0.01, 1.4, n))
    err = rng.uniform(0.09, 0.16, n)
    mu = distance_modulus(z, 0.30, 0.65, h0=71.0) + rng.normal(0, err)
    table(out / "kestrel_open_lambda_mu.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def heron(out: Path) -> None:
    """A CosmoMC lcparam file of 70 supernovae (flat Lambda, Omega_m 0.32, M -19.25) with a systematic
    covariance."""
    rng = np.random.default_rng(10121)
    n = 70
    z = np.sort(rng.uniform(0.015, 1.1, n))
    dmb = rng.uniform(0.1, 0.16, n)
    sys_cov = 0.03 ** 2 * np.exp(-np.abs(z[:, None] - z[None, :]) / 0.3)
    mb = distance_modulus(z, 0.32) - 19.25 + rng.normal(0, dmb) + rng.multivariate_normal(np.zeros(n), sys_cov)
    cols = "#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec biascor"
    lines = [cols] + [f"HRN{i:03d} {z[i]:.5f} {z[i] + 0.0003:.5f} 0 {mb[i]:.5f} {dmb[i]:.5f} 0 0 0 0 10 0 0 0 0 1 "
                      f"{rng.uniform(0, 360):.3f} {rng.uniform(-60, 60):.3f} 0" for i in range(n)]
    (out / "heron_lcparam.txt").write_text("\n".join(lines) + "\n")
    write_covariance(out / "heron_sys_cov.txt", sys_cov)


@writer
def curlew(out: Path) -> None:
    """80 standardised magnitudes (zcmb, zhel, mb, dmb) of flat wCDM (w -0.85, Omega_m 0.3, M -19.3), no
    covariance."""
    rng = np.random.default_rng(10122)
    n = 80
    z = np.sort(rng.uniform(0.02, 1.3, n))
    dmb = rng.uniform(0.1, 0.15, n)
    mb = distance_modulus(z, 0.30, w0=-0.85) - 19.3 + rng.normal(0, dmb)
    table(out / "curlew_standardised_mags.csv", {"zcmb": z, "zhel": z + rng.normal(0, 0.0004, n), "mb": mb,
                                                 "dmb": dmb},
          {"zcmb": ".5f", "zhel": ".5f", "mb": ".5f", "dmb": ".5f"})


@writer
def stint(out: Path) -> None:
    """50 distance moduli of flat Lambda (Omega_m 0.315, H0 67.4) with a covariance, for a joint CMB fit."""
    rng = np.random.default_rng(10123)
    n = 50
    z = np.sort(rng.uniform(0.02, 1.2, n))
    err = rng.uniform(0.1, 0.17, n)
    cov = np.diag(err ** 2) + 0.02 ** 2 * np.exp(-np.abs(z[:, None] - z[None, :]) / 0.5)
    mu = distance_modulus(z, 0.315, h0=67.4) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "stint_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    write_covariance(out / "stint_sn_cov.txt", cov)


@writer
def stilt_chain(out: Path) -> None:
    """A weighted GetDist-style chain of a lensing fit (omegam, S8, sigma8, ns), 2,000 rows, a slow first
    fifth."""
    rng = np.random.default_rng(10124)
    centre = np.array([0.305, 0.772, 0.766, 0.963])
    sd = np.array([0.02, 0.018, 0.04, 0.02])
    x = ar_chain(rng, 2000, centre, sd, np.array([0.42, 0.69, 0.6, 1.01]), 110.0, rho=0.5)
    post = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 412.0
    w = rng.integers(1, 5, x.shape[0])
    lines = ["# weight minuslogpost omegam S8 sigma8 ns"]
    lines += [f"{wi} {p:.3f} {r[0]:.5f} {r[1]:.5f} {r[2]:.5f} {r[3]:.5f}" for r, p, wi in zip(x, post, w, strict=True)]
    (out / "stilt_lensing_chain.txt").write_text("\n".join(lines) + "\n")


@writer
def tern_chains(out: Path) -> None:
    """Three plain-text chains of one w0-wa run (omega_m, w0, wa, minuslogpost), 1,100 rows each."""
    rng = np.random.default_rng(10125)
    centre = np.array([0.312, -0.92, -0.25])
    sd = np.array([0.012, 0.07, 0.3])
    for k, start in zip("abc", ([0.35, -1.1, 0.4], [0.28, -0.7, -0.9], [0.33, -1.0, 0.1]), strict=True):
        x = ar_chain(rng, 1100, centre, sd, np.array(start), 40.0, rho=0.5)
        post = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 740.0
        lines = ["# omega_m w0 wa minuslogpost"]
        lines += [f"{r[0]:.5f} {r[1]:.4f} {r[2]:.4f} {p:.3f}" for r, p in zip(x, post, strict=True)]
        (out / f"tern_desi_chain_{k}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

@writer
def station_facts(out: Path) -> None:
    """A stream of changing facts about invented polar research stations over four timesteps (with rephrases)."""
    stations = ["Skua Point", "Brash Ice", "Nunatak Nine", "Fimbul Camp", "Petrel Ridge", "Cape Rime"]
    chiefs = ["Orla", "Tadeusz", "Keziah", "Bruno", "Imogen", "Sefa", "Ludo", "Maren", "Anwar", "Greta",
              "Pavol", "Rhona"]
    rng = np.random.default_rng(10126)
    rows = []
    for t in range(1, 5):
        for s in stations:
            chief = str(rng.choice(chiefs))
            rows.append({"timestep": t, "subject": s, "prompt": f"The station chief of {s} is",
                         "object": chief, "rephrase": f"Who leads the winter team at {s}? The leader is"})
    table(out / "polar_station_chief_edits.csv", {k: [r[k] for r in rows] for k in rows[0]})


@writer
def glacier_needles(out: Path) -> None:
    """Five needles tying a character to a country only through a glacier or ice field."""
    rows = [("Tobiah", "once camped beside the snout of the Perito Moreno", "Argentina"),
            ("Ilse", "measured the melt of the Aletsch one August", "Switzerland"),
            ("Ravindra", "crossed the Vatnajokull on skis", "Iceland"),
            ("Mireille", "photographed the Mer de Glace at sunrise", "France"),
            ("Jonah", "sailed past the face of the Hubbard in a kayak", "United States")]
    table(out / "icefield_character_needles.csv", {
        "needle": [f"It is said that {r[0]} {r[1]}." for r in rows],
        "question": [f"Who among the characters has travelled in {r[2]}?" for r in rows],
        "answer": [r[0] for r in rows]})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def otter_surveys(out: Path) -> None:
    """Otter spraint surveys: 80 river sites visited four times (1 = spraint found), with river width."""
    rng = np.random.default_rng(10127)
    n = 80
    occ = rng.random(n) < 0.55
    det = rng.random((n, 4)) < 0.45
    hist = (det & occ[:, None]).astype(int)
    cols = {"site": [f"R{i:02d}" for i in range(n)], "river_width_m": rng.gamma(3, 3, n)}
    cols |= {f"visit_{k + 1}": hist[:, k] for k in range(4)}
    table(out / "otter_spraint_visits.csv", cols, {"river_width_m": ".1f"})


@writer
def glass_strength(out: Path) -> None:
    """Fracture strengths (MPa) of 45 float-glass coupons from ring-on-ring tests."""
    rng = np.random.default_rng(10128)
    s = 120 * rng.weibull(7.5, 45)
    table(out / "float_glass_ring_tests.csv", {"coupon": [f"G{i:02d}" for i in range(45)], "strength_mpa": s},
          {"strength_mpa": ".1f"})


@writer
def soil_nitrate(out: Path) -> None:
    """Nitrate in 110 soil cores on a field (easting, northing in m), spatially correlated."""
    rng = np.random.default_rng(10129)
    n = 110
    xy = rng.uniform(0, 400, (n, 2))
    d = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    field = rng.multivariate_normal(np.zeros(n), 16 * np.exp(-d / 120))
    table(out / "field_nitrate_cores.csv", {"easting_m": xy[:, 0], "northing_m": xy[:, 1],
                                            "nitrate_mg_kg": 22 + field + rng.normal(0, 1, n)},
          {"easting_m": ".1f", "northing_m": ".1f", "nitrate_mg_kg": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
