"""Write every data file of the sixth blind prose task set, deterministically.

``python tests/understanding_blind6/make_data.py`` rewrites ``tests/understanding_blind6/data/``; ``--out DIR``
writes elsewhere (``test_set.py`` does that and compares checksums with the committed files). Each file is
simulated here with numpy alone from its own seed; floats are written with fixed formats so the bytes do not
depend on the platform, and the one gzip chain is written with stored (uncompressed) deflate blocks by hand, so
its bytes depend on no zlib build. Nothing here uses cmbagent's code. The set states no answers, so no truths file
is written; the structure built into each file is described in ``data/SOURCES.md``.
"""

from __future__ import annotations

import io
import struct
import sys
import zlib
from pathlib import Path

import numpy as np

if __name__ == "__main__":  # run as a script: the shared writers live in the tests package
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.prose_sets.writing import Writers, correlated_cov, expit, main, ordered, table, write_covariance

HERE = Path(__file__).resolve().parent
writer = Writers()
C_KM_S = 299792.458


def gzip_stored(path: Path, data: bytes) -> None:
    """A gzip member whose deflate stream is stored blocks (no compression), with mtime 0 and OS 255."""
    blocks = io.BytesIO()
    chunks = [data[i:i + 65535] for i in range(0, len(data), 65535)] or [b""]
    for i, chunk in enumerate(chunks):
        final = i == len(chunks) - 1
        blocks.write(bytes([1 if final else 0]) + struct.pack("<HH", len(chunk), len(chunk) ^ 0xFFFF) + chunk)
    header = b"\x1f\x8b\x08\x00" + b"\x00\x00\x00\x00" + b"\x00\xff"
    trailer = struct.pack("<II", zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF)
    path.write_bytes(header + blocks.getvalue() + trailer)


def distance_modulus(z: np.ndarray, om: float, w: float = -1.0, h0: float = 70.0,
                     ode: float | None = None) -> np.ndarray:
    """mu = 5 log10(D_L / 10 pc) for a flat constant-w background, or a curved Lambda one when ``ode`` is given."""
    grid = np.linspace(0.0, float(np.max(z)) * 1.001, 8001)
    ok = 0.0 if ode is None else 1.0 - om - ode
    lam = (1.0 - om) * (1 + grid) ** (3 * (1 + w)) if ode is None else ode * np.ones_like(grid)
    inv = 1.0 / np.sqrt(om * (1 + grid) ** 3 + lam + ok * (1 + grid) ** 2)
    dc_grid = np.concatenate([[0.0], np.cumsum((inv[1:] + inv[:-1]) / 2 * np.diff(grid))])
    chi = np.interp(z, grid, dc_grid)
    if ok > 0:
        chi = np.sinh(np.sqrt(ok) * chi) / np.sqrt(ok)
    elif ok < 0:
        chi = np.sin(np.sqrt(-ok) * chi) / np.sqrt(-ok)
    return np.asarray(5 * np.log10((1 + z) * chi * C_KM_S / h0) + 25)


def settle_chain(rng: np.random.Generator, n: int, centre: np.ndarray, sd: np.ndarray, start: np.ndarray,
                 settle: int, rho: float = 0.8) -> np.ndarray:
    """An autocorrelated chain that drifts from ``start`` to ``centre`` over its first ``settle`` rows."""
    k = centre.size
    out = np.empty((n, k))
    x = np.zeros(k)
    for i in range(n):
        x = rho * x + np.sqrt(1 - rho ** 2) * rng.normal(size=k)
        pull = np.exp(-4.0 * i / settle) if settle else 0.0
        out[i] = centre + pull * (start - centre) + sd * x
    return out


# ------------------------------------------------------------------------------------------ causal effects

@writer
def led_streetlights(out: Path) -> None:
    """Busier, urban segments got LED first; LED cuts the night-time collision rate by about 15%."""
    rng = np.random.default_rng(6101)
    n = 1100
    urban = rng.random(n) < 0.55
    aadt = np.round(np.exp(rng.normal(np.where(urban, 2.4, 1.7), 0.5)), 2)
    speed = np.where(urban, rng.choice([20, 30, 40], n, p=[0.3, 0.55, 0.15]),
                     rng.choice([30, 40, 50, 60], n, p=[0.1, 0.2, 0.3, 0.4]))
    junctions = np.round(rng.gamma(2.0, np.where(urban, 2.0, 0.7)), 1)
    led = rng.binomial(1, expit(-0.4 + 0.7 * urban + 0.04 * (aadt - 8) + 0.06 * (junctions - 2)))
    rate = np.exp(-1.6 + 0.5 * np.log(aadt) + 0.012 * (speed - 30) + 0.12 * junctions + 0.3 * urban)
    collisions = rng.poisson(rate * np.where(led == 1, 0.85, 1.0))
    table(out / "road_segments_led.csv", {
        "segment_ref": [f"RS-{i:04d}" for i in range(1, n + 1)],
        "survey_team": rng.choice(list("ABCDEF"), n), "urban": urban.astype(int), "speed_limit_mph": speed,
        "aadt_k": aadt, "junctions_per_km": junctions, "led_converted": led, "night_collisions_3yr": collisions},
        {"aadt_k": ".2f", "junctions_per_km": ".1f"})


