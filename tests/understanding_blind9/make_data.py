"""Write every data file of the ninth blind prose task set, deterministically.

``python tests/understanding_blind9/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
    gzip_text,
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


def distance_modulus(z: np.ndarray, om: float, w0: float = -1.0, wa: float = 0.0, h0: float = 70.0) -> np.ndarray:
    """mu = 5 log10(D_L / 10 pc) of a flat background with CPL dark energy (w0, wa)."""
    grid = np.linspace(0.0, float(np.max(z)) * 1.001, 8001)
    a = 1.0 / (1.0 + grid)
    de = (1.0 - om) * a ** (-3 * (1 + w0 + wa)) * np.exp(-3 * wa * (1 - a))
    inv = 1.0 / np.sqrt(om * (1 + grid) ** 3 + de)
    dc = np.concatenate([[0.0], np.cumsum((inv[1:] + inv[:-1]) / 2 * np.diff(grid))])
    return np.asarray(5 * np.log10((1 + z) * np.interp(z, grid, dc) * C_KM_S / h0) + 25)


# ------------------------------------------------------------------------------------------ causal effects

@writer
def hail_nets(out: Path) -> None:
    """Growers net the higher, steeper, younger blocks in hail-prone valleys; nets add about 9 points of
    marketable fruit."""
    rng = np.random.default_rng(9101)
    n = 640
    elev = rng.uniform(250, 900, n)
    slope = rng.gamma(2, 3, n)
    age = rng.integers(3, 30, n)
    hail = rng.poisson(2.5, n)
    netted = rng.binomial(1, expit(-0.3 + 0.004 * (elev - 550) + 0.05 * (slope - 6) - 0.05 * (age - 15)
                                   + 0.35 * (hail - 2.5)))
    market = np.clip(78 + 9 * netted - 0.01 * (elev - 550) - 0.4 * (slope - 6) - 0.25 * (age - 15)
                     - 4.0 * (hail - 2.5) + rng.normal(0, 6, n), 5, 100)
    table(out / "orchard_hailnet_blocks.csv", {
        "block_id": [f"B{i:04d}" for i in range(n)], "cultivar": rng.choice(["Gala", "Braeburn", "Jazz"], n),
        "netted": netted, "elevation_m": elev, "slope_deg": slope, "tree_age_yr": age, "hail_days": hail,
        "marketable_pct": market},
        {"elevation_m": ".0f", "slope_deg": ".1f", "marketable_pct": ".1f"})


@writer
def library_hours(out: Path) -> None:
    """Longer opening hours go to richer catchments near their branch; each extra weekly hour adds about 0.4
    points of reading score (tab-separated)."""
    rng = np.random.default_rng(9102)
    n = 480
    income = rng.gamma(6, 6, n)
    esl = rng.beta(2, 6, n) * 100
    size = rng.integers(120, 900, n)
    dist = rng.gamma(2, 1.4, n)
    hours = np.clip(38 + 0.25 * (income - 36) - 2.0 * (dist - 2.8) + rng.normal(0, 6, n), 12, 70)
    score = 100 + 0.4 * (hours - 38) + 0.35 * (income - 36) - 0.12 * (esl - 25) - 0.004 * (size - 500) \
        - 1.1 * (dist - 2.8) + rng.normal(0, 5, n)
    table(out / "branch_library_catchments.tsv", {
        "catchment": [f"LC{i:03d}" for i in range(n)], "median_income_k": income, "pct_eal": esl,
        "school_roll": size, "km_to_branch": dist, "weekly_open_hours": hours, "reading_score": score},
        {"median_income_k": ".1f", "pct_eal": ".1f", "km_to_branch": ".2f", "weekly_open_hours": ".1f",
         "reading_score": ".1f"}, sep="\t")


@writer
def dispatch_calls(out: Path) -> None:
    """Advanced crews go to calls whose dispatch notes describe cardiac or breathing emergencies; those patients
    die more often, and the crew raises survival by about 6 points. Severity shows only in the note."""
    rng = np.random.default_rng(9103)
    n = 420
    severe = rng.random(n) < 0.4
    grave = ["unresponsive male, not breathing normally, CPR in progress",
             "chest pain radiating to left arm, sweating and pale",
             "difficulty breathing, blue lips, cannot speak in sentences",
             "collapsed at home, weak pulse reported by caller",
             "suspected stroke, facial droop and slurred speech"]
    mild = ["fall from standing, hip pain, alert and talking",
            "minor cut to hand, bleeding controlled by caller",
            "back pain after lifting, walking with help",
            "feeling dizzy after missing lunch, now sitting up",
            "sprained ankle at football training, alert"]
    notes = [str(rng.choice(grave if s else mild)) for s in severe]
    age = np.clip(np.round(rng.normal(62, 17, n) + 6 * severe), 18, 99)
    resp = rng.gamma(4, 2.2, n)
    als = rng.binomial(1, expit(-1.0 + 2.2 * severe - 0.05 * (resp - 9)))
    surv = rng.binomial(1, np.clip(expit(2.6 - 2.4 * severe - 0.03 * (age - 62) - 0.06 * (resp - 9))
                                   + 0.06 * als, 0.01, 0.99))
    table(out / "ambulance_dispatch_calls.csv", {
        "call_ref": [f"AMB{i:05d}" for i in range(n)], "dispatch_note": notes, "patient_age": age,
        "response_min": resp, "als_crew": als, "alive_30d": surv}, {"patient_age": ".0f", "response_min": ".1f"})


@writer
def green_roofs(out: Path) -> None:
    """Green roofs were fitted to newer, lower, larger buildings; they cut cooling energy by about 6 kWh/m².
    The file has no header row (columns: building, green_roof, floor_area, year_built, storeys, glazing,
    cooling_kwh)."""
    rng = np.random.default_rng(9104)
    n = 560
    area = rng.gamma(3, 1500, n)
    year = rng.integers(1955, 2021, n)
    storeys = rng.integers(1, 12, n)
    glazing = rng.uniform(15, 70, n)
    roof = rng.binomial(1, expit(-0.4 + 0.01 * (year - 1990) - 0.06 * (storeys - 6) + 0.00003 * (area - 4500)))
    cool = np.clip(48 - 6 * roof - 0.15 * (year - 1990) + 0.3 * (glazing - 40) + 0.8 * (storeys - 6)
                   + rng.normal(0, 5, n), 5, None)
    table(out / "rooftop_cooling_loads.csv", {
        "building": [f"OB-{i:03d}" for i in range(n)], "green_roof": roof, "floor_area": area, "year_built": year,
        "storeys": storeys, "glazing": glazing, "cooling_kwh": cool},
        {"floor_area": ".0f", "glazing": ".1f", "cooling_kwh": ".2f"}, header=False)


@writer
def credit_union(out: Path) -> None:
    """Credit-union membership and household income in two years (2022 and 2023), both plausible outcomes."""
    rng = np.random.default_rng(9105)
    n = 600
    age = rng.integers(20, 75, n)
    hh = rng.integers(1, 7, n)
    urban = rng.binomial(1, 0.55, n)
    member = rng.binomial(1, expit(-0.2 + 0.02 * (age - 45) + 0.5 * urban))
    inc22 = np.clip(rng.normal(31, 9, n) + 0.15 * (age - 45) + 3 * urban + 1.5 * member, 6, None)
    inc23 = inc22 * rng.normal(1.04, 0.05, n) + 1.0 * member
    table(out / "credit_union_households.csv", {
        "household": [f"HH{i:04d}" for i in range(n)], "head_age": age, "household_size": hh, "urban": urban,
        "member": member, "income_2022_k": inc22, "income_2023_k": inc23},
        {"income_2022_k": ".2f", "income_2023_k": ".2f"})


@writer
def housing_vouchers(out: Path) -> None:
    """Families offered a move by a housing lottery; caseworker features (12 columns) shift who moves, an unseen
    motivation drives both moving and being employed; moving raises employment by about 0.08."""
    rng = np.random.default_rng(9106)
    n = 900
    age = rng.integers(19, 60, n)
    size = rng.integers(1, 8, n)
    motive = rng.normal(size=n)
    case = rng.normal(size=(n, 12))
    push = case[:, :3] @ np.array([0.9, -0.6, 0.5])
    moved = rng.binomial(1, expit(-0.3 + push + 0.6 * motive - 0.1 * (size - 4)))
    employed = rng.binomial(1, np.clip(expit(-0.1 + 0.7 * motive - 0.02 * (age - 38)) + 0.08 * moved, 0.01, 0.99))
    table(out / "housing_voucher_moves.csv", {"family": [f"F{i:04d}" for i in range(n)], "age": age,
                                              "household_size": size, "moved": moved, "employed": employed})
    array(out / "caseworker_features.npy", case)


@writer
def attendance(out: Path) -> None:
    """A model's predicted attendance and the rate each pupil then had (R² about 0.4)."""
    rng = np.random.default_rng(9107)
    n = 1500
    truth = np.clip(rng.normal(91, 6, n), 40, 100)
    pred = np.clip(91 + 0.63 * (truth - 91) + rng.normal(0, 4.6, n), 50, 100)
    table(out / "pupil_attendance_predictions.csv", {
        "pupil": [f"S{i:05d}" for i in range(n)], "predicted_attendance": pred, "attendance_rate": truth},
        {"predicted_attendance": ".2f", "attendance_rate": ".2f"})


