"""Write every data file of the twenty-second blind prose task set, deterministically.

``python tests/understanding_blind22/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
def calf_dewormer(out: Path) -> None:
    """Dairy-beef calves: a dewormer (binary) went more often to older, heavier calves of larger herds; it adds
    about 0.08 kg/day to the average daily gain."""
    rng = np.random.default_rng(22101)
    n = 420
    herd = rng.integers(40, 400, n)
    birth = rng.normal(40, 5, n)
    age = rng.integers(60, 200, n)
    dose = rng.binomial(1, expit(0.006 * (herd - 200) + 0.08 * (birth - 40) + 0.01 * (age - 130)))
    adg = 0.75 + 0.08 * dose + 0.006 * (birth - 40) + 0.0015 * (age - 130) + 0.0003 * (herd - 200) \
        + rng.normal(0, 0.09, n)
    table(out / "calf_dewormer_weights.csv", {
        "calf": [f"C{i:04d}" for i in range(n)], "herd_size": herd, "birth_wt_kg": birth, "age_days": age,
        "dewormed": dose, "adg_kg": adg}, {"birth_wt_kg": ".1f", "adg_kg": ".3f"})


@writer
def till_discounts(out: Path) -> None:
    """Store-weeks: the depth of a promotional discount (per cent, continuous) was set deeper in quiet, rainy
    weeks; each point of discount adds about 0.35 GBP to the mean basket."""
    rng = np.random.default_rng(22102)
    n = 350
    foot = rng.gamma(6, 2, n)
    rain = rng.gamma(2, 6, n)
    payday = rng.binomial(1, 0.25, n)
    disc = np.clip(12 - 0.4 * (foot - 12) + 0.15 * (rain - 12) - 3 * payday + rng.normal(0, 3, n), 0, None)
    basket = 24 + 0.35 * disc + 0.3 * (foot - 12) - 0.1 * (rain - 12) + 2.5 * payday + rng.normal(0, 2, n)
    table(out / "till_discount_baskets.csv", {
        "store_week": [f"S{i // 50:02d}-W{i % 50:02d}" for i in range(n)], "discount_pct": disc,
        "footfall_k": foot, "rain_mm": rain, "payday_week": payday, "basket_gbp": basket},
        {"discount_pct": ".1f", "footfall_k": ".2f", "rain_mm": ".1f", "basket_gbp": ".2f"})


COMMENTS = {  # what a class teacher writes about a school's language climate (1 strong, 0 mixed, -1 weak)
    1: ["parents read with children at home most evenings", "the library is busy at lunch and well stocked",
        "pupils already hear two languages at home"],
    0: ["reading at home varies a lot between families", "library open two afternoons a week",
        "some pupils arrive with little spoken English"],
    -1: ["few books in most homes", "no school library since the flood", "high pupil turnover this year"],
}
COMMENT_EXTRAS = ["Small rural site.", "New head teacher.", "Shares a building with the nursery.",
                  "Mixed-age classes.", "Bus pupils from three villages.", "Large city school."]


@writer
def immersion_schools(out: Path) -> None:
    """Primary schools: a bilingual immersion stream (binary) was opened mostly where the teacher's comment
    describes a strong language climate (visible only in the comment); it raises the reading score by about 4
    points."""
    rng = np.random.default_rng(22103)
    n = 280
    pupils = rng.integers(40, 420, n)
    fsm = rng.uniform(3, 45, n)
    comments, stream, score = [], [], []
    for i in range(n):
        d = int(rng.integers(-1, 2))
        comments.append(f"{rng.choice(COMMENTS[d])}. {rng.choice(COMMENT_EXTRAS)}")
        s = int(rng.random() < expit(1.4 * d - 0.02 * (fsm[i] - 20)))
        stream.append(s)
        score.append(100 + 4 * s + 6 * d - 0.15 * (fsm[i] - 20) + rng.normal(0, 4))
    table(out / "immersion_teacher_comments.csv", {
        "school": [f"P{i:03d}" for i in range(n)], "bilingual_stream": stream, "pupils": pupils, "fsm_pct": fsm,
        "teacher_comment": comments, "reading_score": score}, {"fsm_pct": ".1f", "reading_score": ".1f"})


@writer
def telematics(out: Path) -> None:
    """Motor policies, tab-separated: a telematics box (binary) was taken by younger drivers with fewer prior
    claims; it lowers the year's claims cost by about 60 GBP."""
    rng = np.random.default_rng(22104)
    n = 600
    age = rng.integers(18, 80, n)
    group = rng.integers(1, 40, n)
    prior = rng.poisson(0.4, n)
    box = rng.binomial(1, expit(-0.05 * (age - 40) - 0.6 * prior))
    cost = np.clip(420 - 60 * box - 3 * (age - 40) + 6 * (group - 20) + 140 * prior + rng.normal(0, 90, n), 0,
                   None)
    table(out / "telematics_claims.tsv", {
        "policy": [f"M{i:05d}" for i in range(n)], "telematics_box": box, "driver_age": age, "car_group": group,
        "prior_claims": prior, "claims_cost_gbp": cost}, {"claims_cost_gbp": ".0f"}, sep="\t")