@writer
def classroom_airflow(out: Path) -> None:
    """Newer, larger rooms are better ventilated; each extra l/s per pupil removes 0.25 absence days a term."""
    rng = np.random.default_rng(6102)
    n = 560
    build = rng.integers(1895, 2016, n)
    area = np.round(rng.uniform(42, 78, n), 1)
    pupils = rng.integers(18, 33, n)
    south = rng.binomial(1, 0.45, n)
    meals = np.round(np.clip(rng.gamma(2.0, 9.0, n), 0, 70), 1)
    airflow = np.clip(2.0 + 0.06 * (build - 1895) + 0.05 * (area - 60) - 0.08 * (pupils - 25) - 0.6 * south
                      + rng.normal(0, 1.6, n), 1.0, 16.0)
    absence = np.clip(5.5 - 0.25 * airflow + 0.035 * meals + 0.04 * (pupils - 25) - 0.004 * (build - 1950)
                      + rng.normal(0, 1.1, n), 0, None)
    table(out / "classroom_airflow.csv", {
        "room_code": [f"{chr(65 + i % 26)}{i // 26:02d}" for i in range(n)], "pupils": pupils,
        "floor_area_m2": area, "build_year": build, "south_facing": south, "free_meals_pct": meals,
        "airflow_lps_pp": airflow, "absence_days_term": absence},
        {"floor_area_m2": ".1f", "free_meals_pct": ".1f", "airflow_lps_pp": ".2f", "absence_days_term": ".2f"})


@writer
def gallery_labels(out: Path) -> None:
    """What an object looks like (three latent factors, seen only in the image vectors) drives both whether its
    label was rewritten and how long people stay; a rewritten label adds about 9 seconds."""
    rng = np.random.default_rng(6103)
    n, d = 480, 12
    z = rng.normal(size=(n, 3))
    floor = rng.integers(1, 4, n)
    lux = np.round(rng.uniform(50, 250, n))
    treat = rng.binomial(1, expit(0.9 * z[:, 0] - 0.7 * z[:, 1] + 0.2 * (floor - 2)))
    dwell = 38 + 9.0 * treat + 7.0 * z[:, 0] - 5.0 * z[:, 1] + 3.0 * z[:, 2] + 0.02 * (lux - 150) \
        + rng.normal(0, 6, n)
    table(out / "gallery_visits.csv", {
        "exhibit_id": [f"EX{i:03d}" for i in range(1, n + 1)], "floor": floor, "room_lux": lux,
        "label_rewritten": treat, "dwell_seconds": dwell}, {"room_lux": ".0f", "dwell_seconds": ".1f"})
    mix = np.linalg.qr(rng.normal(size=(d, d)))[0][:3]
    vectors = z @ mix + rng.normal(0, 0.05, (n, d))
    rows = {f"v{j}": vectors[:, j] for j in range(d)}
    table(out / "exhibit_image_vectors.csv", rows, dict.fromkeys(rows, ".4f"), header=False)


@writer
def hearing_aids(out: Path) -> None:
    """Unobserved health drives both getting an aid and recall; the audiologist's leniency, the distance to the
    clinic and the wait shift who is fitted. An aid adds about 1.5 words (more for the older)."""
    rng = np.random.default_rng(6104)
    n = 1400
    age = rng.integers(60, 91, n)
    base = rng.integers(3, 16, n)
    health = rng.normal(size=n)
    leniency = np.round(rng.beta(2, 2, n), 3)
    distance = np.round(rng.gamma(2.0, 6.0, n), 1)
    wait = rng.integers(1, 27, n)
    aided = rng.binomial(1, expit(-0.2 + 2.2 * (leniency - 0.5) - 0.05 * (distance - 12) - 0.06 * (wait - 13)
                                  + 0.8 * health))
    effect = 1.5 + 0.04 * (age - 75)
    recall = np.clip(np.round(0.75 * base + 1.0 * health - 0.05 * (age - 75) + effect * aided + 1.0
                              + rng.normal(0, 1.2, n)), 0, 15).astype(int)
    table(out / "hearing_aid_cohort.csv", {
        "pid": np.arange(1, n + 1), "age": age, "baseline_recall": base, "audiologist_leniency": leniency,
        "clinic_distance_km": distance, "waiting_weeks": wait, "aided": aided, "recall_score": recall},
        {"audiologist_leniency": ".3f", "clinic_distance_km": ".1f"})


