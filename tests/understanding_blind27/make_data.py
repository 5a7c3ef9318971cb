"""Write every data file of the twenty-seventh blind prose task set, deterministically.

``python tests/understanding_blind27/make_data.py`` rewrites the set's ``data/`` (``--out DIR`` writes elsewhere);
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
    array,
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
def audiology(out: Path) -> None:
    """Adults over sixty in a hearing cohort: a hearing aid (binary) was fitted more often to people with poorer
    hearing, more schooling, who share a home and are younger; an aid raises the three-year change of the memory
    composite by about 0.25 (higher is better)."""
    rng = np.random.default_rng(27101)
    n = 650
    age = rng.uniform(60, 88, n)
    pta = rng.normal(38, 10, n)
    edu = rng.integers(8, 21, n)
    alone = rng.binomial(1, 0.3, n)
    aid = rng.binomial(1, expit(-0.4 + 0.08 * (pta - 38) + 0.12 * (edu - 14) - 0.6 * alone - 0.03 * (age - 74)))
    mem = (-0.4 + 0.25 * aid - 0.03 * (age - 74) - 0.015 * (pta - 38) + 0.04 * (edu - 14) - 0.15 * alone
           + rng.normal(0, 0.5, n))
    table(out / "audiology_cohort_followup.csv", {
        "participant": [f"AH{i:04d}" for i in range(n)], "age": age, "pta_db": pta, "education_yrs": edu,
        "lives_alone": alone, "hearing_aid": aid, "memory_change": mem},
        {"age": ".0f", "pta_db": ".1f", "memory_change": ".3f"})


@writer
def biochar(out: Path) -> None:
    """Maize plots of a biochar trial, tab-separated with no header row (plot, clay %, rain, slope, last season's
    yield, biochar rate, yield): farmers on heavy clay applied less and those with a good previous crop more; each
    tonne per hectare adds about 0.08 t/ha of yield."""
    rng = np.random.default_rng(27102)
    n = 360
    clay = rng.uniform(8, 45, n)
    rain = rng.normal(650, 120, n)
    slope = rng.gamma(2, 2, n)
    prev = rng.normal(6.5, 1.2, n) + 0.02 * (clay - 25)
    rate = np.clip(8 - 0.12 * (clay - 25) + 1.5 * (prev - 6.5) + rng.normal(0, 3, n), 0, None)
    yld = (2.4 + 0.6 * prev + 0.08 * rate + 0.002 * (rain - 650) - 0.05 * slope - 0.01 * (clay - 25)
           + rng.normal(0, 0.6, n))
    table(out / "biochar_trial_plots.tsv", {
        "plot": [f"P{i:03d}" for i in range(n)], "clay_pct": clay, "rain_mm": rain, "slope_deg": slope,
        "prev_yield_t": prev, "biochar_t_ha": rate, "yield_t_ha": yld},
        {"clay_pct": ".1f", "rain_mm": ".0f", "slope_deg": ".1f", "prev_yield_t": ".2f", "biochar_t_ha": ".1f",
         "yield_t_ha": ".2f"}, sep="\t", header=False)


@writer
def listings(out: Path) -> None:
    """Marketplace listings: a professional photo shoot (binary) is chosen by sellers whose items look appealing,
    an appeal that only the 32-dimensional photo embeddings carry (a linear direction in their first four
    columns); the shoot shortens the time to sale by about a fifth."""
    rng = np.random.default_rng(27103)
    n = 400
    emb = rng.normal(0, 1, (n, 32))
    appeal = emb[:, :4] @ np.array([0.6, -0.4, 0.3, 0.5])
    price = rng.lognormal(4, 0.6, n)
    rating = np.clip(rng.normal(4.3, 0.4, n), 1, 5)
    pro = rng.binomial(1, expit(0.9 * appeal + 0.3 * (np.log(price) - 4)))
    days = np.exp(2.6 - 0.22 * pro - 0.3 * appeal + 0.2 * (np.log(price) - 4) - 0.2 * (rating - 4.3)
                  + rng.normal(0, 0.3, n))
    table(out / "marketplace_listings.csv", {
        "listing_id": [f"L{i:05d}" for i in range(n)], "price_usd": price, "seller_rating": rating,
        "pro_photo": pro, "days_to_sale": days}, {"price_usd": ".2f", "seller_rating": ".2f", "days_to_sale": ".1f"})
    array(out / "listing_photo_embeddings.npy", emb)


# ------------------------------------------------------------------------------------------------ surveys

BOROUGH = ["north", "centre", "south"]
AGEB = ["18_34", "35_59", "60_plus"]
CHARGE = ["support", "neutral", "oppose"]
TRANSIT = ["more_often", "same", "less_often"]


@writer
def congestion(out: Path) -> None:
    """Residents asked about a congestion charge in two wordings (form A "charge", form B "clean-air fee", which
    raises support) and about public transport use; the centre is oversampled and carries lower design weights;
    census margins of borough and age band; an assistant's answer shares per question (no subgroups)."""
    rng = np.random.default_rng(27104)
    n = 800
    bor = rng.choice(BOROUGH, n, p=[0.2, 0.5, 0.3])
    age = rng.choice(AGEB, n, p=[0.45, 0.35, 0.2])
    form = rng.choice(["A", "B"], n)
    dw = np.where(bor == "centre", 0.7, 1.3) * rng.uniform(0.9, 1.1, n)
    s1 = 0.5 * (bor == "centre") - 0.4 * (age == "60_plus") + 0.5 * (form == "B")
    s2 = 0.4 * (age == "18_34") + 0.3 * (bor == "centre")
    table(out / "congestion_survey_forms.csv", {
        "resp": [f"R{i:04d}" for i in range(n)], "borough": bor, "age_band": age, "form": form, "dw": dw,
        "q_charge": ordered(rng, s1, CHARGE, (-0.3, 0.6)), "q_transit": ordered(rng, s2, TRANSIT, (-0.2, 0.9))},
        {"dw": ".3f"})
    table(out / "city_census_margins.csv", {
        "variable": ["borough"] * 3 + ["age_band"] * 3, "level": BOROUGH + AGEB,
        "share": [0.30, 0.35, 0.35, 0.30, 0.40, 0.30]}, {"share": ".2f"})
    rows = {"question": ["q_charge"] * 3 + ["q_transit"] * 3, "answer": CHARGE + TRANSIT,
            "share": [0.45, 0.35, 0.20, 0.30, 0.50, 0.20]}
    table(out / "assistant_congestion_answers.csv", rows, {"share": ".2f"})


