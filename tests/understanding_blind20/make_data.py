"""Write every data file of the twentieth blind prose task set, deterministically.

``python tests/understanding_blind20/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
def loft_insulation(out: Path) -> None:
    """Homes: loft insulation (binary) went to older, larger homes with more occupants; it cuts the annual
    heating use by about 1,800 kWh."""
    rng = np.random.default_rng(20101)
    n = 600
    area = rng.gamma(6, 16, n)
    built = rng.integers(1900, 2016, n)
    occ = rng.integers(1, 6, n)
    ins = rng.binomial(1, expit(0.012 * (area - 96) - 0.02 * (built - 1960) + 0.2 * (occ - 3)))
    kwh = 9000 + 70 * (area - 96) - 40 * (built - 1960) + 500 * (occ - 3) - 1800 * ins + rng.normal(0, 1500, n)
    table(out / "loft_retrofit_homes.csv", {
        "home": [f"H{i:04d}" for i in range(n)], "insulated": ins, "floor_area_m2": area, "build_year": built,
        "occupants": occ, "heat_kwh": kwh}, {"floor_area_m2": ".0f", "heat_kwh": ".0f"})


@writer
def peer_tutoring(out: Path) -> None:
    """Students: hours of peer tutoring (continuous) are taken more by students with a lower prior GPA, a short
    commute and no part-time job; each hour adds about 0.8 exam points."""
    rng = np.random.default_rng(20102)
    n = 420
    gpa = np.clip(rng.normal(2.9, 0.5, n), 1.0, 4.0)
    commute = rng.gamma(2, 15, n)
    job = rng.binomial(1, 0.4, n)
    hours = np.clip(12 - 3 * (gpa - 2.9) - 0.08 * (commute - 30) - 4 * job + rng.normal(0, 4, n), 0, None)
    score = 60 + 0.8 * hours + 9 * (gpa - 2.9) - 0.05 * (commute - 30) - 3 * job + rng.normal(0, 6, n)
    table(out / "tutoring_hours_cohort.csv", {
        "student": [f"S{i:04d}" for i in range(n)], "tutor_hours": hours, "prior_gpa": gpa,
        "commute_min": commute, "part_time_job": job, "exam_score": score},
        {"tutor_hours": ".1f", "prior_gpa": ".2f", "commute_min": ".0f", "exam_score": ".1f"})


@writer
def led_streets(out: Path) -> None:
    """Street segments: LED conversion (binary) went to segments that look busier and darker in a 16-d
    street-view embedding (a CSV of numbers, no header) and to ones with more shops; LED lighting cuts night-time
    incidents by about 1.5 a year."""
    rng = np.random.default_rng(20103)
    n = 300
    latent = rng.normal(size=(n, 2))
    emb = latent @ (rng.normal(size=(2, 16)) / 1.5) + 0.3 * rng.normal(size=(n, 16))
    footfall = rng.gamma(3, 1.5, n)
    shops = rng.integers(0, 25, n)
    led = rng.binomial(1, expit(0.9 * latent[:, 0] + 0.05 * (shops - 12)))
    inc = np.clip(6 - 1.5 * led + 1.6 * latent[:, 0] + 0.3 * (footfall - 4.5) + 0.08 * (shops - 12)
                  + rng.normal(0, 1.2, n), 0, None)
    table(out / "lamp_segments_night.csv", {
        "segment": [f"SG{i:03d}" for i in range(n)], "led": led, "footfall_k": footfall, "shop_count": shops,
        "night_incidents": inc}, {"footfall_k": ".2f", "night_incidents": ".1f"})
    table(out / "segment_streetview_vec.csv", {f"e{j}": emb[:, j] for j in range(16)},
          {f"e{j}": ".4f" for j in range(16)}, header=False)


REMARKS = {  # what a vet writes about a cow's feet (1 lame, 0 watch, -1 sound)
    1: ["clearly lame on the left hind, sole ulcer suspected", "stands with an arched back, reluctant to walk",
        "overgrown claws and a white line lesion"],
    0: ["slight unevenness in gait, keep an eye", "claws a little long but walks fine",
        "mild heel erosion, no pain on pressure"],
    -1: ["sound on all four feet", "walks freely, claws well shaped", "no lesions seen, good mobility"],
}
REMARK_EXTRAS = ["Cubicle bedding wet.", "Heifer from the spring batch.", "Bought in last year.",
                 "Due for drying off soon.", "Grazed the lower field.", "Calm in the crush."]


@writer
def hoof_trimming(out: Path) -> None:
    """Dairy cows: a hoof trim (binary) went to cows whose vet remark describes lameness (visible only in the
    remark); a trim adds about 2 kg of milk a day."""
    rng = np.random.default_rng(20104)
    n = 240
    parity = rng.integers(1, 7, n)
    dim = rng.uniform(10, 300, n)
    remarks, trimmed, milk = [], [], []
    for i in range(n):
        d = int(rng.integers(-1, 2))
        remarks.append(f"{rng.choice(REMARKS[d])}. {rng.choice(REMARK_EXTRAS)}")
        t = int(rng.random() < expit(1.4 * d + 0.1 * (parity[i] - 3)))
        trimmed.append(t)
        milk.append(28 + 2 * t - 3 * d + 0.8 * (parity[i] - 3) - 0.03 * (dim[i] - 150) + rng.normal(0, 2.5))
    table(out / "herd_trim_vet_remarks.csv", {
        "cow": [f"C{i:03d}" for i in range(n)], "trimmed": trimmed, "parity": parity, "days_in_milk": dim,
        "vet_remark": remarks, "milk_kg_day": milk}, {"days_in_milk": ".0f", "milk_kg_day": ".1f"})


# ------------------------------------------------------------------------------------------------ surveys

TIMETABLE = ["prefer_new", "no_preference", "prefer_old"]
FARE = ["too_high", "about_right", "too_low"]
ISLANDS = ["north_isle", "south_isle", "mainland_side"]
AGES = ["16-39", "40-64", "65+"]


@writer
def ferry_poll(out: Path) -> None:
    """Islanders asked about a new ferry timetable and the fare; the over-65s and the north isle answered far
    more. Census margins (age group, island) and a model's answer shares as a persona of each island."""
    rng = np.random.default_rng(20105)
    n = 650
    age = rng.choice(AGES, n, p=[0.2, 0.35, 0.45])
    isl = rng.choice(ISLANDS, n, p=[0.5, 0.3, 0.2])
    score = -0.7 * (age == "65+") + 0.5 * (age == "16-39") + 0.6 * (isl == "mainland_side")
    fare_score = 0.5 * (age == "65+") - 0.3 * (isl == "north_isle")
    table(out / "islander_ferry_poll.csv", {
        "id": np.arange(1, n + 1), "age_group": age, "island": isl,
        "q_timetable": ordered(rng, score, TIMETABLE, (-0.4, 0.5)),
        "q_fare": ordered(rng, fare_score, FARE, (-1.5, 0.2))})
    margins = [("age_group", "16-39", 0.36), ("age_group", "40-64", 0.40), ("age_group", "65+", 0.24),
               ("island", "north_isle", 0.34), ("island", "south_isle", 0.41), ("island", "mainland_side", 0.25)]
    table(out / "island_census_shares.csv", {"variable": [m[0] for m in margins], "level": [m[1] for m in margins],
                                             "share": [m[2] for m in margins]}, {"share": ".2f"})
    rows = []
    for isl_, t, f in (("north_isle", (0.3, 0.3, 0.4), (0.6, 0.35, 0.05)),
                       ("south_isle", (0.45, 0.3, 0.25), (0.5, 0.45, 0.05)),
                       ("mainland_side", (0.6, 0.25, 0.15), (0.4, 0.5, 0.1))):
        rows += [("q_timetable", a, s, isl_) for a, s in zip(TIMETABLE, t, strict=True)]
        rows += [("q_fare", a, s, isl_) for a, s in zip(FARE, f, strict=True)]
    table(out / "ferry_persona_answers.csv", {"question": [r[0] for r in rows], "answer": [r[1] for r in rows],
                                              "share": [r[2] for r in rows], "subgroup": [r[3] for r in rows]},
          {"share": ".2f"})