@writer
def diver_medicals(out: Path) -> None:
    """BMI rises with age; resting heart rate with age and BMI; FEV1 falls with both. Clearance favours a high
    FEV1 and a low heart rate; rows 4, 11 and 17 (from 0) are three clearly refused divers."""
    rng = np.random.default_rng(6105)
    n = 260
    age = rng.integers(20, 61, n).astype(float)
    bmi = 22.0 + 0.08 * (age - 20) + rng.normal(0, 3.0, n)
    hr = 60.0 + 0.2 * (age - 20) + 0.5 * (bmi - 24) + rng.normal(0, 6, n)
    fev1 = 4.8 - 0.03 * (age - 20) - 0.03 * (bmi - 24) + rng.normal(0, 0.4, n)
    for i, (a, b, h, f) in zip((4, 11, 17), ((52, 34.5, 94, 2.55), (47, 36.0, 90, 2.7), (58, 33.0, 97, 2.4)),
                               strict=True):
        age[i], bmi[i], hr[i], fev1[i] = a, b, h, f
    cleared = rng.binomial(1, expit(1.5 + 2.0 * (fev1 - 3.8) - 0.09 * (hr - 70) - 0.15 * (bmi - 26)))
    cleared[[4, 11, 17]] = 0
    table(out / "diver_medicals.csv", {
        "diver_no": [f"D{1000 + i}" for i in range(n)], "age": age.astype(int), "bmi": bmi, "resting_hr": hr,
        "fev1_l": fev1, "cleared": cleared}, {"bmi": ".1f", "resting_hr": ".0f", "fev1_l": ".2f"})


# ------------------------------------------------------------------------------------------------ surveys

AGE_BANDS = ["18-34", "35-54", "55+"]