SIZE = ["small", "medium", "large"]
REGION = ["upland", "lowland", "coastal"]
BAN = ["support", "unsure", "oppose"]
SUBSIDY = ["yes", "maybe", "no"]


@writer
def pesticide(out: Path) -> None:
    """A growers' panel in 2022 and 2024 about a pesticide ban and a transition subsidy: large farms over-respond
    and oppose the ban more; support for the ban falls in 2024; a census reference sample with farm size, region
    and census weights (small farms carry more weight)."""
    rng = np.random.default_rng(27105)
    n = 720
    year = np.where(np.arange(n) < 360, "2022", "2024")
    size = rng.choice(SIZE, n, p=[0.2, 0.35, 0.45])
    reg = rng.choice(REGION, n, p=[0.3, 0.5, 0.2])
    s1 = 0.6 * (size == "small") - 0.5 * (size == "large") - 0.4 * (year == "2024") + 0.3 * (reg == "coastal")
    s2 = 0.5 * (size == "small") + 0.2 * (reg == "upland")
    table(out / "grower_pesticide_waves.csv", {
        "grower": [f"G{i:04d}" for i in range(n)], "wave_year": year, "farm_size": size, "region": reg,
        "q_ban": ordered(rng, s1, BAN, (-0.2, 0.8)), "q_subsidy": ordered(rng, s2, SUBSIDY, (-0.4, 0.6))})
    m = 1000
    rsize = rng.choice(SIZE, m, p=[0.4, 0.35, 0.25])
    rreg = rng.choice(REGION, m, p=[0.35, 0.4, 0.25])
    wt = np.where(rsize == "small", 1.6, np.where(rsize == "medium", 1.0, 0.6)) * rng.uniform(0.8, 1.2, m)
    table(out / "agri_census_reference.csv", {"farm_size": rsize, "region": rreg, "census_wt": wt},
          {"census_wt": ".3f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def hotbox(out: Path) -> None:
    """Axle passes over wayside hot-box detectors: about 4% are overheating bearings, hotter than the ambient
    temperature explains and hotter on one side; every pass labelled (hot_box 1 or 0)."""
    rng = np.random.default_rng(27106)
    n = 1200
    hot = rng.random(n) < 0.04
    amb = rng.normal(12, 8, n)
    speed = rng.uniform(40, 160, n)
    load = rng.normal(18, 3, n)
    bearing = 30 + 0.6 * amb + 0.08 * speed + 0.3 * load + rng.normal(0, 4, n) + hot * rng.uniform(8, 30, n)
    side = rng.normal(0, 3, n) + hot * rng.uniform(3, 12, n)
    table(out / "wayside_hotbox_readings.csv", {
        "bearing_temp_c": bearing, "ambient_c": amb, "speed_kmh": speed, "axle_load_t": load, "side_delta_c": side,
        "hot_box": hot}, {"bearing_temp_c": ".1f", "ambient_c": ".1f", "speed_kmh": ".0f", "axle_load_t": ".2f",
                          "side_delta_c": ".1f"})


@writer
def lightcurves(out: Path) -> None:
    """Light-curve features of 700 sources in one survey field, unlabelled; about 3% are odd (large amplitude,
    skewed, high Stetson J)."""
    rng = np.random.default_rng(27107)
    n = 700
    odd = rng.random(n) < 0.03
    amp = rng.lognormal(-1, 0.5, n) * np.where(odd, 4.0, 1.0)
    logp = rng.normal(0, 0.6, n)
    skew = rng.normal(0, 0.3, n) + 2 * odd
    kurt = rng.normal(0, 0.5, n) + 1.5 * odd
    gr = rng.normal(0.5, 0.2, n)
    stet = rng.normal(1, 0.4, n) + 3 * odd
    table(out / "survey_lightcurve_features.csv", {
        "amp_mag": amp, "log_period_d": logp, "skewness": skew, "kurtosis": kurt, "color_gr": gr,
        "stetson_j": stet}, {k: ".4f" for k in ("amp_mag", "log_period_d", "skewness", "kurtosis", "color_gr",
                                                "stetson_j")})


@writer
def compressor(out: Path) -> None:
    """Compressor sensor readings (six channels), about 5% faulty; two flag columns that disagree: the operators'
    logbook catches about 70% of the faults with few false flags, the vendor's monitoring about 85% with more."""
    rng = np.random.default_rng(27108)
    n = 800
    fault = rng.random(n) < 0.05
    x = rng.normal(0, 1, (n, 6))
    x[fault] += np.array([0.8, 1.4, 1.2, 2.0, 0.5, -1.0])
    suction = 2.1 + 0.15 * x[:, 0]
    discharge = 8.5 + 0.4 * x[:, 1]
    temp = 85 + 4 * x[:, 2]
    vib = 2.5 + 0.5 * x[:, 3]
    current = 110 + 6 * x[:, 4]
    flow = 420 + 25 * x[:, 5]
    op = (fault & (rng.random(n) < 0.7)) | (~fault & (rng.random(n) < 0.01))
    ven = (fault & (rng.random(n) < 0.85)) | (~fault & (rng.random(n) < 0.04))
    table(out / "compressor_sensor_flags.csv", {
        "suction_bar": suction, "discharge_bar": discharge, "temp_c": temp, "vib_rms": vib, "current_a": current,
        "flow_m3h": flow, "operator_flag": op, "vendor_flag": ven},
        {"suction_bar": ".3f", "discharge_bar": ".2f", "temp_c": ".1f", "vib_rms": ".3f", "current_a": ".1f",
         "flow_m3h": ".0f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def ringing(out: Path) -> None:
    """64 first-year birds at a ringing station: arrival relative to the season's median (weeks), a mixture of
    an early population (mean -1.6) and a late one (mean +1.4), both with sd 1 week."""
    rng = np.random.default_rng(27109)
    n = 64
    early = rng.random(n) < 0.45
    off = np.where(early, rng.normal(-1.6, 1, n), rng.normal(1.4, 1, n))
    table(out / "ringing_arrival_offsets.csv", {
        "ring": [f"NX{40210 + i}" for i in range(n)], "arrival_offset_wk": off}, {"arrival_offset_wk": ".2f"})


@writer
def filler(out: Path) -> None:
    """48 BN-filled epoxy specimens: thermal conductivity rises smoothly and saturates with filler loading, with
    a small wiggle; cure temperature barely matters."""
    rng = np.random.default_rng(27110)
    n = 48
    load = rng.uniform(0, 40, n)
    cure = rng.uniform(120, 180, n)
    k = 0.2 + 0.9 * (1 - np.exp(-load / 15)) + 0.08 * np.sin(load / 5) + 0.001 * (cure - 150) + rng.normal(0, 0.03, n)
    table(out / "filler_loading_conductivity.csv", {
        "specimen": [f"BN-{i:02d}" for i in range(n)], "filler_vol_pct": load, "cure_temp_c": cure, "k_w_mk": k},
        {"filler_vol_pct": ".1f", "cure_temp_c": ".0f", "k_w_mk": ".3f"})


@writer
def twin_cam(out: Path) -> None:
    """800 runs of a twin-cam rig: two phase angles uniform on the circle and a vibration amplitude built from
    cosines only and symmetric in the two angles, so unchanged by either sign flip and by their exchange."""
    rng = np.random.default_rng(27111)
    n = 800
    a = rng.uniform(-np.pi, np.pi, n)
    b = rng.uniform(-np.pi, np.pi, n)
    v = (3 + np.cos(a) + np.cos(b) + 0.5 * np.cos(2 * a) * np.cos(2 * b) + 0.3 * (np.cos(3 * a) + np.cos(3 * b))
         + 0.4 * np.cos(a) * np.cos(b) + rng.normal(0, 0.05, n))
    table(out / "twin_cam_rig_vibration.csv", {
        "run": [f"TC{i:04d}" for i in range(n)], "cam1_rad": a, "cam2_rad": b, "vib_um": v},
        {"cam1_rad": ".6f", "cam2_rad": ".6f", "vib_um": ".4f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def honours(out: Path) -> None:
    """Second-year marks: maths drives physics, physics drives the project mark; admission to honours by a noisy
    rule on physics and project. Rows 3, 9 and 14 are weak students who were not admitted."""
    rng = np.random.default_rng(27112)
    n = 240
    maths = np.clip(rng.normal(62, 12, n), 5, 100)
    physics = np.clip(0.7 * maths + rng.normal(18, 8, n), 5, 100)
    project = np.clip(0.5 * physics + rng.normal(32, 9, n), 5, 100)
    for row, marks in ((3, (41, 45, 50)), (9, (47, 50, 44)), (14, (52, 48, 55))):
        maths[row], physics[row], project[row] = marks
    adm = 0.06 * (physics - 62) + 0.06 * (project - 63) + rng.normal(0, 0.6, n) > 0.4
    adm[[3, 9, 14]] = False
    table(out / "honours_track_marks.csv", {
        "student": [f"S{i:03d}" for i in range(n)], "maths_mark": maths, "physics_mark": physics,
        "project_mark": project, "honours": adm}, {"maths_mark": ".0f", "physics_mark": ".0f", "project_mark": ".0f"})


@writer
def cycling(out: Path) -> None:
    """700 pupils: cycling to school (binary) depends on five route features (the instruments) and unobserved
    motivation; passing the fitness test (binary) rises with cycling by a true CATE of 0.15 - 0.05 bmi_z, stored
    in true_cate."""
    rng = np.random.default_rng(27113)
    n = 700
    age = rng.uniform(11, 16, n)
    bmi = rng.normal(0, 1, n)
    km = rng.gamma(2, 1.5, n)
    hill = rng.gamma(2, 15, n)
    traffic = rng.uniform(0, 1, n)
    lane = rng.uniform(0, 1, n)
    rain = rng.poisson(8, n)
    motiv = rng.normal(0, 1, n)
    cyc = rng.binomial(1, expit(1.0 - 0.6 * (km - 3) - 0.02 * (hill - 30) - 1.5 * (traffic - 0.5)
                                + 2.0 * (lane - 0.5) - 0.05 * (rain - 8) + 0.8 * motiv - 0.3 * bmi))
    cate = np.clip(0.15 - 0.05 * bmi, 0.0, 0.35)
    p = np.clip(0.45 + cate * cyc + 0.1 * motiv - 0.08 * bmi + 0.02 * (age - 13.5), 0.02, 0.98)
    table(out / "school_route_cycling.csv", {
        "pupil": [f"PU{i:04d}" for i in range(n)], "age": age, "bmi_z": bmi, "route_km": km, "hill_m": hill,
        "traffic_idx": traffic, "lane_share": lane, "rain_days": rain, "cycles": cyc,
        "fitness_pass": rng.binomial(1, p), "true_cate": cate},
        {"age": ".1f", "bmi_z": ".2f", "route_km": ".2f", "hill_m": ".0f", "traffic_idx": ".3f", "lane_share": ".3f",
         "true_cate": ".4f"})


@writer
def bed_days(out: Path) -> None:
    """3,000 patients: forecast bed days next year against the realised bed days (Gaussian, R squared about 0.4;
    high is worse)."""
    rng = np.random.default_rng(27114)
    n = 3000
    truth = rng.normal(8, 3, n)
    pred = 8 + 0.6 * (truth - 8) + rng.normal(0, 2.2, n)
    table(out / "ward_bed_days_forecast.csv", {
        "patient": [f"VW{i:05d}" for i in range(n)], "predicted_days": pred, "bed_days_next_yr": truth},
        {"predicted_days": ".2f", "bed_days_next_yr": ".2f"})


@writer
def mentoring(out: Path) -> None:
    """Students offered peer mentoring: attending any session and completing the scheme are different groups
    (completion mostly among strong students); retention into second year rises with both."""
    rng = np.random.default_rng(27115)
    n = 500
    gpa = np.clip(rng.normal(3.0, 0.5, n), 0, 4)
    first = rng.binomial(1, 0.35, n)
    age = rng.integers(18, 30, n)
    att = rng.binomial(1, expit(0.2 + 0.5 * first - 0.3 * (gpa - 3)))
    comp = att * rng.binomial(1, expit(-0.5 + 1.5 * (gpa - 3)))
    ret = rng.binomial(1, expit(1.0 + 1.2 * (gpa - 3) - 0.4 * first + 0.3 * att + 0.5 * comp))
    table(out / "mentoring_scheme_outcomes.csv", {
        "student": [f"M{i:04d}" for i in range(n)], "gpa_prior": gpa, "first_gen": first, "age": age,
        "attended_any": att, "completed_programme": comp, "retained_y2": ret}, {"gpa_prior": ".2f"})


WARD = ["abbey", "brook", "castle", "dene", "elm"]
AGE3 = ["under_40", "40_64", "65_plus"]
AGREE = ["agree", "neutral", "disagree"]


@writer
def allotments(out: Path) -> None:
    """A residents' poll on allotment rents (older residents and two wards over-respond) and census margins of
    ward and age band from 2011 and from 2021 (the wards' shares shifted with new housing in brook and elm)."""
    rng = np.random.default_rng(27116)
    n = 600
    ward = rng.choice(WARD, n, p=[0.3, 0.1, 0.3, 0.2, 0.1])
    age = rng.choice(AGE3, n, p=[0.2, 0.35, 0.45])
    s = 0.5 * (age == "65_plus") - 0.3 * (age == "under_40")
    table(out / "allotment_residents_poll.csv", {
        "resident": [f"AL{i:04d}" for i in range(n)], "ward": ward, "age_band": age,
        "q_rent_rise": ordered(rng, -s, AGREE, (-0.3, 0.5)), "q_waiting_list": ordered(rng, s, AGREE, (-0.5, 0.4)),
        "q_new_sites": ordered(rng, 0.3 * (ward == "elm"), AGREE, (-0.6, 0.2))})
    for year, ws, ag in (("2011", [0.25, 0.15, 0.25, 0.2, 0.15], [0.45, 0.35, 0.20]),
                         ("2021", [0.2, 0.22, 0.2, 0.16, 0.22], [0.42, 0.35, 0.23])):
        table(out / f"ward_margins_{year}.csv", {
            "variable": ["ward"] * 5 + ["age_band"] * 3, "level": WARD + AGE3, "share": ws + ag}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ chains

@writer
def quake_chain(out: Path) -> None:
    """A Metropolis chain of an earthquake source inversion (focal depth, moment magnitude, stress drop, corner
    frequency), 2,000 rows with a plain '#' header, settling from a poor start over about 150 rows."""
    rng = np.random.default_rng(27117)
    centre = np.array([12.5, 5.8, 3.2, 1.4])
    sd = np.array([1.5, 0.08, 0.8, 0.2])
    x = ar_chain(rng, 2000, centre, sd, np.array([25.0, 5.3, 9.0, 0.5]), 150.0, rho=0.6)
    (out / "quake_source_chain.txt").write_text(
        "# depth_km mw stress_drop_mpa corner_hz\n"
        + "".join(f"{r[0]:.4f} {r[1]:.4f} {r[2]:.4f} {r[3]:.4f}\n" for r in x))


@writer
def lizard_chains(out: Path) -> None:
    """Two chains of a demographic model (log10 effective size, migration rate, split time in kya), 1,500 rows
    each, started from opposite ends and settling over about 60 rows."""
    rng = np.random.default_rng(27118)
    centre = np.array([4.1, 0.012, 38.0])
    sd = np.array([0.15, 0.004, 6.0])
    for tag, start in (("a", [5.5, 0.05, 90.0]), ("b", [3.0, 0.001, 10.0])):
        x = ar_chain(rng, 1500, centre, sd, np.array(start), 60.0, rho=0.5)
        (out / f"lizard_demog_run_{tag}.txt").write_text(
            "# log10_ne mig_rate t_split_kya\n" + "".join(f"{r[0]:.4f} {r[1]:.6f} {r[2]:.3f}\n" for r in x))


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def joint_sn(out: Path) -> None:
    """120 distance moduli of a flat LCDM (Omega_m 0.315) out to z 1.4 for a joint fit with the CMB."""
    rng = np.random.default_rng(27119)
    n = 120
    z = np.sort(rng.uniform(0.015, 1.4, n))
    err = rng.uniform(0.09, 0.15, n)
    table(out / "joint_fit_sn_moduli.csv", {
        "z": z, "mu": distance_modulus(z, 0.315, h0=67.4) + rng.normal(0, err), "mu_err": err},
        {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def curvature_sn(out: Path) -> None:
    """60 distance moduli of a slightly closed LCDM (Omega_m 0.30, Omega_L 0.75) out to z 1.6 with a full
    covariance (diagonal errors of 0.04 to 0.07 mag plus a redshift-correlated floor of 0.01 mag)."""
    rng = np.random.default_rng(27120)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.6, n))
    err = rng.uniform(0.04, 0.07, n)
    cov = correlated_cov(z, err, 0.01, 0.5)
    mu = distance_modulus(z, 0.30, ode=0.75) + np.linalg.cholesky(cov) @ rng.normal(0, 1, n)
    table(out / "sn_curvature_moduli.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    write_covariance(out / "sn_curvature_covmat.txt", cov)


@writer
def lcparam(out: Path) -> None:
    """100 supernovae of a flat wCDM (Omega_m 0.30, w -0.9) in the CosmoMC lcparam layout: peak magnitudes mb =
    mu - 19.3 with errors, stretch and colour columns, zero covariances."""
    rng = np.random.default_rng(27121)
    n = 100
    z = np.sort(rng.uniform(0.015, 1.1, n))
    zhel = z + rng.normal(0, 0.0008, n)
    dmb = rng.uniform(0.10, 0.15, n)
    mb = distance_modulus(z, 0.30, w0=-0.9) - 19.3 + rng.normal(0, dmb)
    x1 = rng.normal(0, 1, n)
    col = rng.normal(0, 0.08, n)
    ra = rng.uniform(0, 360, n)
    dec = rng.uniform(-30, 10, n)
    lines = ["#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec "
             "biascor\n"]
    for i in range(n):
        lines.append(f"DF{i:03d} {z[i]:.5f} {zhel[i]:.5f} 0 {mb[i]:.4f} {dmb[i]:.4f} {x1[i]:.3f} 0.15 "
                     f"{col[i]:.4f} 0.03 10.0 0.1 0 0 0 1 {ra[i]:.4f} {dec[i]:.4f} 0\n")
    (out / "deep_field_lcparam.txt").write_text("".join(lines))


@writer
def sheet_sn(out: Path) -> None:
    """80 distance moduli of a flat LCDM (Omega_m 0.33) out to z 1.0 with the error column named sigma_mu."""
    rng = np.random.default_rng(27122)
    n = 80
    z = np.sort(rng.uniform(0.02, 1.0, n))
    err = rng.uniform(0.1, 0.18, n)
    table(out / "problem_sheet_moduli.csv", {
        "z": z, "mu": distance_modulus(z, 0.33) + rng.normal(0, err), "sigma_mu": err},
        {"z": ".4f", "mu": ".4f", "sigma_mu": ".3f"})


@writer
def fields_sn(out: Path) -> None:
    """40 distance moduli of a flat LCDM (Omega_m 0.31) and two covariances of them: statistical only (diagonal)
    and statistical plus a redshift-correlated systematic floor of 0.03 mag."""
    rng = np.random.default_rng(27123)
    n = 40
    z = np.sort(rng.uniform(0.03, 1.2, n))
    err = rng.uniform(0.1, 0.15, n)
    full = correlated_cov(z, err, 0.03, 0.3)
    mu = distance_modulus(z, 0.31) + np.linalg.cholesky(full) @ rng.normal(0, 1, n)
    table(out / "sn_fields_moduli.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    write_covariance(out / "sn_fields_cov_stat.txt", np.diag(err ** 2))
    write_covariance(out / "sn_fields_cov_statsys.txt", full)


@writer
def bao(out: Path) -> None:
    """Seven BAO distance ratios D_V/r_d of a flat LCDM (Omega_m 0.31, H0 67.7, r_d 147 Mpc) with 1-3% errors."""
    rng = np.random.default_rng(27124)
    z = np.array([0.15, 0.38, 0.51, 0.70, 0.85, 1.48, 2.33])
    om, h0, rd = 0.31, 67.7, 147.0
    dm = 10 ** ((distance_modulus(z, om, h0=h0) - 25) / 5) / (1 + z)
    hz = h0 * np.sqrt(om * (1 + z) ** 3 + 1 - om)
    dv = (z * dm ** 2 * 299792.458 / hz) ** (1 / 3) / rd
    err = dv * rng.uniform(0.01, 0.03, z.size)
    table(out / "bao_dv_over_rd.csv", {"z_eff": z, "dv_over_rd": dv + rng.normal(0, err), "dv_over_rd_err": err},
          {"z_eff": ".2f", "dv_over_rd": ".3f", "dv_over_rd_err": ".3f"})


# ------------------------------------------------------------------------------------------------ lm

NEEDLES = [
    ("Actually, Oren once slept in a room that looked straight out onto the Charles Bridge.",
     "Which character has been to Prague?", "Oren"),
    ("Tamsin admitted she had never tasted anything like the pastries sold below the Alhambra.",
     "Which character has been to Granada?", "Tamsin"),
    ("Years ago, Idris sketched the white sails of the Opera House from the deck of a ferry.",
     "Which character has been to Sydney?", "Idris"),
    ("Noor still keeps the ticket stub from the little train up to Christ the Redeemer.",
     "Which character has been to Rio de Janeiro?", "Noor"),
    ("Before the war, Anselm painted the Golden Pavilion at dawn, reflected in its pond.",
     "Which character has been to Kyoto?", "Anselm"),
    ("Pilar lost her umbrella somewhere inside the Hermitage and never went back for it.",
     "Which character has been to Saint Petersburg?", "Pilar"),
]


@writer
def needles(out: Path) -> None:
    """Six needles written for a travel assistant: a character linked to a city only through a landmark."""
    table(out / "travel_app_needles.csv", {
        "needle": [n[0] for n in NEEDLES], "question": [n[1] for n in NEEDLES], "answer": [n[2] for n in NEEDLES]})


@writer
def stockroom(out: Path) -> None:
    """1,200 stock-count prompts 'BxS+L=' (B boxes of S items and L loose items) and the true count B*S+L."""
    rng = np.random.default_rng(27125)
    n = 1200
    size = rng.choice([6, 8, 10, 12, 24], n)
    boxes = rng.integers(0, 20, n)
    loose = np.array([rng.integers(0, s) for s in size])
    table(out / "stockroom_count_prompts.csv", {
        "query": [f"{b}x{s}+{ls}=" for b, s, ls in zip(boxes, size, loose, strict=True)],
        "units": boxes * size + loose})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def meteorites(out: Path) -> None:
    """Bulk oxide chemistry (wt%) of 500 stones: chondrites (1) richer in MgO and FeO and poorer in SiO2, Al2O3
    and CaO than achondrites (0), with overlap."""
    rng = np.random.default_rng(27126)
    n = 500
    ch = rng.random(n) < 0.6
    sio2 = np.where(ch, rng.normal(37, 2.5, n), rng.normal(45, 4, n))
    mgo = np.where(ch, rng.normal(23, 2.5, n), rng.normal(14, 6, n))
    feo = np.where(ch, rng.normal(25, 4, n), rng.normal(19, 5, n))
    al = np.where(ch, rng.normal(2.4, 0.5, n), rng.normal(7, 4, n)).clip(0.1)
    cao = np.where(ch, rng.normal(1.9, 0.4, n), rng.normal(6, 3, n)).clip(0.1)
    table(out / "meteorite_oxide_chem.csv", {
        "sio2_wt": sio2, "mgo_wt": mgo, "feo_wt": feo, "al2o3_wt": al, "cao_wt": cao, "chondrite": ch},
        {k: ".2f" for k in ("sio2_wt", "mgo_wt", "feo_wt", "al2o3_wt", "cao_wt")})


@writer
def seismic(out: Path) -> None:
    """600 events, six spectral-ratio features; quarry blasts (y 1, about 40%) shifted along one direction of the
    feature space, with overlap. Arrays X, y."""
    rng = np.random.default_rng(27127)
    n = 600
    y = (rng.random(n) < 0.4).astype(np.int64)
    x = rng.normal(0, 1, (n, 6)) + np.outer(y, np.array([0.9, -0.6, 0.4, 0.0, 0.7, -0.3]))
    npz(out / "event_spectral_ratios.npz", {"X": npy_bytes(x), "y": npy_bytes(y, "<i8")})


@writer
def ignitions(out: Path) -> None:
    """700 fires: utility-caused ignitions (1) are nearer power lines, in strong wind and dry fuel; distance to a
    power line is correlated with distance to a road and with housing density."""
    rng = np.random.default_rng(27128)
    n = 700
    road = rng.gamma(2, 1.5, n)
    power = 0.6 * road + rng.gamma(1.5, 1.0, n)
    house = np.exp(2 - 0.3 * road + rng.normal(0, 0.5, n))
    wind = rng.gamma(4, 6, n)
    fuel = rng.normal(12, 4, n)
    slope = rng.gamma(2, 5, n)
    p = expit(-0.8 - 0.35 * (power - 3.3) + 0.04 * (wind - 24) - 0.15 * (fuel - 12) - 0.1 * (road - 3))
    table(out / "ignition_cause_features.csv", {
        "powerline_km": power, "wind_kph": wind, "road_km": road, "fuel_moisture": fuel, "slope_deg": slope,
        "housing_density": house, "utility_caused": rng.binomial(1, p)},
        {"powerline_km": ".3f", "wind_kph": ".1f", "road_km": ".3f", "fuel_moisture": ".1f", "slope_deg": ".1f",
         "housing_density": ".2f"})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def pumps(out: Path) -> None:
    """200 borehole pumps: Weibull times to failure shortened by vibration and duty cycle, censored at the end of
    observation."""
    rng = np.random.default_rng(27129)
    n = 200
    vib = rng.gamma(3, 1.2, n)
    duty = rng.uniform(0.3, 0.95, n)
    scale = 30000 * np.exp(-0.25 * (vib - 3.6) - 1.2 * (duty - 0.6))
    t = scale * rng.weibull(1.4, n)
    cens = rng.uniform(5000, 40000, n)
    table(out / "pump_runtime_failures.csv", {
        "pump": [f"BH{i:03d}" for i in range(n)], "runtime_h": np.minimum(t, cens), "failed": t <= cens,
        "vibration_mm_s": vib, "duty_cycle": duty}, {"runtime_h": ".0f", "vibration_mm_s": ".2f", "duty_cycle": ".2f"})


@writer
def vaccine_trials(out: Path) -> None:
    """14 trials' log risk ratios of confirmed influenza (true pooled log RR -0.35, between-trial sd 0.15)."""
    rng = np.random.default_rng(27130)
    k = 14
    se = rng.uniform(0.1, 0.4, k)
    table(out / "vaccine_trial_effects.csv", {
        "trial": [f"T{i + 1:02d}" for i in range(k)], "season": [f"{2004 + i}/{(5 + i) % 100:02d}" for i in range(k)],
        "log_rr": -0.35 + rng.normal(0, 0.15, k) + rng.normal(0, se), "se": se}, {"log_rr": ".3f", "se": ".3f"})


@writer
def newts(out: Path) -> None:
    """Capture histories of 150 marked newts over seven visits (survival 0.85 for females, 0.75 for males per
    interval, recapture 0.5)."""
    rng = np.random.default_rng(27131)
    n = 150
    sex = rng.choice(["F", "M"], n)
    hist = []
    for s in sex:
        first = int(rng.integers(0, 4))
        alive, h = True, ["0"] * 7
        h[first] = "1"
        for v in range(first + 1, 7):
            alive = alive and rng.random() < (0.85 if s == "F" else 0.75)
            h[v] = "1" if alive and rng.random() < 0.5 else "0"
        hist.append("".join(h))
    table(out / "newt_capture_histories.csv", {"newt": [f"N{i:03d}" for i in range(n)], "sex": sex, "history": hist})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