@writer
def bursaries(out: Path) -> None:
    """Lower household income means more paid hours, and hours lower the grade average; the panel awards on all
    three. Rows 2 and 7 (the third and eighth applicants) are two declined students."""
    rng = np.random.default_rng(9108)
    n = 280
    income = rng.gamma(4, 9, n)
    hours = np.clip(22 - 0.25 * income + rng.normal(0, 4, n), 0, None)
    gpa = np.clip(3.3 - 0.03 * hours + rng.normal(0, 0.35, n), 1.0, 4.0)
    awarded = rng.binomial(1, expit(1.0 - 0.06 * (income - 36) + 0.05 * (hours - 13) + 2.0 * (gpa - 2.9)))
    for i, (inc, hr, gp) in ((2, (52.0, 6.0, 2.45)), (7, (61.5, 3.5, 2.6))):
        income[i], hours[i], gpa[i], awarded[i] = inc, hr, gp, 0
    table(out / "student_bursary_decisions.csv", {"household_income_k": income, "hours_worked": hours, "gpa": gpa,
                                             "awarded": awarded},
          {"household_income_k": ".1f", "hours_worked": ".1f", "gpa": ".2f"})


@writer
def cafe_permits(out: Path) -> None:
    """Pavement-café permits: seats, footfall and revenue; revenue grows with the square of footfall."""
    rng = np.random.default_rng(9109)
    n = 240
    foot = rng.uniform(2, 12, n)
    seats = rng.integers(4, 40, n)
    revenue = 0.9 * foot ** 2 + 0.8 * seats + rng.normal(0, 8, n)
    granted = rng.binomial(1, expit(-3 + 0.04 * revenue + 0.05 * seats))
    table(out / "cafe_permit_applications.csv", {"footfall_k_day": foot, "seats": seats, "revenue_k": revenue,
                                                 "granted": granted},
          {"footfall_k_day": ".2f", "revenue_k": ".1f"})