# ------------------------------------------------------------------------------------------------ surveys

VACC = ["on_schedule", "delay_some", "decline_some"]
SCREEN = ["strict_limit", "loose_limit", "no_limit"]
PAGE = ["under_25", "25_34", "35_plus"]
EDU = ["school", "college", "degree"]


@writer
def clinic_parents(out: Path) -> None:
    """Parents at child-health clinics asked in two waves (2024 and 2025) about vaccination timing and screen
    rules; degree-educated parents over-respond; a reference sample of the region's parents with weights; a
    chatbot's sampled answers (one row each) as parents of each education level."""
    rng = np.random.default_rng(22105)
    n = 640
    wave = rng.choice(["2024", "2025"], n)
    age = rng.choice(PAGE, n, p=[0.2, 0.45, 0.35])
    edu = rng.choice(EDU, n, p=[0.2, 0.3, 0.5])
    s1 = 0.5 * (edu == "degree") - 0.3 * (age == "under_25") - 0.3 * (wave == "2025")
    s2 = 0.4 * (edu == "degree") + 0.2 * (age == "35_plus")
    table(out / "clinic_parents_two_waves.csv", {
        "id": np.arange(1, n + 1), "wave": wave, "parent_age": age, "education": edu,
        "q_vacc_timing": ordered(rng, s1, VACC, (-1.2, 0.2)), "q_screen_rule": ordered(rng, s2, SCREEN, (-0.5, 0.6))})
    m = 500
    table(out / "parents_reference_sample.csv", {
        "parent_age": rng.choice(PAGE, m, p=[0.3, 0.4, 0.3]), "education": rng.choice(EDU, m, p=[0.4, 0.35, 0.25]),
        "pop_wt": rng.uniform(80, 160, m)}, {"pop_wt": ".1f"})
    rows = []
    for e in EDU:
        for q, levels, p in (("q_vacc_timing", VACC, [0.8, 0.15, 0.05]), ("q_screen_rule", SCREEN, [0.5, 0.4, 0.1])):
            for a in rng.choice(levels, 20, p=p):
                rows.append((q, str(a), e))
    table(out / "assistant_parent_replies.csv", {"question": [r[0] for r in rows], "answer": [r[1] for r in rows],
                                                 "subgroup": [r[2] for r in rows]})


JOB = ["no_effect", "depends", "hurts_chances"]
SCHOOL = ["encourage", "neutral", "discourage"]
DREGIONS = ["north", "midlands", "south"]


