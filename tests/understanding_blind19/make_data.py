"""Write every data file of the nineteenth blind prose task set, deterministically.

``python tests/understanding_blind19/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
    write_covariance,
)

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def maize_sensors(out: Path) -> None:
    """Smallholder maize plots: soil-moisture sensors (binary) went to larger, flatter plots in drier places; a
    sensor adds about 0.6 t/ha to the yield."""
    rng = np.random.default_rng(19101)
    n = 500
    plot = rng.gamma(3, 0.6, n)
    rain = rng.uniform(450, 1100, n)
    slope = rng.gamma(2, 3, n)
    sensor = rng.binomial(1, expit(0.6 * (plot - 1.8) - 0.004 * (rain - 775) - 0.08 * (slope - 6)))
    yld = 3.2 + 0.6 * sensor + 0.25 * np.log(plot) + 0.002 * (rain - 775) - 0.05 * (slope - 6) \
        + rng.normal(0, 0.6, n)
    table(out / "soil_moisture_sensor_farms.csv", {
        "farm": [f"F{i:04d}" for i in range(n)], "sensor": sensor, "plot_ha": plot, "rain_mm": rain,
        "slope_pct": slope, "maize_t_ha": yld},
        {"plot_ha": ".2f", "rain_mm": ".0f", "slope_pct": ".1f", "maize_t_ha": ".2f"})


@writer
def bike_lanes(out: Path) -> None:
    """Residents: kilometres of protected bike lane within 2 km of home (continuous) are longer for younger,
    car-free residents living near work; every kilometre adds about 12 minutes of cycling a week."""
    rng = np.random.default_rng(19102)
    n = 450
    age = rng.uniform(18, 75, n)
    car = rng.binomial(1, 0.55, n)
    dist = rng.gamma(2.5, 3, n)
    lane = np.clip(3 - 0.03 * (age - 45) - 0.8 * car - 0.08 * (dist - 7.5) + rng.normal(0, 1.2, n), 0, None)
    minutes = np.clip(60 + 12 * lane - 0.8 * (age - 45) - 25 * car - 2 * (dist - 7.5) + rng.normal(0, 20, n), 0,
                      None)
    table(out / "lane_km_commuters.csv", {
        "resident": [f"C{i:04d}" for i in range(n)], "lane_km": lane, "age_yr": age, "car_owner": car,
        "dist_work_km": dist, "cycle_min_wk": minutes},
        {"lane_km": ".2f", "age_yr": ".0f", "dist_work_km": ".1f", "cycle_min_wk": ".0f"})


NOTES = {  # what a pharmacist notes about a patient's inhaler technique (1 poor, 0 fair, -1 good)
    1: ["could not show the inhaler technique, sprays before breathing in", "says they forget doses most days",
        "confused about which inhaler is the preventer"],
    0: ["technique mostly fine, rushes the breath hold", "misses the odd evening dose",
        "uses a spacer at home but not at work"],
    -1: ["textbook technique, rinses mouth afterwards", "keeps a dose diary and never misses",
         "knows exactly when to use the reliever"],
}
NOTE_EXTRAS = ["Came with a carer.", "Asked about the flu jab.", "Prefers a phone follow-up.",
               "Works shifts.", "Has a pet cat.", "Collected a repeat prescription."]


@writer
def inhaler_counselling(out: Path) -> None:
    """Asthma patients: a counselling session (binary) was offered where the pharmacist's note describes poor
    technique (visible only in the note); counselling raises adherence by about 9 percentage points."""
    rng = np.random.default_rng(19103)
    n = 260
    age = rng.uniform(16, 85, n)
    meds = rng.integers(1, 9, n)
    notes, counsel, adh = [], [], []
    for i in range(n):
        d = int(rng.integers(-1, 2))
        notes.append(f"{rng.choice(NOTES[d])}. {rng.choice(NOTE_EXTRAS)}")
        c = int(rng.random() < expit(1.3 * d + 0.1 * (meds[i] - 4)))
        counsel.append(c)
        adh.append(np.clip(70 + 9 * c - 12 * d + 0.1 * (age[i] - 50) - 1.0 * (meds[i] - 4) + rng.normal(0, 8), 0,
                           100))
    table(out / "inhaler_counselling_visits.csv", {
        "patient": [f"A{i:03d}" for i in range(n)], "counselled": counsel, "age_yr": age, "n_meds": meds,
        "pharmacist_note": notes, "adherence_pct": adh}, {"age_yr": ".0f", "adherence_pct": ".1f"})


@writer
def wetlands(out: Path) -> None:
    """Wetland sites: restoration (binary) went to sites that look wetter and more open in a 24-d embedding of
    aerial tiles, and to larger ones; restoration adds about 35 waterbirds per count."""
    rng = np.random.default_rng(19104)
    n = 240
    latent = rng.normal(size=(n, 3))
    emb = latent @ (rng.normal(size=(3, 24)) / 2) + 0.3 * rng.normal(size=(n, 24))
    area = rng.gamma(3, 8, n)
    river = rng.uniform(0.1, 12, n)
    restored = rng.binomial(1, expit(0.9 * latent[:, 0] + 0.03 * (area - 24)))
    birds = np.clip(120 + 35 * restored + 25 * latent[:, 0] - 10 * latent[:, 2] + 1.2 * (area - 24)
                    - 3 * (river - 6) + rng.normal(0, 18, n), 0, None)
    table(out / "wetland_sites.csv", {
        "site": [f"W{i:03d}" for i in range(n)], "restored": restored, "area_ha": area, "dist_river_km": river,
        "waterbird_count": birds}, {"area_ha": ".1f", "dist_river_km": ".2f", "waterbird_count": ".0f"})
    array(out / "wetland_aerial_embed.npy", emb)


# ------------------------------------------------------------------------------------------------ surveys

FOURDAY = ["support", "unsure", "oppose"]
AGE_BANDS = ["18-34", "35-54", "55+"]


@writer
def fourday_poll(out: Path) -> None:
    """Workers asked about a four-day week on two question forms (A plain, B mentioning a pay cut) and asked the
    same again a fortnight later; the young and women answered more. A reference sample of the labour force
    (age band and sex) and a model's answer shares."""
    rng = np.random.default_rng(19105)
    n = 700
    age = rng.choice(AGE_BANDS, n, p=[0.45, 0.35, 0.2])
    sex = rng.choice(["female", "male"], n, p=[0.6, 0.4])
    form = rng.choice(["A", "B"], n)
    score = 0.6 * (age == "18-34") - 0.4 * (age == "55+") + 0.2 * (sex == "female") - 1.3 * (form == "B")
    first = ordered(rng, score, FOURDAY, (-0.6, 0.6))
    again = [a if rng.random() < 0.8 else str(rng.choice(FOURDAY)) for a in first]
    table(out / "fourday_week_poll.csv", {
        "resp": np.arange(1, n + 1), "form": form, "age_band": age, "sex": sex, "q_fourday": first,
        "q_fourday_retest": again})
    m = 600
    table(out / "labour_force_reference.csv", {
        "age_band": rng.choice(AGE_BANDS, m, p=[0.3, 0.38, 0.32]), "sex": rng.choice(["female", "male"], m,
                                                                                    p=[0.48, 0.52])})
    table(out / "fourday_model_shares.csv", {"question": ["q_fourday"] * 3, "answer": FOURDAY,
                                             "share": [0.62, 0.23, 0.15]}, {"share": ".2f"})


