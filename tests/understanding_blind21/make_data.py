"""Write every data file of the twenty-first blind prose task set, deterministically.

``python tests/understanding_blind21/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
def cover_crops(out: Path) -> None:
    """Arable fields, a CSV without a header row (field id, cover crop 0/1, slope %, winter rain mm, clay %,
    soil loss t/ha): cover crops went to steeper, wetter fields and cut the soil loss by about 2.5 t/ha."""
    rng = np.random.default_rng(21101)
    n = 480
    slope = rng.gamma(2, 3, n)
    rain = rng.normal(420, 80, n)
    clay = rng.uniform(8, 45, n)
    cover = rng.binomial(1, expit(0.15 * (slope - 6) + 0.006 * (rain - 420)))
    loss = np.clip(6 + 0.8 * (slope - 6) + 0.012 * (rain - 420) - 0.05 * (clay - 25) - 2.5 * cover
                   + rng.normal(0, 1.8, n), 0.05, None)
    table(out / "winter_fields_noheader.csv", {
        "field": [f"F{i:04d}" for i in range(n)], "cover": cover, "slope": slope, "rain": rain, "clay": clay,
        "loss": loss}, {"slope": ".2f", "rain": ".0f", "clay": ".1f", "loss": ".2f"}, header=False)


@writer
def physio_minutes(out: Path) -> None:
    """Stroke rehabilitation: daily physiotherapy minutes (continuous) were higher for younger patients with a
    milder stroke (NIHSS); each extra minute adds about 0.12 kg of grip strength at discharge."""
    rng = np.random.default_rng(21102)
    n = 380
    age = rng.uniform(45, 92, n)
    nihss = rng.integers(1, 22, n)
    weeks = rng.integers(2, 10, n)
    minutes = np.clip(45 - 0.3 * (age - 70) - 0.9 * (nihss - 10) + rng.normal(0, 10, n), 5, None)
    grip = 4 + 0.12 * minutes - 0.08 * (age - 70) - 0.25 * (nihss - 10) + 0.3 * weeks + rng.normal(0, 2.2, n)
    table(out / "rehab_ward_minutes.csv", {
        "patient": [f"R{i:04d}" for i in range(n)], "physio_min_day": minutes, "age_yr": age, "nihss": nihss,
        "weeks_on_ward": weeks, "grip_gain_kg": grip},
        {"physio_min_day": ".1f", "age_yr": ".0f", "grip_gain_kg": ".2f"})


@writer
def microgrids(out: Path) -> None:
    """Villages: a solar microgrid (binary) went to villages that look denser and nearer a road in a 24-d
    satellite-tile embedding (an .npy); it raises the school attendance rate by about 6 points."""
    rng = np.random.default_rng(21103)
    n = 320
    latent = rng.normal(size=(n, 3))
    emb = latent @ (rng.normal(size=(3, 24)) / 1.7) + 0.3 * rng.normal(size=(n, 24))
    hh = rng.integers(40, 600, n)
    dist = rng.gamma(2, 8, n)
    grid = rng.binomial(1, expit(0.8 * latent[:, 0] - 0.4 * latent[:, 1] - 0.03 * (dist - 16)))
    att = np.clip(70 + 6 * grid + 4 * latent[:, 0] - 2 * latent[:, 1] - 0.2 * (dist - 16) + rng.normal(0, 5, n),
                  0, 100)
    table(out / "village_microgrid_schools.csv", {
        "village": [f"V{i:03d}" for i in range(n)], "microgrid": grid, "households": hh, "km_to_town": dist,
        "attendance_pct": att}, {"km_to_town": ".1f", "attendance_pct": ".1f"})
    array(out / "village_satellite_tiles_vec.npy", emb)


NOTES = {  # what a food-safety officer writes about a kitchen (1 poor, 0 middling, -1 good)
    1: ["raw chicken stored above salads in the walk-in", "no hot water at the hand basin",
        "mouse droppings behind the dry store shelving"],
    0: ["probe thermometer not calibrated this month", "cleaning schedule filled in only sporadically",
        "some chopping boards scored and worn"],
    -1: ["fridge logs complete and temperatures fine", "staff trained, allergen matrix on the wall",
         "kitchen spotless, good separation of raw and cooked"],
}
NOTE_EXTRAS = ["Owner present.", "Busy lunch service.", "New chef since spring.", "Takeaway counter only.",
               "Family run.", "Shares a yard with the bakery."]


@writer
def cafe_visits(out: Path) -> None:
    """Cafes: an advisory visit (binary) went to kitchens whose officer's note describes poor practice (visible
    only in the note); a visit raises the next hygiene score by about 6 points (of 100)."""
    rng = np.random.default_rng(21104)
    n = 260
    seats = rng.integers(8, 90, n)
    years = rng.integers(0, 30, n)
    notes, visit, score = [], [], []
    for i in range(n):
        d = int(rng.integers(-1, 2))
        notes.append(f"{rng.choice(NOTES[d])}. {rng.choice(NOTE_EXTRAS)}")
        v = int(rng.random() < expit(1.5 * d + 0.01 * (seats[i] - 45)))
        visit.append(v)
        score.append(72 + 6 * v - 8 * d + 0.1 * (years[i] - 15) + rng.normal(0, 5))
    table(out / "cafe_kitchen_notes.csv", {
        "cafe": [f"K{i:03d}" for i in range(n)], "advisory_visit": visit, "seats": seats, "years_trading": years,
        "officer_note": notes, "next_score": score}, {"next_score": ".1f"})


# ------------------------------------------------------------------------------------------------ surveys

OXALIC = ["support", "neutral", "oppose"]
REGIST = ["yes", "unsure", "no"]
REGIONS = ["upland", "lowland", "coastal"]
APIARY = ["1-5", "6-20", "21+"]


@writer
def beekeepers(out: Path) -> None:
    """Beekeepers asked about a mandatory oxalic-acid winter treatment and a hive register, on two forms whose
    wording of the treatment question differs (form B names the mite losses first); large apiaries answered
    more. Margins of region and apiary size, and a chatbot's answer shares for both questions."""
    rng = np.random.default_rng(21105)
    n = 600
    region = rng.choice(REGIONS, n, p=[0.25, 0.5, 0.25])
    size = rng.choice(APIARY, n, p=[0.35, 0.4, 0.25])
    form = rng.choice(["A", "B"], n)
    s1 = 0.6 * (form == "B") + 0.4 * (size == "21+") - 0.3 * (region == "upland")
    s2 = -0.5 * (size == "1-5") + 0.3 * (region == "coastal")
    table(out / "apiary_treatment_forms.csv", {
        "id": np.arange(1, n + 1), "region": region, "apiary_size": size, "form": form,
        "q_oxalic": ordered(rng, s1, OXALIC, (-0.3, 0.6)), "q_register": ordered(rng, s2, REGIST, (-0.6, 0.4))})
    margins = [("region", "upland", 0.30), ("region", "lowland", 0.45), ("region", "coastal", 0.25),
               ("apiary_size", "1-5", 0.62), ("apiary_size", "6-20", 0.28), ("apiary_size", "21+", 0.10)]
    table(out / "registered_keepers_margins.csv", {"variable": [m[0] for m in margins],
                                                   "level": [m[1] for m in margins],
                                                   "share": [m[2] for m in margins]}, {"share": ".2f"})
    rows = [("q_oxalic", a, s) for a, s in zip(OXALIC, (0.5, 0.3, 0.2), strict=True)]
    rows += [("q_register", a, s) for a, s in zip(REGIST, (0.6, 0.25, 0.15), strict=True)]
    table(out / "assistant_keeper_shares.csv", {"question": [r[0] for r in rows], "answer": [r[1] for r in rows],
                                                "share": [r[2] for r in rows]}, {"share": ".2f"})