@writer
def barrage_consultation(out: Path) -> None:
    """Older owners and the harbour district are over-represented; owners and older people oppose the barrage
    more; the assistant supports it more than any tenure group."""
    rng = np.random.default_rng(6106)
    n = 1300
    age = rng.choice(AGE_BANDS, n, p=[0.18, 0.34, 0.48])
    district = rng.choice(["harbour", "valley", "uplands", "town"], n, p=[0.4, 0.2, 0.15, 0.25])
    tenure = rng.choice(["owner", "renter", "social"], n, p=[0.68, 0.2, 0.12])
    score = (0.6 * (age == "18-34") - 0.5 * (age == "55+") - 0.4 * (tenure == "owner") + 0.3 * (tenure == "social")
             - 0.5 * (district == "harbour") + 0.2 * (district == "town"))
    support = ordered(rng, score, ["support", "neutral", "oppose"], (-0.6, 0.6))
    trust = ordered(rng, 0.4 * score + 0.3 * (age == "18-34"), ["high", "some", "low"], (-0.8, 0.9))
    table(out / "barrage_survey.csv", {
        "resp_code": [f"B{i:05d}" for i in range(1, n + 1)], "mode": rng.choice(["phone", "web"], n, p=[0.3, 0.7]),
        "age_band": age, "district": district, "tenure": tenure, "support_barrage": support,
        "trust_operator": trust})
    shares = {"age_band": {"18-34": 0.29, "35-54": 0.34, "55+": 0.37},
              "district": {"harbour": 0.22, "valley": 0.26, "uplands": 0.17, "town": 0.35},
              "tenure": {"owner": 0.58, "renter": 0.26, "social": 0.16}}
    rows = [(v, lv, s) for v, levels in shares.items() for lv, s in levels.items()]
    table(out / "county_census_shares.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                             "share": [r[2] for r in rows]}, {"share": ".2f"})
    model = {("support_barrage", "owner"): (0.52, 0.28, 0.20), ("support_barrage", "renter"): (0.61, 0.24, 0.15),
             ("support_barrage", "social"): (0.66, 0.21, 0.13), ("trust_operator", "owner"): (0.35, 0.45, 0.20),
             ("trust_operator", "renter"): (0.38, 0.44, 0.18), ("trust_operator", "social"): (0.41, 0.41, 0.18)}
    levels = {"support_barrage": ["support", "neutral", "oppose"], "trust_operator": ["high", "some", "low"]}
    out_rows = [(q, a, s, g) for (q, g), ps in model.items() for a, s in zip(levels[q], ps, strict=True)]
    table(out / "assistant_barrage_answers.csv", {
        "question": [r[0] for r in out_rows], "answer": [r[1] for r in out_rows], "share": [r[2] for r in out_rows],
        "subgroup": [r[3] for r in out_rows]}, {"share": ".2f"})


@writer
def dog_licensing(out: Path) -> None:
    """Three yearly rounds of a panel with design weights (dog owners and the south over-sampled) and a weighted
    reference sample; support for licensing grows each round."""
    rng = np.random.default_rng(6107)
    regions = ["north", "south", "east", "west"]
    cols: dict[str, list[object]] = {k: [] for k in ("pid", "round", "base_wt", "age_band", "region", "owns_dog",
                                                     "licence_support", "microchip_check")}
    for r, year in enumerate((2022, 2023, 2024)):
        n = 450
        age = rng.choice(AGE_BANDS, n, p=[0.22, 0.36, 0.42])
        region = rng.choice(regions, n, p=[0.2, 0.4, 0.2, 0.2])
        dog = rng.choice(["yes", "no"], n, p=[0.5, 0.5])
        wt = np.round(np.where(dog == "yes", 0.7, 1.3) * np.where(region == "south", 0.6, 1.1)
                      * rng.uniform(0.85, 1.15, n), 3)
        score = 0.35 * r - 0.7 * (dog == "yes") + 0.3 * (age == "55+") + 0.2 * (region == "north")
        cols["pid"] += [f"P{year % 100}{i:04d}" for i in range(n)]
        cols["round"] += [year] * n
        cols["base_wt"] += list(wt)
        cols["age_band"] += list(age)
        cols["region"] += list(region)
        cols["owns_dog"] += list(dog)
        cols["licence_support"] += ordered(rng, score, ["yes", "unsure", "no"], (-0.4, 0.5))
        cols["microchip_check"] += ordered(rng, 0.5 * score + 0.6, ["agree", "agree", "disagree"], (0.0, 0.0))
    table(out / "dog_licensing_panel.csv", cols, {"base_wt": ".3f"})
    m = 1100
    table(out / "dog_owners_reference.csv", {
        "age_band": rng.choice(AGE_BANDS, m, p=[0.28, 0.34, 0.38]),
        "region": rng.choice(regions, m, p=[0.27, 0.23, 0.25, 0.25]),
        "owns_dog": rng.choice(["yes", "no"], m, p=[0.27, 0.73]),
        "pw": np.round(rng.uniform(0.6, 1.6, m), 3)}, {"pw": ".3f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def track_geometry(out: Path) -> None:
    """About 4% of the runs pass a broken weld: vertical acceleration, twist and cant deviation jump."""
    rng = np.random.default_rng(6108)
    n = 1100
    weld = rng.random(n) < 0.04
    cols = {
        "gauge_dev_mm": rng.normal(0, 1.5, n), "cant_dev_mm": rng.normal(0, 2.0, n) + 1.5 * weld,
        "twist_mm_per_3m": np.abs(rng.normal(2.0, 1.0, n)) + 1.5 * weld,
        "vert_accel_g": np.abs(rng.normal(0.15, 0.05, n)) + 0.08 * weld,
        "lat_accel_g": np.abs(rng.normal(0.08, 0.03, n)) + 0.02 * weld, "rail_temp_c": rng.normal(18, 8, n),
        "speed_kmh": rng.uniform(40, 160, n), "broken_weld": weld.astype(int)}
    table(out / "track_geometry_runs.csv", cols, {k: ".3f" for k in cols if k != "broken_weld"})


@writer
def nutrient_doser(out: Path) -> None:
    """About 3% of the dosing cycles had a sticking pump: EC and dose far off, pH drifting, no label."""
    rng = np.random.default_rng(6109)
    n = 850
    bad = rng.random(n) < 0.03
    cols = {"ec_ms_cm": rng.normal(1.8, 0.12, n) + 0.9 * bad, "ph": rng.normal(5.9, 0.1, n) - 0.6 * bad,
            "dose_ml": rng.normal(40, 4, n) + 35 * bad, "water_temp_c": rng.normal(21, 1.2, n),
            "flow_lpm": rng.normal(12, 0.8, n) - 3.0 * bad, "tank_level_pct": rng.uniform(30, 95, n)}
    table(out / "nutrient_doser_log.csv", cols, dict.fromkeys(cols, ".3f"))


# ------------------------------------------------------------------------------------------------ bayes

@writer
def lichen(out: Path) -> None:
    """48 headstones: lichen more likely on old stones far from the road (logistic in the standardised inputs)."""
    rng = np.random.default_rng(6110)
    n = 48
    age = rng.integers(15, 301, n)
    road = np.round(rng.uniform(2, 150, n), 1)
    p = expit(-0.3 + 1.3 * (age - 150) / 85 + 0.8 * (road - 75) / 42)
    table(out / "churchyard_lichen.csv", {
        "stone_id": [f"S{i:02d}" for i in range(1, n + 1)], "surveyor": rng.choice(["JT", "MK", "RB"], n),
        "stone_age_yr": age, "road_distance_m": road, "lichen_present": rng.binomial(1, p)},
        {"road_distance_m": ".1f"})


@writer
def proofing(out: Path) -> None:
    """Rise is a smooth saturating function of time and temperature, mildly of hydration; 48 + 20 batches."""
    rng = np.random.default_rng(6111)

    def batch(n: int, start: int) -> dict[str, object]:
        t = rng.uniform(30, 120, n)
        temp = rng.uniform(18, 30, n)
        hyd = rng.uniform(60, 80, n)
        rise = 45 * (1 - np.exp(-t * np.exp(0.07 * (temp - 24)) / 55)) + 0.25 * (hyd - 70) + rng.normal(0, 1.2, n)
        return {"batch": [f"K{start + i}" for i in range(n)], "proof_min": t, "room_temp_c": temp,
                "hydration_pct": hyd, "rise_mm": rise}

    fmt = {"proof_min": ".0f", "room_temp_c": ".1f", "hydration_pct": ".1f", "rise_mm": ".1f"}
    table(out / "proofing_trials_train.csv", batch(48, 101), fmt)
    table(out / "proofing_trials_holdout.csv", batch(20, 301), fmt)


@writer
def trap_phases(out: Path) -> None:
    """Trap depth depends on both phases only through 3-fold harmonics (a third of a turn leaves it unchanged)."""
    rng = np.random.default_rng(6112)
    n = 680
    a, b = rng.uniform(0, 2 * np.pi, n), rng.uniform(0, 2 * np.pi, n)
    depth = 1.0 + 0.4 * np.cos(3 * a) + 0.3 * np.cos(3 * b) + 0.2 * np.sin(3 * a) * np.cos(3 * b) \
        + rng.normal(0, 0.05, n)
    table(out / "trap_phase_scan.csv", {"phi_a": a, "phi_b": b, "depth_mk": depth}, {"phi_a": ".4f",
                                                                                   "phi_b": ".4f",
                                                                                   "depth_mk": ".4f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def pelican_lcparam(out: Path) -> None:
    """60 SNe in CosmoMC lcparam layout, flat wCDM (Omega_m 0.30, w -0.9), M -19.3, and a systematic covariance."""
    rng = np.random.default_rng(6113)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.2, n))
    zhel = z + rng.normal(0, 0.0005, n)
    dmb = rng.uniform(0.10, 0.16, n)
    sys_cov = correlated_cov(z, np.zeros(n), 0.03, 0.3)
    mb = distance_modulus(z, 0.30, -0.9) - 19.3 + rng.multivariate_normal(np.zeros(n), sys_cov + np.diag(dmb ** 2))
    lines = ["#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec"]
    for i in range(n):
        lines.append(f"PEL{i:03d} {z[i]:.5f} {zhel[i]:.5f} 0 {mb[i]:.4f} {dmb[i]:.4f} 0 0 0 0 9.5 0.1 0 0 0 3 "
                     f"{rng.uniform(0, 360):.3f} {rng.uniform(-60, 60):.3f}")
    (out / "pelican_lcparam.txt").write_text("\n".join(lines) + "\n")
    write_covariance(out / "pelican_sys_cov.txt", sys_cov)


@writer
def stork_moduli(out: Path) -> None:
    """120 distance moduli of a curved Lambda universe (Omega_m 0.28, Omega_Lambda 0.75), H0 70."""
    rng = np.random.default_rng(6114)
    n = 120
    z = np.sort(rng.uniform(0.015, 1.4, n))
    err = rng.uniform(0.12, 0.22, n)
    mu = distance_modulus(z, 0.28, ode=0.75) + rng.normal(0, err)
    table(out / "stork_sn_moduli.csv", {"zcmb": z, "mu": mu, "muerr": err},
          {"zcmb": ".4f", "mu": ".4f", "muerr": ".3f"})


@writer
def plover_magnitudes(out: Path) -> None:
    """50 peak magnitudes, flat wCDM (Omega_m 0.31, w -1.1), M -19.25, and their full (stat + sys) covariance."""
    rng = np.random.default_rng(6115)
    n = 50
    z = np.sort(rng.uniform(0.03, 1.0, n))
    zhel = z + rng.normal(0, 0.0005, n)
    stat = rng.uniform(0.11, 0.17, n)
    cov = correlated_cov(z, stat, 0.04, 0.25)
    mb = distance_modulus(z, 0.31, -1.1) - 19.25 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "plover_sn_mb.csv", {"zcmb": z, "zhel": zhel, "mb": mb, "dmb": stat},
          {"zcmb": ".4f", "zhel": ".4f", "mb": ".4f", "dmb": ".4f"})
    write_covariance(out / "plover_sn_covariance.txt", cov)


@writer
def wren_distances(out: Path) -> None:
    """140 moduli on an absolute scale, flat Lambda (Omega_m 0.315), H0 72.0, with a host-mass column."""
    rng = np.random.default_rng(6116)
    n = 140
    z = np.sort(rng.uniform(0.01, 0.9, n))
    err = rng.uniform(0.1, 0.18, n)
    mu = distance_modulus(z, 0.315, h0=72.0) + rng.normal(0, err)
    table(out / "wren_sn_distances.csv", {"z": z, "distance_modulus": mu, "sigma_mu": err,
                                          "host_logmass": rng.normal(10.2, 0.6, n)},
          {"z": ".4f", "distance_modulus": ".4f", "sigma_mu": ".3f", "host_logmass": ".2f"})


@writer
def lya_chain(out: Path) -> None:
    """1,900 rows, weighted (mult), gzip; the first 30% creep in from a high H0 and a low sigma8."""
    rng = np.random.default_rng(6117)
    n = 1900
    centre = np.array([0.02237, 0.1200, 67.6, 0.812, 0.962])
    sd = np.array([0.00015, 0.0013, 0.6, 0.009, 0.005])
    start = np.array([0.0228, 0.1150, 71.0, 0.76, 0.98])
    x = settle_chain(rng, n, centre, sd, start, settle=450)
    mult = rng.integers(1, 5, n)
    post = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 512.3
    lines = ["# mult minuslogpost omegabh2 omegach2 H0 sigma8 n_s"]
    lines += [f"{m} {p:.3f} {r[0]:.6f} {r[1]:.5f} {r[2]:.3f} {r[3]:.4f} {r[4]:.4f}"
              for m, p, r in zip(mult, post, x, strict=True)]
    gzip_stored(out / "lya_forest_chain.txt.gz", ("\n".join(lines) + "\n").encode())


@writer
def lensing_runs(out: Path) -> None:
    """Two GetDist-style chains (header row without #) of one lensing run; both wander for their first half."""
    rng = np.random.default_rng(6118)
    centre = np.array([0.6, 0.29, 0.77])
    sd = np.array([0.35, 0.03, 0.018])
    for name, start in (("a", np.array([1.8, 0.42, 0.70])), ("b", np.array([-0.7, 0.20, 0.84]))):
        n = 1500
        x = settle_chain(rng, n, centre, sd, start, settle=700, rho=0.7)
        weight = rng.integers(1, 4, n)
        post = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 88.1
        lines = ["weight minuslogpost A_IA Omega_m S_8"]
        lines += [f"{w} {p:.3f} {r[0]:.4f} {r[1]:.4f} {r[2]:.4f}" for w, p, r in zip(weight, post, x, strict=True)]
        (out / f"lensing_run_{name}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

SYLLABLES = ["ar", "bel", "cor", "dia", "ell", "fra", "gon", "hel", "ix", "lor", "mun", "nep", "ost", "pyr", "quin",
             "rhod", "sar", "tel", "urn", "vex"]


def latin(rng: np.random.Generator, parts: int, ending: str) -> str:
    return "".join(rng.choice(SYLLABLES, parts)) + ending


@writer
def herbarium(out: Path) -> None:
    """60 invented species moved to new genera over four years (15 a year), with a rephrased question each."""
    rng = np.random.default_rng(6119)
    cols: dict[str, list[object]] = {k: [] for k in ("timestep", "subject", "relation", "prompt", "object",
                                                     "rephrase")}
    for t in range(1, 5):
        for _ in range(15):
            genus, new_genus, species = latin(rng, 2, "a").capitalize(), latin(rng, 2, "ia").capitalize(), \
                latin(rng, 2, "ensis")
            old = f"{genus} {species}"
            cols["timestep"].append(t)
            cols["subject"].append(old)
            cols["relation"].append("accepted name")
            cols["prompt"].append(f"The accepted name of {old} is")
            cols["object"].append(f"{new_genus} {species}")
            cols["rephrase"].append(f"Herbarium sheets labelled {old} should now be filed under")
    table(out / "herbarium_renames.csv", cols)


ROMAN = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
         (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def roman(value: int) -> str:
    text = ""
    for amount, letters in ROMAN:
        while value >= amount:
            text, value = text + letters, value - amount
    return text


@writer
def roman_numerals(out: Path) -> None:
    """400 distinct numbers between 1 and 1999 with their Roman numerals."""
    rng = np.random.default_rng(6120)
    values = rng.choice(np.arange(1, 2000), 400, replace=False)
    table(out / "roman_numerals.csv", {"numeral": [roman(int(v)) for v in values], "value": values})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def meteorites(out: Path) -> None:
    """Differentiated (1) and chondritic (0) meteorites separate on the oxygen isotopes and Fe/Mn, overlapping."""
    rng = np.random.default_rng(6121)
    n = 380
    diff = rng.random(n) < 0.4
    d18 = np.where(diff, rng.normal(3.6, 0.5, n), rng.normal(4.6, 0.9, n))
    cap17 = np.where(diff, rng.normal(-0.24, 0.05, n), rng.normal(0.3, 0.45, n))
    d17 = 0.52 * d18 + cap17
    femn = np.where(diff, rng.normal(32, 4, n), rng.normal(48, 9, n))
    table(out / "meteorite_oxygen_isotopes.csv", {"d17O": d17, "d18O": d18, "cap17O": cap17, "fe_mn": femn,
                                                  "differentiated": diff.astype(int)},
          {"d17O": ".3f", "d18O": ".3f", "cap17O": ".3f", "fe_mn": ".1f"})


@writer
def ignition(out: Path) -> None:
    """Ignitions rise near power lines, on dry, windy, fuel-heavy cells; road distance is partly redundant."""
    rng = np.random.default_rng(6122)
    n = 850
    power = rng.gamma(1.5, 2.0, n)
    road = 0.6 * power + rng.gamma(1.2, 1.5, n)
    cols = {"powerline_km": power, "road_km": road, "slope_deg": rng.uniform(0, 35, n),
            "fuel_load_t_ha": rng.gamma(3, 4, n), "wind_ms": rng.gamma(3, 2, n), "dryness_index": rng.uniform(0, 1, n)}
    logit = (-2.0 - 0.35 * (power - 3) + 0.06 * (cols["fuel_load_t_ha"] - 12) + 0.18 * (cols["wind_ms"] - 6)
             + 1.8 * (cols["dryness_index"] - 0.5) + 0.02 * cols["slope_deg"])
    table(out / "ignition_cells.csv", {**cols, "ignition": rng.binomial(1, expit(logit))},
          dict.fromkeys(cols, ".3f"))


# ------------------------------------------------------------------------------------------------ near misses

@writer
def estuary(out: Path) -> None:
    """Median grain size (D50) in three estuary reaches, coarser towards the mouth, 14 cores each."""
    rng = np.random.default_rng(6123)
    rows = [(site, f"{site[:2].upper()}{k:02d}", rng.lognormal(np.log(mu), 0.35))
            for site, mu in (("upper", 85), ("middle", 130), ("mouth", 210)) for k in range(1, 15)]
    table(out / "estuary_sediment_d50.csv", {"reach": [r[0] for r in rows], "core": [r[1] for r in rows],
                                             "d50_um": [r[2] for r in rows]}, {"d50_um": ".1f"})


@writer
def enzyme_rates(out: Path) -> None:
    """Rate constants at eight temperatures, three replicates, Arrhenius with Ea = 52 kJ/mol."""
    rng = np.random.default_rng(6124)
    temps = np.repeat(np.arange(10, 50, 5), 3)
    k = 2.0e8 * np.exp(-52000 / (8.314 * (temps + 273.15))) * np.exp(rng.normal(0, 0.05, temps.size))
    table(out / "enzyme_rate_temperatures.csv", {"temp_c": temps, "replicate": np.tile([1, 2, 3], 8),
                                                 "k_per_s": k}, {"k_per_s": ".4g"})


@writer
def leaf_reflectance(out: Path) -> None:
    """Reflectance of 120 leaves of three species in ten bands (two latent pigment factors)."""
    rng = np.random.default_rng(6125)
    n = 120
    bands = [450, 500, 550, 600, 650, 700, 750, 800, 850, 900]
    species = rng.choice(["beech", "oak", "hazel"], n)
    chl = rng.normal(0, 1, n) + 0.5 * (species == "oak")
    water = rng.normal(0, 1, n) - 0.4 * (species == "hazel")
    cols: dict[str, object] = {"leaf_id": [f"L{i:03d}" for i in range(1, n + 1)], "species": species}
    for j, b in enumerate(bands):
        base = 0.05 + 0.4 * expit((b - 710) / 15)
        cols[f"b{b}"] = base - 0.02 * chl * (b < 700) + 0.03 * water * (b > 800) + 0.004 * j * chl \
            + rng.normal(0, 0.004, n)
    table(out / "leaf_reflectance_bands.csv", cols, {f"b{b}": ".4f" for b in bands})


@writer
def cluster_galaxies(out: Path) -> None:
    """300 apparent r magnitudes of one cluster's members drawn from a Schechter function (M* -21.2, alpha -1.1)."""
    rng = np.random.default_rng(6126)
    grid = np.linspace(-23.5, -17.0, 4000)
    x = 10 ** (0.4 * (-21.2 - grid))
    pdf = x ** (-1.1 + 1) * np.exp(-x)
    cdf = np.cumsum(pdf) / pdf.sum()
    absolute = np.interp(rng.random(300), cdf, grid)
    m = absolute + 37.0 + rng.normal(0, 0.03, 300)
    table(out / "cluster_galaxy_mags.csv", {"galaxy_id": [f"G{i:04d}" for i in range(1, 301)], "m_r": m,
                                            "z_spec": 0.0545 + rng.normal(0, 0.003, 300)},
          {"m_r": ".3f", "z_spec": ".4f"})


# ------------------------------------------------------------------------------------------------ asks

@writer
def dairy_feed(out: Path) -> None:
    """Four feed groups (a control and three additives), allocated by farm manager preference, methane per day."""
    rng = np.random.default_rng(6127)
    n = 320
    parity = rng.integers(1, 7, n)
    dim = rng.integers(10, 300, n)
    weight = rng.normal(620, 60, n)
    group = rng.choice(["control", "seaweed", "garlic", "tannin"], n)
    effect = {"control": 0.0, "seaweed": -60.0, "garlic": -12.0, "tannin": -25.0}
    methane = 420 + 0.25 * (weight - 620) + 8 * parity - 0.1 * dim + np.array([effect[g] for g in group]) \
        + rng.normal(0, 25, n)
    table(out / "dairy_feed_trial.csv", {"cow_id": [f"C{i:04d}" for i in range(1, n + 1)], "additive": group,
                                         "parity": parity, "days_in_milk": dim, "bodyweight_kg": weight,
                                         "methane_g_day": methane}, {"bodyweight_kg": ".0f", "methane_g_day": ".1f"})


@writer
def engine_vibration(out: Path) -> None:
    """Trawler engine readings with a fault flag (about 5%): kurtosis and crest factor rise."""
    rng = np.random.default_rng(6128)
    n = 700
    fault = rng.random(n) < 0.05
    cols = {"rms_g": rng.gamma(4, 0.05, n) + 0.1 * fault, "kurtosis": rng.normal(3.0, 0.3, n) + 2.5 * fault,
            "crest_factor": rng.normal(3.5, 0.4, n) + 1.5 * fault, "peak_hz": rng.normal(120, 15, n),
            "oil_temp_c": rng.normal(82, 4, n) + 5 * fault}
    table(out / "engine_vibration_labelled.csv", {**cols, "fault": fault.astype(int)}, dict.fromkeys(cols, ".3f"))


@writer
def overnight_minima(out: Path) -> None:
    """Short forecast descriptions and the overnight minimum in degrees C, a third of them below zero."""
    rng = np.random.default_rng(6129)
    skies = ["clear skies", "patchy cloud", "overcast", "light rain", "fog forming"]
    winds = ["calm", "a light breeze", "a moderate wind", "a strong wind"]
    rows = []
    for _ in range(300):
        sky, wind = int(rng.integers(0, 5)), int(rng.integers(0, 4))
        day_max = int(rng.integers(-2, 16))
        minimum = round(day_max - 6 + 2.0 * sky + 1.2 * wind - (3 if sky == 0 and wind == 0 else 0)
                        + rng.normal(0, 1.0))
        rows.append((f"{skies[sky]} with {winds[wind]} after a day maximum of {day_max} degrees", minimum))
    table(out / "overnight_minimum_text.csv", {"description": [r[0] for r in rows],
                                               "min_temp_c": [r[1] for r in rows]})


@writer
def triage_scores(out: Path) -> None:
    """Two risk scores (an older and a newer model) and the days each attendance later spent in hospital."""
    rng = np.random.default_rng(6130)
    n = 900
    frailty = rng.normal(size=n)
    days = np.clip(np.round(np.exp(0.8 + 0.7 * frailty + rng.normal(0, 0.6, n)) - 1), 0, None).astype(int)
    old = frailty + rng.normal(0, 1.2, n)
    new = frailty + rng.normal(0, 0.8, n)
    table(out / "ed_triage_scores.csv", {"attendance_no": np.arange(50001, 50001 + n), "score_2019": old,
                                         "score_2023": new, "days_in_hospital": days},
          {"score_2019": ".3f", "score_2023": ".3f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