HOURS = ["extend", "keep", "shorten"]


@writer
def library_users(out: Path) -> None:
    """Library members asked about opening hours, drawn with unequal probabilities (base_wt is the inverse); a
    model's sampled answers to the same question, one row per sampled answer."""
    rng = np.random.default_rng(19106)
    n = 420
    branch = rng.choice(["central", "north", "east"], n, p=[0.5, 0.3, 0.2])
    wt = np.where(branch == "central", 0.8, np.where(branch == "north", 1.4, 2.1)) * rng.uniform(0.9, 1.1, n)
    hours = ordered(rng, 0.5 * (branch == "central"), HOURS, (-0.3, 0.9))
    table(out / "library_members_survey.csv", {"member": np.arange(1, n + 1), "branch": branch, "base_wt": wt,
                                               "q_opening_hours": hours}, {"base_wt": ".3f"})
    draws = rng.choice(HOURS, 60, p=[0.5, 0.4, 0.1])
    table(out / "library_model_draws.csv", {"question": ["q_opening_hours"] * 60, "answer": draws})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def gearbox_scada(out: Path) -> None:
    """Wind-turbine gearbox summaries per ten-minute window; 3% are faulty (fault = 1): hotter oil and bearing,
    more vibration at a given power."""
    rng = np.random.default_rng(19107)
    n = 1400
    bad = rng.random(n) < 0.03
    power = rng.uniform(0.1, 2.0, n)
    table(out / "turbine_gearbox_scada.csv", {
        "power_mw": power, "oil_temp_c": 45 + 8 * power + rng.normal(0, 2, n) + 3 * bad,
        "bearing_temp_c": 50 + 10 * power + rng.normal(0, 2.5, n) + 3.5 * bad,
        "vib_rms_mm_s": rng.gamma(3, 0.5, n) + 0.8 * bad, "rotor_rpm": 8 + 6 * power + rng.normal(0, 0.5, n),
        "fault": bad.astype(int)},
        {"power_mw": ".3f", "oil_temp_c": ".2f", "bearing_temp_c": ".2f", "vib_rms_mm_s": ".3f", "rotor_rpm": ".2f"})