DIM = ["dim_after_midnight", "keep_as_is", "switch_off"]
AGE_BANDS = ["18-34", "35-59", "60+"]
TOWNS = ["harbour", "valley", "moor"]


@writer
def dark_sky(out: Path) -> None:
    """Residents asked twice, two weeks apart, whether street lights should be dimmed after midnight; design
    weights from the address sampling; older moor residents answered more. A reference sample of the county's
    adults (age band, town) without weights."""
    rng = np.random.default_rng(21106)
    n = 520
    age = rng.choice(AGE_BANDS, n, p=[0.2, 0.35, 0.45])
    town = rng.choice(TOWNS, n, p=[0.3, 0.3, 0.4])
    score = 0.5 * (town == "moor") - 0.4 * (age == "18-34")
    first = ordered(rng, score, DIM, (-0.5, 0.5))
    again = [a if rng.random() < 0.75 else str(rng.choice(DIM)) for a in first]
    table(out / "dimming_panel_twice.csv", {
        "resp": np.arange(1, n + 1), "age_band": age, "town": town, "dw": rng.uniform(0.6, 2.2, n),
        "q_dim_lights": first, "q_dim_lights_retest": again}, {"dw": ".3f"})
    m = 450
    table(out / "county_adults_sample.csv", {"age_band": rng.choice(AGE_BANDS, m, p=[0.32, 0.42, 0.26]),
                                             "town": rng.choice(TOWNS, m, p=[0.45, 0.35, 0.2])})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def tunnel_boring(out: Path) -> None:
    """Tunnel-boring machine telemetry as an .npz (X, y): per ring of advance, thrust, torque, penetration,
    cutter wear and two pressures; about 5% are jams (y = 1) with high torque and low penetration."""
    rng = np.random.default_rng(21107)
    n = 1400
    bad = rng.random(n) < 0.05
    x = np.column_stack([
        rng.normal(18, 2, n) + 3 * bad, rng.normal(4.2, 0.5, n) + 1.4 * bad, rng.gamma(6, 2, n) - 5 * bad,
        rng.uniform(0, 1, n), rng.normal(2.5, 0.3, n) + 0.3 * bad, rng.normal(1.1, 0.2, n)])
    npz(out / "tbm_ring_telemetry.npz", {"X": npy_bytes(x), "y": npy_bytes(bad.astype(np.int64), "<i8")})