WAITING = ["shorten_list", "keep_list", "no_view"]
TENURE = ["under_2y", "2_to_10y", "over_10y"]


@writer
def allotments(out: Path) -> None:
    """Allotment holders asked in 2022 and 2024 about the waiting-list rule; long-standing holders answered
    more, and opinion moved towards shortening the list. A weighted reference sample of the borough's holders
    (tenure band, age group, pop_wt) and a model's sampled answers, one row each."""
    rng = np.random.default_rng(20106)
    n = 560
    wave = rng.choice(["2022", "2024"], n)
    ten = rng.choice(TENURE, n, p=[0.2, 0.35, 0.45])
    age = rng.choice(AGES, n, p=[0.15, 0.4, 0.45])
    score = 0.8 * (wave == "2024") + 0.5 * (ten == "under_2y") - 0.4 * (ten == "over_10y")
    table(out / "allotment_holders_two_rounds.csv", {
        "holder": np.arange(1, n + 1), "wave": wave, "tenure_band": ten, "age_group": age,
        "q_waiting_list": ordered(rng, score, WAITING, (-0.2, 0.7))})
    m = 400
    table(out / "borough_holders_reference.csv", {
        "tenure_band": rng.choice(TENURE, m, p=[0.35, 0.4, 0.25]), "age_group": rng.choice(AGES, m,
                                                                                          p=[0.3, 0.4, 0.3]),
        "pop_wt": rng.uniform(0.5, 1.5, m)}, {"pop_wt": ".3f"})
    draws = rng.choice(WAITING, 80, p=[0.55, 0.35, 0.1])
    table(out / "allotment_chatbot_samples.csv", {"question": ["q_waiting_list"] * 80, "answer": draws})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def inline_pig(out: Path) -> None:
    """In-line inspection of a gas pipeline, one row per metre of pipe; about 4% are defects (defect = 1):
    thinner wall, a flux-leakage bump and a small dent, partly hidden by weld and girth noise."""
    rng = np.random.default_rng(20107)
    n = 1300
    bad = rng.random(n) < 0.04
    table(out / "pig_run_metres.csv", {
        "wall_mm": rng.normal(9.5, 0.35, n) - 0.7 * bad, "mfl_peak_mt": rng.gamma(4, 0.5, n) + 1.2 * bad,
        "dent_pct": np.abs(rng.normal(0, 0.4, n)) + 0.5 * bad, "weld_dist_m": rng.uniform(0, 12, n),
        "speed_m_s": rng.normal(2.0, 0.2, n), "defect": bad.astype(int)},
        {"wall_mm": ".3f", "mfl_peak_mt": ".3f", "dent_pct": ".3f", "weld_dist_m": ".2f", "speed_m_s": ".3f"})