@writer
def beehives(out: Path) -> None:
    """Hive scale and sensor summaries per day with no labels; about 4% of days are swarm or robbing events (a
    sudden weight drop, loud and warm)."""
    rng = np.random.default_rng(19108)
    n = 900
    bad = rng.random(n) < 0.04
    table(out / "hive_scale_days.csv", {
        "weight_change_kg": rng.normal(0.2, 0.4, n) - 2.2 * bad, "brood_temp_c": rng.normal(34.8, 0.4, n) + 1.2 * bad,
        "sound_db": rng.normal(48, 3, n) + 8 * bad, "humidity_pct": rng.uniform(45, 75, n),
        "outside_temp_c": rng.uniform(5, 30, n)},
        {"weight_change_kg": ".2f", "brood_temp_c": ".2f", "sound_db": ".1f", "humidity_pct": ".1f",
         "outside_temp_c": ".1f"})


@writer
def ship_engines(out: Path) -> None:
    """Main-engine monitoring summaries of a fleet; about 5% of voyages had an engine problem (hot exhaust spread,
    low scavenge pressure, high lube consumption). Surveyors marked some: 1 a confirmed problem, 0 confirmed
    sound, blank not surveyed."""
    rng = np.random.default_rng(19109)
    n = 1000
    bad = rng.random(n) < 0.05
    checked = np.where(bad, rng.random(n) < 0.55, rng.random(n) < 0.2)
    flag = ["1" if b and c else "0" if c else "" for b, c in zip(bad, checked, strict=True)]
    table(out / "vessel_engine_voyages.csv", {
        "exh_spread_c": np.abs(rng.normal(0, 12, n)) + 25 * bad, "scav_bar": rng.normal(2.4, 0.15, n) - 0.35 * bad,
        "lube_l_day": rng.gamma(5, 8, n) + 25 * bad, "load_pct": rng.uniform(40, 95, n),
        "sea_state": rng.integers(1, 7, n), "surveyor_flag": flag},
        {"exh_spread_c": ".1f", "scav_bar": ".3f", "lube_l_day": ".1f", "load_pct": ".1f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def pollen_grains(out: Path) -> None:
    """Pollen grain shape measurements from a sediment core: birch (is_birch = 1) against hazel; the types overlap
    in size but differ in pore protrusion and outline."""
    rng = np.random.default_rng(19110)
    n = 600
    birch = rng.random(n) < 0.5
    table(out / "core_pollen_grains.csv", {
        "diameter_um": rng.normal(np.where(birch, 23, 25), 2.2), "pore_protrusion_um": rng.gamma(np.where(birch, 6, 3),
                                                                                              0.35),
        "roundness": rng.beta(np.where(birch, 8, 14), 3), "exine_um": rng.normal(np.where(birch, 1.4, 1.2), 0.2),
        "is_birch": birch.astype(int)},
        {"diameter_um": ".2f", "pore_protrusion_um": ".3f", "roundness": ".3f", "exine_um": ".3f"})


@writer
def germination(out: Path) -> None:
    """Seed germination trials (germinated = 1) against soil pH, temperature, moisture, sowing depth and a seed
    coating that works partly through moisture retention."""
    rng = np.random.default_rng(19111)
    n = 700
    coated = rng.binomial(1, 0.5, n)
    ph = rng.normal(6.5, 0.6, n)
    temp = rng.uniform(8, 28, n)
    moist = np.clip(rng.normal(22, 6, n) + 3 * coated, 5, 45)
    depth = rng.uniform(5, 40, n)
    logit = 0.4 - 0.8 * np.abs(ph - 6.5) + 0.08 * (temp - 18) + 0.06 * (moist - 22) - 0.04 * (depth - 20) \
        + 0.3 * coated
    table(out / "seed_germination_trials.csv", {
        "soil_ph": ph, "temp_c": temp, "moisture_pct": moist, "depth_mm": depth, "coated": coated,
        "germinated": rng.binomial(1, expit(logit))},
        {"soil_ph": ".2f", "temp_c": ".1f", "moisture_pct": ".1f", "depth_mm": ".0f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def curved_mock(out: Path) -> None:
    """120 distance moduli of a mock with curvature: Omega_m 0.30, Omega_de 0.65 (open), H0 70."""
    rng = np.random.default_rng(19112)
    n = 120
    z = np.sort(rng.uniform(0.02, 1.6, n))
    err = rng.uniform(0.09, 0.16, n)
    mu = distance_modulus(z, 0.30, ode=0.65) + rng.normal(0, err)
    table(out / "curvature_mock_moduli.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def thawing_mock(out: Path) -> None:
    """60 peak magnitudes (M -19.3 at H0 70) of a survey forecast with thawing dark energy (Omega_m 0.31, w0 -0.9,
    wa -0.4) and their covariance with its count line."""
    rng = np.random.default_rng(19113)
    n = 60
    z = np.sort(rng.uniform(0.05, 1.8, n))
    err = rng.uniform(0.03, 0.06, n)
    cov = correlated_cov(z, err, 0.015, 0.4)
    mb = distance_modulus(z, 0.31, w0=-0.9, wa=-0.4) - 19.3 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "forecast_binned_mb.csv", {"z": z, "mb": mb, "mb_err": err}, {"z": ".4f", "mb": ".4f",
                                                                              "mb_err": ".3f"})
    write_covariance(out / "forecast_binned_cov.txt", cov)


@writer
def local_sn(out: Path) -> None:
    """40 nearby peak magnitudes of a flat LCDM sample (Omega_m 0.31, H0 67.5, M -19.25), diagonal errors only,
    for a joint fit with the full Planck band powers."""
    rng = np.random.default_rng(19114)
    n = 40
    z = np.sort(rng.uniform(0.015, 0.7, n))
    err = rng.uniform(0.11, 0.15, n)
    mb = distance_modulus(z, 0.31, h0=67.5) - 19.25 + rng.normal(0, err)
    table(out / "nearby_hosts_peakmag.csv", {"z": z, "mb": mb, "mb_err": err}, {"z": ".4f", "mb": ".4f",
                                                                                "mb_err": ".3f"})


@writer
def bao_chain(out: Path) -> None:
    """A weighted chain (weight, minuslogpost, then omegabh2, omegach2, H0, sigma8; 1,500 rows) that settles over
    the first few per cent; weights are integer multiplicities."""
    rng = np.random.default_rng(19115)
    n = 1500
    centre = np.array([0.0224, 0.119, 68.1, 0.81])
    sd = np.array([0.0004, 0.002, 0.9, 0.015])
    x = ar_chain(rng, n, centre, sd, np.array([0.0235, 0.128, 64.0, 0.86]), 40.0)
    w = rng.integers(1, 5, n)
    mlp = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 512.3
    lines = ["# weight minuslogpost omegabh2 omegach2 H0 sigma8"]
    lines += [f"{wi} {m:.3f} {r[0]:.6f} {r[1]:.5f} {r[2]:.3f} {r[3]:.4f}" for wi, m, r in zip(w, mlp, x, strict=True)]
    (out / "bao_fullshape_chain.txt").write_text("\n".join(lines) + "\n")


@writer
def three_runs(out: Path) -> None:
    """Three plain-header chains of one supernova wCDM fit (Omega_m, w), 1,000 rows each, started apart and
    settling over the first tenth or so."""
    rng = np.random.default_rng(19116)
    centre = np.array([0.31, -0.98])
    sd = np.array([0.04, 0.09])
    for tag, start in (("north", [0.45, -0.7]), ("south", [0.18, -1.3]), ("west", [0.38, -1.2])):
        x = ar_chain(rng, 1000, centre, sd, np.array(start), 60.0, rho=0.7)
        lines = ["# Omega_m w"] + [f"{r[0]:.5f} {r[1]:.5f}" for r in x]
        (out / f"wfit_node_{tag}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ bayes

@writer
def otoliths(out: Path) -> None:
    """48 otolith growth-increment widths, already standardised within the reference year (width_z): two
    cohorts, centred near -1.3 and +1.6, with unit spread."""
    rng = np.random.default_rng(19117)
    n = 48
    which = rng.random(n) < 0.5
    z = np.where(which, -1.3, 1.6) + rng.normal(0, 1, n)
    table(out / "otolith_increments_z.csv", {"fish": [f"OT{i:02d}" for i in range(n)], "width_z": z},
          {"width_z": ".3f"})


@writer
def kiln(out: Path) -> None:
    """56 test tiles: firing shrinkage against peak temperature and hold time (smooth, saturating)."""
    rng = np.random.default_rng(19118)
    n = 56
    temp = rng.uniform(1000, 1300, n)
    hold = rng.uniform(0, 60, n)
    shrink = 2 + 9 * expit((temp - 1150) / 40) + 1.5 * (1 - np.exp(-hold / 20)) + rng.normal(0, 0.3, n)
    table(out / "kiln_tile_shrinkage.csv", {"tile": [f"T{i:02d}" for i in range(n)], "peak_temp_c": temp,
                                            "hold_min": hold, "shrink_pct": shrink},
          {"peak_temp_c": ".0f", "hold_min": ".0f", "shrink_pct": ".2f"})


@writer
def easy_axis(out: Path) -> None:
    """Anisotropy energy of a hexagonal ferrite against the magnetisation direction (unit vectors ux, uy, uz):
    invariant under sixfold rotation about z and under z -> -z; 400 directions."""
    rng = np.random.default_rng(19119)
    n = 400
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    phi = np.arctan2(v[:, 1], v[:, 0])
    s2 = 1 - v[:, 2] ** 2
    e = 1.2 * s2 - 0.4 * s2 ** 2 + 0.15 * s2 ** 3 * np.cos(6 * phi) + rng.normal(0, 0.03, n)
    table(out / "ferrite_anisotropy_dirs.csv", {"ux": v[:, 0], "uy": v[:, 1], "uz": v[:, 2], "energy_mj_m3": e},
          {"ux": ".9f", "uy": ".9f", "uz": ".9f", "energy_mj_m3": ".4f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def fellowships(out: Path) -> None:
    """Fellowship applicants: papers grow with years since the PhD, citations with papers; funded (1) follows
    papers and citations. Rows 0 and 4 are declined applicants with few papers and citations."""
    rng = np.random.default_rng(19120)
    n = 300
    years = rng.uniform(1, 10, n)
    papers = np.clip(2 + 1.5 * years + rng.normal(0, 2.5, n), 0, None)
    cites = np.clip(0.08 * papers + rng.gamma(2, 0.2, n), 0, None)
    funded = rng.binomial(1, expit(-3 + 0.25 * papers + 2.0 * cites))
    for i, (y, pa, c) in {0: (2.0, 3.0, 0.25), 4: (6.5, 6.0, 0.35)}.items():  # two applicants the panel declined
        years[i], papers[i], cites[i], funded[i] = y, pa, c, 0
    table(out / "fellowship_applicants.csv", {"applicant": [f"FA{i:03d}" for i in range(n)], "years_phd": years,
                                              "papers": papers, "citations_k": cites, "funded": funded},
          {"years_phd": ".1f", "papers": ".0f", "citations_k": ".2f"})


@writer
def physio(out: Path) -> None:
    """Injured workers: physiotherapy (binary) with unseen motivation; back at work within 90 days (0/1). Waiting
    times at three clinics shift uptake only."""
    rng = np.random.default_rng(19121)
    n = 500
    age = rng.uniform(20, 64, n)
    sev = rng.uniform(1, 5, n)
    waits = rng.gamma(3, 7, (n, 3))
    u = rng.normal(size=n)
    physio_ = rng.binomial(1, expit(-0.06 * (waits.min(axis=1) - 12) + 0.8 * u + 0.3 * (sev - 3)))
    back = rng.binomial(1, expit(0.5 + 0.9 * physio_ - 0.5 * (sev - 3) - 0.02 * (age - 42) + 0.7 * u))
    table(out / "physio_return_to_work.csv", {
        "worker": [f"PW{i:04d}" for i in range(n)], "physio": physio_, "age_yr": age, "injury_sev": sev,
        "wait_a": waits[:, 0], "wait_b": waits[:, 1], "wait_c": waits[:, 2], "back_90d": back},
        {"age_yr": ".0f", "injury_sev": ".1f", "wait_a": ".0f", "wait_b": ".0f", "wait_c": ".0f"})


@writer
def food_parcels(out: Path) -> None:
    """Households: a hunger-risk score and the days without a meal recorded a year later (higher is worse); the
    score explains about a third of the variance."""
    rng = np.random.default_rng(19122)
    n = 900
    latent = rng.normal(size=n)
    table(out / "household_hunger_scores.csv", {
        "household": [f"HH{i:04d}" for i in range(n)], "risk_score": 50 + 10 * latent + rng.normal(0, 5, n),
        "hunger_days": np.clip(6 + 3 * latent + rng.normal(0, 4.2, n), 0, None)},
        {"risk_score": ".1f", "hunger_days": ".1f"})


# ------------------------------------------------------------------------------------------------ lm

PORTS = ["Kestrel Quay", "the north mole", "the fish market", "the lifeboat slip", "the grain silo", "the ferry ramp"]
BOATS = ["Morning Gull", "Sea Lantern", "Brave Tern", "Old Maggie", "Silver Wake", "Dunlin", "Grey Heron"]
ACTS = ["came in on the flood tide with a light catch", "waited outside the bar for the swell to ease",
        "took on diesel and two crates of ice", "reported nets fouled on the wreck buoy",
        "was moved to make room for the dredger", "sailed before dawn in thick fog",
        "needed a tow after the engine overheated", "landed crab pots for repair"]
WEATHER = ["Wind backing south-west, force four.", "Drizzle all morning, visibility poor.",
           "Bright and cold, a long swell from the north.", "Calm at slack water, freshening later.",
           "Squalls through the afternoon.", "Fog lifting by noon."]


@writer
def harbour_log(out: Path) -> None:
    """A harbour master's logbook written from templates (about 4,000 words) to serve as the haystack."""
    rng = np.random.default_rng(19123)
    days = []
    for d in range(160):
        lines = [f"Day {d + 1}. {rng.choice(WEATHER)}"]
        for _ in range(2):
            lines.append(f"The {rng.choice(BOATS)} {rng.choice(ACTS)} at {rng.choice(PORTS)}.")
        days.append(" ".join(lines))
    (out / "harbour_master_logbook.txt").write_text("\n\n".join(days) + "\n")


@writer
def recipe_scaling(out: Path) -> None:
    """400 prompts asking for grams of an ingredient for a number of portions, with the numeric answer."""
    rng = np.random.default_rng(19124)
    items = ["flour", "sugar", "butter", "rice", "oats", "lentils"]
    q, g = [], []
    for _ in range(400):
        portions = int(rng.integers(2, 13))
        per = int(rng.integers(15, 96))
        q.append(f"{portions} portions of {rng.choice(items)} at {per} g each")
        g.append(portions * per)
    table(out / "portion_gram_prompts.csv", {"question": q, "grams": g})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def genotypes(out: Path) -> None:
    """Genotype counts at one SNP in four populations, near Hardy-Weinberg proportions except one with a deficit
    of heterozygotes."""
    rows = [("coast", 212, 305, 118), ("valley", 140, 226, 95), ("upland", 98, 96, 61), ("island", 55, 82, 31)]
    table(out / "snp_genotype_counts.csv", {"population": [r[0] for r in rows], "AA": [r[1] for r in rows],
                                            "Aa": [r[2] for r in rows], "aa": [r[3] for r in rows]})


@writer
def discharge(out: Path) -> None:
    """Monthly mean discharge of a river over 18 years: a snowmelt peak in May, a slight downward trend."""
    rng = np.random.default_rng(19126)
    months = np.arange(18 * 12)
    q = 80 + 60 * np.exp(-0.5 * (((months % 12) - 4) / 1.3) ** 2) - 0.05 * months + rng.normal(0, 8, months.size)
    table(out / "river_monthly_discharge.csv", {"year": 2006 + months // 12, "month": months % 12 + 1,
                                                "q_m3_s": q}, {"q_m3_s": ".1f"})


@writer
def aphids(out: Path) -> None:
    """Aphid mortality at six insecticide concentrations, four replicate leaf discs of 20 aphids each (LC50 about
    3 mg/L)."""
    rng = np.random.default_rng(19127)
    conc = np.repeat([0.3, 1, 2, 4, 8, 16], 4)
    p = expit(2.2 * (np.log(conc) - np.log(3.0)))
    table(out / "aphid_leaf_disc_mortality.csv", {"conc_mg_l": conc, "n_aphids": np.full(conc.size, 20),
                                                  "dead": rng.binomial(20, p)}, {"conc_mg_l": ".1f"})


@writer
def ice_out(out: Path) -> None:
    """Day of year the ice left a lake, 1975-2024: earlier by about 0.2 days a year."""
    rng = np.random.default_rng(19128)
    years = np.arange(1975, 2025)
    doy = np.round(118 - 0.2 * (years - 1975) + rng.normal(0, 6, years.size))
    table(out / "lake_ice_out_doy.csv", {"year": years, "ice_out_doy": doy.astype(int)})


# ------------------------------------------------------------------------------------------------ asks

@writer
def two_sn_versions(out: Path) -> None:
    """One supernova sample reduced twice (March and June pipeline runs) with zero points that differ by survey
    half; which run carries the corrected zero points is not said in the files."""
    rng = np.random.default_rng(19129)
    n = 70
    z = np.sort(rng.uniform(0.02, 1.2, n))
    err = rng.uniform(0.1, 0.15, n)
    mu = distance_modulus(z, 0.3) + rng.normal(0, err)
    for tag, shift in (("march", 0.04), ("june", -0.02)):
        table(out / f"sn_pipeline_{tag}.csv", {"z": z, "mu": mu + shift * (z > 0.5), "mu_err": err},
              {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def childcare(out: Path) -> None:
    """Mothers offered a childcare voucher (voucher_offered) and those who used one (voucher_used), with weekly
    hours worked: the two columns give different answers."""
    rng = np.random.default_rng(19130)
    n = 600
    kids = rng.integers(1, 4, n)
    age = rng.uniform(22, 45, n)
    offered = rng.binomial(1, 0.5, n)
    used = offered * rng.binomial(1, expit(1 - 0.4 * (kids - 2)))
    hours = np.clip(20 + 5 * used - 3 * (kids - 2) + 0.2 * (age - 33) + rng.normal(0, 7, n), 0, 48)
    table(out / "childcare_voucher_panel.csv", {
        "mother": [f"M{i:04d}" for i in range(n)], "voucher_offered": offered, "voucher_used": used, "children": kids,
        "age_yr": age, "hours_wk": hours}, {"age_yr": ".0f", "hours_wk": ".1f"})


@writer
def two_chains(out: Path) -> None:
    """Two chains from different runs: one of flat LCDM (Omega_m, H0) and one of wCDM (Omega_m, w, H0)."""
    rng = np.random.default_rng(19131)
    a = ar_chain(rng, 600, np.array([0.31, 68.0]), np.array([0.02, 1.0]), np.array([0.35, 66.0]), 30.0)
    b = ar_chain(rng, 600, np.array([0.30, -0.95, 67.5]), np.array([0.03, 0.08, 1.4]),
                 np.array([0.36, -0.8, 65.0]), 30.0)
    (out / "chain_run_0412.txt").write_text("# Omega_m H0\n" + "".join(f"{r[0]:.5f} {r[1]:.3f}\n" for r in a))
    (out / "chain_run_0419.txt").write_text("# Omega_m w H0\n"
                                            + "".join(f"{r[0]:.5f} {r[1]:.5f} {r[2]:.3f}\n" for r in b))


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
