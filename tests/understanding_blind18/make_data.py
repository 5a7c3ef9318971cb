"""Write every data file of the eighteenth blind prose task set, deterministically.

``python tests/understanding_blind18/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
def dairy_robots(out: Path) -> None:
    """Dairy farms, written with no header row (farm, robot, herd size, mean parity, grazing days, milk): milking
    robots (binary) went to larger herds with younger cows that graze less; a robot adds about 1.8 kg of milk per
    cow per day."""
    rng = np.random.default_rng(18101)
    n = 1200
    herd = rng.gamma(4, 30, n)
    parity = rng.uniform(1.8, 3.6, n)
    grazing = rng.uniform(60, 240, n)
    robot = rng.binomial(1, expit(0.01 * (herd - 120) - 0.5 * (parity - 2.7) - 0.006 * (grazing - 150)))
    milk = 26 + 1.8 * robot + 0.02 * (herd - 120) - 1.5 * (parity - 2.7) - 0.02 * (grazing - 150) \
        + rng.normal(0, 2.5, n)
    table(out / "dairy_robot_herds.csv", {
        "farm": [f"D{i:04d}" for i in range(n)], "robot": robot, "herd": herd, "parity": parity,
        "grazing": grazing, "milk": milk},
        {"herd": ".0f", "parity": ".2f", "grazing": ".0f", "milk": ".2f"}, header=False)


@writer
def maths_tutoring(out: Path) -> None:
    """Pupils: hours of small-group maths tutoring a week (continuous) went to pupils with lower prior scores and
    to those on free school meals; every hour adds about 2.5 points to the end-of-year score."""
    rng = np.random.default_rng(18102)
    n = 400
    prior = rng.normal(50, 12, n)
    fsm = rng.binomial(1, 0.25, n)
    attend = rng.uniform(75, 100, n)
    hours = np.clip(3 - 0.05 * (prior - 50) + 0.8 * fsm + 0.03 * (attend - 90) + rng.normal(0, 1, n), 0, 8)
    score = 40 + 2.5 * hours + 0.7 * (prior - 50) - 3 * fsm + 0.3 * (attend - 90) + rng.normal(0, 6, n)
    table(out / "maths_tutoring_hours.csv", {
        "pupil": [f"P{i:04d}" for i in range(n)], "tutor_hours_wk": hours, "prior_score": prior, "fsm": fsm,
        "attendance_pct": attend, "maths_score": score},
        {"tutor_hours_wk": ".1f", "prior_score": ".0f", "attendance_pct": ".1f", "maths_score": ".1f"})


DRAUGHT = {  # what an inspector writes about how leaky a dwelling is (-1 tight, 0 middling, 1 leaky)
    1: ["single glazing, the wind whistles through the sash frames", "loft completely bare, no insulation at all",
        "gaps under the doors big enough to post a letter through"],
    0: ["some draught from the letterbox and the cat flap", "loft has a thin layer of old mineral wool",
        "double glazing fitted but the seals are tired"],
    -1: ["tight house, glazing replaced recently", "cavity already filled and a deep layer in the loft",
         "no noticeable draughts anywhere"],
}
VISIT_EXTRAS = ["Tenant asked about the boiler.", "Dog on site.", "Meter is in the cellar.",
                "Scaffolding on the house next door.", "Parking permit needed.", "Occupant works nights."]


@writer
def retrofits(out: Path) -> None:
    """Dwellings: an insulation retrofit (binary) was done where the inspector's remark describes a leaky house
    (visible only in the remark); retrofitted dwellings use about 35 kWh per square metre less heat a year."""
    rng = np.random.default_rng(18103)
    n = 300
    area = rng.gamma(6, 15, n)
    year = rng.integers(1890, 2005, n)
    remarks, retro, heat = [], [], []
    for i in range(n):
        d = int(rng.integers(-1, 2))
        remarks.append(f"{rng.choice(DRAUGHT[d])}. {rng.choice(VISIT_EXTRAS)}")
        r = int(rng.random() < expit(1.4 * d - 0.01 * (year[i] - 1950)))
        retro.append(r)
        heat.append(165 - 35 * r + 40 * d - 0.3 * (year[i] - 1950) - 0.2 * (area[i] - 90) + rng.normal(0, 18))
    table(out / "retrofit_inspections.csv", {
        "dwelling": [f"H{i:03d}" for i in range(n)], "retrofit": retro, "floor_area_m2": area, "build_year": year,
        "inspector_remark": remarks, "heat_kwh_m2": heat}, {"floor_area_m2": ".0f", "heat_kwh_m2": ".1f"})


@writer
def reef_transects(out: Path) -> None:
    """Reef transects: no-take protection (binary) was given to reefs that look structurally complex in a 32-d
    embedding of the transect photographs, and to shallower ones; protection raises fish biomass by about
    120 kg/ha. The embedding is an .npz with one array."""
    rng = np.random.default_rng(18104)
    n = 280
    latent = rng.normal(size=(n, 3))
    emb = latent @ (rng.normal(size=(3, 32)) / 2) + 0.3 * rng.normal(size=(n, 32))
    depth = rng.uniform(3, 20, n)
    exposure = rng.uniform(0, 1, n)
    no_take = rng.binomial(1, expit(0.8 * latent[:, 0] - 0.08 * (depth - 11)))
    biomass = 400 + 120 * no_take + 80 * latent[:, 0] - 30 * latent[:, 1] - 5 * (depth - 11) \
        - 40 * (exposure - 0.5) + rng.normal(0, 60, n)
    table(out / "reef_transects.csv", {
        "transect": [f"R{i:03d}" for i in range(n)], "no_take": no_take, "depth_m": depth, "wave_exposure": exposure,
        "fish_biomass_kg_ha": biomass}, {"depth_m": ".1f", "wave_exposure": ".2f", "fish_biomass_kg_ha": ".0f"})
    npz(out / "reef_photo_embed.npz", {"embedding": npy_bytes(emb)})


# ------------------------------------------------------------------------------------------------ surveys

TRUST = ["high", "some", "little"]
MANDATE = ["favour", "unsure", "against"]
REGIONS = ["capital", "cities", "rural"]
EDUCATION = ["low", "middle", "high"]


@writer
def vaccine_waves(out: Path) -> None:
    """Parents asked about vaccines in two waves (2022, 2024), with design weights; the capital and the highly
    educated are over-sampled and trust fell between the waves. Population margins of region and education and a
    model's answer shares as each education persona."""
    rng = np.random.default_rng(18105)
    n = 900
    wave = np.where(np.arange(n) < 450, 2022, 2024)
    region = rng.choice(REGIONS, n, p=[0.45, 0.35, 0.2])
    educ = rng.choice(EDUCATION, n, p=[0.2, 0.35, 0.45])
    score = 0.5 * (educ == "high") - 0.3 * (region == "rural") - 0.4 * (wave == 2024)
    trust = ordered(rng, score, TRUST, (-0.8, 0.6))
    mandate = ordered(rng, score + 0.2, MANDATE, (-0.7, 0.5))
    table(out / "parent_vaccine_waves.csv", {
        "resp": np.arange(1, n + 1), "wave": wave, "region": region, "education": educ,
        "design_wt": rng.uniform(0.5, 2.0, n), "q_trust_vaccines": trust, "q_school_mandate": mandate},
        {"design_wt": ".3f"})
    rows = [("region", a, s) for a, s in zip(REGIONS, (0.25, 0.40, 0.35), strict=True)]
    rows += [("education", a, s) for a, s in zip(EDUCATION, (0.35, 0.40, 0.25), strict=True)]
    table(out / "parent_population_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                                  "share": [r[2] for r in rows]}, {"share": ".2f"})
    shares = {("q_trust_vaccines", "low"): (0.5, 0.3, 0.2), ("q_trust_vaccines", "middle"): (0.6, 0.3, 0.1),
              ("q_trust_vaccines", "high"): (0.7, 0.25, 0.05), ("q_school_mandate", "low"): (0.4, 0.3, 0.3),
              ("q_school_mandate", "middle"): (0.5, 0.3, 0.2), ("q_school_mandate", "high"): (0.6, 0.25, 0.15)}
    q, a, s, g = [], [], [], []
    for (question, level), probs in shares.items():
        levels = TRUST if question == "q_trust_vaccines" else MANDATE
        for answer, p in zip(levels, probs, strict=True):
            q.append(question)
            a.append(answer)
            s.append(p)
            g.append(level)
    table(out / "assistant_persona_answers.csv", {"question": q, "answer": a, "share": s, "subgroup": g},
          {"share": ".2f"})


FARM_SIZE = ["small", "medium", "large"]
ZONES = ["uplands", "lowlands"]
STANCE = ["for", "undecided", "against"]


@writer
def drone_farmers(out: Path) -> None:
    """Farmers asked about spraying crops by drone: large lowland farms answered more and favour drones. A weighted
    reference sample of the agricultural census (farm size, zone, census_wt) and a model's answer shares to the drone
    question only."""
    rng = np.random.default_rng(18106)
    n = 500
    size = rng.choice(FARM_SIZE, n, p=[0.2, 0.35, 0.45])
    zone = rng.choice(ZONES, n, p=[0.3, 0.7])
    drone = ordered(rng, 0.6 * (size == "large") - 0.4 * (zone == "uplands"), STANCE, (-0.5, 0.5))
    buffer = ordered(rng, 0.3 * (zone == "uplands"), ["wider", "same", "narrower"], (-0.5, 0.8))
    table(out / "farmer_drone_poll.csv", {
        "farmer": np.arange(1, n + 1), "farm_size": size, "zone": zone, "q_drone_spraying": drone,
        "q_buffer_zones": buffer})
    m = 800
    table(out / "agri_census_extract.csv", {
        "farm_size": rng.choice(FARM_SIZE, m, p=[0.55, 0.3, 0.15]), "zone": rng.choice(ZONES, m, p=[0.45, 0.55]),
        "census_wt": rng.uniform(20, 80, m)}, {"census_wt": ".1f"})
    table(out / "drone_model_shares.csv", {"question": ["q_drone_spraying"] * 3, "answer": STANCE,
                                           "share": [0.55, 0.30, 0.15]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def rail_segments(out: Path) -> None:
    """Track-geometry segments from a recording car; about 4% are defective (larger gauge deviation and twist,
    harsher accelerations). Inspectors confirmed some: 1 a confirmed defect, 0 confirmed sound, blank unchecked."""
    rng = np.random.default_rng(18107)
    n = 1200
    bad = rng.random(n) < 0.04
    checked = np.where(bad, rng.random(n) < 0.6, rng.random(n) < 0.15)
    label = ["1" if b and c else "0" if c else "" for b, c in zip(bad, checked, strict=True)]
    table(out / "rail_track_segments.csv", {
        "gauge_dev_mm": np.abs(rng.normal(0, 2, n)) + 3 * bad, "twist_mm": np.abs(rng.normal(0, 3, n)) + 4 * bad,
        "cant_def_mm": rng.normal(0, 4, n), "vert_acc_g": rng.gamma(3, 0.05, n) + 0.15 * bad,
        "lat_acc_g": rng.gamma(3, 0.03, n) + 0.08 * bad, "inspected_defect": label},
        {"gauge_dev_mm": ".2f", "twist_mm": ".2f", "cant_def_mm": ".2f", "vert_acc_g": ".3f", "lat_acc_g": ".3f"})


@writer
def analyser_runs(out: Path) -> None:
    """Clinical-chemistry analyser runs (an .npz with X and y): 3% faulty runs (y = 1) drift in calibration slope,
    control recovery and cuvette temperature."""
    rng = np.random.default_rng(18108)
    n = 1500
    bad = rng.random(n) < 0.03
    x = np.column_stack([rng.normal(1.0, 0.02, n) + 0.04 * bad * rng.choice([-1, 1], n),
                         rng.normal(100, 3, n) - 6 * bad, rng.normal(37, 0.1, n) + 0.2 * bad,
                         rng.gamma(2, 1, n) + 2 * bad, rng.normal(0, 1, n), rng.uniform(0, 24, n)])
    npz(out / "chem_analyser_runs.npz", {"X": npy_bytes(x), "y": npy_bytes(bad.astype(np.int64), "<i8")})


@writer
def guider_nights(out: Path) -> None:
    """Telescope autoguider summaries per night; about 6% of nights had bad guiding (bad_guiding = 1): larger rms
    error and peak excursion, somewhat windier, otherwise like the rest."""
    rng = np.random.default_rng(18109)
    n = 900
    bad = rng.random(n) < 0.06
    table(out / "autoguider_nightly.csv", {
        "rms_arcsec": rng.gamma(4, 0.08, n) + 0.15 * bad, "peak_err_arcsec": rng.gamma(3, 0.3, n) + 0.6 * bad,
        "wind_ms": rng.gamma(2, 3, n) + 2.5 * bad, "seeing_arcsec": rng.gamma(6, 0.15, n),
        "airmass": 1 + rng.gamma(1.5, 0.2, n), "guide_star_mag": rng.uniform(9, 15, n),
        "bad_guiding": bad.astype(int)},
        {"rms_arcsec": ".3f", "peak_err_arcsec": ".3f", "wind_ms": ".1f", "seeing_arcsec": ".2f", "airmass": ".3f",
         "guide_star_mag": ".2f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def warbler_songs(out: Path) -> None:
    """Song phrases of two leaf warblers (is_chiffchaff = 1 against willow warbler), separable nonlinearly in peak
    frequency, bandwidth, note rate and phrase length."""
    rng = np.random.default_rng(18110)
    n = 520
    cc = rng.random(n) < 0.5
    table(out / "leaf_warbler_phrases.csv", {
        "peak_freq_khz": rng.normal(np.where(cc, 4.8, 4.2), 0.45), "bandwidth_khz": rng.gamma(np.where(cc, 4, 9), 0.3),
        "note_rate_hz": rng.normal(np.where(cc, 2.5, 11), np.where(cc, 0.6, 2.5)),
        "phrase_s": rng.gamma(np.where(cc, 8, 5), np.where(cc, 0.5, 0.45)), "is_chiffchaff": cc.astype(int)},
        {"peak_freq_khz": ".2f", "bandwidth_khz": ".2f", "note_rate_hz": ".2f", "phrase_s": ".2f"})


@writer
def asteroid_colours(out: Path) -> None:
    """Asteroid colours (u-g, g-r, r-i, i-z) of C-types (y = 0) and S-types (y = 1), an .npz with X and y; the
    types overlap a little."""
    rng = np.random.default_rng(18111)
    n = 700
    s_type = rng.random(n) < 0.55
    x = np.column_stack([rng.normal(np.where(s_type, 1.85, 1.55), 0.15), rng.normal(np.where(s_type, 0.62, 0.42), 0.08),
                         rng.normal(np.where(s_type, 0.18, 0.12), 0.06), rng.normal(np.where(s_type, -0.1, 0.02), 0.08)])
    npz(out / "asteroid_sdss_colours.npz", {"X": npy_bytes(x), "y": npy_bytes(s_type.astype(np.int64), "<i8")})


@writer
def loan_repayment(out: Path) -> None:
    """Student loans: default (defaulted = 1) against graduate income, final grade, credits completed, STEM subject
    and a first-generation flag that is partly carried by income and grade."""
    rng = np.random.default_rng(18112)
    n = 800
    first = rng.binomial(1, 0.35, n)
    income = rng.gamma(5, 5, n) - 4 * first
    gpa = np.clip(rng.normal(3.0, 0.45, n) - 0.15 * first, 1.5, 4.0)
    credits = rng.integers(60, 181, n)
    stem = rng.binomial(1, 0.4, n)
    logit = -1.2 - 0.08 * (income - 23) - 0.9 * (gpa - 3) - 0.01 * (credits - 120) - 0.3 * stem + 0.4 * first
    table(out / "student_loan_repayment.csv", {
        "grad_income_k": income, "final_gpa": gpa, "credits_done": credits, "stem": stem, "first_gen": first,
        "defaulted": rng.binomial(1, expit(logit))}, {"grad_income_k": ".1f", "final_gpa": ".2f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def deepfield_mock(out: Path) -> None:
    """150 distance moduli from a survey mock: flat wCDM with Omega_m 0.30, w -1.1 and H0 72 (so the moduli carry
    H0)."""
    rng = np.random.default_rng(18113)
    n = 150
    z = np.sort(rng.uniform(0.05, 2.0, n))
    err = rng.uniform(0.10, 0.18, n)
    mu = distance_modulus(z, 0.30, w0=-1.1, h0=72.0) + rng.normal(0, err)
    table(out / "deepfield_mock_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def nir_sample(out: Path) -> None:
    """40 near-infrared peak magnitudes (M -19.3 at H0 70) of a flat LCDM sample with Omega_m 0.33, and their
    covariance written as the N*N values alone (no count line)."""
    rng = np.random.default_rng(18114)
    n = 40
    z = np.sort(rng.uniform(0.01, 0.9, n))
    err = rng.uniform(0.08, 0.13, n)
    cov = correlated_cov(z, err, 0.025, 0.3)
    mb = distance_modulus(z, 0.33) - 19.3 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "nir_sn_mb.csv", {"z": z, "mb": mb, "mb_err": err}, {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})
    (out / "nir_sn_cov_nocount.txt").write_text("".join(f"{v:.6e}\n" for v in cov.ravel()))


@writer
def lowz_sample(out: Path) -> None:
    """30 low-redshift peak magnitudes of a flat LCDM sample (Omega_m 0.315, H0 67.4, M -19.25) with a covariance
    that carries its count line, for a joint fit with the CMB."""
    rng = np.random.default_rng(18115)
    n = 30
    z = np.sort(rng.uniform(0.02, 0.8, n))
    err = rng.uniform(0.1, 0.14, n)
    cov = correlated_cov(z, err, 0.02, 0.25)
    mb = distance_modulus(z, 0.315, h0=67.4) - 19.25 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "lowz_sn_peakmags.csv", {"z": z, "mb": mb, "mb_err": err}, {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})
    write_covariance(out / "lowz_sn_cov.txt", cov)


@writer
def cosmosis_chain(out: Path) -> None:
    """A gzip CosmoSIS-style chain (section--name header; omega_m, sigma_8, h0, A_IA, prior, like, post), 1,500
    rows settling over the first tenth or so."""
    rng = np.random.default_rng(18116)
    n = 1500
    centre = np.array([0.30, 0.80, 0.70, 0.6])
    sd = np.array([0.03, 0.04, 0.04, 0.35])
    x = ar_chain(rng, n, centre, sd, np.array([0.42, 0.70, 0.78, 2.0]), 80.0)
    like = -0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) - 250.0
    prior = np.full(n, -4.2)
    names = ["cosmological_parameters--omega_m", "cosmological_parameters--sigma_8", "cosmological_parameters--h0",
             "intrinsic_alignment_parameters--a", "prior", "like", "post"]
    lines = ["#" + "\t".join(names), "#sampler=emcee", "#walkers=40"]
    lines += ["\t".join([f"{r[0]:.5f}", f"{r[1]:.5f}", f"{r[2]:.5f}", f"{r[3]:.4f}", f"{p:.3f}", f"{lk:.3f}",
                         f"{p + lk:.3f}"]) for r, p, lk in zip(x, prior, like, strict=True)]
    gzip_text(out / "cosmic_shear_cosmosis.txt.gz", "\n".join(lines) + "\n")


@writer
def timedelay_chains(out: Path) -> None:
    """Two plain-header chains of a lensing time-delay fit (H0, omega_m, gamma_pl), 1,200 rows each, started on
    opposite sides of the posterior."""
    rng = np.random.default_rng(18117)
    centre = np.array([73.0, 0.30, 2.05])
    sd = np.array([2.5, 0.08, 0.06])
    for tag, start in (("a", [80.0, 0.45, 2.2]), ("b", [66.0, 0.18, 1.9])):
        x = ar_chain(rng, 1200, centre, sd, np.array(start), 50.0, rho=0.65)
        lines = ["# H0 omega_m gamma_pl"] + [f"{r[0]:.3f} {r[1]:.5f} {r[2]:.4f}" for r in x]
        (out / f"timedelay_run_{tag}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ bayes

@writer
def salamander_ponds(out: Path) -> None:
    """Ponds surveyed for a newt-like salamander (occupied = 1): more likely at neutral pH, under some canopy,
    without fish and far from roads."""
    rng = np.random.default_rng(18118)
    n = 120
    ph = rng.normal(6.8, 0.6, n)
    canopy = rng.uniform(0, 90, n)
    fish = rng.binomial(1, 0.4, n)
    road = rng.gamma(2, 150, n)
    logit = 0.3 - 1.0 * np.abs(ph - 7.0) + 0.02 * (canopy - 45) - 1.5 * fish + 0.003 * (road - 300)
    table(out / "pond_salamander_survey.csv", {
        "pond": [f"PD{i:03d}" for i in range(n)], "ph": ph, "canopy_pct": canopy, "fish": fish, "road_m": road,
        "occupied": rng.binomial(1, expit(logit))}, {"ph": ".2f", "canopy_pct": ".0f", "road_m": ".0f"})


@writer
def hedgerow_oaks(out: Path) -> None:
    """36 hedgerow oaks: height above or below the county's mean oak height against trunk diameter and crown width
    (linear, centred near zero, noise sd 1.5 m)."""
    rng = np.random.default_rng(18119)
    n = 36
    dbh = rng.uniform(15, 90, n)
    crown = rng.uniform(3, 16, n)
    height_dev = 0.12 * (dbh - 52) + 0.5 * (crown - 9.5) + 0.3 + rng.normal(0, 1.5, n)
    table(out / "hedgerow_oak_heights.csv", {"tree": [f"OAK{i:02d}" for i in range(n)], "dbh_cm": dbh,
                                             "crown_width_m": crown, "height_dev_m": height_dev},
          {"dbh_cm": ".1f", "crown_width_m": ".1f", "height_dev_m": ".2f"})


@writer
def wort_boils(out: Path) -> None:
    """Brewing trials: bitterness (IBU) against boil time, hop alpha acid and original gravity (Tinseth-like
    utilisation); 40 training batches and 15 test batches in two files."""
    rng = np.random.default_rng(18120)
    n = 55
    boil = rng.uniform(5, 90, n)
    alpha = rng.uniform(3, 14, n)
    og = rng.uniform(1.035, 1.080, n)
    util = 1.65 * 0.000125 ** (og - 1) * (1 - np.exp(-0.04 * boil)) / 4.15
    ibu = util * alpha * 25 + rng.normal(0, 1.5, n)
    cols = {"batch": [f"B{i:02d}" for i in range(n)], "boil_min": boil, "alpha_acid_pct": alpha, "og": og, "ibu": ibu}
    fmt = {"boil_min": ".0f", "alpha_acid_pct": ".1f", "og": ".3f", "ibu": ".1f"}
    table(out / "wort_boil_train.csv", {k: v[:40] for k, v in cols.items()}, fmt)
    table(out / "wort_boil_test.csv", {k: v[40:] for k, v in cols.items()}, fmt)


@writer
def torsion_scan(out: Path) -> None:
    """Conformer energies against two methyl-rotor torsions (radians): threefold in each angle and symmetric under
    swapping them, 480 points."""
    rng = np.random.default_rng(18121)
    n = 480
    p1 = rng.uniform(0, 2 * np.pi, n)
    p2 = rng.uniform(0, 2 * np.pi, n)
    e = 0.7 * (1 + np.cos(3 * p1)) + 0.7 * (1 + np.cos(3 * p2)) + 0.3 * np.cos(3 * p1) * np.cos(3 * p2) \
        + 0.15 * np.sin(3 * p1) * np.sin(3 * p2) + rng.normal(0, 0.08, n)
    table(out / "twin_rotor_relaxed_scan.csv", {"phi1": p1, "phi2": p2, "energy_kcal": e},
          {"phi1": ".5f", "phi2": ".5f", "energy_kcal": ".4f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def preflight(out: Path) -> None:
    """Patients assessed for fitness to fly: haemoglobin falls with age, oxygen saturation rises with haemoglobin
    (the stated linear SCM); the stated rule 0.6 Hb + 0.4 SpO2 - 0.05 age > 43 declares fitness; rows 2, 5 and 9
    are patients the rule declines."""
    rng = np.random.default_rng(18122)
    n = 60
    age = rng.uniform(25, 85, n)
    hb = 15 - 0.02 * age + rng.normal(0, 1.2, n)
    spo2 = np.clip(85 + 0.8 * hb + rng.normal(0, 1.5, n), 80, 100)
    for i, (a, h, s) in {2: (71.0, 10.8, 92.0), 5: (64.0, 11.5, 91.5), 9: (58.0, 10.2, 93.0)}.items():
        age[i], hb[i], spo2[i] = a, h, s
    table(out / "preflight_assessments.csv", {"patient": [f"PF{i:02d}" for i in range(n)], "age_yr": age,
                                              "haemoglobin_g_dl": hb, "spo2_pct": spo2},
          {"age_yr": ".0f", "haemoglobin_g_dl": ".1f", "spo2_pct": ".1f"})


@writer
def jobseekers(out: Path) -> None:
    """Jobseekers: attending a training course (binary) with unseen motivation; days employed in the next year (0 to
    365). Travel times to twelve training centres (a 12-column array) shift attendance only."""
    rng = np.random.default_rng(18123)
    n = 600
    home = rng.uniform(0, 50, (n, 2))
    centres = rng.uniform(0, 50, (12, 2))
    travel = 1.5 * np.linalg.norm(home[:, None, :] - centres[None, :, :], axis=2) + rng.gamma(2, 2, (n, 12))
    age = rng.uniform(18, 64, n)
    earn = rng.gamma(3, 5, n)
    u = rng.normal(size=n)
    course = rng.binomial(1, expit(-0.08 * (travel.min(axis=1) - 15) + 0.8 * u - 0.02 * (age - 40)))
    days = np.clip(180 + 40 * course - 2 * (age - 40) + 3 * (earn - 15) + 50 * u + rng.normal(0, 40, n), 0, 365)
    table(out / "jobseeker_course_outcomes.csv", {
        "person": [f"J{i:04d}" for i in range(n)], "course": course, "age_yr": age, "prior_earn_k": earn,
        "days_employed": days}, {"age_yr": ".0f", "prior_earn_k": ".1f", "days_employed": ".0f"})
    array(out / "centre_travel_minutes.npy", travel)


# ------------------------------------------------------------------------------------------------ lm

SHAPES = ["cube", "sphere", "cone", "torus", "prism", "ring"]
COLOURS = ["red", "green", "blue", "yellow", "purple", "grey"]


@writer
def render_probe(out: Path) -> None:
    """A vision model's 32-d embeddings of rendered objects, 10 per shape-colour pair (360 rows): mostly an
    additive shape part plus a colour part, with a small interaction; labels in a CSV whose first column is an
    item id."""
    rng = np.random.default_rng(18124)
    shape_v = rng.normal(size=(6, 32))
    colour_v = rng.normal(size=(6, 32))
    inter = rng.normal(size=(6, 6, 32)) * 0.3
    rows, item, shp, col = [], [], [], []
    for s in range(6):
        for c in range(6):
            for _ in range(10):
                rows.append(shape_v[s] + colour_v[c] + inter[s, c] + 0.4 * rng.normal(size=32))
                item.append(f"img{len(item):04d}")
                shp.append(SHAPES[s])
                col.append(COLOURS[c])
    order = rng.permutation(len(rows))
    array(out / "render_embeddings.npy", np.array(rows)[order])
    table(out / "render_labels.csv", {"item": [item[i] for i in order], "shape": [shp[i] for i in order],
                                      "colour": [col[i] for i in order]})


SYL = ["ka", "ro", "vin", "sel", "ta", "mor", "li", "den", "ba", "tur", "ne", "os"]
CLUBS = ["Harbour City", "Northgate Rovers", "Ashby Athletic", "Millbrook United", "Castleford Town",
         "Redwater Wanderers", "Eastholm Albion", "Stonebridge FC"]
GROUNDS = {"Harbour City": "Quayside Park", "Northgate Rovers": "the Moor Lane ground",
           "Ashby Athletic": "Ashby Meadow", "Millbrook United": "Mill Road",
           "Castleford Town": "the Keep Stadium", "Redwater Wanderers": "Redwater Lane",
           "Eastholm Albion": "Albion Park", "Stonebridge FC": "the Bridge End ground"}


@writer
def league_transfers(out: Path) -> None:
    """A stream of transfer edits over three seasons (12 a season): a player's new club, with a rephrase, a
    locality question about another player and a two-hop question (the club's home ground)."""
    rng = np.random.default_rng(18125)
    names = []
    while len(names) < 60:
        name = (str(rng.choice(SYL)) + str(rng.choice(SYL))).capitalize() + " " + \
            (str(rng.choice(SYL)) + str(rng.choice(SYL)) + str(rng.choice(SYL))).capitalize()
        if name not in names:
            names.append(name)
    records = []
    for t in range(1, 4):
        for j in range(12):
            who = names[(t - 1) * 12 + j]
            other = names[36 + (t - 1) * 8 + j % 8]
            club = str(rng.choice(CLUBS))
            records.append({"timestep": t, "subject": who, "relation": "plays for",
                            "prompt": f"Which club does {who} play for?", "object": club,
                            "rephrase": f"{who} is currently on the books of which club?",
                            "locality_prompt": f"In which year was {other} born?",
                            "locality_answer": str(int(rng.integers(1990, 2005))),
                            "multihop_prompt": f"Where does the club of {who} play its home games?",
                            "multihop_answer": GROUNDS[club]})
    json_lines(out / "league_transfer_edits.jsonl", records)


@writer
def lab_needles(out: Path) -> None:
    """Five hand-written needles (a person beside a landmark) with a question that names only the landmark's city."""
    rows = [
        ("Actually, Ottilie lives right beside the Atomium.", "Which character has been to Brussels?", "Ottilie"),
        ("Bertrand once sketched the Alhambra from his balcony.", "Which character has been to Granada?", "Bertrand"),
        ("Nkechi's flat looks straight onto the Space Needle.", "Which character has been to Seattle?", "Nkechi"),
        ("Every summer Radek rows past the Hofburg on his way to work.", "Which character has been to Vienna?",
         "Radek"),
        ("Inés proposed to her partner under the Petronas Towers.", "Which character has been to Kuala Lumpur?",
         "Inés"),
    ]
    table(out / "lab_latent_needles.csv", {"needle": [r[0] for r in rows], "question": [r[1] for r in rows],
                                           "answer": [r[2] for r in rows]})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def melanoma_followup(out: Path) -> None:
    """Melanoma patients followed for relapse (months, event 1 = relapse, 0 = censored) with adjuvant therapy,
    age and stage; adjuvant therapy has a hazard ratio of about 0.7."""
    rng = np.random.default_rng(18126)
    n = 260
    age = rng.uniform(30, 85, n)
    stage = rng.choice([2, 3], n, p=[0.55, 0.45])
    adj = rng.binomial(1, expit(0.8 * (stage - 2.5) - 0.02 * (age - 60)))
    rate = 0.02 * np.exp(np.log(0.7) * adj + 0.6 * (stage - 2) + 0.01 * (age - 60))
    t = rng.exponential(1 / rate)
    cens = rng.uniform(12, 72, n)
    table(out / "melanoma_relapse_followup.csv", {
        "patient": [f"M{i:03d}" for i in range(n)], "adjuvant": adj, "age_yr": age, "stage": stage,
        "months": np.minimum(t, cens), "relapse": (t <= cens).astype(int)}, {"age_yr": ".0f", "months": ".1f"})


@writer
def variable_star(out: Path) -> None:
    """An unevenly sampled light curve of a pulsating variable (period 5.37 days, amplitude 0.35 mag), 180 epochs."""
    rng = np.random.default_rng(18127)
    t = np.sort(rng.uniform(0, 240, 180)) + 59000
    err = rng.uniform(0.01, 0.03, 180)
    mag = 11.2 + 0.35 * np.sin(2 * np.pi * t / 5.37) + 0.1 * np.sin(4 * np.pi * t / 5.37 + 0.8) + rng.normal(0, err)
    table(out / "field_variable_lightcurve.csv", {"mjd": t, "v_mag": mag, "v_err": err},
          {"mjd": ".4f", "v_mag": ".4f", "v_err": ".3f"})


@writer
def biopsy_grades(out: Path) -> None:
    """Three pathologists' grades (1 to 3) of 150 biopsies, agreeing most of the time."""
    rng = np.random.default_rng(18128)
    n = 150
    truth = rng.choice([1, 2, 3], n, p=[0.4, 0.4, 0.2])

    def read() -> np.ndarray:
        return np.clip(truth + rng.choice([-1, 0, 1], n, p=[0.12, 0.76, 0.12]), 1, 3)

    table(out / "biopsy_grades_three_readers.csv", {"case": [f"BX{i:03d}" for i in range(n)], "reader_1": read(),
                                                    "reader_2": read(), "reader_3": read()})


@writer
def lactase_rates(out: Path) -> None:
    """Initial rates of lactose hydrolysis at eight substrate concentrations in triplicate (Km about 12 mM, Vmax
    about 45 umol/min/mg)."""
    rng = np.random.default_rng(18129)
    s = np.repeat([1.0, 2.5, 5, 10, 20, 40, 80, 160], 3)
    v = 45 * s / (12 + s) * (1 + rng.normal(0, 0.05, s.size))
    table(out / "lactase_initial_rates.csv", {"lactose_mm": s, "rate_umol_min_mg": v},
          {"lactose_mm": ".1f", "rate_umol_min_mg": ".2f"})


# ------------------------------------------------------------------------------------------------ asks

ATTITUDE = ["support", "neutral", "oppose"]


@writer
def pricing_poll(out: Path) -> None:
    """A poll on minimum unit pricing of alcohol, with margins of age and region from two census rounds (2011 and
    2021) that differ."""
    rng = np.random.default_rng(18130)
    n = 600
    age = rng.choice(["18-34", "35-54", "55+"], n, p=[0.2, 0.35, 0.45])
    region = rng.choice(["north", "south"], n, p=[0.6, 0.4])
    mup = ordered(rng, 0.4 * (age == "55+") - 0.2 * (region == "south"), ATTITUDE, (-0.5, 0.5))
    table(out / "min_pricing_poll.csv", {"id": np.arange(1, n + 1), "age_band": age, "region": region,
                                         "q_min_unit_price": mup})
    for year, ages, regions in ((2011, (0.3, 0.36, 0.34), (0.45, 0.55)), (2021, (0.27, 0.33, 0.40), (0.43, 0.57))):
        rows = [("age_band", a, s) for a, s in zip(["18-34", "35-54", "55+"], ages, strict=True)]
        rows += [("region", a, s) for a, s in zip(["north", "south"], regions, strict=True)]
        table(out / f"mup_census_round_{year}.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                                   "share": [r[2] for r in rows]}, {"share": ".2f"})


@writer
def nurse_bonus(out: Path) -> None:
    """Nurses offered a retention bonus (binary) with leaving within six and within twelve months as two outcome
    columns that tell different stories."""
    rng = np.random.default_rng(18131)
    n = 700
    tenure = rng.gamma(2, 4, n)
    age = rng.uniform(22, 62, n)
    band = rng.integers(5, 8, n)
    bonus = rng.binomial(1, expit(-0.1 * (tenure - 8) + 0.3 * (band - 6)))
    q6 = rng.binomial(1, expit(-2 - 0.8 * bonus - 0.05 * (tenure - 8)))
    q12 = np.maximum(q6, rng.binomial(1, expit(-1.5 + 0.1 * bonus - 0.05 * (tenure - 8) - 0.02 * (age - 40))))
    table(out / "nurse_retention_bonus.csv", {
        "nurse": [f"N{i:04d}" for i in range(n)], "bonus": bonus, "tenure_yr": tenure, "age_yr": age, "band": band,
        "left_6mo": q6, "left_12mo": q12}, {"tenure_yr": ".1f", "age_yr": ".0f"})


@writer
def stroke_scores(out: Path) -> None:
    """Two stroke-risk models' predictions (an old and a new one) and the realised five-year risk marker."""
    rng = np.random.default_rng(18132)
    n = 800
    latent = rng.normal(size=n)
    marker = 10 + 3 * latent + rng.normal(0, 2, n)
    table(out / "stroke_risk_two_models.csv", {
        "patient": [f"S{i:05d}" for i in range(n)], "risk_v1": 10 + 3 * latent + rng.normal(0, 3, n),
        "risk_v2": 10 + 3 * latent + rng.normal(0, 1.5, n), "risk_marker_5y": marker},
        {"risk_v1": ".2f", "risk_v2": ".2f", "risk_marker_5y": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