# ------------------------------------------------------------------------------------------------ surveys

AGES = ["18-29", "30-44", "45-64", "65+"]


@writer
def allotments(out: Path) -> None:
    """A council survey on allotments: renters and the young want more plots; version B words the fee rise as
    'a contribution to upkeep' and wins more support; a retest of the plots question two weeks later."""
    rng = np.random.default_rng(9110)
    n = 1150
    age = rng.choice(AGES, n, p=[0.12, 0.22, 0.36, 0.30])
    tenure = rng.choice(["owner", "renter"], n, p=[0.7, 0.3])
    version = rng.choice(["A", "B"], n)
    plots_score = 0.6 * (tenure == "renter") + 0.4 * (age == "18-29") - 0.2 * (age == "65+")
    more = ordered(rng, plots_score, ["agree", "neither", "disagree"], (-0.5, 0.6))
    flip = rng.random(n) < 0.18
    retest = [str(rng.choice(["agree", "neither", "disagree"])) if f else m for f, m in zip(flip, more, strict=True)]
    fee = ordered(rng, 0.5 * (version == "B") - 0.4 * (tenure == "renter"), ["agree", "neither", "disagree"],
                  (-0.3, 0.7))
    table(out / "allotment_consultation_responses.csv", {"resp": np.arange(1, n + 1), "age_band": age, "tenure": tenure,
                                         "version": version, "q_more_plots": more, "q_fee_rise": fee,
                                         "q_more_plots_retest": retest})
    rows = [("age_band", a, s) for a, s in zip(AGES, (0.21, 0.26, 0.33, 0.20), strict=True)]
    rows += [("tenure", "owner", 0.58), ("tenure", "renter", 0.42)]
    table(out / "allotment_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                          "share": [r[2] for r in rows]}, {"share": ".2f"})


@writer
def cycle_lanes(out: Path) -> None:
    """An online panel on a protected cycle lane (commuters who cycle over-represented), a weighted reference
    sample of residents, and a language model's answer shares as three commuting personas."""
    rng = np.random.default_rng(9111)
    n = 980
    mode = rng.choice(["car", "bus", "bike"], n, p=[0.4, 0.3, 0.3])
    age = rng.choice(AGES, n, p=[0.25, 0.35, 0.3, 0.1])
    score = 0.9 * (mode == "bike") - 0.6 * (mode == "car") + 0.3 * (age == "18-29")
    table(out / "cycle_lane_panel.csv", {
        "panelist": [f"CP{i:04d}" for i in range(n)], "commute_mode": mode, "age_band": age,
        "lane_support": ordered(rng, score, ["for", "unsure", "against"], (-0.4, 0.5)),
        "parking_loss_ok": ordered(rng, 0.8 * score - 0.3, ["yes", "unsure", "no"], (-0.4, 0.5))})
    m = 1000
    table(out / "cycle_lane_residents.csv", {
        "commute_mode": rng.choice(["car", "bus", "bike"], m, p=[0.6, 0.3, 0.1]),
        "age_band": rng.choice(AGES, m, p=[0.2, 0.27, 0.33, 0.2]), "res_wt": rng.uniform(0.5, 1.7, m)},
        {"res_wt": ".3f"})
    model = {("lane_support", "car"): (0.30, 0.25, 0.45), ("lane_support", "bus"): (0.45, 0.30, 0.25),
             ("lane_support", "bike"): (0.80, 0.10, 0.10), ("parking_loss_ok", "car"): (0.15, 0.25, 0.60),
             ("parking_loss_ok", "bus"): (0.35, 0.35, 0.30), ("parking_loss_ok", "bike"): (0.70, 0.20, 0.10)}
    answers = {"lane_support": ["for", "unsure", "against"], "parking_loss_ok": ["yes", "unsure", "no"]}
    rows = [(q, a, s, g) for (q, g), ps in model.items() for a, s in zip(answers[q], ps, strict=True)]
    table(out / "cycle_lane_model_personas.csv", {"question": [r[0] for r in rows], "answer": [r[1] for r in rows],
                                                  "share": [r[2] for r in rows], "subgroup": [r[3] for r in rows]},
          {"share": ".2f"})


@writer
def marina(out: Path) -> None:
    """A marina users' survey drawn from two frames, each with its own design weight column, and margins."""
    rng = np.random.default_rng(9112)
    n = 700
    age = rng.choice(AGES, n, p=[0.1, 0.25, 0.4, 0.25])
    boat = rng.choice(["sail", "motor", "none"], n, p=[0.35, 0.4, 0.25])
    table(out / "marina_user_survey.csv", {
        "id": np.arange(1, n + 1), "age_band": age, "boat": boat,
        "wt_mooring_list": np.round(rng.uniform(0.6, 1.6, n), 3), "wt_harbour_visitors": np.round(
            rng.uniform(0.4, 2.2, n), 3),
        "q_dredging": ordered(rng, 0.5 * (boat == "sail"), ["support", "neutral", "oppose"], (-0.4, 0.5)),
        "q_berth_fees": ordered(rng, -0.4 * (boat == "motor"), ["fair", "neutral", "unfair"], (-0.4, 0.5))},
        {"wt_mooring_list": ".3f", "wt_harbour_visitors": ".3f"})
    rows = [("age_band", a, s) for a, s in zip(AGES, (0.18, 0.27, 0.35, 0.20), strict=True)]
    rows += [("boat", "sail", 0.3), ("boat", "motor", 0.3), ("boat", "none", 0.4)]
    table(out / "marina_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                       "share": [r[2] for r in rows]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def beehives(out: Path) -> None:
    """Hive scales and sensors; about 5% of days precede a swarm (weight drop, hotter brood, louder hum)."""
    rng = np.random.default_rng(9113)
    n = 1000
    swarm = rng.random(n) < 0.05
    table(out / "beehive_sensor_log.csv", {
        "weight_change_kg": rng.normal(0.2, 0.4, n) - 0.5 * swarm, "brood_temp_c": rng.normal(34.8, 0.4, n)
        + 0.35 * swarm, "hum_db": rng.normal(48, 3, n) + 2.5 * swarm, "hum_peak_hz": rng.normal(250, 20, n)
        + 20 * swarm, "entrance_count_k": rng.gamma(4, 2, n) * np.where(swarm, 1.3, 1.0),
        "humidity_pct": rng.normal(62, 6, n), "swarm": swarm.astype(int)},
        {"weight_change_kg": ".3f", "brood_temp_c": ".2f", "hum_db": ".1f", "hum_peak_hz": ".1f",
         "entrance_count_k": ".2f", "humidity_pct": ".1f"})


@writer
def turbine_vibration(out: Path) -> None:
    """Bearing vibration features of wind turbines, unlabelled, with about 4% failing bearings (X only)."""
    rng = np.random.default_rng(9114)
    n = 1100
    bad = rng.random(n) < 0.04
    x = np.column_stack([rng.lognormal(0, 0.3, n) * np.where(bad, 2.5, 1.0), rng.normal(3, 0.4, n) + 1.5 * bad,
                         rng.normal(45, 4, n) + 12 * bad, rng.gamma(2, 0.5, n) + 2.0 * bad,
                         rng.normal(0, 1, n), rng.normal(12, 2, n)])
    npz(out / "turbine_bearing_vibration.npz", {"X": npy_bytes(x)})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def pollen(out: Path) -> None:
    """Birch (0) against hazel (1) pollen grains from five measurements, overlapping."""
    rng = np.random.default_rng(9115)
    n = 520
    hazel = rng.random(n) < 0.45
    table(out / "birch_hazel_grain_sizes.csv", {
        "diameter_um": rng.normal(np.where(hazel, 25.5, 22.5), 1.6), "pore_depth_um": rng.normal(
            np.where(hazel, 1.2, 1.9), 0.35), "exine_um": rng.normal(np.where(hazel, 1.3, 1.1), 0.15),
        "roundness": np.clip(rng.normal(np.where(hazel, 0.82, 0.9), 0.05), 0, 1),
        "pore_count": rng.choice([3, 3, 3, 4], n), "taxon": hazel.astype(int)},
        {"diameter_um": ".2f", "pore_depth_um": ".2f", "exine_um": ".3f", "roundness": ".3f"})


@writer
def mastitis(out: Path) -> None:
    """Clinical mastitis in dairy cows; the teat-end score matters but is largely predictable from the cell
    count and parity."""
    rng = np.random.default_rng(9116)
    n = 850
    scc = rng.lognormal(5.0, 0.8, n)
    parity = rng.integers(1, 7, n)
    dim = rng.integers(5, 320, n)
    yld = rng.normal(29, 6, n)
    teat = np.clip(np.round(1 + 0.6 * np.log(scc / 150) + 0.3 * (parity - 3) + rng.normal(1, 0.5, n)), 1, 4)
    logit = -2.0 + 0.7 * np.log(scc / 150) + 0.15 * (parity - 3) + 0.45 * (teat - 2) - 0.004 * (dim - 150) \
        + 0.02 * (yld - 29)
    table(out / "herd_mastitis_records.csv", {"somatic_cells_k": scc, "parity": parity, "days_in_milk": dim,
                                              "milk_yield_l": yld, "teat_end_score": teat,
                                              "mastitis": rng.binomial(1, expit(logit))},
          {"somatic_cells_k": ".1f", "milk_yield_l": ".1f", "teat_end_score": ".0f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def glacier_surges(out: Path) -> None:
    """Surge-type glaciers: longer, gentler, thicker-debris glaciers surge more often (160 glaciers)."""
    rng = np.random.default_rng(9117)
    n = 160
    length = rng.gamma(3, 4, n)
    slope = rng.uniform(3, 25, n)
    debris = rng.beta(2, 5, n) * 100
    surged = rng.binomial(1, expit(-1.0 + 0.12 * (length - 12) - 0.15 * (slope - 14) + 0.02 * (debris - 28)))
    table(out / "glacier_surge_inventory.csv", {"glacier": [f"GL{i:03d}" for i in range(n)], "length_km": length,
                                                "mean_slope_deg": slope, "debris_cover_pct": debris,
                                                "surged": surged},
          {"length_km": ".2f", "mean_slope_deg": ".1f", "debris_cover_pct": ".1f"})


@writer
def song_intervals(out: Path) -> None:
    """45 pitch intervals (semitones) between notes of one songbird: two clusters, near -1.4 and +2.1, sd 1."""
    rng = np.random.default_rng(9118)
    n = 45
    centre = np.where(rng.random(n) < 0.5, -1.4, 2.1)
    table(out / "wren_song_intervals.csv", {"interval_st": centre + rng.normal(0, 1, n)}, {"interval_st": ".3f"})


@writer
def kiln(out: Path) -> None:
    """80 firings of a tile kiln: shrinkage rises smoothly with peak temperature and hold time; humidity does
    not matter."""
    rng = np.random.default_rng(9119)
    n = 80
    temp = rng.uniform(1080, 1260, n)
    hold = rng.uniform(5, 60, n)
    hum = rng.uniform(30, 80, n)
    shrink = 4 + 3.5 * expit((temp - 1170) / 25) + 1.2 * np.sqrt(hold / 60) + rng.normal(0, 0.15, n)
    table(out / "kiln_firing_runs.csv", {"peak_temp_c": temp, "hold_min": hold, "humidity_pct": hum,
                                         "shrinkage_pct": shrink},
          {"peak_temp_c": ".0f", "hold_min": ".1f", "humidity_pct": ".0f", "shrinkage_pct": ".3f"})


@writer
def ice_crystals(out: Path) -> None:
    """Backscatter against crystal orientation (unit c-axis vectors): six-fold about z, mirror in z."""
    rng = np.random.default_rng(9120)
    n = 600
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    phi = np.arctan2(v[:, 1], v[:, 0])
    rho = np.sqrt(v[:, 0] ** 2 + v[:, 1] ** 2)
    y = 1.5 * v[:, 2] ** 2 + 0.8 * rho ** 6 * np.cos(6 * phi) + rng.normal(0, 0.1, n)
    table(out / "ice_crystal_backscatter.csv", {"cx": v[:, 0], "cy": v[:, 1], "cz": v[:, 2], "backscatter": y},
          {"cx": ".6f", "cy": ".6f", "cz": ".6f", "backscatter": ".4f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def osprey(out: Path) -> None:
    """110 distance moduli in a Union2.1-like layout (name z mu sigma_mu p_lowmass), flat w0 -0.9, wa -0.3."""
    rng = np.random.default_rng(9121)
    n = 110
    z = np.sort(rng.uniform(0.015, 1.5, n))
    err = rng.uniform(0.1, 0.2, n)
    mu = distance_modulus(z, 0.31, -0.9, -0.3) + rng.normal(0, err)
    lines = ["# Osprey survey distance moduli (simulated)", "# name z mu sigma_mu p_lowmass"]
    lines += [f"OSP{i:03d} {z[i]:.4f} {mu[i]:.4f} {err[i]:.3f} {rng.uniform():.3f}" for i in range(n)]
    (out / "osprey_union_mu.txt").write_text("\n".join(lines) + "\n")


@writer
def bittern(out: Path) -> None:
    """24 binned distance moduli (rows z mu, no errors) of flat Lambda (Omega_m 0.29) and their covariance."""
    rng = np.random.default_rng(9122)
    n = 24
    z = np.geomspace(0.012, 1.25, n)
    sig = np.linspace(0.03, 0.09, n)
    cov = np.diag(sig ** 2) + 0.012 ** 2 * np.exp(-np.abs(np.log(z[:, None] / z[None, :])))
    mu = distance_modulus(z, 0.29) - 0.1 + rng.multivariate_normal(np.zeros(n), cov)
    (out / "bittern_binned_mu.txt").write_text("".join(f"{a:.5f} {b:.5f}\n" for a, b in zip(z, mu, strict=True)))
    write_covariance(out / "bittern_binned_cov.txt", cov)


@writer
def plover(out: Path) -> None:
    """75 standardised magnitudes (zcmb, zhel, mb, dmb) of flat wCDM (w -1.1, Omega_m 0.3, M -19.3) with a
    covariance."""
    rng = np.random.default_rng(9123)
    n = 75
    z = np.sort(rng.uniform(0.02, 1.2, n))
    dmb = rng.uniform(0.1, 0.17, n)
    cov = np.diag(dmb ** 2) + 0.02 ** 2 * np.exp(-np.abs(z[:, None] - z[None, :]) / 0.4)
    mb = distance_modulus(z, 0.30, -1.1) - 19.3 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "plover_sn_mags.csv", {"zcmb": z, "zhel": z + rng.normal(0, 0.0004, n), "mb": mb, "dmb": dmb},
          {"zcmb": ".5f", "zhel": ".5f", "mb": ".5f", "dmb": ".5f"})
    write_covariance(out / "plover_sn_cov.txt", cov)


@writer
def pipit(out: Path) -> None:
    """60 distance moduli of flat wCDM (w -0.95, Omega_m 0.31) for a joint fit with the CMB, no covariance."""
    rng = np.random.default_rng(9124)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.3, n))
    err = rng.uniform(0.11, 0.18, n)
    mu = distance_modulus(z, 0.31, -0.95, h0=67.5) + rng.normal(0, err)
    table(out / "pipit_sn_distances.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def mire_chain(out: Path) -> None:
    """A CosmoSIS-layout weighted chain of a lensing fit (omega_m, h0, sigma_8, a_ia), 1,600 rows, settling
    within the first fifth."""
    rng = np.random.default_rng(9125)
    centre = np.array([0.30, 0.70, 0.79, 0.9])
    sd = np.array([0.025, 0.04, 0.035, 0.35])
    x = ar_chain(rng, 1600, centre, sd, np.array([0.48, 0.58, 0.62, 2.4]), 60.0, rho=0.75)
    like = -0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) - 301.0
    w = rng.uniform(0.2, 1.0, x.shape[0])
    lines = ["#cosmological_parameters--omega_m\tcosmological_parameters--h0\tcosmological_parameters--sigma_8"
             "\tintrinsic_alignment_parameters--a\tlike\tpost\tweight", "#sampler=multinest"]
    lines += [f"{r[0]:.5f}\t{r[1]:.5f}\t{r[2]:.5f}\t{r[3]:.4f}\t{ll:.3f}\t{ll - 2.1:.3f}\t{wi:.4f}"
              for r, ll, wi in zip(x, like, w, strict=True)]
    (out / "mire_cosmosis_chain.txt").write_text("\n".join(lines) + "\n")


@writer
def gull_chains(out: Path) -> None:
    """Two gzip chains (plain header: H0 omega_b omega_cdm n_s minuslogpost) of one run, 1,300 rows each, with a
    slow start."""
    rng = np.random.default_rng(9126)
    centre = np.array([67.6, 0.02238, 0.1199, 0.9655])
    sd = np.array([0.55, 0.00015, 0.0012, 0.0042])
    for k, start in enumerate(([71.0, 0.0230, 0.112, 0.99], [64.5, 0.0218, 0.127, 0.94]), 1):
        x = ar_chain(rng, 1300, centre, sd, np.array(start), 110.0, rho=0.5)
        post = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 505.0
        lines = ["# H0 omega_b omega_cdm n_s minuslogpost"]
        lines += [f"{r[0]:.4f} {r[1]:.6f} {r[2]:.6f} {r[3]:.5f} {p:.3f}" for r, p in zip(x, post, strict=True)]
        gzip_text(out / f"gull_h0_chain_{k}.txt.gz", "\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

@writer
def glyph_embeddings(out: Path) -> None:
    """Embeddings (24-d) of 360 rendered glyphs, additive in hue and form (six levels each), with labels."""
    rng = np.random.default_rng(9127)
    n = 360
    hue = rng.integers(0, 6, n)
    form = rng.integers(0, 6, n)
    ph, pf = rng.normal(size=(6, 24)), rng.normal(size=(6, 24))
    emb = ph[hue] + pf[form] + 0.4 * rng.normal(size=(n, 24))
    hues = ["red", "amber", "green", "teal", "blue", "violet"]
    forms = ["circle", "square", "star", "cross", "arrow", "ring"]
    array(out / "glyph_encoder_embeddings.npy", emb)
    table(out / "glyph_labels.csv", {"image_id": [f"g{i:04d}" for i in range(n)],
                                     "hue": [hues[h] for h in hue], "form": [forms[f] for f in form]})


@writer
def lighthouse_needles(out: Path) -> None:
    """Six needles tying a character to a country only through a lighthouse, and a harbour haystack."""
    rows = [("Peregrine", "kept the lamp at Fastnet during a long winter", "Ireland",
             "Which character kept the lamp at Fastnet?"),
            ("Winifred", "painted the stripes of Hook Head in one summer", "Ireland",
             "Which character painted the stripes of Hook Head?"),
            ("Aurelio", "climbed the steps of the Tower of Hercules at dawn", "Spain",
             "Which character climbed the Tower of Hercules?"),
            ("Solveig", "watched storms from Lindesnes for a decade", "Norway",
             "Which character watched storms from Lindesnes?"),
            ("Casimir", "repaired the lens at Cordouan after a gale", "France",
             "Which character repaired the lens at Cordouan?"),
            ("Henrietta", "slept one night inside Split Rock by the lake", "United States",
             "Which character slept inside Split Rock?")]
    table(out / "lighthouse_needles.csv", {
        "needle": [f"Back then {r[0]} {r[1]}." for r in rows],
        "question": [f"Which character has been to {r[2]}?" for r in rows],
        "answer": [r[0] for r in rows], "literal_question": [r[3] for r in rows], "avoid": [r[2] for r in rows]})
    rng = np.random.default_rng(9128)
    who = ["The harbour master", "An old net mender", "The ferry's cook", "A boy with a kite", "The customs clerk",
           "A widow in a blue shawl", "The pilot's apprentice", "Two gulls on the rail"]
    did = ["counted the barrels stacked on the quay", "complained about the price of tar",
           "watched the tide creep over the slipway", "mended a torn sail with waxed thread",
           "sang a verse of an old shanty", "argued about the weather with the baker",
           "swept the cobbles outside the chandlery", "waited for the mail boat from the mainland",
           "wrote the day's catch in a greasy ledger", "hung lanterns along the breakwater"]
    when = ["before breakfast", "in the grey afternoon", "while the bells rang", "as the fog lifted",
            "long after dark", "on the first fine day of the month"]
    sentences = [f"{rng.choice(who)} {rng.choice(did)} {rng.choice(when)}." for _ in range(260)]
    (out / "harbour_town_haystack.txt").write_text(
        "\n".join(" ".join(sentences[i:i + 5]) for i in range(0, len(sentences), 5)) + "\n")


@writer
def unit_conversions(out: Path) -> None:
    """600 unit-conversion prompts with whole-number answers (feet to inches, hours to minutes, ...)."""
    rng = np.random.default_rng(9129)
    kinds = [("feet in inches", 12), ("hours in minutes", 60), ("yards in feet", 3), ("days in hours", 24),
             ("dozen in items", 12), ("weeks in days", 7)]
    qs, ans = [], []
    for _ in range(600):
        unit, f = kinds[int(rng.integers(len(kinds)))]
        v = int(rng.integers(1, 60))
        qs.append(f"{v} {unit}=")
        ans.append(v * f)
    table(out / "unit_conversion_prompts.csv", {"question": qs, "result": ans})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def peat_core(out: Path) -> None:
    """Twelve radiocarbon dates down a peat core (depth, 14C age, error)."""
    rng = np.random.default_rng(9130)
    depth = np.array([12, 35, 58, 80, 104, 131, 150, 177, 203, 228, 251, 276])
    age = 40 + 21.5 * depth + 0.012 * depth ** 2 + rng.normal(0, 60, depth.size)
    table(out / "peat_core_radiocarbon.csv", {"lab_code": [f"UBA-{31200 + i}" for i in range(depth.size)],
                                              "depth_cm": depth, "c14_age_bp": np.round(age),
                                              "c14_err": rng.choice([25, 30, 35, 40], depth.size)},
          {"c14_age_bp": ".0f"})


@writer
def tide_gauge(out: Path) -> None:
    """60 days of hourly sea level at a harbour gauge: M2, S2, K1, O1 tides plus surge noise."""
    rng = np.random.default_rng(9131)
    t = np.arange(0, 24 * 60)
    consts = [(12.4206, 1.42, 0.6), (12.0, 0.47, 1.9), (23.9345, 0.12, 0.3), (25.8193, 0.09, 2.2)]
    h = 2.9 + sum(a * np.cos(2 * np.pi * t / p - ph) for p, a, ph in consts) + np.cumsum(rng.normal(0, 0.01,
                                                                                                  t.size))
    start = np.datetime64("2023-03-01T00:00")
    table(out / "harbour_tide_gauge.csv", {"time_utc": [str(start + np.timedelta64(int(i), "h")) for i in t],
                                           "level_m": h}, {"level_m": ".3f"})


@writer
def warbler_histories(out: Path) -> None:
    """Capture histories of 150 ringed warblers over seven breeding seasons (1 = caught)."""
    rng = np.random.default_rng(9132)
    rows = []
    for i in range(150):
        first = int(rng.integers(0, 5))
        alive = True
        hist = ["0"] * 7
        for s in range(first, 7):
            if s > first:
                alive = alive and rng.random() < 0.55
            if alive and (s == first or rng.random() < 0.7):
                hist[s] = "1"
        rows.append((f"R{i:04d}", "".join(hist), str(rng.choice(["F", "M"]))))
    table(out / "warbler_capture_histories.csv", {"ring": [r[0] for r in rows], "history": [r[1] for r in rows],
                                                  "sex": [r[2] for r in rows]})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