@writer
def rack_power(out: Path) -> None:
    """Data-centre rack power readings, one row per rack-hour, no labels; about 2% are failing-fan hours
    (inlet temperature and current up, fan tachometer down)."""
    rng = np.random.default_rng(21108)
    n = 950
    bad = rng.random(n) < 0.02
    table(out / "rack_pdu_hours.csv", {
        "inlet_c": rng.normal(24, 1.2, n) + 5 * bad, "amps_a": rng.normal(11, 1.5, n) + 2.5 * bad,
        "amps_b": rng.normal(11, 1.5, n), "fan_rpm": rng.normal(9000, 400, n) - 2500 * bad,
        "cpu_util": rng.beta(3, 3, n)},
        {"inlet_c": ".2f", "amps_a": ".2f", "amps_b": ".2f", "fan_rpm": ".0f", "cpu_util": ".3f"})


@writer
def cable_hits(out: Path) -> None:
    """Acoustic-emission hits on a bridge's stay cables; about 5% are wire breaks (high energy, long duration,
    many counts). Engineers marked some hits: 1 a confirmed break, 0 confirmed noise, blank unreviewed."""
    rng = np.random.default_rng(21109)
    n = 1000
    bad = rng.random(n) < 0.05
    seen = np.where(bad, rng.random(n) < 0.45, rng.random(n) < 0.2)
    mark = ["1" if b and s else "0" if s else "" for b, s in zip(bad, seen, strict=True)]
    table(out / "stay_cable_ae_hits.csv", {
        "amplitude_db": rng.normal(55, 6, n) + 18 * bad, "duration_us": rng.gamma(3, 200, n) + 1500 * bad,
        "counts": rng.poisson(20 + 80 * bad), "rise_us": rng.gamma(2, 30, n), "temp_c": rng.normal(12, 6, n),
        "engineer_flag": mark}, {"amplitude_db": ".1f", "duration_us": ".0f", "rise_us": ".0f", "temp_c": ".1f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def sea_ice(out: Path) -> None:
    """SAR backscatter of ocean pixels: sea ice (ice = 1) against open water from HH, HV, their ratio,
    incidence angle and a texture measure, with wind-roughened water overlapping the ice."""
    rng = np.random.default_rng(21110)
    n = 560
    ice = rng.random(n) < 0.5
    wind = rng.random(n) < 0.25
    hh = rng.normal(np.where(ice, -14, -20), 2.5) + 5 * (wind & ~ice)
    hv = rng.normal(np.where(ice, -24, -29), 2.0) + 2 * (wind & ~ice)
    table(out / "sar_pixels_ice_water.csv", {
        "hh_db": hh, "hv_db": hv, "ratio_db": hh - hv, "incidence_deg": rng.uniform(20, 45, n),
        "glcm_entropy": rng.normal(np.where(ice, 5.6, 5.0), 0.5), "ice": ice.astype(int)},
        {"hh_db": ".2f", "hv_db": ".2f", "ratio_db": ".2f", "incidence_deg": ".1f", "glcm_entropy": ".3f"})


@writer
def reef_surveys(out: Path) -> None:
    """Reef transects: bleaching seen (bleached = 1) driven by degree heating weeks and depth; tourist visits
    matter hardly at all but correlate with how near the transect is to the harbour."""
    rng = np.random.default_rng(21111)
    n = 650
    dhw = rng.gamma(2, 2, n)
    depth = rng.uniform(1, 25, n)
    harbour = rng.gamma(2, 5, n)
    visits = np.clip(200 - 8 * harbour + rng.normal(0, 30, n), 0, None)
    turb = rng.gamma(3, 1, n)
    logit = -2 + 0.55 * dhw - 0.08 * (depth - 12) + 0.001 * visits + 0.1 * turb
    table(out / "reef_transect_bleaching.csv", {
        "dhw": dhw, "depth_m": depth, "harbour_km": harbour, "tourist_visits": visits, "turbidity_ntu": turb,
        "bleached": rng.binomial(1, expit(logit))},
        {"dhw": ".2f", "depth_m": ".1f", "harbour_km": ".1f", "tourist_visits": ".0f", "turbidity_ntu": ".2f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def curved_mock(out: Path) -> None:
    """130 distance moduli of a closed LCDM mock: Omega_m 0.30, Omega_de 0.76, H0 70."""
    rng = np.random.default_rng(21112)
    n = 130
    z = np.sort(rng.uniform(0.02, 1.6, n))
    err = rng.uniform(0.09, 0.15, n)
    mu = distance_modulus(z, 0.30, ode=0.76) + rng.normal(0, err)
    table(out / "drilling_field_mu_curved.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def evolving_de(out: Path) -> None:
    """70 peak magnitudes of a flat w0wa mock (Omega_m 0.31, w0 -0.9, wa -0.3, M -19.25 at H0 70) and their
    covariance (count line first)."""
    rng = np.random.default_rng(21113)
    n = 70
    z = np.sort(rng.uniform(0.015, 1.2, n))
    err = rng.uniform(0.07, 0.12, n)
    cov = correlated_cov(z, err, 0.025, 0.4)
    mb = distance_modulus(z, 0.31, w0=-0.9, wa=-0.3) - 19.25 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "rolling_search_mb.csv", {"z": z, "mb": mb, "mb_err": err},
          {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})
    write_covariance(out / "rolling_search_mb_cov.txt", cov)


@writer
def anchor_mu(out: Path) -> None:
    """60 distance moduli of a flat wCDM sample (Omega_m 0.31, w -1.05, H0 67.5), diagonal errors only."""
    rng = np.random.default_rng(21114)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.0, n))
    err = rng.uniform(0.1, 0.16, n)
    mu = distance_modulus(z, 0.31, w0=-1.05, h0=67.5) + rng.normal(0, err)
    table(out / "calan_like_mu_diag.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def lya_chain(out: Path) -> None:
    """A CosmoSIS-style chain (header '#section--name', then weight and post) of a BAO fit: omega_m, h0,
    sigma_8 (1,500 rows), settling over the first tenth."""
    rng = np.random.default_rng(21115)
    n = 1500
    centre = np.array([0.302, 0.681, 0.80])
    sd = np.array([0.012, 0.009, 0.04])
    x = ar_chain(rng, n, centre, sd, np.array([0.36, 0.72, 0.95]), 40.0)
    post = -0.5 * np.sum(((x - centre) / sd) ** 2, axis=1)
    lines = ["#cosmological_parameters--omega_m\tcosmological_parameters--h0\tcosmological_parameters--sigma_8"
             "\tpost\tweight"]
    lines += [f"{r[0]:.5f}\t{r[1]:.5f}\t{r[2]:.4f}\t{p:.3f}\t1" for r, p in zip(x, post, strict=True)]
    (out / "lya_bao_cosmosis_chain.txt").write_text("\n".join(lines) + "\n")


@writer
def cluster_chains(out: Path) -> None:
    """Three chains of one cluster-count fit (Omega_m, sigma8, alpha_mass) run with three seeds from different
    starts."""
    rng = np.random.default_rng(21116)
    centre = np.array([0.29, 0.81, 1.35])
    sd = np.array([0.02, 0.025, 0.06])
    starts = {"a": np.array([0.36, 0.72, 1.6]), "b": np.array([0.22, 0.9, 1.1]), "c": np.array([0.3, 0.85, 1.5])}
    for tag, start in starts.items():
        x = ar_chain(rng, 800, centre, sd, start, 45.0)
        (out / f"cluster_counts_run_{tag}.txt").write_text(
            "# Omega_m sigma8 alpha_mass\n" + "".join(f"{r[0]:.5f} {r[1]:.5f} {r[2]:.4f}\n" for r in x))


# ------------------------------------------------------------------------------------------------ bayes

LENS_DENSITY = '''"""Unnormalised log posterior of a source position behind a ring-shaped lens (an Einstein ring)."""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    """A ring of radius 1.6 and width 0.15, brighter towards positive x."""
    r = torch.sqrt(z[:, 0] ** 2 + z[:, 1] ** 2 + 1e-12)
    return -0.5 * ((r - 1.6) / 0.15) ** 2 + 0.8 * z[:, 0] / r
'''


@writer
def lens_ring(out: Path) -> None:
    """A Python file defining log_prob for a two-dimensional ring-shaped posterior."""
    (out / "einstein_ring_logpost.py").write_text(LENS_DENSITY)


@writer
def smolt_lengths(out: Path) -> None:
    """Fork lengths of 48 salmon smolts from a trap, in cm from the river's long-term mean length: two age
    classes, about 2 cm below and 2 cm above it, each with a spread of about 1 cm."""
    rng = np.random.default_rng(21118)
    n = 48
    age2 = rng.random(n) < 0.5
    length = rng.normal(np.where(age2, 2.1, -1.9), 1.0)
    table(out / "smolt_trap_fork_cm.csv", {"fork_dev_cm": length}, {"fork_dev_cm": ".2f"})


@writer
def espresso(out: Path) -> None:
    """60 espresso shots: extraction yield against grind setting, dose and water temperature (smooth, peaked in
    grind)."""
    rng = np.random.default_rng(21119)
    n = 60
    grind = rng.uniform(5, 25, n)
    dose = rng.uniform(16, 21, n)
    temp = rng.uniform(88, 96, n)
    yld = 17 + 4 * np.exp(-0.5 * ((grind - 13) / 4) ** 2) - 0.3 * (dose - 18.5) + 0.25 * (temp - 92) \
        + rng.normal(0, 0.4, n)
    table(out / "espresso_shot_log.csv", {"grind_setting": grind, "dose_g": dose, "water_c": temp,
                                          "extraction_pct": yld},
          {"grind_setting": ".1f", "dose_g": ".1f", "water_c": ".1f", "extraction_pct": ".2f"})


@writer
def ice_halo(out: Path) -> None:
    """Scattered intensity of a hexagonal ice crystal against the unit direction of the incoming light (x, y,
    z in the crystal frame): invariant under a sixth of a turn about the c-axis (z) and the mirror z -> -z."""
    rng = np.random.default_rng(21120)
    n = 420
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    phi = np.arctan2(v[:, 1], v[:, 0])
    inten = 2 + 1.5 * v[:, 2] ** 2 + 0.6 * (1 - v[:, 2] ** 2) ** 3 * np.cos(6 * phi) + rng.normal(0, 0.15, n)
    table(out / "hex_plate_scatter.csv", {"x": v[:, 0], "y": v[:, 1], "z": v[:, 2], "intensity": inten},
          {"x": ".6f", "y": ".6f", "z": ".6f", "intensity": ".4f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def joinery(out: Path) -> None:
    """Apprentice joiners: practice hours raise the joint-quality score, both raise the theory exam mark;
    certification follows all three; age does not matter but cannot change."""
    rng = np.random.default_rng(21121)
    n = 300
    age = rng.integers(16, 30, n)
    practice = rng.gamma(4, 60, n)
    joint = np.clip(30 + 0.12 * practice + rng.normal(0, 8, n), 0, 100)
    exam = np.clip(35 + 0.04 * practice + 0.3 * joint + rng.normal(0, 9, n), 0, 100)
    cert = rng.binomial(1, expit(0.004 * (practice - 240) + 0.06 * (joint - 59) + 0.05 * (exam - 62)))
    table(out / "apprentice_joiners.csv", {"apprentice": [f"AJ{i:03d}" for i in range(n)], "age_yr": age,
                                           "practice_hours": practice, "joint_score": joint, "exam_pct": exam,
                                           "certified": cert},
          {"practice_hours": ".0f", "joint_score": ".1f", "exam_pct": ".1f"})


@writer
def orchestra(out: Path) -> None:
    """Adults offered a place in a community orchestra: joining (binary) depends on unseen motivation and on
    the distance to the rehearsal hall, the bus line and a lottery rank (the instruments); a wellbeing score
    0 to 35 a year later."""
    rng = np.random.default_rng(21122)
    n = 480
    age = rng.uniform(25, 80, n)
    dist = rng.gamma(2, 3, n)
    bus = rng.binomial(1, 0.5, n)
    lottery = rng.uniform(0, 1, n)
    u = rng.normal(size=n)
    join = rng.binomial(1, expit(0.8 - 0.25 * dist + 0.9 * bus - 1.5 * (lottery - 0.5) + 0.8 * u))
    wb = np.clip(np.round(22 + 2.5 * join + 0.03 * (age - 50) + 2 * u + rng.normal(0, 3, n)), 0, 35)
    table(out / "orchestra_offer_wellbeing.csv", {
        "person": [f"OR{i:04d}" for i in range(n)], "joined": join, "age_yr": age, "hall_km": dist,
        "bus_line": bus, "lottery_rank": lottery, "wellbeing": wb.astype(int)},
        {"age_yr": ".0f", "hall_km": ".2f", "lottery_rank": ".3f"})


@writer
def food_bank(out: Path) -> None:
    """Households: a predicted food-insecurity risk and the insecurity score measured later (higher is worse),
    correlated at about R^2 0.3."""
    rng = np.random.default_rng(21123)
    n = 900
    truth = rng.normal(0, 1, n)
    pred = 0.55 * truth + rng.normal(0, 0.83, n)
    table(out / "household_risk_followup.csv", {"household": [f"HH{i:04d}" for i in range(n)],
                                                "predicted_risk": 50 + 10 * pred,
                                                "insecurity_score": 50 + 10 * truth},
          {"predicted_risk": ".2f", "insecurity_score": ".2f"})


# ------------------------------------------------------------------------------------------------ lm

def roman(v: int) -> str:
    out = ""
    for value, sym in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                       (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while v >= value:
            out, v = out + sym, v - value
    return out


@writer
def numerals(out: Path) -> None:
    """Roman numerals from 1 to 1999 (a random 1,200 of them) with their values."""
    rng = np.random.default_rng(21124)
    vals = rng.choice(np.arange(1, 2000), 1200, replace=False)
    table(out / "roman_numeral_pairs.csv", {"numeral": [roman(int(v)) for v in vals], "value": vals})


SHIP_WORDS = {
    "who": ["The mate", "The cook", "The bosun", "The captain", "A deckhand", "The carpenter", "The lookout"],
    "did": ["logged", "noted", "reported", "complained of", "mended", "sighted", "measured"],
    "what": ["a freshening breeze from the south-west", "a sprung plank near the bow", "heavy swell on the beam",
             "a shoal of flying fish", "the barometer falling slowly", "tar for the rigging",
             "a sail on the horizon", "fog banks to leeward", "the water casks half full"],
    "when": ["at the change of watch", "before dawn", "after the noon sight", "during the dog watch",
             "as the wind backed", "at two bells"],
}


@writer
def ship_log(out: Path) -> None:
    """A long plain-text haystack: a sailing ship's log generated from short word lists (about 14,000 words)."""
    rng = np.random.default_rng(21125)
    lines = []
    for day in range(1, 81):
        lines.append(f"Day {day}.")
        for _ in range(int(rng.integers(12, 18))):
            lines.append(" ".join(str(rng.choice(SHIP_WORDS[k])) for k in ("who", "did", "what", "when")) + ".")
    (out / "clipper_voyage_log.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ near misses

@writer
def genotypes(out: Path) -> None:
    """Genotype counts at four SNP loci of a vole population (AA, Aa, aa)."""
    rows = [("rs1", 212, 195, 41), ("rs2", 130, 240, 78), ("rs3", 301, 120, 27), ("rs4", 98, 205, 145)]
    table(out / "vole_snp_genotypes.csv", {"locus": [r[0] for r in rows], "AA": [r[1] for r in rows],
                                           "Aa": [r[2] for r in rows], "aa": [r[3] for r in rows]})


@writer
def ceramic(out: Path) -> None:
    """Four-point bend strength (MPa) of 40 alumina bars (Weibull, modulus about 11, scale 380 MPa)."""
    rng = np.random.default_rng(21127)
    s = 380 * rng.weibull(11, 40)
    table(out / "alumina_bar_strength.csv", {"bar": [f"B{i:02d}" for i in range(40)], "strength_mpa": s},
          {"strength_mpa": ".1f"})


@writer
def enzyme(out: Path) -> None:
    """Initial rates of an esterase at eight substrate concentrations, triplicates (Vmax 42, Km 0.8 mM)."""
    rng = np.random.default_rng(21128)
    conc = np.repeat([0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0], 3)
    rate = 42 * conc / (0.8 + conc) * (1 + rng.normal(0, 0.04, conc.size))
    table(out / "esterase_initial_rates.csv", {"substrate_mm": conc, "rate_umol_min": rate},
          {"rate_umol_min": ".2f"})


@writer
def tide_gauge(out: Path) -> None:
    """Hourly sea level at a harbour over 60 days: M2, S2, K1 and O1 constituents plus noise."""
    rng = np.random.default_rng(21129)
    t = np.arange(0, 60 * 24, 1.0)
    h = 2.1 + 1.3 * np.cos(2 * np.pi * t / 12.4206 - 0.4) + 0.45 * np.cos(2 * np.pi * t / 12.0 - 1.1) \
        + 0.2 * np.cos(2 * np.pi * t / 23.9345 - 2.0) + 0.15 * np.cos(2 * np.pi * t / 25.8193 + 0.5) \
        + rng.normal(0, 0.05, t.size)
    table(out / "harbour_hourly_level.csv", {"hour": t, "level_m": h}, {"hour": ".0f", "level_m": ".3f"})


# ------------------------------------------------------------------------------------------------ asks

@writer
def two_programmes(out: Path) -> None:
    """Warehouse staff: two training programmes (forklift refresher, manual-handling course) taken by
    overlapping groups; picking errors a quarter later."""
    rng = np.random.default_rng(21130)
    n = 450
    tenure = rng.gamma(2, 2, n)
    shift = rng.binomial(1, 0.4, n)
    fork = rng.binomial(1, expit(0.2 * (tenure - 4)))
    manual = rng.binomial(1, expit(-0.3 + 0.8 * shift))
    errs = np.clip(12 - 2 * fork - 1 * manual - 0.4 * (tenure - 4) + 1.5 * shift + rng.normal(0, 2.5, n), 0, None)
    table(out / "warehouse_training_errors.csv", {
        "worker": [f"W{i:03d}" for i in range(n)], "forklift_refresher": fork, "manual_handling": manual,
        "tenure_yr": tenure, "night_shift": shift, "pick_errors": errs},
        {"tenure_yr": ".1f", "pick_errors": ".1f"})


@writer
def two_models_chains(out: Path) -> None:
    """Two chains of different models from the same lensing fit: LCDM (Omega_m, S8) and wCDM (Omega_m, S8, w)."""
    rng = np.random.default_rng(21131)
    x = ar_chain(rng, 700, np.array([0.31, 0.78]), np.array([0.02, 0.02]), np.array([0.35, 0.85]), 30.0)
    (out / "lensing_run_lcdm.txt").write_text(
        "# Omega_m S8\n" + "".join(f"{r[0]:.5f} {r[1]:.5f}\n" for r in x))
    y = ar_chain(rng, 700, np.array([0.30, 0.77, -0.95]), np.array([0.025, 0.022, 0.1]),
                 np.array([0.35, 0.85, -0.7]), 30.0)
    (out / "lensing_run_wcdm.txt").write_text(
        "# Omega_m S8 w\n" + "".join(f"{r[0]:.5f} {r[1]:.5f} {r[2]:.4f}\n" for r in y))


@writer
def grain_classifier(out: Path) -> None:
    """Grain lots: moisture, protein, test weight, falling number and a 0/1 'accepted' label from the mill."""
    rng = np.random.default_rng(21132)
    n = 400
    moist = rng.normal(14, 1.2, n)
    prot = rng.normal(12, 1.1, n)
    tw = rng.normal(76, 3, n)
    fn = rng.normal(300, 60, n)
    acc = rng.binomial(1, expit(-0.8 * (moist - 14) + 0.6 * (prot - 12) + 0.2 * (tw - 76) + 0.01 * (fn - 300)))
    table(out / "mill_grain_lots.csv", {"moisture_pct": moist, "protein_pct": prot, "test_weight_kg_hl": tw,
                                        "falling_number_s": fn, "accepted": acc},
          {"moisture_pct": ".2f", "protein_pct": ".2f", "test_weight_kg_hl": ".1f", "falling_number_s": ".0f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
