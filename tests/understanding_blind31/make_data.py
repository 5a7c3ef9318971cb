"""Write every data file of the thirty-first blind prose task set, deterministically.

``python tests/understanding_blind31/make_data.py`` rewrites the set's ``data/`` (``--out DIR`` writes elsewhere);
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
    correlated_cov,
    distance_modulus,
    expit,
    main,
    npy_bytes,
    npz,
    ordered,
    table,
)

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def hoof_trimming(out: Path) -> None:
    """Dairy herd records: preventive hoof trimming (binary) is done more on older, later-lactation cows in larger
    herds; it raises daily milk yield by about 1.3 kg."""
    rng = np.random.default_rng(31101)
    n = 700
    parity = rng.integers(1, 7, n)
    dim = rng.uniform(10, 320, n)
    herd = rng.integers(40, 400, n)
    bcs = np.clip(rng.normal(3.0, 0.4, n), 1.5, 4.5)
    trim = rng.binomial(1, expit(-0.2 + 0.15 * (parity - 3.5) + 0.002 * (dim - 165) + 0.002 * (herd - 220)))
    milk = (30 + 1.3 * trim + 1.2 * (parity - 3.5) - 0.04 * (dim - 165) + 0.004 * (herd - 220)
            - 2.0 * (bcs - 3.0) + rng.normal(0, 2.5, n))
    table(out / "hoof_trim_herd_records.csv", {
        "cow_id": [f"C{i:04d}" for i in range(n)], "parity": parity, "dim_days": dim, "herd_size": herd,
        "bcs": bcs, "trimmed": trim, "milk_kg_day": milk},
        {"dim_days": ".0f", "bcs": ".2f", "milk_kg_day": ".1f"})


@writer
def street_canopy(out: Path) -> None:
    """City blocks, tab-separated: tree canopy cover (%, a continuous dose) is higher on less built-up, higher
    blocks near the river; each percentage point of canopy cools the summer land surface by 0.08 C."""
    rng = np.random.default_rng(31102)
    n = 500
    dens = rng.uniform(0.1, 0.9, n)
    elev = rng.uniform(5, 120, n)
    river = rng.gamma(2.0, 1.2, n)
    canopy = np.clip(45 - 35 * dens + 0.08 * elev - 2.0 * river + rng.normal(0, 7, n), 0, 90)
    lst = 31 - 0.08 * canopy + 6 * dens - 0.02 * elev + 0.3 * river + rng.normal(0, 0.9, n)
    table(out / "street_canopy_lst.tsv", {
        "block_id": [f"B{i:04d}" for i in range(n)], "canopy_pct": canopy, "building_density": dens,
        "elev_m": elev, "river_dist_km": river, "lst_c": lst},
        {"canopy_pct": ".1f", "building_density": ".3f", "elev_m": ".0f", "river_dist_km": ".2f", "lst_c": ".2f"},
        sep="\t")


@writer
def listing_sales(out: Path) -> None:
    """Flat sales with listing-photo embeddings (400 x 16, .npy): an unseen finish quality, visible in the photos,
    drives both renovation (binary) and price; renovation adds 18 kEUR."""
    rng = np.random.default_rng(31103)
    n = 400
    quality = rng.normal(0, 1, n)
    style = rng.normal(0, 1, n)
    floor = rng.gamma(6, 12, n)
    reno = rng.binomial(1, expit(0.9 * quality - 0.005 * (floor - 72)))
    price = 120 + 2.6 * floor + 18 * reno + 25 * quality + rng.normal(0, 12, n)
    mix = rng.normal(0, 1, (2, 16))
    emb = np.column_stack([quality, style]) @ mix + rng.normal(0, 0.3, (n, 16))
    table(out / "listing_sales_ledger.csv", {
        "listing": [f"L{i:04d}" for i in range(n)], "floor_m2": floor, "renovated": reno, "price_keur": price},
        {"floor_m2": ".1f", "price_keur": ".1f"})
    (out / "listing_photo_vectors.npy").write_bytes(npy_bytes(emb))


# ------------------------------------------------------------------------------------------------ surveys

SEXES = ["female", "male"]
AGEB = ["u35", "35_59", "60plus"]
QUOTA = ["tighten", "keep", "loosen"]
RESERVE = ["favour", "undecided", "against"]


@writer
def harbour_survey(out: Path) -> None:
    """A harbour-town survey on fishing quotas and a marine reserve, with two questionnaire forms (A neutral, B
    mentioning job losses, which shifts the reserve answers); older men over-respond; census margins of sex and
    age band; an assistant's sampled replies, one row per reply."""
    rng = np.random.default_rng(31104)
    n = 560
    sex = rng.choice(SEXES, n, p=[0.38, 0.62])
    age = rng.choice(AGEB, n, p=[0.2, 0.35, 0.45])
    form = rng.choice(["A", "B"], n)
    s_quota = 0.4 * (sex == "female") + 0.3 * (age == "u35") - 0.4 * (age == "60plus")
    s_res = 0.5 * (age == "u35") + 0.2 * (sex == "female") - 0.7 * (form == "B")
    table(out / "harbour_survey_forms.csv", {
        "resp": [f"H{i:04d}" for i in range(n)], "sex": sex, "age_band": age, "form": form,
        "q_quota": ordered(rng, s_quota, QUOTA, (-0.3, 0.8)), "q_reserve": ordered(rng, s_res, RESERVE, (-0.4, 0.6))})
    table(out / "coastal_census_margins.csv", {
        "variable": ["sex", "sex", "age_band", "age_band", "age_band"],
        "level": ["female", "male", "u35", "35_59", "60plus"], "share": [0.51, 0.49, 0.33, 0.40, 0.27]},
        {"share": ".2f"})
    q_rows, a_rows = [], []
    for q, levels, p in (("q_quota", QUOTA, [0.45, 0.40, 0.15]), ("q_reserve", RESERVE, [0.55, 0.30, 0.15])):
        for a in rng.choice(levels, 60, p=p):
            q_rows.append(q)
            a_rows.append(str(a))
    table(out / "harbour_bot_replies_each.csv", {"question": q_rows, "answer": a_rows})