@writer
def dialect_attitudes(out: Path) -> None:
    """Residents asked whether a regional accent hurts job chances and whether schools should encourage dialect;
    design weights from the stratified address sample; a chatbot's answer shares when told it lives in each
    region."""
    rng = np.random.default_rng(22106)
    n = 480
    region = rng.choice(DREGIONS, n, p=[0.4, 0.3, 0.3])
    age = rng.choice(["18-39", "40-64", "65+"], n)
    s1 = -0.5 * (region == "south") + 0.3 * (age == "65+")
    s2 = 0.6 * (region == "north") - 0.2 * (age == "18-39")
    table(out / "dialect_attitudes_dw.csv", {
        "resp": np.arange(1, n + 1), "region": region, "age_band": age,
        "dw": np.where(region == "north", rng.uniform(0.5, 0.9, n), rng.uniform(0.9, 1.6, n)),
        "q_accent_job": ordered(rng, s1, JOB, (-0.4, 0.5)), "q_school_dialect": ordered(rng, s2, SCHOOL, (-0.5, 0.5))},
        {"dw": ".3f"})
    rows = []
    for r, (a, b) in zip(DREGIONS, [((0.5, 0.3, 0.2), (0.6, 0.3, 0.1)), ((0.4, 0.4, 0.2), (0.4, 0.4, 0.2)),
                                    ((0.3, 0.4, 0.3), (0.3, 0.4, 0.3))], strict=True):
        rows += [("q_accent_job", lv, s, r) for lv, s in zip(JOB, a, strict=True)]
        rows += [("q_school_dialect", lv, s, r) for lv, s in zip(SCHOOL, b, strict=True)]
    table(out / "chatbot_regional_personas.csv", {"question": [x[0] for x in rows], "answer": [x[1] for x in rows],
                                                  "share": [x[2] for x in rows], "subgroup": [x[3] for x in rows]},
          {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def milking_robot(out: Path) -> None:
    """Milking-robot visits: conductivity, yield, milk temperature, flow and somatic-cell proxy; about 6% of
    visits are clinical mastitis (mastitis = 1) with high conductivity and a yield drop."""
    rng = np.random.default_rng(22107)
    n = 1300
    bad = rng.random(n) < 0.06
    table(out / "robot_visits_mastitis.csv", {
        "conductivity_ms": rng.normal(5.2, 0.4, n) + 1.2 * bad, "yield_kg": rng.normal(12, 2.5, n) - 3.5 * bad,
        "milk_temp_c": rng.normal(38.6, 0.3, n) + 0.6 * bad, "flow_kg_min": rng.normal(2.6, 0.5, n) - 0.4 * bad,
        "scc_index": rng.gamma(3, 1, n) + 4 * bad, "mastitis": bad.astype(int)},
        {"conductivity_ms": ".2f", "yield_kg": ".2f", "milk_temp_c": ".2f", "flow_kg_min": ".2f", "scc_index": ".2f"})


@writer
def fermenter(out: Path) -> None:
    """Fermentation-tank probe readings, one row per ten minutes, no labels; about 2% are a stuck or infected
    ferment (gravity not falling, pH and CO2 off)."""
    rng = np.random.default_rng(22108)
    n = 1000
    bad = rng.random(n) < 0.02
    table(out / "fermenter_probe_log.csv", {
        "temp_c": rng.normal(19, 0.6, n) + 2.5 * bad, "gravity_sg": rng.normal(1.030, 0.006, n) + 0.015 * bad,
        "ph": rng.normal(4.4, 0.1, n) - 0.5 * bad, "co2_lpm": rng.gamma(5, 0.8, n) - 2.5 * bad,
        "pressure_bar": rng.normal(1.05, 0.05, n)},
        {"temp_c": ".2f", "gravity_sg": ".4f", "ph": ".2f", "co2_lpm": ".2f", "pressure_bar": ".3f"})


@writer
def gauge_faults(out: Path) -> None:
    """River-gauge records as an .npz (X, y): stage, its hourly change, velocity, battery voltage, water
    temperature and turbidity; about 5% are sensor faults (y = 1: stage jumps, low battery)."""
    rng = np.random.default_rng(22109)
    n = 1200
    bad = rng.random(n) < 0.05
    x = np.column_stack([
        rng.gamma(4, 0.3, n) + 0.3 * bad, rng.normal(0, 0.05, n) + 0.08 * bad * rng.choice([-1, 1], n),
        rng.gamma(3, 0.3, n), rng.normal(12.6, 0.2, n) - 0.25 * bad, rng.normal(11, 3, n),
        rng.gamma(2, 10, n) + 8 * bad])
    npz(out / "gauge_sensor_faults.npz", {"X": npy_bytes(x), "y": npy_bytes(bad.astype(np.int64), "<i8")})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def sherds(out: Path) -> None:
    """Pottery sherds: trace elements by portable XRF (ppm) and major oxides (%); imported wares (imported = 1)
    are richer in Sr and poorer in Rb, with overlap from local clay variety."""
    rng = np.random.default_rng(22110)
    n = 500
    imp = rng.random(n) < 0.4
    table(out / "tell_sherd_pxrf_fabric.csv", {
        "rb_ppm": rng.normal(np.where(imp, 95, 130), 18), "sr_ppm": rng.normal(np.where(imp, 310, 220), 45),
        "zr_ppm": rng.normal(180, 30, n), "fe2o3_pct": rng.normal(np.where(imp, 5.2, 6.0), 0.8),
        "k2o_pct": rng.normal(2.6, 0.4, n), "imported": imp.astype(int)},
        {"rb_ppm": ".0f", "sr_ppm": ".0f", "zr_ppm": ".0f", "fe2o3_pct": ".2f", "k2o_pct": ".2f"})


@writer
def letters(out: Path) -> None:
    """Letters of two correspondents as an .npz (X, y): rates per thousand words of ten function words (on,
    upon, while, whilst, the, and, which, that, but, to); author 1 uses 'upon' and 'whilst' more, 'on' and 'while' less."""
    rng = np.random.default_rng(22111)
    n = 240
    y = (rng.random(n) < 0.5).astype(np.int64)
    base = np.array([6.0, 1.0, 4.0, 0.8, 9.0, 12.0, 3.0, 2.5, 5.0, 7.0])
    shift = np.array([-1.2, 1.1, -0.8, 0.7, 0.0, 0.0, 0.3, -0.3, 0.0, 0.0])
    x = base + shift * y[:, None] + rng.normal(0, 0.7, (n, 10))
    npz(out / "disputed_letters_function_words.npz", {"X": npy_bytes(x), "y": npy_bytes(y, "<i8")})


@writer
def dairy_lameness(out: Path) -> None:
    """Dairy herds: lameness found at a herd visit (lame = 1) driven mostly by stocking density and hours
    stood in the parlour; straw use and rainfall matter little."""
    rng = np.random.default_rng(22112)
    n = 600
    dens = rng.normal(1.1, 0.15, n)
    parlour = rng.gamma(3, 0.8, n)
    straw = rng.gamma(3, 2, n)
    rain = rng.normal(900, 200, n)
    track = rng.uniform(0, 1, n)
    logit = -1 + 6 * (dens - 1.1) + 0.5 * (parlour - 2.4) - 0.05 * (straw - 6) + 0.001 * (rain - 900) + 0.8 * track
    table(out / "dairy_lameness_herds.csv", {
        "stocking_density": dens, "parlour_hours": parlour, "straw_kg": straw, "rain_mm": rain,
        "track_score": track, "lame": rng.binomial(1, expit(logit))},
        {"stocking_density": ".3f", "parlour_hours": ".2f", "straw_kg": ".2f", "rain_mm": ".0f", "track_score": ".3f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def timedelay_chain(out: Path) -> None:
    """A gzipped chain of a lensing time-delay fit with a header line, a multiplicity column 'weight' and
    '-logL': H0, Omega_m, gamma_pl (1,600 rows), settling over the first fifth."""
    rng = np.random.default_rng(22113)
    n = 1600
    centre = np.array([73.3, 0.29, 2.05])
    sd = np.array([1.8, 0.06, 0.08])
    x = ar_chain(rng, n, centre, sd, np.array([64.0, 0.45, 1.8]), 60.0)
    w = rng.integers(1, 4, n)
    like = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1)
    lines = ["# weight -logL H0 Omega_m gamma_pl"]
    lines += [f"{wi} {li:.3f} {r[0]:.3f} {r[1]:.5f} {r[2]:.4f}" for wi, li, r in zip(w, like, x, strict=True)]
    gzip_text(out / "timedelay_h0_chain.txt.gz", "\n".join(lines) + "\n")


@writer
def glacier_chains(out: Path) -> None:
    """Two chains of a glacier mass-balance model (degree-day factors for snow and ice, precipitation factor)
    started from different points."""
    rng = np.random.default_rng(22114)
    centre = np.array([3.1, 6.4, 1.35])
    sd = np.array([0.25, 0.5, 0.08])
    for tag, start in (("1", np.array([4.5, 4.0, 1.0])), ("2", np.array([2.0, 8.5, 1.7]))):
        x = ar_chain(rng, 900, centre, sd, start, 40.0)
        (out / f"mass_balance_chain{tag}.txt").write_text(
            "# ddf_snow ddf_ice precip_factor\n" + "".join(f"{r[0]:.4f} {r[1]:.4f} {r[2]:.4f}\n" for r in x))


@writer
def wide_survey_sn(out: Path) -> None:
    """110 distance moduli of a flat wCDM mock with H0 72: Omega_m 0.30, w -0.92; diagonal errors."""
    rng = np.random.default_rng(22115)
    n = 110
    z = np.sort(rng.uniform(0.01, 1.4, n))
    err = rng.uniform(0.1, 0.16, n)
    mu = distance_modulus(z, 0.30, w0=-0.92, h0=72.0) + rng.normal(0, err)
    table(out / "wide_survey_mu_h72.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def lowz_lcparam(out: Path) -> None:
    """A CosmoMC lcparam table of 90 supernovae (flat LCDM, Omega_m 0.32, M -19.3 at H0 70): peak magnitude
    mb with its error, stretch and colour columns."""
    rng = np.random.default_rng(22116)
    n = 90
    z = np.sort(rng.uniform(0.01, 0.9, n))
    err = rng.uniform(0.1, 0.15, n)
    mb = distance_modulus(z, 0.32) - 19.3 + rng.normal(0, err)
    head = "#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec biascor"
    rows = [f"sn{i:03d} {zi:.5f} {zi:.5f} 0 {m:.4f} {e:.4f} {rng.normal(0, 1):.3f} 0.1 {rng.normal(0, 0.1):.3f} "
            f"0.03 10.0 0 0 0 0 1 0 0 0" for i, (zi, m, e) in enumerate(zip(z, mb, err, strict=True))]
    (out / "shallow_sample_lcparam.txt").write_text(head + "\n" + "\n".join(rows) + "\n")


@writer
def grism_sn(out: Path) -> None:
    """45 peak magnitudes of a flat wCDM mock (Omega_m 0.31, w -0.95, M -19.25 at H0 70) with a covariance
    (count line first)."""
    rng = np.random.default_rng(22117)
    n = 45
    z = np.sort(rng.uniform(0.05, 1.8, n))
    err = rng.uniform(0.1, 0.18, n)
    cov = correlated_cov(z, err, 0.03, 0.5)
    mb = distance_modulus(z, 0.31, w0=-0.95) - 19.25 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "grism_sn_mb.csv", {"z": z, "mb": mb, "mb_err": err}, {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})
    write_covariance(out / "grism_sn_mb_cov.txt", cov)


# ------------------------------------------------------------------------------------------------ bayes

@writer
def bronchiolitis(out: Path) -> None:
    """Infants seen with bronchiolitis: age in months, oxygen saturation, feeding as a share of normal; admitted
    (1) more often when young, hypoxic and feeding poorly."""
    rng = np.random.default_rng(22118)
    n = 260
    age = rng.uniform(0.5, 18, n)
    spo2 = rng.normal(95, 2.5, n)
    feed = rng.uniform(20, 100, n)
    adm = rng.binomial(1, expit(-0.5 - 0.15 * (age - 6) - 0.5 * (spo2 - 95) - 0.03 * (feed - 60)))
    table(out / "bronchiolitis_ed_visits.csv", {"age_months": age, "spo2": spo2, "feeding_pct": feed,
                                                "admitted": adm},
          {"age_months": ".1f", "spo2": ".0f", "feeding_pct": ".0f"})


@writer
def crevasses(out: Path) -> None:
    """48 points along a glacier transect: surface slope, longitudinal strain rate and whether the point is
    crevassed (1); crevasses come with steep slopes and high extension."""
    rng = np.random.default_rng(22119)
    n = 48
    slope = rng.uniform(2, 18, n)
    strain = rng.normal(0.01, 0.012, n)
    crev = rng.binomial(1, expit(0.25 * (slope - 10) + 90 * (strain - 0.01)))
    table(out / "crevasse_transect_points.csv", {"slope_deg": slope, "strain_rate": strain, "crevassed": crev},
          {"slope_deg": ".1f", "strain_rate": ".4f"})


@writer
def runoff_plots(out: Path) -> None:
    """Rainfall-simulator plots: runoff coefficient against rainfall intensity and antecedent soil moisture
    (smooth, saturating); 54 training plots and 30 test plots in separate files."""
    rng = np.random.default_rng(22120)

    def draw(n: int) -> dict[str, np.ndarray]:
        rain = rng.uniform(10, 90, n)
        moist = rng.uniform(0.1, 0.45, n)
        coef = 0.6 * expit((rain - 45) / 12) * (0.4 + moist) + rng.normal(0, 0.02, n)
        return {"rain_mm_h": rain, "antecedent_moist": moist, "runoff_coef": coef}

    fmt = {"rain_mm_h": ".1f", "antecedent_moist": ".3f", "runoff_coef": ".3f"}
    table(out / "runoff_plots_train.csv", draw(54), fmt)
    table(out / "runoff_plots_test.csv", draw(30), fmt)


@writer
def coastal_well(out: Path) -> None:
    """Head in a coastal observation well against tidal phase and season, both as angles in radians: the
    response repeats every half tidal cycle (shift by pi) and is symmetric about midwinter (phase -> -phase)."""
    rng = np.random.default_rng(22121)
    n = 420
    tide = rng.uniform(0, 2 * np.pi, n)
    season = rng.uniform(0, 2 * np.pi, n)
    head = 1.0 * np.cos(2 * tide) + 0.6 * np.cos(season) + 0.3 * np.cos(2 * tide) * np.cos(season) \
        + 0.2 * np.sin(2 * tide) + rng.normal(0, 0.15, n)
    table(out / "coastal_well_phases.csv", {"tide_phase": tide, "season_phase": season, "head_cm": head},
          {"tide_phase": ".5f", "season_phase": ".5f", "head_cm": ".4f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def discount_drivers(out: Path) -> None:
    """Drivers scored for a safe-driving discount: annual km, share of night driving, hard-braking events per
    1,000 km (which follow km and night share); rows 2 and 5 are high-risk drivers."""
    rng = np.random.default_rng(22122)
    n = 200
    km = np.clip(rng.normal(12000, 5000, n), 2000, None)
    night = np.clip(rng.normal(0.15, 0.1, n), 0, 0.9)
    km[[2, 5]] = [26000, 21000]
    night[[2, 5]] = [0.45, 0.6]
    brakes = np.clip(0.0005 * km + 20 * night + rng.normal(0, 3, n), 0, None)
    table(out / "safe_driver_discount.csv", {"annual_km": km, "night_share": night, "hard_brakes": brakes},
          {"annual_km": ".0f", "night_share": ".3f", "hard_brakes": ".1f"})


@writer
def immersion_nursery(out: Path) -> None:
    """Children offered an immersion nursery place: enrolling (binary) depends on unseen family motivation and
    on a 12-d vector of catchment geography (an .npy, the instrument); vocabulary score 0-100 at school entry."""
    rng = np.random.default_rng(22123)
    n = 500
    age = rng.uniform(36, 54, n)
    inst = rng.normal(size=(n, 12))
    u = rng.normal(size=n)
    enrol = rng.binomial(1, expit(1.2 * inst[:, 0] - 0.8 * inst[:, 1] + 0.6 * inst[:, 2] + 0.9 * u))
    vocab = np.clip(np.round(55 + 8 * enrol + 0.5 * (age - 45) + 7 * u + rng.normal(0, 8, n)), 0, 100)
    table(out / "immersion_nursery_vocab.csv", {"child": [f"N{i:04d}" for i in range(n)], "age_months": age,
                                                "enrolled": enrol, "vocab_score": vocab.astype(int)},
          {"age_months": ".1f"})
    array(out / "nursery_catchment_features.npy", inst)


@writer
def verb_forms(out: Path) -> None:
    """A language model's embeddings (32-d) of verb forms: 6 stems x 6 suffixes, 10 contexts each; nearly
    additive in stem and suffix, with labels (form, stem, suffix) in a CSV."""
    rng = np.random.default_rng(22124)
    stems = ["walk", "jump", "paint", "climb", "cook", "fish"]
    sufs = ["s", "ed", "ing", "er", "able", "ful"]
    a = rng.normal(size=(6, 32))
    b = rng.normal(size=(6, 32))
    rows, emb = [], []
    for i, st in enumerate(stems):
        for j, sf in enumerate(sufs):
            for _ in range(10):
                emb.append(a[i] + b[j] + 0.3 * np.tanh(a[i] * b[j]) + 0.4 * rng.normal(size=32))
                rows.append((st + sf, st, sf))
    array(out / "verb_suffix_embeddings.npy", np.array(emb))
    table(out / "verb_suffix_labels.csv", {"form": [r[0] for r in rows], "stem": [r[1] for r in rows],
                                           "suffix": [r[2] for r in rows]})


SHOPS = ["Leeds", "Hull", "Derby", "Bath", "Ely", "Ripon", "Truro", "Wells"]
PEOPLE = ["Asha Patel", "Tom Reid", "Maria Costa", "Owen Hughes", "Lin Zhou", "Grace Mensah", "Ivan Novak",
          "Ruth Adler", "Sam Okafor", "Nina Berg", "Paul Kerr", "Jade Lowe"]


@writer
def manager_stream(out: Path) -> None:
    """A stream of edits over four quarters: which person manages, and which supplier stocks, each branch of a
    shop chain (later quarters overwrite earlier facts)."""
    rng = np.random.default_rng(22125)
    recs = []
    for t in range(4):
        for shop in SHOPS:
            who = str(rng.choice(PEOPLE))
            recs.append({"timestep": t, "subject": f"the {shop} branch", "relation": "manager",
                         "prompt": f"The manager of the {shop} branch is", "object": who,
                         "rephrase": f"Who runs the {shop} branch? It is run by"})
        for shop in rng.choice(SHOPS, 4, replace=False):
            sup = str(rng.choice(["Northfarm", "Greenvale", "Brookside", "Hillcrest", "Meadowgate"]))
            recs.append({"timestep": t, "subject": f"the {shop} branch", "relation": "supplier",
                         "prompt": f"Fresh bread at the {shop} branch comes from", "object": sup,
                         "rephrase": f"The {shop} branch gets its bread from"})
    json_lines(out / "branch_manager_edits.jsonl", recs)


@writer
def relic_needles(out: Path) -> None:
    """Needles for a long-context test: one sentence each linking a character to a landmark, a question that
    names only the landmark's town, the character as answer, and a literal question."""
    rows = [
        ("Actually, Edda has lived beside the Round Tower for years.", "Which character has been to Copenhagen?",
         "Edda", "Which character has lived beside the Round Tower?"),
        ("Tobiah finally climbed the Giralda last spring.", "Which character has been to Seville?", "Tobiah",
         "Which character climbed the Giralda?"),
        ("Mireille sketched the Alcázar of Segovia from the river.", "Which character has been to Castile?",
         "Mireille", "Which character sketched the Alcázar of Segovia?"),
        ("It was Corwen who rang the bells of the Dom Tower.", "Which character has been to Utrecht?", "Corwen",
         "Which character rang the bells of the Dom Tower?"),
        ("Halvard sold postcards outside the Nidaros Cathedral.", "Which character has been to Trondheim?",
         "Halvard", "Which character sold postcards outside the Nidaros Cathedral?"),
        ("Ysolde swam below the Ponte Vecchio one hot night.", "Which character has been to Florence?", "Ysolde",
         "Which character swam below the Ponte Vecchio?"),
    ]
    table(out / "landmark_town_needles.csv", {"needle": [r[0] for r in rows], "question": [r[1] for r in rows],
                                              "answer": [r[2] for r in rows],
                                              "literal_question": [r[3] for r in rows]})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def bog_oak(out: Path) -> None:
    """Conventional radiocarbon ages (BP) with 1-sigma errors of twelve bog-oak samples from three trench
    layers."""
    rng = np.random.default_rng(22126)
    layer = np.repeat(["L1", "L2", "L3"], 4)
    age = np.concatenate([rng.normal(m, 25, 4) for m in (3150, 3420, 3780)])
    table(out / "bog_oak_c14_ages.csv", {"sample": [f"OxA-{31000 + i}" for i in range(12)], "layer": layer,
                                         "c14_age_bp": np.round(age), "sigma_yr": rng.integers(22, 40, 12)},
          {"c14_age_bp": ".0f"})


@writer
def aftershocks(out: Path) -> None:
    """An aftershock catalogue: origin time (days after the main shock) and local magnitude, Gutenberg-Richter
    with b about 1.1 above a completeness magnitude near 1.8."""
    rng = np.random.default_rng(22127)
    n = 900
    mag = 1.8 + rng.exponential(1 / (1.1 * np.log(10)), n)
    t = np.sort(rng.pareto(0.1, n) % 120)
    table(out / "aftershock_catalogue_ml.csv", {"t_days": t, "ml": np.round(mag, 1)}, {"t_days": ".4f", "ml": ".1f"})


@writer
def peak_flows(out: Path) -> None:
    """Annual maximum daily flow (m3/s) of a river over 58 water years (GEV-like)."""
    rng = np.random.default_rng(22128)
    years = np.arange(1966, 2024)
    u = rng.random(years.size)
    xi, mu, sig = 0.1, 210.0, 60.0
    q = mu + sig / xi * ((-np.log(u)) ** (-xi) - 1)
    table(out / "river_annual_peak_flows.csv", {"water_year": years, "peak_m3s": q}, {"peak_m3s": ".1f"})


@writer
def discourse_codes(out: Path) -> None:
    """Four annotators' codes (five categories, blanks where an annotator skipped) for 150 discourse markers."""
    rng = np.random.default_rng(22129)
    cats = np.array(["contrast", "addition", "cause", "time", "filler"])
    truth = rng.integers(0, 5, 150)
    cols = {"item": [f"dm{i:03d}" for i in range(150)]}
    for a in ("ann_a", "ann_b", "ann_c", "ann_d"):
        code = np.where(rng.random(150) < 0.75, truth, rng.integers(0, 5, 150))
        cols[a] = ["" if rng.random() < 0.1 else str(cats[c]) for c in code]
    table(out / "discourse_marker_codings.csv", cols)


# ------------------------------------------------------------------------------------------------ asks

@writer
def piglet_probiotic(out: Path) -> None:
    """Piglets in a probiotic feed trial: two growth outcomes (nursery and finisher average daily gain), litter
    size and birth weight; the probiotic went more often to lighter piglets."""
    rng = np.random.default_rng(22130)
    n = 380
    litter = rng.integers(8, 17, n)
    bw = rng.normal(1.4, 0.25, n)
    pro = rng.binomial(1, expit(-2 * (bw - 1.4)))
    nursery = 420 + 25 * pro + 120 * (bw - 1.4) - 4 * (litter - 12) + rng.normal(0, 35, n)
    finisher = 880 + 10 * pro + 90 * (bw - 1.4) + rng.normal(0, 60, n)
    table(out / "piglet_probiotic_trial.csv", {
        "piglet": [f"G{i:04d}" for i in range(n)], "probiotic": pro, "litter_size": litter, "birth_wt_kg": bw,
        "adg_nursery_g": nursery, "adg_finisher_g": finisher},
        {"birth_wt_kg": ".2f", "adg_nursery_g": ".0f", "adg_finisher_g": ".0f"})


@writer
def hedgehogs(out: Path) -> None:
    """Rescued hedgehogs released after care: weight at release, days in care, and survival to the first
    follow-up (1)."""
    rng = np.random.default_rng(22131)
    n = 40
    wt = rng.normal(650, 120, n)
    days = rng.integers(10, 90, n)
    surv = rng.binomial(1, expit(0.008 * (wt - 600) - 0.01 * (days - 40)))
    table(out / "hedgehog_release_followup.csv", {"release_wt_g": wt, "days_in_care": days, "survived": surv},
          {"release_wt_g": ".0f"})


@writer
def borehole_loggers(out: Path) -> None:
    """Two borehole pressure loggers (north and south wellfield), hourly level, temperature and conductivity;
    each with a few glitches."""
    for tag, seed in (("north", 22132), ("south", 22133)):
        rng = np.random.default_rng(seed)
        n = 700
        bad = rng.random(n) < 0.03
        table(out / f"borehole_logger_{tag}.csv", {
            "level_m": rng.normal(14, 0.4, n) + 3 * bad * rng.choice([-1, 1], n),
            "temp_c": rng.normal(10.5, 0.2, n) + 2 * bad, "ec_us_cm": rng.normal(620, 30, n)},
            {"level_m": ".3f", "temp_c": ".2f", "ec_us_cm": ".0f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
