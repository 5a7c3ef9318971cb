"""Write every data file of the eighth blind prose task set, deterministically.

``python tests/understanding_blind8/make_data.py`` rewrites ``tests/understanding_blind8/data/``; ``--out DIR``
writes elsewhere (``test_set.py`` does that and compares checksums with the committed files). Each file is
simulated here with numpy alone from its own seed; floats are written with fixed formats so the bytes do not
depend on the platform, and the one ``.npz`` archive is a zip of stored (uncompressed) members with a fixed date,
written by hand. Nothing here uses cmbagent's code. The set states no answers, so no truths file is written; the
structure built into each file is described in ``data/SOURCES.md``.
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
C_KM_S = 299792.458


def distance_modulus(z: np.ndarray, om: float, w0: float = -1.0, h0: float = 70.0,
                     ode: float | None = None) -> np.ndarray:
    """mu = 5 log10(D_L / 10 pc): flat constant-w background, or a curved Lambda one when ``ode`` is given."""
    grid = np.linspace(0.0, float(np.max(z)) * 1.001, 8001)
    ok = 0.0 if ode is None else 1.0 - om - ode
    de = (1.0 - om) * (1 + grid) ** (3 * (1 + w0)) if ode is None else ode * np.ones_like(grid)
    inv = 1.0 / np.sqrt(om * (1 + grid) ** 3 + de + ok * (1 + grid) ** 2)
    dc_grid = np.concatenate([[0.0], np.cumsum((inv[1:] + inv[:-1]) / 2 * np.diff(grid))])
    chi = np.interp(z, grid, dc_grid)
    if ok > 0:
        chi = np.sinh(np.sqrt(ok) * chi) / np.sqrt(ok)
    elif ok < 0:
        chi = np.sin(np.sqrt(-ok) * chi) / np.sqrt(-ok)
    return np.asarray(5 * np.log10((1 + z) * chi * C_KM_S / h0) + 25)


# ------------------------------------------------------------------------------------------ causal effects

@writer
def closure_hauls(out: Path) -> None:
    """Skippers fish the reopened box more in deep, cool water after calm spells; it adds about 30 kg/h."""
    rng = np.random.default_rng(8101)
    n = 760
    depth = rng.uniform(25, 140, n)
    sst = rng.normal(11.5, 1.4, n)
    kw = rng.gamma(6, 70, n)
    calm = rng.integers(0, 15, n)
    inside = rng.binomial(1, expit(-0.4 + 0.015 * (depth - 80) - 0.3 * (sst - 11.5) + 0.08 * (calm - 7)))
    cpue = np.clip(180 + 30 * inside + 0.6 * (depth - 80) - 9 * (sst - 11.5) + 0.08 * (kw - 420) + 2.5 * calm
                   + rng.normal(0, 35, n), 5, None)
    table(out / "closure_haul_log.csv", {
        "haul_id": [f"H{i:05d}" for i in range(1, n + 1)], "vessel": rng.choice(["Morven", "Skua", "Tern II"], n),
        "inside_box": inside, "depth_m": depth, "sst_c": sst, "engine_kw": kw, "days_since_storm": calm,
        "cpue_kg_h": cpue},
        {"depth_m": ".0f", "sst_c": ".2f", "engine_kw": ".0f", "cpue_kg_h": ".1f"})


@writer
def feeder_storage(out: Path) -> None:
    """Storage goes to long, wooded, stormy feeders; each MWh cuts outage minutes per customer by about 4."""
    rng = np.random.default_rng(8102)
    n = 520
    line = rng.gamma(3, 12, n)
    trees = rng.uniform(5, 75, n)
    cust = rng.gamma(2.5, 1.6, n)
    storms = rng.poisson(9, n)
    mwh = np.clip(0.04 * (line - 36) + 0.05 * (trees - 40) + 0.15 * (storms - 9) + 1.5 + rng.normal(0, 1.2, n), 0,
                  None)
    saidi = np.clip(95 - 4.0 * mwh + 0.9 * (line - 36) + 0.7 * (trees - 40) + 3.0 * (storms - 9) - 1.5 * cust
                    + rng.normal(0, 12, n), 0, None)
    table(out / "feeder_storage_outages.csv", {
        "feeder": [f"F-{i:04d}" for i in range(n)], "line_km": line, "tree_cover_pct": trees, "customers_k": cust,
        "storm_days": storms, "battery_mwh": mwh, "saidi_min": saidi},
        {"line_km": ".1f", "tree_cover_pct": ".1f", "customers_k": ".2f", "battery_mwh": ".2f", "saidi_min": ".1f"})


@writer
def sms_trial(out: Path) -> None:
    """Reminders went more often to patients whose referral letters signal frailty; they raise attendance by
    about 8 points. Frailty shows only in the letter vectors."""
    rng = np.random.default_rng(8103)
    n = 600
    frail = rng.normal(size=n)
    vectors = rng.normal(size=(n, 16)) * 0.6
    vectors[:, :3] += np.outer(frail, [0.9, -0.7, 0.5])
    age = np.clip(np.round(58 + 9 * frail + rng.normal(0, 12, n)), 18, 95)
    dist = rng.gamma(2, 6, n)
    prior = rng.poisson(0.4 + 0.3 * np.clip(frail, 0, None), n)
    sms = rng.binomial(1, expit(0.1 + 0.9 * frail - 0.02 * (dist - 12)))
    attended = rng.binomial(1, np.clip(expit(1.2 - 0.6 * frail - 0.03 * (dist - 12) - 0.4 * prior) + 0.08 * sms,
                                       0.01, 0.99))
    table(out / "outpatient_sms_trial.csv", {
        "appt_id": np.arange(30001, 30001 + n), "clinic": rng.choice(["derm", "ortho", "ent", "cardio"], n),
        "age": age, "distance_km": dist, "prior_dna": prior, "sms_sent": sms, "attended": attended},
        {"age": ".0f", "distance_km": ".1f"})
    array(out / "referral_text_vectors.npy", vectors)


@writer
def extension_farms(out: Path) -> None:
    """Extension officers visit farms nearer the market with older heads; a visit adds about 0.35 t/ha."""
    rng = np.random.default_rng(8104)
    n = 820
    plot = rng.gamma(2, 0.6, n)
    rain = rng.normal(780, 140, n)
    head = rng.integers(22, 75, n)
    market = rng.gamma(2, 5, n)
    fert = np.clip(rng.normal(45, 25, n), 0, None)
    visited = rng.binomial(1, expit(-0.2 - 0.08 * (market - 10) + 0.02 * (head - 45) + 0.01 * (fert - 45)))
    yld = np.clip(1.9 + 0.35 * visited + 0.0015 * (rain - 780) + 0.012 * (fert - 45) - 0.02 * (market - 10)
                  - 0.1 * (plot - 1.2) + rng.normal(0, 0.45, n), 0.1, None)
    table(out / "smallholder_extension.csv", {
        "farm_id": [f"SH{i:04d}" for i in range(n)], "district": rng.choice(["Kasama", "Mpika", "Luwingu"], n),
        "visited": visited, "plot_ha": plot, "rain_mm": rain, "hh_head_age": head, "market_km": market,
        "fert_kg": fert, "yield_t_ha": yld},
        {"plot_ha": ".2f", "rain_mm": ".0f", "market_km": ".1f", "fert_kg": ".1f", "yield_t_ha": ".2f"})


@writer
def microloans(out: Path) -> None:
    """Catch follows boat length (3 t per metre), savings follow catch (0.2 k per t); the lender approves on all
    three. The listed applicants five and ten were declined."""
    rng = np.random.default_rng(8105)
    n = 300
    length = rng.uniform(6, 14, n)
    catch = 3.0 * length + rng.normal(0, 5, n)
    savings = 0.2 * catch + rng.normal(0, 3, n)
    approved = rng.binomial(1, expit(-9 + 0.25 * length + 0.1 * catch + 0.35 * savings))
    for i, (ln, ct, sv) in ((4, (7.1, 16.0, 1.2)), (9, (8.4, 21.5, 2.9))):  # two small boats, declined
        length[i], catch[i], savings[i], approved[i] = ln, ct, sv, 0
    table(out / "coastal_microloans.csv", {"boat_length_m": length, "catch_t_yr": catch, "savings_k": savings,
                                           "approved": approved},
          {"boat_length_m": ".1f", "catch_t_yr": ".1f", "savings_k": ".2f"})


@writer
def flu_shots(out: Path) -> None:
    """Frailty (unseen) drives both the flu shot and hospitalisation; distance, pharmacies and queues shift who
    gets the shot. The shot lowers the chance of admission by about 0.06."""
    rng = np.random.default_rng(8106)
    n = 1000
    age = rng.integers(60, 95, n)
    chronic = rng.poisson(1.4, n)
    frail = rng.normal(size=n)
    dist = rng.gamma(2, 3, n)
    pharm = rng.poisson(3, n)
    queue = rng.gamma(3, 8, n)
    shot = rng.binomial(1, expit(0.5 - 0.15 * (dist - 6) + 0.25 * (pharm - 3) - 0.03 * (queue - 24) + 0.5 * frail
                                 + 0.03 * (age - 75)))
    hosp = rng.binomial(1, np.clip(expit(-2.2 + 0.8 * frail + 0.03 * (age - 75) + 0.3 * chronic) - 0.06 * shot,
                                   0.005, 0.99))
    table(out / "flu_shot_cohort.csv", {"person": [f"P{i:05d}" for i in range(n)], "age": age,
                                        "chronic_conditions": chronic, "dist_clinic_km": dist, "pharmacy_count": pharm,
                                        "queue_min": queue, "vaccinated": shot, "hospitalised": hosp},
          {"dist_clinic_km": ".2f", "queue_min": ".1f"})


# ------------------------------------------------------------------------------------------------ surveys

AGES = ["18-34", "35-54", "55-74", "75+"]


@writer
def dialect_panel(out: Path) -> None:
    """Two waves of a survey on using the regional dialect in schools and on air; the young and the islands
    support it more, support rose between waves; a language model's answers per education level."""
    rng = np.random.default_rng(8107)
    n = 1400
    wave = rng.choice([2019, 2024], n)
    age = rng.choice(AGES, n, p=[0.15, 0.3, 0.35, 0.2])
    region = rng.choice(["north", "south", "islands"], n, p=[0.35, 0.45, 0.2])
    edu = rng.choice(["school", "college", "degree"], n, p=[0.4, 0.35, 0.25])
    wt = np.round(np.where(region == "islands", 0.7, 1.1) * rng.uniform(0.85, 1.15, n), 3)
    score = 0.5 * (age == "18-34") + 0.7 * (region == "islands") + 0.3 * (wave == 2024) - 0.3 * (edu == "degree")
    school = ordered(rng, score, ["support", "neutral", "oppose"], (-0.4, 0.8))
    broadcast = ordered(rng, 0.7 * score + 0.3, ["support", "neutral", "oppose"], (-0.4, 0.8))
    table(out / "dialect_attitude_panel.csv", {"resp_id": np.arange(1, n + 1), "wave": wave, "age_band": age,
                                               "region": region, "education": edu, "design_wt": wt,
                                               "q_school_use": school, "q_broadcast": broadcast}, {"design_wt": ".3f"})
    shares = {"age_band": dict(zip(AGES, (0.27, 0.33, 0.28, 0.12), strict=True)),
              "region": {"north": 0.38, "south": 0.5, "islands": 0.12}}
    rows = [(v, lv, s) for v, levels in shares.items() for lv, s in levels.items()]
    table(out / "dialect_census_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                               "share": [r[2] for r in rows]}, {"share": ".2f"})
    model = {("q_school_use", "school"): (0.50, 0.30, 0.20), ("q_school_use", "college"): (0.45, 0.35, 0.20),
             ("q_school_use", "degree"): (0.35, 0.35, 0.30), ("q_broadcast", "school"): (0.60, 0.25, 0.15),
             ("q_broadcast", "college"): (0.55, 0.30, 0.15), ("q_broadcast", "degree"): (0.50, 0.30, 0.20)}
    rows = [(q, a, s, g) for (q, g), ps in model.items()
            for a, s in zip(["support", "neutral", "oppose"], ps, strict=True)]
    table(out / "dialect_llm_answers.csv", {"question": [r[0] for r in rows], "answer": [r[1] for r in rows],
                                            "share": [r[2] for r in rows], "subgroup": [r[3] for r in rows]},
          {"share": ".2f"})


@writer
def inpatient_survey(out: Path) -> None:
    """A patient-experience survey with two questionnaire forms (form B asks about the food first), older and
    elective patients over-represented, and a weighted reference sample of all discharges."""
    rng = np.random.default_rng(8108)
    n = 950
    age = rng.choice(AGES, n, p=[0.1, 0.22, 0.4, 0.28])
    sex = rng.choice(["female", "male"], n)
    adm = rng.choice(["elective", "emergency"], n, p=[0.55, 0.45])
    form = rng.choice(["A", "B"], n)
    score = 0.5 * (adm == "elective") + 0.3 * (age == "75+") - 0.4 * (form == "B")
    overall = ordered(rng, score, ["good", "fair", "poor"], (-0.6, 0.6))
    recommend = ordered(rng, 0.8 * score, ["yes", "unsure", "no"], (-0.8, 0.3))
    table(out / "inpatient_experience.csv", {"patient_ref": [f"IP{i:05d}" for i in range(n)], "form": form,
                                             "age_band": age, "sex": sex, "admission_type": adm,
                                             "overall_rating": overall, "would_recommend": recommend})
    m = 1100
    table(out / "inpatient_reference.csv", {
        "age_band": rng.choice(AGES, m, p=[0.2, 0.28, 0.32, 0.2]), "sex": rng.choice(["female", "male"], m),
        "admission_type": rng.choice(["elective", "emergency"], m, p=[0.35, 0.65]),
        "ref_weight": rng.uniform(0.6, 1.6, m)}, {"ref_weight": ".3f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def meter_tamper(out: Path) -> None:
    """About 6% of smart meters tampered with: low night use for the load, poor power factor, lid events."""
    rng = np.random.default_rng(8109)
    n = 1100
    bad = rng.random(n) < 0.06
    cols = {"day_kwh": rng.gamma(4, 3, n), "night_kwh": rng.gamma(3, 1.5, n) * np.where(bad, 0.35, 1.0),
            "pf_mean": np.clip(rng.normal(0.93, 0.03, n) - 0.08 * bad, 0.5, 1.0),
            "voltage_sd": rng.gamma(2, 0.8, n) + 1.2 * bad, "reversals": rng.poisson(np.where(bad, 3.0, 0.2), n),
            "lid_open_events": rng.poisson(np.where(bad, 1.5, 0.05), n)}
    table(out / "smart_meter_tamper.csv", {**cols, "tamper_confirmed": bad.astype(int)},
          {"day_kwh": ".3f", "night_kwh": ".3f", "pf_mean": ".4f", "voltage_sd": ".3f"})


@writer
def seismic_triggers(out: Path) -> None:
    """Station triggers: about 7% are false (short, high-frequency, unpolarised bursts)."""
    rng = np.random.default_rng(8110)
    n = 1200
    false = rng.random(n) < 0.07
    x = np.column_stack([
        rng.gamma(3, 1.5, n) + 2.0 * false, rng.lognormal(1.5, 0.4, n) * np.where(false, 3.0, 1.0),
        rng.lognormal(2.5, 0.5, n) * np.where(false, 0.25, 1.0), rng.lognormal(-3, 1, n),
        rng.normal(3, 0.6, n) + 2.5 * false, np.clip(rng.normal(0.7, 0.12, n) - 0.35 * false, 0, 1)])
    npz(out / "station_trigger_features.npz",
        {"X": npy_bytes(x), "y": npy_bytes(false.astype(np.int64), "<i8")})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def chondrites(out: Path) -> None:
    """H (0) against L (1) ordinary chondrites from four measurements, overlapping at the margin."""
    rng = np.random.default_rng(8111)
    n = 460
    low = rng.random(n) < 0.5
    table(out / "chondrite_petrology.csv", {
        "fayalite_mol_pct": rng.normal(np.where(low, 24.5, 18.8), 1.6),
        "metal_vol_pct": rng.normal(np.where(low, 4.5, 8.2), 1.8),
        "bulk_density": rng.normal(np.where(low, 3.36, 3.42), 0.06),
        "log_mag_susc": rng.normal(np.where(low, 4.87, 5.32), 0.18), "group_code": low.astype(int)},
        {"fayalite_mol_pct": ".2f", "metal_vol_pct": ".2f", "bulk_density": ".3f", "log_mag_susc": ".3f"})


@writer
def readmissions(out: Path) -> None:
    """30-day readmission; ward transfers matter but are largely predictable from the stay and prior admissions."""
    rng = np.random.default_rng(8112)
    n = 900
    age = rng.integers(18, 96, n)
    los = rng.gamma(2, 2.5, n)
    prior = rng.poisson(1.0, n)
    transfers = np.clip(np.round(0.25 * los + 0.4 * prior + rng.normal(0, 0.6, n)), 0, None)
    hb = rng.normal(12.8, 1.7, n)
    meds = rng.poisson(6, n)
    logit = -1.8 + 0.02 * (age - 60) + 0.12 * (los - 5) + 0.35 * prior + 0.3 * transfers - 0.2 * (hb - 12.8) \
        + 0.05 * (meds - 6)
    table(out / "readmission_features.csv", {"age": age, "los_days": los, "prior_admissions": prior,
                                             "ward_transfers": transfers, "hb_g_dl": hb, "n_medications": meds,
                                             "readmitted_30d": rng.binomial(1, expit(logit))},
          {"los_days": ".1f", "hb_g_dl": ".1f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def hypocentre_logpost(out: Path) -> None:
    """A curved two-parameter posterior (standardised depth and magnitude trade off) as a Python log density."""
    (out / "hypocentre_logpost.py").write_text(
        '"""Unnormalised log posterior of (depth, magnitude) for one aftershock, both standardised.\n\n'
        "The magnitude estimate trades off with depth: deeper sources need larger magnitudes for the same\n"
        'amplitudes, bending the posterior into an arc.\n"""\n\n'
        "import torch\n\n\n"
        "def log_prob(z: torch.Tensor) -> torch.Tensor:\n"
        "    depth, mag = z[:, 0], z[:, 1]\n"
        "    return -0.5 * (depth / 1.2) ** 2 - 0.5 * ((mag - 0.5 * depth ** 2 + 0.8) / 0.4) ** 2\n")


@writer
def free_throws(out: Path) -> None:
    """48 free throws of one player: longer practice distances and more minutes played lower the make rate."""
    rng = np.random.default_rng(8113)
    n = 48
    dist = rng.choice([4.2, 4.6, 5.0, 5.4], n)
    minutes = rng.uniform(0, 36, n)
    made = rng.binomial(1, expit(0.8 - 1.5 * (dist - 4.6) - 0.04 * (minutes - 18)))
    table(out / "free_throw_log.csv", {"attempt": np.arange(1, n + 1), "distance_m": dist, "minutes_played": minutes,
                                       "made": made}, {"distance_m": ".1f", "minutes_played": ".1f"})


@writer
def bus_journeys(out: Path) -> None:
    """Route 9 journey times against departure hour, rainfall and boardings; peaks at 8 and 17 h."""
    rng = np.random.default_rng(8114)
    for name, n in (("route9_journeys_train.csv", 40), ("route9_journeys_test.csv", 120)):
        hour = rng.uniform(6, 22, n)
        rain = rng.gamma(0.8, 2.5, n)
        board = rng.poisson(30, n)
        t = (34 + 9 * np.exp(-((hour - 8) ** 2) / 12.5) + 7 * np.exp(-((hour - 17) ** 2) / 12.5) + 0.8 * rain
             + 0.12 * (board - 30) + rng.normal(0, 0.3, n))
        table(out / name, {"depart_hour": hour, "rain_mm": rain, "boardings": board, "journey_min": t},
              {"depart_hour": ".2f", "rain_mm": ".1f", "journey_min": ".1f"})


@writer
def rotor_scan(out: Path) -> None:
    """Torsional energy of a molecule with two equivalent methyl rotors: period 2pi/3 in each angle and symmetric
    under swapping them."""
    rng = np.random.default_rng(8115)
    n = 480
    p1, p2 = rng.uniform(-np.pi, np.pi, n), rng.uniform(-np.pi, np.pi, n)
    e = (4.5 * (2 - np.cos(3 * p1) - np.cos(3 * p2)) / 2 + 1.1 * np.cos(3 * p1) * np.cos(3 * p2)
         - 0.7 * np.sin(3 * p1) * np.sin(3 * p2) + rng.normal(0, 0.2, n))
    table(out / "dimethyl_torsion_scan.csv", {"phi1_rad": p1, "phi2_rad": p2, "energy_kj": e},
          {"phi1_rad": ".6f", "phi2_rad": ".6f", "energy_kj": ".4f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def juniper(out: Path) -> None:
    """120 distance moduli of a flat constant-w universe (w -0.85, Omega_m 0.30)."""
    rng = np.random.default_rng(8116)
    n = 120
    z = np.sort(rng.uniform(0.015, 1.4, n))
    err = rng.uniform(0.1, 0.2, n)
    mu = distance_modulus(z, 0.30, -0.85) + rng.normal(0, err)
    table(out / "juniper_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


LCPARAM_HEAD = ("#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec "
                "biascor")


@writer
def tamarisk(out: Path) -> None:
    """60 standardised magnitudes in a CosmoMC lcparam layout (flat Lambda, Omega_m 0.32, M -19.35) and a
    systematic covariance."""
    rng = np.random.default_rng(8117)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.3, n))
    zhel = z + rng.normal(0, 0.0005, n)
    dmb = rng.uniform(0.1, 0.16, n)
    sys_cov = 0.03 ** 2 * np.exp(-np.abs(z[:, None] - z[None, :]) / 0.3)
    mb = distance_modulus(z, 0.32) - 19.35 + rng.multivariate_normal(np.zeros(n), sys_cov + np.diag(dmb ** 2))
    lines = [LCPARAM_HEAD]
    for i in range(n):
        lines.append(f"TAM{i:03d} {z[i]:.5f} {zhel[i]:.5f} 0 {mb[i]:.5f} {dmb[i]:.5f} 0 0 0 0 10.5 0 0 0 0 1 0 0 0")
    (out / "tamarisk_lcparam.txt").write_text("\n".join(lines) + "\n")
    write_covariance(out / "tamarisk_sys_cov.txt", sys_cov)


@writer
def rowan(out: Path) -> None:
    """95 moduli of a slightly open Lambda universe (Omega_m 0.28, Omega_Lambda 0.66), H0 71.5."""
    rng = np.random.default_rng(8118)
    n = 95
    z = np.sort(rng.uniform(0.01, 1.2, n))
    err = rng.uniform(0.12, 0.22, n)
    mu = distance_modulus(z, 0.28, h0=71.5, ode=0.66) + rng.normal(0, err)
    table(out / "rowan_distance_moduli.csv", {"redshift": z, "mu": mu, "sigma_mu": err},
          {"redshift": ".4f", "mu": ".4f", "sigma_mu": ".3f"})


@writer
def sorrel(out: Path) -> None:
    """50 magnitudes of flat Lambda (Omega_m 0.31) with a covariance, for a joint fit with the CMB."""
    rng = np.random.default_rng(8119)
    n = 50
    z = np.sort(rng.uniform(0.02, 1.1, n))
    dmb = rng.uniform(0.11, 0.17, n)
    cov = np.diag(dmb ** 2) + 0.025 ** 2 * np.exp(-np.abs(z[:, None] - z[None, :]) / 0.5)
    mb = distance_modulus(z, 0.31) - 19.3 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "sorrel_sn.csv", {"zcmb": z, "mb": mb, "dmb": dmb}, {"zcmb": ".5f", "mb": ".5f", "dmb": ".5f"})
    write_covariance(out / "sorrel_sn_cov.txt", cov)


@writer
def shear_chains(out: Path) -> None:
    """Three GetDist-style chains (weight like Omega_m sigma8 S8 A_IA) of one lensing run, settling slowly."""
    rng = np.random.default_rng(8120)
    centre = np.array([0.29, 0.80, 0.787, 0.6])
    sd = np.array([0.02, 0.03, 0.015, 0.3])
    for k, start in enumerate(([0.45, 0.62, 0.76, 1.8], [0.18, 0.98, 0.80, -0.8], [0.35, 0.70, 0.76, 1.0]), 1):
        x = ar_chain(rng, 1100, centre, sd, np.array(start), 120.0, rho=0.7)
        w = rng.integers(1, 5, x.shape[0])
        like = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 410.0
        lines = ["# weight like Omega_m sigma8 S8 A_IA"]
        lines += [f"{wi} {li:.3f} {r[0]:.5f} {r[1]:.5f} {r[2]:.5f} {r[3]:.4f}" for wi, li, r in zip(w, like, x,
                                                                                                   strict=True)]
        (out / f"shear_run_chain_{k}.txt").write_text("\n".join(lines) + "\n")


@writer
def cluster_chain(out: Path) -> None:
    """A plain-header chain of a cluster-abundance wCDM fit, 1,500 rows, settling within the first tenth."""
    rng = np.random.default_rng(8121)
    centre = np.array([0.31, 0.78, -0.95, 0.70])
    sd = np.array([0.025, 0.02, 0.12, 0.03])
    x = ar_chain(rng, 1500, centre, sd, np.array([0.5, 0.6, -1.6, 0.8]), 30.0, rho=0.7)
    loglike = -0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) - 88.0
    lines = ["Omega_m sigma8 w0 h loglike"]
    lines += [f"{r[0]:.5f} {r[1]:.5f} {r[2]:.4f} {r[3]:.5f} {ll:.3f}" for r, ll in zip(x, loglike, strict=True)]
    (out / "cluster_abundance_chain.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

@writer
def transfer_stream(out: Path) -> None:
    """Four transfer windows of invented footballers moving between invented clubs, with rephrasings and
    questions about the clubs' grounds that must not change."""
    rng = np.random.default_rng(8122)
    first = ["Ilario", "Bastien", "Kofi", "Ruairi", "Teodor", "Yannick", "Osric", "Matthias", "Ezio", "Lorcan",
             "Anselm", "Dario", "Fintan", "Jorvik", "Quentin", "Sorley"]
    last = ["Venn", "Okafor", "Lisle", "Marchetti", "Drayne", "Holloway", "Quist", "Ferrand", "Abbot", "Szabo"]
    clubs = {"Harrow Athletic": "Keelside Park", "Dunmore Rovers": "the Old Tannery", "Castlebar Town": "Millbrook",
             "Westfield Wanderers": "Ashgrove Lane", "Port Selby": "the Quayside", "Ravenholt United": "Fenwick Road",
             "Brightwater FC": "Saltmarsh Stadium", "Kingsmere Albion": "Hollins Field"}
    names = [f"{f} {ln}" for f in first for ln in last]
    chosen = rng.choice(len(names), 60, replace=False)
    club_names = list(clubs)
    records = []
    for i, idx in enumerate(chosen):
        player = names[int(idx)]
        club = club_names[int(rng.integers(len(club_names)))]
        ground = rng.choice(club_names)
        records.append({"timestep": i // 15 + 1, "subject": player, "relation": "club",
                        "prompt": f"{player} plays his football for", "object": club,
                        "rephrase": f"The club that signed {player} is", "locality_prompt": f"{ground} play at",
                        "locality_answer": clubs[str(ground)]})
    json_lines(out / "club_transfer_stream.jsonl", records)


@writer
def bridge_needles(out: Path) -> None:
    """Six needles in which a character is tied to a city only through one of its bridges."""
    rows = [("Ottilie", "rowed under the Ponte Vecchio every morning that spring", "Florence",
             "Which character rowed under the Ponte Vecchio?"),
            ("Barnaby", "sold chestnuts at the end of the Charles Bridge", "Prague",
             "Which character sold chestnuts at the Charles Bridge?"),
            ("Ingrid", "waited for the Tower Bridge bascules to come down", "London",
             "Which character waited for the Tower Bridge bascules?"),
            ("Rafael", "cycled across the Golden Gate in a thick fog", "San Francisco",
             "Which character cycled across the Golden Gate?"),
            ("Marguerite", "dropped her gloves off the Rialto steps", "Venice",
             "Which character dropped her gloves off the Rialto steps?"),
            ("Tamsin", "counted the lions on the Chain Bridge twice", "Budapest",
             "Which character counted the lions on the Chain Bridge?")]
    table(out / "riverside_needles.csv", {
        "needle": [f"One year {r[0]} {r[1]}." for r in rows],
        "question": [f"Which character has been to {r[2]}?" for r in rows],
        "answer": [r[0] for r in rows], "literal_question": [r[3] for r in rows],
        "avoid": [r[2] for r in rows]})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def aftershock_arrivals(out: Path) -> None:
    """P and S arrivals at 14 stations from one aftershock at 51.93 N 17.42 E, 9 km deep (vp 6.0, vs 3.5 km/s)."""
    rng = np.random.default_rng(8123)
    lat = 51.93 + rng.uniform(-0.6, 0.6, 14)
    lon = 17.42 + rng.uniform(-0.9, 0.9, 14)
    dx = (lon - 17.42) * 111.2 * np.cos(np.radians(51.93))
    dy = (lat - 51.93) * 111.2
    r = np.sqrt(dx ** 2 + dy ** 2 + 9.0 ** 2)
    table(out / "aftershock_arrivals.csv", {"station": [f"PL{i:02d}" for i in range(14)], "lat": lat, "lon": lon,
                                            "p_arrival_s": 3.2 + r / 6.0 + rng.normal(0, 0.05, 14),
                                            "s_arrival_s": 3.2 + r / 3.5 + rng.normal(0, 0.1, 14)},
          {"lat": ".4f", "lon": ".4f", "p_arrival_s": ".3f", "s_arrival_s": ".3f"})


@writer
def till_totals(out: Path) -> None:
    """156 weekly takings of one shop: trend, a yearly cycle and a December spike."""
    rng = np.random.default_rng(8124)
    weeks = np.arange(156)
    start = np.datetime64("2021-01-04")
    takings = (18500 + 25 * weeks + 2600 * np.sin(2 * np.pi * weeks / 52 - 1.2)
               + 6000 * ((weeks % 52) >= 49) + rng.normal(0, 700, 156))
    table(out / "weekly_till_totals.csv", {"week_start": [str(start + 7 * int(w)) for w in weeks],
                                           "takings_gbp": takings}, {"takings_gbp": ".2f"})


@writer
def saga_words(out: Path) -> None:
    """Word counts of a saga corpus, close to a Zipf law with exponent about 1.07."""
    rng = np.random.default_rng(8125)
    syll = ["ar", "bo", "dr", "ei", "fa", "gu", "hal", "ing", "jo", "kel", "lo", "mar", "nu", "or", "rik", "sv",
            "ta", "ul", "vi", "yr"]
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < 700:
        w = "".join(rng.choice(syll, int(rng.integers(1, 4))))
        if w not in seen:
            seen.add(w)
            words.append(w)
    ranks = np.arange(1, 701)
    counts = np.maximum(1, np.round(52000 * ranks ** -1.07 * rng.lognormal(0, 0.08, 700))).astype(int)
    counts = np.sort(counts)[::-1]
    table(out / "saga_word_frequencies.csv", {"word": words, "count": counts})


@writer
def county_panel(out: Path) -> None:
    """Retail jobs in 60 counties over 2012-2022; 36 raise a wage floor in 2015, 2017 or 2019, the rest never."""
    rng = np.random.default_rng(8126)
    rows = []
    for c in range(60):
        adopt = int(rng.choice([2015, 2017, 2019, 0], p=[0.2, 0.2, 0.2, 0.4]))
        level = rng.normal(8.5, 0.6)
        for year in range(2012, 2023):
            effect = -0.02 * (year - adopt + 1) if adopt and year >= adopt else 0.0
            rows.append((f"C{c:02d}", year, adopt, level + 0.015 * (year - 2012) + effect + rng.normal(0, 0.02)))
    table(out / "county_retail_panel.csv", {"county": [r[0] for r in rows], "year": [r[1] for r in rows],
                                            "first_treated": [r[2] for r in rows],
                                            "log_retail_jobs": [r[3] for r in rows]}, {"log_retail_jobs": ".4f"})


# ------------------------------------------------------------------------------------------------ asks

@writer
def discharge_lounge(out: Path) -> None:
    """Use of a discharge lounge and two lengths of stay: the patient administration system's and the
    electronic record's (they differ by the hours counted)."""
    rng = np.random.default_rng(8127)
    n = 700
    age = rng.integers(40, 98, n)
    frailty = rng.integers(1, 10, n)
    emergency = rng.binomial(1, 0.6, n)
    lounge = rng.binomial(1, expit(-0.3 + 0.02 * (age - 70) - 0.15 * (frailty - 5) + 0.4 * emergency))
    los = np.clip(rng.gamma(2, 2.2, n) + 0.3 * (frailty - 5) - 0.4 * lounge, 0.3, None)
    table(out / "discharge_lounge_audit.csv", {
        "episode": [f"E{i:05d}" for i in range(n)], "age": age, "frailty_score": frailty, "emergency": emergency,
        "used_lounge": lounge, "los_days_pas": los, "los_days_ehr": los + rng.uniform(-0.4, 0.3, n)},
        {"los_days_pas": ".2f", "los_days_ehr": ".2f"})


@writer
def larch(out: Path) -> None:
    """80 moduli of a flat constant-w universe for a request the fit cannot serve (w in redshift bins)."""
    rng = np.random.default_rng(8128)
    n = 80
    z = np.sort(rng.uniform(0.02, 1.8, n))
    err = rng.uniform(0.1, 0.18, n)
    mu = distance_modulus(z, 0.3, -0.95) + rng.normal(0, err)
    table(out / "larch_sn_moduli.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def cupping(out: Path) -> None:
    """Coffee lots graded into three classes from altitude, moisture, defects and fermentation time."""
    rng = np.random.default_rng(8129)
    n = 540
    alt = rng.uniform(900, 2200, n)
    moist = rng.normal(11, 0.8, n)
    defects = rng.poisson(6, n)
    ferm = rng.uniform(12, 72, n)
    score = 0.003 * (alt - 1500) - 0.25 * (defects - 6) - 0.5 * (moist - 11) + 0.01 * (ferm - 40)
    grade = ordered(rng, score, ["specialty", "premium", "commercial"], (-0.6, 0.8))
    table(out / "coffee_cupping_lots.csv", {"altitude_m": alt, "moisture_pct": moist, "defects_per_300g": defects,
                                            "fermentation_h": ferm, "grade": grade},
          {"altitude_m": ".0f", "moisture_pct": ".2f", "fermentation_h": ".1f"})


@writer
def ferry_survey(out: Path) -> None:
    """A ferry passengers' survey and two census margin tables of the islands (2011 and 2021)."""
    rng = np.random.default_rng(8130)
    n = 800
    age = rng.choice(AGES, n, p=[0.2, 0.3, 0.35, 0.15])
    island = rng.choice(["Inner", "Outer"], n, p=[0.6, 0.4])
    car = rng.choice(["car", "foot"], n, p=[0.55, 0.45])
    score = 0.4 * (island == "Inner") + 0.3 * (car == "foot") - 0.3 * (age == "75+")
    table(out / "ferry_passenger_survey.csv", {
        "ticket_no": np.arange(50001, 50001 + n), "age_band": age, "island": island, "travel_mode": car,
        "timetable_view": ordered(rng, score, ["satisfied", "neutral", "dissatisfied"], (-0.5, 0.5)),
        "fare_view": ordered(rng, -0.5 * score, ["satisfied", "neutral", "dissatisfied"], (-0.5, 0.5))})
    for year, ages, inner in ((2011, (0.24, 0.34, 0.30, 0.12), 0.58), (2021, (0.20, 0.31, 0.33, 0.16), 0.54)):
        rows = [("age_band", a, s) for a, s in zip(AGES, ages, strict=True)]
        rows += [("island", "Inner", inner), ("island", "Outer", round(1 - inner, 2))]
        table(out / f"island_census_{year}.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                                  "share": [r[2] for r in rows]}, {"share": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