REGIONS = ["north", "south", "east", "west"]
EDU = ["school", "college", "degree"]
BOOST = ["will", "maybe", "wont"]
TRUST = ["high", "medium", "low"]


@writer
def vaccine_waves(out: Path) -> None:
    """Two waves (2022, 2024) of a vaccine-attitude survey, degree holders over-represented; booster intentions
    fall between waves; a reference panel with its own weights (pw); a language model's answer shares."""
    rng = np.random.default_rng(31105)
    rows = {"rid": [], "wave": [], "region": [], "edu": [], "q_booster": [], "q_trust": []}
    for wave, shift in ((2022, 0.0), (2024, -0.5)):
        n = 420
        reg = rng.choice(REGIONS, n, p=[0.3, 0.2, 0.25, 0.25])
        edu = rng.choice(EDU, n, p=[0.2, 0.3, 0.5])
        s1 = shift + 0.5 * (edu == "degree") - 0.3 * (reg == "south")
        s2 = 0.4 * (edu == "degree") - 0.2 * (edu == "school")
        rows["rid"] += [f"V{wave}{i:03d}" for i in range(n)]
        rows["wave"] += [wave] * n
        rows["region"] += list(reg)
        rows["edu"] += list(edu)
        rows["q_booster"] += ordered(rng, s1, BOOST, (-0.2, 0.7))
        rows["q_trust"] += ordered(rng, s2, TRUST, (-0.5, 0.6))
    table(out / "vax_attitude_waves.csv", rows)
    m = 900
    table(out / "health_panel_reference.csv", {
        "region": rng.choice(REGIONS, m, p=[0.25, 0.25, 0.25, 0.25]), "edu": rng.choice(EDU, m, p=[0.4, 0.35, 0.25]),
        "pw": rng.uniform(0.5, 2.0, m)}, {"pw": ".3f"})
    table(out / "llm_vax_shares.csv", {
        "question": ["q_booster"] * 3 + ["q_trust"] * 3, "answer": BOOST + TRUST,
        "share": [0.58, 0.27, 0.15, 0.40, 0.42, 0.18]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def turbine_scada(out: Path) -> None:
    """Ten-minute SCADA records of wind turbines, 5% in a gearbox fault (hot bearing, power below the curve,
    vibration); every row labelled in column fault."""
    rng = np.random.default_rng(31106)
    n = 1200
    bad = rng.random(n) < 0.05
    wind = rng.uniform(3, 18, n)
    power = np.clip(2000 / (1 + np.exp(-(wind - 9) / 1.5)) * (1 - bad * rng.uniform(0.15, 0.4, n))
                    + rng.normal(0, 60, n), 0, None)
    rotor = 6 + 0.7 * wind + rng.normal(0, 0.5, n)
    gear_t = 55 + 0.8 * wind + bad * rng.uniform(8, 20, n) + rng.normal(0, 2, n)
    amb = rng.normal(12, 6, n)
    vib = rng.gamma(3, 0.5, n) + bad * rng.uniform(1.5, 4, n)
    pitch = np.clip(wind - 12, 0, None) * 2.5 + rng.normal(0, 0.8, n)
    table(out / "windfarm_b_scada_labelled.csv", {
        "wind_ms": wind, "power_kw": power, "rotor_rpm": rotor, "gearbox_temp_c": gear_t, "ambient_c": amb,
        "vibration_mm_s": vib, "pitch_deg": pitch, "fault": bad.astype(int)},
        {"wind_ms": ".2f", "power_kw": ".0f", "rotor_rpm": ".2f", "gearbox_temp_c": ".1f", "ambient_c": ".1f",
         "vibration_mm_s": ".2f", "pitch_deg": ".2f"})


@writer
def wafer_probe(out: Path) -> None:
    """Electrical probe readings of dies on wafers (six parameters), no labels; about 3% of dies leak (high
    leakage current, low breakdown voltage)."""
    rng = np.random.default_rng(31107)
    n = 900
    bad = rng.random(n) < 0.03
    vth = rng.normal(0.45, 0.02, n)
    leak = rng.lognormal(0, 0.3, n) * (1 + bad * rng.uniform(8, 20, n))
    idsat = rng.normal(600, 25, n) - bad * rng.uniform(40, 90, n)
    rc = rng.normal(12, 1.0, n)
    bv = rng.normal(9.5, 0.3, n) - bad * rng.uniform(1.5, 3, n)
    cap = rng.normal(1.8, 0.05, n)
    x = np.column_stack([vth, np.log(leak), idsat, rc, bv, cap])
    npz(out / "wafer_probe_unlabelled.npz", {"X": npy_bytes(x)})


# ------------------------------------------------------------------------------------------------ bayes

RING_SOURCE = '''"""Log density of a ring-shaped posterior: radius 2, radial width 0.25, heavier on the right-hand side."""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    r = torch.sqrt((z ** 2).sum(dim=1) + 1e-12)
    return -0.5 * ((r - 2.0) / 0.25) ** 2 + 0.6 * z[:, 0] / 2.0
'''


@writer
def ring_density(out: Path) -> None:
    """A Python file defining log_prob(z) for a two-dimensional ring with a tilt toward positive z0."""
    (out / "ring_posterior_logprob.py").write_text(RING_SOURCE)


@writer
def germination(out: Path) -> None:
    """48 germination trays: whether most seeds germinated (0/1) against temperature and soil moisture."""
    rng = np.random.default_rng(31109)
    n = 48
    temp = rng.uniform(8, 30, n)
    moist = rng.uniform(10, 45, n)
    y = rng.binomial(1, expit(0.12 * (temp - 18) + 0.06 * (moist - 27)))
    table(out / "seed_germination_trays.csv", {
        "tray": [f"T{i:02d}" for i in range(n)], "temp_c": temp, "moisture_pct": moist, "germinated": y},
        {"temp_c": ".1f", "moisture_pct": ".1f"})


@writer
def annealing(out: Path) -> None:
    """70 annealing runs of a steel: Vickers hardness against temperature, hold time and chromium content,
    smooth and non-linear."""
    rng = np.random.default_rng(31110)
    n = 70
    temp = rng.uniform(550, 750, n)
    hold = rng.uniform(10, 120, n)
    cr = rng.uniform(0.5, 3.0, n)
    hv = (420 - 0.9 * (temp - 550) + 60 * np.exp(-hold / 30) + 25 * np.sin(cr * 1.8) + rng.normal(0, 6, n))
    table(out / "anneal_hardness_runs.csv", {
        "run": [f"R{i:02d}" for i in range(n)], "temp_c": temp, "hold_min": hold, "cr_wt": cr, "hv": hv},
        {"temp_c": ".0f", "hold_min": ".0f", "cr_wt": ".2f", "hv": ".1f"})


@writer
def rotor_scan(out: Path) -> None:
    """Conformer energies of a molecule with two methyl rotors: periodic in both torsion angles (radians) with a
    threefold symmetry in each; a training scan and a separate check scan."""
    rng = np.random.default_rng(31111)
    for name, n in (("rotor_torsion_scan_train.csv", 300), ("rotor_torsion_scan_check.csv", 150)):
        t1 = rng.uniform(0, 2 * np.pi, n)
        t2 = rng.uniform(0, 2 * np.pi, n)
        e = (1.4 * (1 - np.cos(3 * t1)) + 0.9 * (1 - np.cos(3 * t2)) + 0.3 * np.cos(3 * t1) * np.cos(3 * t2)
             + rng.normal(0, 0.15, n))
        table(out / name, {"conf": [f"K{i:03d}" for i in range(n)], "tau1": t1, "tau2": t2, "e_kcal": e},
              {"tau1": ".5f", "tau2": ".5f", "e_kcal": ".4f"})


# ------------------------------------------------------------------------------------------------ causal models

@writer
def pilot_screen(out: Path) -> None:
    """Fitness-to-fly screening: age lowers VO2max, BMI lowers it too, VO2max lowers the resting heart rate; the
    pass (1) depends on VO2max, resting heart rate and BMI. Rows 4 and 17 clearly fail."""
    rng = np.random.default_rng(31112)
    n = 260
    age = rng.uniform(22, 62, n)
    bmi = rng.normal(26, 3.5, n)
    vo2 = 58 - 0.35 * age - 0.5 * (bmi - 26) + rng.normal(0, 5, n)
    hr = 95 - 0.6 * vo2 + rng.normal(0, 5, n)
    for i, (a, b) in ((4, (55.0, 33.0)), (17, (48.0, 31.0))):
        age[i], bmi[i] = a, b
        vo2[i] = 58 - 0.35 * a - 0.5 * (b - 26) - 6
        hr[i] = 95 - 0.6 * vo2[i] + 8
    score = 0.25 * (vo2 - 40) - 0.1 * (hr - 70) - 0.3 * (bmi - 26)
    passed = rng.binomial(1, expit(2.0 * score))
    passed[[4, 17]] = 0
    table(out / "pilot_medical_screen.csv", {
        "age": age, "vo2max": vo2, "resting_hr": hr, "bmi": bmi, "fit_to_fly": passed},
        {"age": ".0f", "vo2max": ".1f", "resting_hr": ".0f", "bmi": ".1f"})


@writer
def wind_asthma(out: Path) -> None:
    """Children in a city: living with high particulate exposure (binary) is driven by the wind and inversions at
    their home (instruments) and by unobserved housing damp; an emergency visit for asthma within the year (0/1)."""
    rng = np.random.default_rng(31113)
    n = 800
    age = rng.uniform(4, 15, n)
    smoke = rng.binomial(1, 0.25, n)
    u = rng.normal(0, 3, n)
    v = rng.normal(0, 3, n)
    inv = rng.gamma(2, 3, n)
    damp = rng.normal(0, 1, n)
    pm = rng.binomial(1, expit(-0.4 * u + 0.3 * v + 0.25 * (inv - 6) + 0.6 * damp))
    p = np.clip(0.08 + 0.1 * pm + 0.08 * smoke - 0.006 * (age - 9) + 0.06 * damp, 0.01, 0.99)
    table(out / "wind_asthma_children.csv", {
        "child": [f"K{i:04d}" for i in range(n)], "age": age, "smoker_home": smoke, "wind_u": u, "wind_v": v,
        "inversion_hrs": inv, "high_pm": pm, "er_visit": rng.binomial(1, p)},
        {"age": ".1f", "wind_u": ".2f", "wind_v": ".2f", "inversion_hrs": ".1f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def joint_sn(out: Path) -> None:
    """90 distance moduli of a flat LCDM (Omega_m 0.315) with a correlated covariance (N*N values after N)."""
    rng = np.random.default_rng(31114)
    n = 90
    z = np.sort(rng.uniform(0.02, 1.3, n))
    err = rng.uniform(0.08, 0.14, n)
    cov = correlated_cov(z, err, 0.02, 0.3)
    mu = distance_modulus(z, 0.315, h0=67.4) + np.linalg.cholesky(cov) @ rng.normal(0, 1, n)
    table(out / "sn_mu_for_joint.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    (out / "sn_mu_for_joint_cov.txt").write_text(f"{n}\n" + "".join(f"{v:.4e}\n" for v in cov.ravel()))


@writer
def deep_field(out: Path) -> None:
    """110 deep-field distance moduli of a flat wCDM (Omega_m 0.30, w -0.95) with a covariance written as N*N
    values and no leading N."""
    rng = np.random.default_rng(31115)
    n = 110
    z = np.sort(rng.uniform(0.05, 1.5, n))
    err = rng.uniform(0.07, 0.13, n)
    cov = correlated_cov(z, err, 0.025, 0.5)
    mu = distance_modulus(z, 0.30, w0=-0.95) + np.linalg.cholesky(cov) @ rng.normal(0, 1, n)
    table(out / "dfield_sn_moduli.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    (out / "dfield_sncov_nohead.txt").write_text("".join(f"{v:.4e}\n" for v in cov.ravel()))


@writer
def ground_sn(out: Path) -> None:
    """160 distance moduli of a curved LCDM (Omega_m 0.30, Omega_de 0.65, H0 72)."""
    rng = np.random.default_rng(31116)
    n = 160
    z = np.sort(rng.uniform(0.01, 1.1, n))
    err = rng.uniform(0.08, 0.15, n)
    mu = distance_modulus(z, 0.30, 0.65, h0=72.0) + rng.normal(0, err)
    table(out / "ground_sn_moduli_h0.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})


@writer
def survey_sim_sn(out: Path) -> None:
    """500 simulated moduli of a flat w0wa cosmology (Omega_m 0.31, w0 -0.9, wa -0.3)."""
    rng = np.random.default_rng(31117)
    n = 500
    z = np.sort(rng.uniform(0.02, 1.8, n))
    err = rng.uniform(0.06, 0.10, n)
    mu = distance_modulus(z, 0.31, w0=-0.9, wa=-0.3) + rng.normal(0, err)
    table(out / "roman_sim_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})


@writer
def getdist_chain(out: Path) -> None:
    """A GetDist-style chain (weight, minus log posterior, four parameters) of 2,000 rows that settles over about
    300 rows."""
    rng = np.random.default_rng(31118)
    centre = np.array([0.02237, 0.1198, 0.9652, 3.044])
    sd = np.array([0.00015, 0.0012, 0.0042, 0.014])
    x = ar_chain(rng, 2000, centre, sd, np.array([0.0230, 0.112, 0.99, 3.12]), 300.0, rho=0.6)
    w = rng.integers(1, 5, 2000)
    chi2 = (((x - centre) / sd) ** 2).sum(1)
    lines = ["# weight minuslogpost omegabh2 omegach2 ns logA\n"]
    lines += [f"{w[i]} {0.5 * chi2[i] + 510.2:.3f} {r[0]:.6f} {r[1]:.5f} {r[2]:.5f} {r[3]:.4f}\n"
              for i, r in enumerate(x)]
    (out / "ttteee_getdist_chain.txt").write_text("".join(lines))


@writer
def cluster_chains(out: Path) -> None:
    """Three chains of one galaxy-cluster counts run (sigma8, Omega_m, mass-observable slope), plain header with a
    weight column, 1,200 rows each, started apart and settling over about 60 rows."""
    rng = np.random.default_rng(31119)
    centre = np.array([0.79, 0.31, 1.55])
    sd = np.array([0.02, 0.015, 0.06])
    starts = ([0.70, 0.38, 1.3], [0.88, 0.25, 1.8], [0.76, 0.34, 1.6])
    for tag, start in zip(("a", "b", "c"), starts, strict=True):
        x = ar_chain(rng, 1200, centre, sd, np.array(start), 60.0, rho=0.5)
        w = rng.integers(1, 3, 1200)
        lines = ["# weight sigma8 Omega_m B_mass\n"]
        lines += [f"{w[i]} {r[0]:.4f} {r[1]:.4f} {r[2]:.3f}\n" for i, r in enumerate(x)]
        (out / f"cluster_counts_chain_{tag}.txt").write_text("".join(lines))


# ------------------------------------------------------------------------------------------------ robustness

@writer
def wheat_kernels(out: Path) -> None:
    """Morphometry of wheat kernels from two cultivars (0/1, column cultivar), seven measurements, a curved
    boundary."""
    rng = np.random.default_rng(31120)
    n = 460
    y = rng.binomial(1, 0.5, n)
    area = rng.normal(14 + 3 * y, 1.8, n)
    perim = np.sqrt(area) * 3.8 + rng.normal(0, 0.2, n)
    compact = 4 * np.pi * area / perim ** 2 + rng.normal(0, 0.01, n)
    length = rng.normal(5.5 + 0.6 * y, 0.35, n)
    width = area / length / 0.78 * (1 + 0.05 * np.sin(length * 3)) + rng.normal(0, 0.1, n)
    asym = rng.gamma(2 + y, 1.1, n)
    groove = length * (0.92 + 0.03 * y) + rng.normal(0, 0.08, n)
    table(out / "wheat_kernel_morph.csv", {
        "area": area, "perimeter": perim, "compactness": compact, "length": length, "width": width,
        "asymmetry": asym, "groove": groove, "cultivar": y},
        {"area": ".3f", "perimeter": ".3f", "compactness": ".4f", "length": ".3f", "width": ".3f",
         "asymmetry": ".3f", "groove": ".3f"})


@writer
def potato_blight(out: Path) -> None:
    """Potato fields: late blight (0/1, column blight) driven by leaf wetness hours, humidity and temperature;
    humidity and rain partly duplicate leaf wetness."""
    rng = np.random.default_rng(31121)
    n = 700
    wet = rng.gamma(3, 3, n)
    rh = 60 + 2.2 * wet + rng.normal(0, 6, n)
    rain = np.clip(0.8 * wet + rng.normal(0, 3, n), 0, None)
    temp = rng.normal(17, 4, n)
    resist = rng.integers(1, 6, n)
    fung = rng.integers(0, 21, n)
    y = rng.binomial(1, expit(-1 + 0.25 * (wet - 9) + 0.03 * (rh - 80) - 0.08 * (temp - 17) ** 2 / 4
                              - 0.4 * (resist - 3) + 0.08 * (fung - 10)))
    table(out / "potato_blight_fields.csv", {
        "leaf_wetness_h": wet, "rh_pct": rh, "rain_mm": rain, "temp_c": temp, "resistance_score": resist,
        "days_since_spray": fung, "blight": y},
        {"leaf_wetness_h": ".1f", "rh_pct": ".1f", "rain_mm": ".1f", "temp_c": ".1f"})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def sleep_restriction(out: Path) -> None:
    """Reaction times of 24 volunteers over ten days of restricted sleep: a random intercept and a random slope
    per volunteer."""
    rng = np.random.default_rng(31122)
    rows = {"volunteer": [], "day": [], "rt_ms": []}
    for s in range(24):
        b0 = 255 + rng.normal(0, 25)
        b1 = 10 + rng.normal(0, 6)
        for d in range(10):
            rows["volunteer"].append(f"S{s:02d}")
            rows["day"].append(d)
            rows["rt_ms"].append(b0 + b1 * d + rng.normal(0, 22))
    table(out / "sleep_restriction_rt.csv", rows, {"rt_ms": ".1f"})


@writer
def aftershocks(out: Path) -> None:
    """An aftershock catalogue (origin time in days, position, depth, local magnitude) complete above about M 1.8,
    with a Gutenberg-Richter b-value of 1.1."""
    rng = np.random.default_rng(31123)
    n = 900
    mag = 1.8 + rng.exponential(1 / (1.1 * np.log(10)), n)
    t = np.sort(rng.pareto(0.8, n) * 0.5)
    table(out / "relocated_seq_ml_2024.csv", {
        "t_days": t, "lat": 42.3 + rng.normal(0, 0.05, n), "lon": 13.4 + rng.normal(0, 0.07, n),
        "depth_km": np.clip(rng.normal(9, 3, n), 0.5, None), "ml": mag},
        {"t_days": ".4f", "lat": ".4f", "lon": ".4f", "depth_km": ".1f", "ml": ".1f"})


@writer
def county_wages(out: Path) -> None:
    """A county-by-year panel (2010-2019): some counties raised their minimum wage in different years; teenage
    employment rate."""
    rng = np.random.default_rng(31124)
    rows = {"county": [], "year": [], "raise_year": [], "teen_emp_rate": []}
    for c in range(60):
        start = int(rng.choice([0, 2013, 2015, 2017]))
        base = rng.normal(0.42, 0.04)
        for y in range(2010, 2020):
            post = start and y >= start
            rows["county"].append(f"F{c:02d}")
            rows["year"].append(y)
            rows["raise_year"].append(start)
            rows["teen_emp_rate"].append(base - 0.002 * (y - 2010) - 0.012 * post + rng.normal(0, 0.01))
    table(out / "minwage_counties_2010s.csv", rows, {"teen_emp_rate": ".4f"})


@writer
def river_gauge(out: Path) -> None:
    """Monthly mean discharge of a snow-fed river over 25 years: a seasonal cycle and an AR(1) anomaly."""
    rng = np.random.default_rng(31125)
    n = 300
    month = np.arange(n)
    anom = np.zeros(n)
    for i in range(1, n):
        anom[i] = 0.6 * anom[i - 1] + rng.normal(0, 12)
    q = 80 + 60 * np.sin(2 * np.pi * (month % 12 - 3) / 12) + anom
    table(out / "river_gauge_monthly.csv", {
        "month": [f"{1999 + m // 12}-{m % 12 + 1:02d}" for m in month], "discharge_m3s": np.clip(q, 5, None)},
        {"discharge_m3s": ".1f"})


@writer
def halpha_profile(out: Path) -> None:
    """An emission-line profile around H-alpha: a Voigt-like line on a sloped continuum, flux with errors."""
    rng = np.random.default_rng(31126)
    wl = np.linspace(6540, 6586, 230)
    x = wl - 6563.1
    line = 4.0 * (0.6 * np.exp(-0.5 * (x / 1.1) ** 2) + 0.4 / (1 + (x / 0.8) ** 2))
    flux = 1.0 + 0.004 * (wl - 6563) + line + rng.normal(0, 0.05, wl.size)
    table(out / "halpha_line_profile.csv", {"wavelength_a": wl, "flux": flux, "flux_err": np.full(wl.size, 0.05)},
          {"wavelength_a": ".2f", "flux": ".4f", "flux_err": ".3f"})


# ------------------------------------------------------------------------------------------------ asks

@writer
def sn_ask(out: Path) -> None:
    """140 distance moduli of a flat LCDM (Omega_m 0.29)."""
    rng = np.random.default_rng(31127)
    n = 140
    z = np.sort(rng.uniform(0.02, 1.0, n))
    err = rng.uniform(0.08, 0.14, n)
    table(out / "hsc_transient_moduli.csv", {"z": z, "mu": distance_modulus(z, 0.29) + rng.normal(0, err),
                                             "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})


@writer
def mentoring(out: Path) -> None:
    """A mentoring programme for early-career nurses: enrolment and completion (two binary columns), with
    retention at two years; experience, ward type and age."""
    rng = np.random.default_rng(31128)
    n = 600
    age = rng.uniform(21, 40, n)
    icu = rng.binomial(1, 0.3, n)
    exp_m = rng.uniform(0, 24, n)
    enrolled = rng.binomial(1, expit(0.3 - 0.05 * (exp_m - 12) + 0.4 * icu))
    completed = enrolled * rng.binomial(1, 0.65, n)
    stay = rng.binomial(1, expit(0.4 + 0.3 * enrolled + 0.4 * completed - 0.03 * (age - 30) - 0.3 * icu))
    table(out / "nurse_mentoring_retention.csv", {
        "age": age, "icu_ward": icu, "experience_months": exp_m, "enrolled": enrolled, "completed": completed,
        "retained_2y": stay}, {"age": ".0f", "experience_months": ".0f"})


@writer
def triage(out: Path) -> None:
    """Emergency-department triage: six vital signs and an admitted (0/1) column."""
    rng = np.random.default_rng(31129)
    n = 500
    hr = rng.normal(88, 15, n)
    sbp = rng.normal(128, 20, n)
    rr = rng.normal(18, 4, n)
    spo2 = np.clip(rng.normal(96, 2.5, n), 80, 100)
    temp = rng.normal(37.1, 0.7, n)
    age = rng.uniform(18, 95, n)
    adm = rng.binomial(1, expit(-1 + 0.03 * (hr - 88) + 0.25 * (rr - 18) - 0.3 * (spo2 - 96) + 0.02 * (age - 55)))
    table(out / "ed_triage_vitals.csv", {
        "heart_rate": hr, "systolic_bp": sbp, "resp_rate": rr, "spo2": spo2, "temp_c": temp, "age": age,
        "admitted": adm}, {"heart_rate": ".0f", "systolic_bp": ".0f", "resp_rate": ".0f", "spo2": ".0f",
                           "temp_c": ".1f", "age": ".0f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