@writer
def cold_store(out: Path) -> None:
    """Cold-store compressor hours with no labels; about 3% are refrigerant-leak or icing hours (high discharge
    temperature, long run fraction, low suction pressure)."""
    rng = np.random.default_rng(20108)
    n = 800
    bad = rng.random(n) < 0.03
    table(out / "freezer_plant_hours.csv", {
        "discharge_c": rng.normal(78, 4, n) + 12 * bad, "suction_bar": rng.normal(1.6, 0.12, n) - 0.35 * bad,
        "run_frac": np.clip(rng.beta(6, 4, n) + 0.25 * bad, 0, 1), "amps": rng.normal(22, 1.5, n) + 2 * bad,
        "door_opens": rng.poisson(6, n)},
        {"discharge_c": ".1f", "suction_bar": ".3f", "run_frac": ".3f", "amps": ".2f"})


@writer
def sewer(out: Path) -> None:
    """Sewer pipe segments from a crawler survey; about 6% are collapsing or root-blocked. Inspectors marked
    some: 1 a confirmed problem, 0 confirmed sound, blank not inspected."""
    rng = np.random.default_rng(20109)
    n = 900
    bad = rng.random(n) < 0.06
    seen = np.where(bad, rng.random(n) < 0.5, rng.random(n) < 0.25)
    mark = ["1" if b and s else "0" if s else "" for b, s in zip(bad, seen, strict=True)]
    table(out / "crawler_segment_scores.csv", {
        "ovality_pct": np.abs(rng.normal(0, 2, n)) + 4 * bad, "crack_count": rng.poisson(1 + 3 * bad),
        "flow_depth_pct": rng.uniform(5, 40, n) + 15 * bad, "age_yr": rng.uniform(10, 110, n),
        "diameter_mm": rng.choice([150, 225, 300, 450], n), "inspector_mark": mark},
        {"ovality_pct": ".2f", "flow_depth_pct": ".1f", "age_yr": ".0f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def meteorites(out: Path) -> None:
    """Bulk chemistry of meteorite finds: chondrites (is_chondrite = 1) against achondrites, separated mostly by
    nickel and by magnesium against iron, with overlap."""
    rng = np.random.default_rng(20110)
    n = 520
    ch = rng.random(n) < 0.55
    table(out / "meteorite_bulk_oxides.csv", {
        "fe_wt": rng.normal(np.where(ch, 24, 20), 3.5), "mg_wt": rng.normal(np.where(ch, 14.5, 10), 2.5),
        "ni_wt": rng.gamma(np.where(ch, 4, 1.5), 0.35), "si_wt": rng.normal(np.where(ch, 17.5, 22), 2.5),
        "is_chondrite": ch.astype(int)},
        {"fe_wt": ".2f", "mg_wt": ".2f", "ni_wt": ".3f", "si_wt": ".2f"})


@writer
def seismic_events(out: Path) -> None:
    """Regional seismic events as an .npz (X, y, feature_names): quarry blasts (y = 1) against earthquakes from
    five waveform features, blasts shallow, in daytime and with a high P/S ratio."""
    rng = np.random.default_rng(20111)
    n = 480
    blast = rng.random(n) < 0.35
    x = np.column_stack([
        rng.normal(np.where(blast, 0.9, 0.4), 0.35), rng.gamma(np.where(blast, 1.5, 5), 2.0),
        np.cos(2 * np.pi * (rng.normal(np.where(blast, 13, 12), np.where(blast, 2, 7)) / 24)),
        rng.normal(np.where(blast, 2.2, 2.6), 0.5), rng.normal(0, 1, n)])
    names = np.array([0, 1, 2, 3, 4])
    npz(out / "blast_or_quake_features.npz", {"X": npy_bytes(x), "y": npy_bytes(blast.astype(np.int64), "<i8"),
                                              "feature_ids": npy_bytes(names, "<i8")})


@writer
def readmissions(out: Path) -> None:
    """Hospital discharges: 30-day readmission (readmitted = 1) against age, comorbidities, length of stay,
    weekend and night discharge; night discharge matters a little and overlaps with length of stay."""
    rng = np.random.default_rng(20112)
    n = 700
    age = rng.uniform(20, 95, n)
    comorb = rng.poisson(2, n)
    los = rng.gamma(2, 2.5, n)
    night = rng.binomial(1, expit(-1 + 0.15 * (los - 5)), n)
    weekend = rng.binomial(1, 0.28, n)
    logit = -1.6 + 0.02 * (age - 60) + 0.35 * (comorb - 2) + 0.08 * (los - 5) + 0.45 * night + 0.15 * weekend
    table(out / "ward_discharges_30d.csv", {
        "age_yr": age, "comorbidities": comorb, "stay_days": los, "weekend": weekend, "night_discharge": night,
        "readmitted": rng.binomial(1, expit(logit))}, {"age_yr": ".0f", "stay_days": ".1f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def wcdm_moduli(out: Path) -> None:
    """150 distance moduli of a flat wCDM mock: Omega_m 0.32, w -0.85, H0 72."""
    rng = np.random.default_rng(20113)
    n = 150
    z = np.sort(rng.uniform(0.01, 1.4, n))
    err = rng.uniform(0.08, 0.14, n)
    mu = distance_modulus(z, 0.32, w0=-0.85, h0=72.0) + rng.normal(0, err)
    table(out / "deep_field_mu_table.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def peakmag_no_count(out: Path) -> None:
    """50 peak magnitudes of a flat LCDM mock (Omega_m 0.29, M -19.3 at H0 70) and their covariance written as
    N*N values without a count line."""
    rng = np.random.default_rng(20114)
    n = 50
    z = np.sort(rng.uniform(0.02, 1.1, n))
    err = rng.uniform(0.06, 0.11, n)
    cov = correlated_cov(z, err, 0.02, 0.3)
    mb = distance_modulus(z, 0.29) - 19.3 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "sn_compilation_mb.csv", {"z": z, "mb": mb, "mb_err": err},
          {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})
    (out / "sn_compilation_cov_flat.txt").write_text("".join(f"{v:.6e}\n" for v in cov.ravel()))


@writer
def joint_sn(out: Path) -> None:
    """45 distance moduli of a flat wCDM sample (Omega_m 0.31, w -0.95, H0 67.5) with a covariance (count line
    first), for a joint fit with the Planck TT band powers."""
    rng = np.random.default_rng(20115)
    n = 45
    z = np.sort(rng.uniform(0.02, 1.3, n))
    err = rng.uniform(0.09, 0.14, n)
    cov = correlated_cov(z, err, 0.02, 0.5)
    mu = distance_modulus(z, 0.31, w0=-0.95, h0=67.5) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "hubble_flow_mu_joint.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    write_covariance(out / "hubble_flow_mu_joint_cov.txt", cov)


@writer
def lensing_chain(out: Path) -> None:
    """A gzipped weighted chain (weight, minuslogpost, then S8, Omega_m, A_lens; 1,200 rows) that settles over
    the first few per cent; weights are integer multiplicities."""
    rng = np.random.default_rng(20116)
    n = 1200
    centre = np.array([0.776, 0.30, 1.05])
    sd = np.array([0.017, 0.02, 0.06])
    x = ar_chain(rng, n, centre, sd, np.array([0.84, 0.36, 1.3]), 35.0)
    w = rng.integers(1, 4, n)
    lp = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 400
    lines = ["#  weight  minuslogpost  S8  Omega_m  A_lens"]
    lines += [f"{wi:d} {li:.4f} {r[0]:.5f} {r[1]:.5f} {r[2]:.4f}" for wi, li, r in zip(w, lp, x, strict=True)]
    gzip_text(out / "cosmic_shear_s8_chain.txt.gz", "\n".join(lines) + "\n")


@writer
def growth_chains(out: Path) -> None:
    """Two chains of the same growth-rate fit (fsigma8, Omega_m, b1) run with two seeds, started apart."""
    rng = np.random.default_rng(20117)
    centre = np.array([0.45, 0.31, 1.9])
    sd = np.array([0.03, 0.015, 0.08])
    for tag, start in (("seedA", np.array([0.55, 0.27, 2.2])), ("seedB", np.array([0.36, 0.35, 1.6]))):
        x = ar_chain(rng, 900, centre, sd, start, 50.0)
        (out / f"rsd_growth_{tag}.txt").write_text(
            "# fsigma8 Omega_m b1\n" + "".join(f"{r[0]:.5f} {r[1]:.5f} {r[2]:.4f}\n" for r in x))


# ------------------------------------------------------------------------------------------------ bayes

@writer
def frog_ponds(out: Path) -> None:
    """Ponds: a frog chorus heard (1) or not, rising with area, falling with canopy shade and with
    conductivity (road salt)."""
    rng = np.random.default_rng(20118)
    n = 160
    area = rng.gamma(2, 120, n)
    canopy = rng.uniform(0, 90, n)
    cond = rng.gamma(4, 90, n)
    p = expit(0.3 + 0.004 * (area - 240) - 0.03 * (canopy - 45) - 0.004 * (cond - 360))
    table(out / "pond_chorus_survey.csv", {
        "pond": [f"P{i:03d}" for i in range(n)], "pond_area_m2": area, "canopy_pct": canopy,
        "conductivity_us": cond, "chorus_heard": rng.binomial(1, p)},
        {"pond_area_m2": ".0f", "canopy_pct": ".0f", "conductivity_us": ".0f"})


@writer
def glacier_stakes(out: Path) -> None:
    """45 ablation stakes: summer melt (mm w.e.) against positive degree-days and surface albedo (linear, noise
    sd about 60 mm)."""
    rng = np.random.default_rng(20119)
    n = 45
    pdd = rng.uniform(150, 450, n)
    alb = rng.uniform(0.2, 0.7, n)
    melt = 400 + 4.5 * (pdd - 300) - 900 * (alb - 0.45) + rng.normal(0, 60, n)
    table(out / "ablation_stake_melt.csv", {"stake": [f"ST{i:02d}" for i in range(n)], "pdd": pdd, "albedo": alb,
                                            "melt_mm": melt}, {"pdd": ".0f", "albedo": ".2f", "melt_mm": ".0f"})


@writer
def sourdough(out: Path) -> None:
    """Sourdough starter rise after 6 hours against hydration and room temperature (smooth, peaked in
    temperature); 40 training jars and a separate table of 30 test jars."""
    rng = np.random.default_rng(20120)

    def jars(m: int) -> dict[str, np.ndarray]:
        hyd = rng.uniform(60, 120, m)
        temp = rng.uniform(16, 32, m)
        rise = 40 + 80 * np.exp(-0.5 * ((temp - 27) / 4) ** 2) + 0.6 * (hyd - 90) + rng.normal(0, 5, m)
        return {"hydration_pct": hyd, "room_temp_c": temp, "rise_pct": rise}

    fmt = {"hydration_pct": ".0f", "room_temp_c": ".1f", "rise_pct": ".1f"}
    table(out / "starter_jars_fit.csv", jars(40), fmt)
    table(out / "starter_jars_check.csv", jars(30), fmt)


@writer
def torsion_scan(out: Path) -> None:
    """Conformational energy of a molecule with two identical methyl rotors against the torsion angles phi and
    psi (radians in [0, 2pi)): two threefold barriers of 10 kJ/mol and a weak coupling, invariant under swapping the
    angles and under a third of a turn of either."""
    rng = np.random.default_rng(20121)
    n = 320
    phi = rng.uniform(0, 2 * np.pi, n)
    psi = rng.uniform(0, 2 * np.pi, n)
    e = 5 * (2 - np.cos(3 * phi) - np.cos(3 * psi)) + 0.3 * np.cos(3 * phi) * np.cos(3 * psi) \
        + rng.normal(0, 0.3, n)
    table(out / "twin_rotor_scan.csv", {"phi": phi, "psi": psi, "energy_kj": e},
          {"phi": ".6f", "psi": ".6f", "energy_kj": ".3f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def checkride(out: Path) -> None:
    """Pilot candidates: simulator hours grow with flight hours, the written score with both; rows 2 and 5 are
    candidates below the given pass line."""
    rng = np.random.default_rng(20122)
    n = 120
    flight = rng.uniform(40, 250, n)
    sim = np.clip(5 + 0.1 * flight + rng.normal(0, 5, n), 0, None)
    written = np.clip(55 + 0.05 * flight + 0.4 * sim + rng.normal(0, 8, n), 0, 100)
    for i, (f, s, w) in {2: (60.0, 8.0, 58.0), 5: (110.0, 12.0, 62.0)}.items():
        flight[i], sim[i], written[i] = f, s, w
    table(out / "checkride_candidates.csv", {"candidate": [f"PC{i:03d}" for i in range(n)], "flight_hours": flight,
                                             "sim_hours": sim, "written_score": written},
          {"flight_hours": ".0f", "sim_hours": ".1f", "written_score": ".0f"})


@writer
def hearing_aids(out: Path) -> None:
    """Older adults with hearing loss: a hearing aid fitted (binary) with unseen motivation; a social
    participation score 0 to 10 a year later. Eight features of the audiologist each was assigned to (an .npy)
    shift fitting only."""
    rng = np.random.default_rng(20123)
    n = 500
    age = rng.uniform(60, 90, n)
    loss = rng.uniform(25, 75, n)
    z = rng.normal(size=(n, 8))
    u = rng.normal(size=n)
    fit = rng.binomial(1, expit(0.9 * z[:, 0] - 0.6 * z[:, 3] + 0.7 * u + 0.03 * (loss - 50)))
    score = np.clip(np.round(5 + 1.2 * fit - 0.04 * (age - 75) - 0.03 * (loss - 50) + 0.9 * u
                             + rng.normal(0, 1.3, n)), 0, 10)
    table(out / "hearing_aid_followup.csv", {"person": [f"HA{i:04d}" for i in range(n)], "fitted": fit,
                                             "age_yr": age, "loss_db": loss, "participation": score.astype(int)},
          {"age_yr": ".0f", "loss_db": ".0f"})
    array(out / "audiologist_style_feats.npy", z)


# ------------------------------------------------------------------------------------------------ lm

SPECIES = ["wren", "robin", "blackcap", "chiffchaff", "song_thrush"]
SITES = ["reedbed", "oakwood", "hedgerow", "orchard", "heath"]


@writer
def birdsong(out: Path) -> None:
    """Embeddings (32-d) of 300 song clips from an audio model with the species and recording site of each: the
    two concepts enter nearly additively."""
    rng = np.random.default_rng(20124)
    n = 300
    sp = rng.integers(0, 5, n)
    si = rng.integers(0, 5, n)
    a = rng.normal(size=(5, 32))
    b = rng.normal(size=(5, 32)) * 0.7
    emb = a[sp] + b[si] + 0.1 * (a[sp] * b[si]) + 0.4 * rng.normal(size=(n, 32))
    array(out / "song_clip_vectors.npy", emb)
    table(out / "song_clip_tags.csv", {"species": [SPECIES[i] for i in sp], "site": [SITES[i] for i in si]})


ITEMS = ["brass astrolabe", "carved whalebone", "Roman oil lamp", "lacquer screen", "flint handaxe",
         "silk sampler", "pewter tankard", "glass paperweight", "bronze mirror", "ivory chess set",
         "Ming bowl", "tin toy tram", "Saxon brooch", "ship's chronometer", "embroidered cope", "jade seal",
         "clockwork bird", "bone flute", "Delft tile", "miner's lamp", "feather cloak", "sextant",
         "Celtic torc", "music box"]
HALLS = ["the east gallery", "the map room", "the textile store", "the north annexe", "the print room",
         "the basement vault"]


@writer
def museum_edits(out: Path) -> None:
    """A catalogue's stream of location changes: each week six objects move to another hall, each object once
    (timestep, prompt, object, subject, relation, rephrase)."""
    rng = np.random.default_rng(20125)
    rows = []
    order = rng.permutation(len(ITEMS))
    for t in range(4):
        for item in [ITEMS[i] for i in order[6 * t:6 * t + 6]]:
            hall = str(rng.choice(HALLS))
            rows.append({"timestep": t, "subject": str(item), "relation": "kept in",
                         "prompt": f"The {item} is kept in", "object": hall,
                         "rephrase": f"Where would you find the {item}? In"})
    json_lines(out / "catalogue_moves.jsonl", rows)


@writer
def hut_needles(out: Path) -> None:
    """Five needles whose question is answered only through a latent association (a landmark to its mountain
    range), with the literal question as control."""
    rows = [
        ("Aino finally slept a night at the hut below the Eiger's north face.", "Which character has been to the Alps?",
         "Aino", "Which character slept at the hut below the Eiger?"),
        ("Tomas once carried water up to the hut beside Aconcagua.", "Which character has been to the Andes?",
         "Tomas", "Which character carried water up beside Aconcagua?"),
        ("Priya spent a week snowed in near Ama Dablam.", "Which character has been to the Himalaya?",
         "Priya", "Which character was snowed in near Ama Dablam?"),
        ("Ewan painted the bothy under Ben Nevis last summer.", "Which character has been to the Grampians?",
         "Ewan", "Which character painted the bothy under Ben Nevis?"),
        ("Marta mended the roof of the refuge on Mount Olympus.", "Which character has been to Greece?",
         "Marta", "Which character mended the refuge on Mount Olympus?"),
    ]
    table(out / "refuge_needles.csv", {"needle": [r[0] for r in rows], "question": [r[1] for r in rows],
                                       "answer": [r[2] for r in rows], "literal_question": [r[3] for r in rows]})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def otters(out: Path) -> None:
    """Otter spraint DNA mark-recapture on four rivers: marked in spring, caught in autumn, recaptures."""
    rows = [("Tavy", 18, 22, 7), ("Lyd", 11, 14, 5), ("Walkham", 9, 12, 3), ("Meavy", 6, 9, 2)]
    table(out / "spraint_recapture_counts.csv", {"river": [r[0] for r in rows], "marked": [r[1] for r in rows],
                                                 "caught": [r[2] for r in rows], "recaptured": [r[3] for r in rows]})


@writer
def paint(out: Path) -> None:
    """Paint viscosity (mPa s) for three thickeners at four pigment loadings, three replicate runs each."""
    rng = np.random.default_rng(20127)
    th = np.repeat(["cellulose", "acrylic", "urethane"], 12)
    load = np.tile(np.repeat([10, 20, 30, 40], 3), 3)
    base = {"cellulose": 900, "acrylic": 1050, "urethane": 980}
    visc = np.array([base[t] for t in th]) + 12 * load + rng.normal(0, 40, th.size)
    table(out / "thickener_viscosity_runs.csv", {"thickener": th, "pigment_pct": load, "viscosity_mpas": visc},
          {"viscosity_mpas": ".0f"})


@writer
def light_curve(out: Path) -> None:
    """A 27-day photometric light curve at 30-minute cadence with a 3.41-day box-shaped transit 0.4% deep."""
    rng = np.random.default_rng(20128)
    t = np.arange(0, 27, 1 / 48)
    phase = ((t - 1.2) % 3.41) / 3.41
    flux = 1 - 0.004 * (phase < 0.03) + rng.normal(0, 0.0012, t.size)
    table(out / "tess_sector_flux.csv", {"time_d": t, "flux": flux}, {"time_d": ".5f", "flux": ".5f"})


@writer
def thermometers(out: Path) -> None:
    """Paired readings of 60 neonates by an infrared ear thermometer and a rectal probe: the ear reads about
    0.2 degC low, with the gap widening at higher temperatures."""
    rng = np.random.default_rng(20129)
    n = 60
    core = rng.normal(37.2, 0.6, n)
    ear = core - 0.2 - 0.15 * (core - 37.2) + rng.normal(0, 0.18, n)
    table(out / "ear_vs_rectal_temps.csv", {"baby": [f"N{i:02d}" for i in range(n)],
                                            "rectal_c": core + rng.normal(0, 0.05, n), "ear_c": ear},
          {"rectal_c": ".2f", "ear_c": ".2f"})


# ------------------------------------------------------------------------------------------------ asks

@writer
def sms_reminders(out: Path) -> None:
    """Outpatients: an SMS reminder (binary) and two attendance outcomes that disagree (the first appointment
    kept, any appointment kept within 60 days)."""
    rng = np.random.default_rng(20130)
    n = 500
    age = rng.uniform(18, 90, n)
    dist = rng.gamma(2, 6, n)
    sms = rng.binomial(1, expit(0.02 * (age - 50)))
    first = rng.binomial(1, expit(0.8 + 0.6 * sms - 0.03 * (dist - 12)))
    anyk = np.maximum(first, rng.binomial(1, expit(0.5 + 0.05 * sms)))
    table(out / "outpatient_sms_attendance.csv", {
        "patient": [f"OP{i:04d}" for i in range(n)], "sms": sms, "age_yr": age, "distance_km": dist,
        "kept_first": first, "kept_any_60d": anyk}, {"age_yr": ".0f", "distance_km": ".1f"})


@writer
def flu_jab(out: Path) -> None:
    """Staff asked whether they will take the winter flu jab, with two margins tables from different censuses
    (age group and region) that weight the sample differently."""
    rng = np.random.default_rng(20131)
    n = 400
    age = rng.choice(AGES, n, p=[0.4, 0.45, 0.15])
    region = rng.choice(["urban", "rural"], n, p=[0.7, 0.3])
    jab = ordered(rng, 0.7 * (age == "65+") - 0.4 * (region == "rural"), ["yes", "undecided", "no"], (-0.5, 0.3))
    table(out / "staff_flu_jab_poll.csv", {"resp": np.arange(1, n + 1), "age_group": age, "region": region,
                                           "q_jab": jab})
    for year, shares in (("2011", (0.38, 0.42, 0.20, 0.72, 0.28)), ("2021", (0.33, 0.41, 0.26, 0.66, 0.34))):
        levels = [("age_group", a) for a in AGES] + [("region", "urban"), ("region", "rural")]
        table(out / f"census_{year}_margins.csv", {"variable": [v for v, _ in levels],
                                                   "level": [lv for _, lv in levels], "share": list(shares)},
              {"share": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
