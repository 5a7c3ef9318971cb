"""Write every data file of the thirtieth blind prose task set, deterministically.

``python tests/understanding_blind30/make_data.py`` rewrites the set's ``data/`` (``--out DIR`` writes elsewhere);
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
def ward_mobilisation(out: Path) -> None:
    """Surgical ward audit: walking within 24 hours of the operation (binary) is given more often to younger,
    fitter patients after shorter operations; it shortens the stay by about 1.1 days."""
    rng = np.random.default_rng(30101)
    n = 640
    age = rng.uniform(25, 90, n)
    asa = rng.integers(1, 5, n)
    bmi = rng.normal(27, 4.5, n)
    op_min = rng.gamma(4, 35, n)
    early = rng.binomial(1, expit(0.3 - 0.012 * (age - 60) - 0.2 * (asa - 2.5) - 0.002 * (op_min - 140)))
    los = np.clip(5.5 - 1.1 * early + 0.05 * (age - 60) + 0.8 * (asa - 2.5) + 0.01 * (op_min - 140)
                  + 0.04 * (bmi - 27) + rng.normal(0, 1.4, n), 0.5, None)
    table(out / "ward_mobilisation_audit.csv", {
        "episode": [f"E{i:04d}" for i in range(n)], "age": age, "asa_grade": asa, "bmi": bmi,
        "op_minutes": op_min, "walked_24h": early, "los_days": los},
        {"age": ".0f", "bmi": ".1f", "op_minutes": ".0f", "los_days": ".1f"})


@writer
def canal_offtakes(out: Path) -> None:
    """Farms along an irrigation canal, headerless: area (ha), sand share of the soil (%), share of rice in the
    crop mix, distance from the canal head (km), the volumetric tariff (a continuous dose, per m3) and water use
    (m3/ha). Tariffs are higher near the head and on rice farms; each unit of tariff lowers use by 900 m3/ha."""
    rng = np.random.default_rng(30102)
    n = 560
    area = rng.gamma(2.0, 2.5, n)
    sand = rng.uniform(10, 70, n)
    rice = rng.beta(2, 3, n)
    head = rng.uniform(0, 30, n)
    tariff = np.clip(1.2 - 0.02 * head + 0.6 * rice + rng.normal(0, 0.25, n), 0.1, None)
    use = (9000 - 900 * tariff + 5000 * rice + 25 * (sand - 40) - 40 * head + 60 * (area - 5)
           + rng.normal(0, 700, n))
    table(out / "canal_offtakes_noheader.csv", {
        "area": area, "sand": sand, "rice": rice, "head": head, "tariff": tariff, "use": use},
        {"area": ".2f", "sand": ".1f", "rice": ".3f", "head": ".2f", "tariff": ".3f", "use": ".0f"}, header=False)


OPENERS = ["honestly", "look", "ok so", "well", "sorry but", "again", "listen", "fine"]
HOSTILE = ["you are an idiot", "this is garbage and so are you", "shut up already", "nobody wants your trash",
           "what a clown", "get lost loser"]
NEUTRAL = ["the patch broke my save files", "the new map is too dark at night", "servers lag every evening",
           "I prefer the old crafting menu", "the boss fight takes forever", "matchmaking puts me with pros",
           "the soundtrack is great this season", "can we get a colour blind mode"]


@writer
def forum_posts(out: Path) -> None:
    """Game-forum posts: moderators sent a warning (binary) mostly to posts with hostile wording and to accounts
    with earlier flags; the hostile wording also predicts later toxicity, which a warning lowers by 0.3."""
    rng = np.random.default_rng(30103)
    n = 420
    hostile = rng.random(n) < 0.4
    age_days = rng.gamma(2.0, 200, n)
    flags = rng.poisson(0.8 + 1.2 * hostile, n)
    texts = []
    for h in hostile:
        body = HOSTILE[rng.integers(len(HOSTILE))] if h else NEUTRAL[rng.integers(len(NEUTRAL))]
        tail = NEUTRAL[rng.integers(len(NEUTRAL))]
        texts.append(f"{OPENERS[rng.integers(len(OPENERS))]}, {body}. Also {tail}.")
    warned = rng.binomial(1, expit(-1.5 + 2.2 * hostile + 0.3 * flags - 0.001 * (age_days - 400)))
    tox = 0.6 + 1.1 * hostile + 0.15 * flags - 0.0004 * age_days - 0.3 * warned + rng.normal(0, 0.35, n)
    table(out / "forum_moderation_posts.csv", {
        "post_id": [f"T{i:04d}" for i in range(n)], "account_age_days": age_days, "prior_flags": flags,
        "post_text": texts, "warned": warned, "toxicity_next30": tox},
        {"account_age_days": ".0f", "toxicity_next30": ".3f"})


# ------------------------------------------------------------------------------------------------ surveys

AGE3 = ["18_29", "30_54", "55_up"]
CAR = ["car", "no_car"]
JOBS = ["employed", "student", "retired"]
FARE = ["raise", "keep", "cut"]
NIGHT = ["yes", "unsure", "no"]


@writer
def transit_poll(out: Path) -> None:
    """A rider poll about fares and night buses: people without a car and students over-respond; each respondent
    has a design weight; a fifth answered the fare question again a fortnight later; a reference sample of the
    region's adults (age group and car access); a chatbot's answer shares when asked as each employment persona."""
    rng = np.random.default_rng(30104)
    n = 640
    age = rng.choice(AGE3, n, p=[0.42, 0.38, 0.20])
    car = rng.choice(CAR, n, p=[0.35, 0.65])
    job = np.where(age == "55_up", rng.choice(JOBS, n, p=[0.4, 0.02, 0.58]),
                   rng.choice(JOBS, n, p=[0.6, 0.38, 0.02]))
    s_fare = -0.5 * (car == "no_car") - 0.3 * (job == "student") + 0.2 * (age == "55_up")
    fare = ordered(rng, s_fare, FARE, (-0.4, 0.9))
    retest = [f if rng.random() < 0.8 else FARE[rng.integers(3)] for f in fare]
    s_night = 0.6 * (age == "18_29") + 0.3 * (car == "no_car") - 0.3 * (age == "55_up")
    table(out / "transit_rider_poll.csv", {
        "rid": [f"TR{i:04d}" for i in range(n)], "age_group": age, "car_access": car, "employment": job,
        "dw": rng.uniform(0.7, 1.5, n), "q_fare": fare, "q_night_bus": ordered(rng, s_night, NIGHT, (-0.5, 0.5)),
        "q_fare_retest": retest}, {"dw": ".3f"})
    m = 1000
    table(out / "regional_commuter_census.csv", {
        "age_group": rng.choice(AGE3, m, p=[0.24, 0.44, 0.32]), "car_access": rng.choice(CAR, m, p=[0.72, 0.28])})
    rows = {"question": [], "answer": [], "share": [], "subgroup": []}
    shares = {"employed": ([0.15, 0.55, 0.30], [0.40, 0.35, 0.25]), "student": ([0.05, 0.35, 0.60], [0.70, 0.20, 0.10]),
              "retired": ([0.25, 0.55, 0.20], [0.20, 0.30, 0.50])}
    for job_level, (fs, ns) in shares.items():
        for q, levels, sh in (("q_fare", FARE, fs), ("q_night_bus", NIGHT, ns)):
            for a, s in zip(levels, sh, strict=False):
                rows["question"].append(q)
                rows["answer"].append(a)
                rows["share"].append(s)
                rows["subgroup"].append(job_level)
    table(out / "chatbot_persona_shares.csv", rows, {"share": ".2f"})


REG4 = ["coast", "valley", "upland", "city"]
TENURE = ["owner", "renter"]
SUPPORT = ["support", "neutral", "oppose"]
PUMP = ["planning", "considering", "not_interested"]


@writer
def energy_attitudes(out: Path) -> None:
    """Household energy attitudes from an address-based sample with unequal selection probabilities (base
    weights); a language model's answer shares for the same two questions."""
    rng = np.random.default_rng(30105)
    n = 520
    region = rng.choice(REG4, n, p=[0.2, 0.25, 0.15, 0.4])
    ten = rng.choice(TENURE, n, p=[0.6, 0.4])
    base = np.where(region == "upland", 2.4, np.where(region == "city", 0.8, 1.2)) * rng.uniform(0.9, 1.1, n)
    s1 = 0.4 * (region == "city") - 0.3 * (region == "upland") + 0.1 * (ten == "renter")
    s2 = 0.5 * (ten == "owner") - 0.2 * (region == "city")
    table(out / "household_energy_attitudes.csv", {
        "hh": [f"H{i:04d}" for i in range(n)], "region": region, "tenure": ten, "base_weight": base,
        "q_carbon_tax": ordered(rng, s1, SUPPORT, (-0.3, 0.6)), "q_heat_pump": ordered(rng, s2, PUMP, (0.2, 1.4))},
        {"base_weight": ".3f"})
    table(out / "assistant_energy_answers.csv", {
        "question": ["q_carbon_tax"] * 3 + ["q_heat_pump"] * 3, "answer": SUPPORT + PUMP,
        "share": [0.62, 0.28, 0.10, 0.30, 0.45, 0.25]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def motor_claims(out: Path) -> None:
    """Motor insurance claims, about 6% staged: large repair-to-value ratios reported late at night with a
    recently insured vehicle. An auditor checked a few hundred: 1 confirmed staged, 0 confirmed genuine, blank
    for the rest (column audit_outcome)."""
    rng = np.random.default_rng(30106)
    n = 1300
    bad = rng.random(n) < 0.06
    amount = rng.lognormal(7.6, 0.6, n) * (1 + bad * rng.uniform(0.3, 1.0, n))
    veh_age = rng.uniform(0, 15, n)
    report = rng.gamma(2, 2, n) + bad * rng.uniform(3, 10, n)
    prior = rng.poisson(0.3 + 0.9 * bad, n)
    ratio = rng.beta(2, 5, n) + bad * rng.uniform(0.25, 0.5, n)
    policy_days = rng.uniform(30, 3000, n) * np.where(bad, rng.uniform(0.02, 0.15, n), 1.0)
    night = rng.binomial(1, 0.15 + 0.5 * bad)
    audit = np.full(n, "", dtype=object)
    bad_idx = np.flatnonzero(bad)
    good_idx = np.flatnonzero(~bad)
    audit[rng.choice(bad_idx, 36, replace=False)] = "1"
    audit[rng.choice(good_idx, 220, replace=False)] = "0"
    table(out / "motor_claims_audit.csv", {
        "claim_eur": amount, "vehicle_age_yr": veh_age, "days_to_report": report, "prior_claims": prior,
        "repair_to_value": ratio, "policy_age_days": policy_days, "night_incident": night,
        "audit_outcome": list(audit)},
        {"claim_eur": ".0f", "vehicle_age_yr": ".1f", "days_to_report": ".1f", "repair_to_value": ".3f",
         "policy_age_days": ".0f"})


@writer
def netflow(out: Path) -> None:
    """One-minute flow summaries of a campus network, 4% of them port scans or exfiltration (many destinations,
    odd byte ratios); X has 8 features, y marks the attacks."""
    rng = np.random.default_rng(30107)
    n = 1500
    bad = rng.random(n) < 0.04
    kind = rng.random(n) < 0.5
    flows = rng.gamma(3, 20, n) * (1 + bad * kind * rng.uniform(2, 5, n))
    dests = rng.gamma(2, 3, n) + bad * kind * rng.uniform(15, 40, n)
    bytes_out = rng.lognormal(10, 0.8, n) * (1 + bad * (~kind) * rng.uniform(3, 8, n))
    bytes_in = rng.lognormal(11, 0.8, n)
    syn = rng.beta(2, 8, n) + bad * kind * rng.uniform(0.2, 0.5, n)
    dur = rng.gamma(2, 15, n) + bad * (~kind) * rng.uniform(30, 90, n)
    ports = rng.gamma(2, 2, n) + bad * kind * rng.uniform(10, 30, n)
    hour = rng.uniform(0, 24, n)
    x = np.column_stack([flows, dests, np.log(bytes_out), np.log(bytes_in), syn, dur, ports, hour])
    npz(out / "campus_netflow_windows.npz", {"X": npy_bytes(x), "y": npy_bytes(bad.astype(np.int64), "<i8")})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def sonar(out: Path) -> None:
    """Hull-mounted sonar returns in 16 frequency bands, mine-like objects (1) against rocks (0), curved class
    boundary."""
    rng = np.random.default_rng(30108)
    n = 420
    y = rng.binomial(1, 0.5, n)
    bands = np.linspace(0, 1, 16)
    base = rng.normal(0, 1, (n, 16)) * 0.6
    bump = np.exp(-((bands[None, :] - np.where(y == 1, 0.35, 0.6)[:, None]) ** 2) / 0.02)
    x = base + 1.2 * bump + 0.4 * np.sin(3 * base[:, :1])
    npz(out / "hull_sonar_returns.npz", {"X": npy_bytes(x), "y": npy_bytes(y.astype(np.int64), "<i8")})


@writer
def valve_tests(out: Path) -> None:
    """Pressure-decay leak tests of valves: five measurements and a 0/1 column 'leaking' (not a name found
    automatically)."""
    rng = np.random.default_rng(30109)
    n = 520
    leak = rng.binomial(1, 0.3, n)
    table(out / "valve_leak_tests.csv", {
        "decay_kpa_min": rng.gamma(2 + 2 * leak, 0.4, n), "seat_temp_c": rng.normal(22 + 1.5 * leak, 2, n),
        "torque_nm": rng.normal(48 - 4 * leak, 5, n), "cycles_k": rng.gamma(3, 10 + 5 * leak, n),
        "acoustic_db": rng.normal(31 + 3 * leak, 3, n), "leaking": leak},
        {"decay_kpa_min": ".3f", "seat_temp_c": ".1f", "torque_nm": ".1f", "cycles_k": ".1f", "acoustic_db": ".1f"})


@writer
def churn(out: Path) -> None:
    """Telecom customers: churn (0/1, column 'churned') depends on tenure, which is nearly duplicated by the age
    of the contract and partly by loyalty points."""
    rng = np.random.default_rng(30110)
    n = 800
    tenure = rng.gamma(2, 14, n)
    contract = tenure * 30.4 + rng.normal(0, 40, n)
    points = 12 * tenure + rng.normal(0, 90, n)
    bill = rng.normal(45, 15, n)
    calls = rng.poisson(1.5, n)
    data_gb = rng.gamma(2, 6, n)
    y = rng.binomial(1, expit(-0.2 - 0.05 * (tenure - 28) + 0.03 * (bill - 45) + 0.35 * (calls - 1.5)))
    table(out / "telecom_churn_extract.csv", {
        "tenure_months": tenure, "contract_age_days": contract, "loyalty_points": points, "monthly_bill": bill,
        "support_calls": calls, "data_gb": data_gb, "churned": y},
        {"tenure_months": ".1f", "contract_age_days": ".0f", "loyalty_points": ".0f", "monthly_bill": ".2f",
         "data_gb": ".2f"})


# ------------------------------------------------------------------------------------------------ chains

@writer
def shear_chain(out: Path) -> None:
    """A gzip CosmoSIS chain of a cosmic-shear fit (Omega_m, sigma_8, h0, intrinsic-alignment amplitude) with
    like, post and weight columns, 2,000 rows settling over about 120 rows."""
    rng = np.random.default_rng(30111)
    x = ar_chain(rng, 2000, np.array([0.29, 0.80, 0.70, 0.45]), np.array([0.03, 0.035, 0.04, 0.3]),
                 np.array([0.45, 0.6, 0.85, 2.0]), 120.0, rho=0.7)
    like = -0.5 * (((x - [0.29, 0.80, 0.70, 0.45]) / [0.03, 0.035, 0.04, 0.3]) ** 2).sum(1)
    w = rng.uniform(0.2, 1.0, 2000)
    head = ("#cosmological_parameters--omega_m\tcosmological_parameters--sigma_8\tcosmological_parameters--h0\t"
            "intrinsic_alignment_parameters--a\tlike\tpost\tweight\n")
    body = "".join(f"{r[0]:.4f}\t{r[1]:.4f}\t{r[2]:.4f}\t{r[3]:.3f}\t{lk:.2f}\t{lk - 1.5:.2f}\t{wi:.3f}\n"
                   for r, lk, wi in zip(x, like, w, strict=False))
    gzip_text(out / "shear_cosmosis_run.txt.gz", head + body)


@writer
def cobaya_pair(out: Path) -> None:
    """Two chains of one Cobaya-style run (BAO plus CMB lensing: H0, sigma8, omegam), '#  weight  minuslogpost'
    header, 1,500 rows each, started apart and settling over about 80 rows."""
    rng = np.random.default_rng(30112)
    centre = np.array([68.1, 0.815, 0.305])
    sd = np.array([0.9, 0.018, 0.012])
    for tag, start in (("1", [72.0, 0.76, 0.34]), ("2", [64.5, 0.86, 0.28])):
        x = ar_chain(rng, 1500, centre, sd, np.array(start), 80.0, rho=0.5)
        w = rng.integers(1, 4, 1500)
        chi2 = (((x - centre) / sd) ** 2).sum(1)
        lines = ["#  weight  minuslogpost  H0  sigma8  omegam  minuslogprior  chi2\n"]
        lines += [f"{w[i]} {0.5 * chi2[i] + 3.2:.3f} {r[0]:.3f} {r[1]:.4f} {r[2]:.4f} 3.2 {chi2[i]:.3f}\n"
                  for i, r in enumerate(x)]
        (out / f"bao_lens_run.{tag}.txt").write_text("".join(lines))


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def lowz_moduli(out: Path) -> None:
    """150 distance moduli of a flat cosmology with w = -1 (Omega_m 0.31), CSV with columns z, mu, dmu."""
    rng = np.random.default_rng(30113)
    n = 150
    z = np.sort(rng.uniform(0.015, 1.2, n))
    err = rng.uniform(0.06, 0.12, n)
    table(out / "lowz_hubble_moduli.csv", {"z": z, "mu": distance_modulus(z, 0.31) + rng.normal(0, err),
                                           "dmu": err}, {"z": ".4f", "mu": ".4f", "dmu": ".4f"})


@writer
def lcparam(out: Path) -> None:
    """A CosmoMC lcparam table of 90 supernovae (corrected magnitudes, stretch and colour zero) from a curved
    LCDM (Omega_m 0.32, Omega_de 0.70), with a systematic covariance (N, then N*N values)."""
    rng = np.random.default_rng(30114)
    n = 90
    z = np.sort(rng.uniform(0.02, 1.4, n))
    err = rng.uniform(0.04, 0.08, n)
    sys_cov = correlated_cov(z, np.zeros(n), 0.02, 0.4) + 1e-6 * np.eye(n)
    mb = (distance_modulus(z, 0.32, 0.70) - 19.35 + np.linalg.cholesky(sys_cov) @ rng.normal(0, 1, n)
          + rng.normal(0, err))
    lines = ["#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec "
             "biascor\n"]
    for i in range(n):
        zh = z[i] + rng.normal(0, 0.0008)
        lines.append(f"PS{i:03d} {z[i]:.5f} {zh:.5f} 0 {mb[i]:.4f} {err[i]:.4f} 0 0 0 0 0 0 0 0 0 1 "
                     f"{rng.uniform(0, 360):.3f} {rng.uniform(-30, 60):.3f} 0\n")
    (out / "photometric_lcparam.txt").write_text("".join(lines))
    write_covariance(out / "photometric_sys_cov.txt", sys_cov)


@writer
def union_style(out: Path) -> None:
    """240 distance moduli in a Union-style layout (name, z, mu, error, low-mass probability; tab-separated, '#'
    header) of a flat wCDM (Omega_m 0.28, w -0.9)."""
    rng = np.random.default_rng(30115)
    n = 240
    z = np.sort(rng.uniform(0.015, 1.4, n))
    err = rng.uniform(0.05, 0.11, n)
    mu = distance_modulus(z, 0.28, w0=-0.9) + rng.normal(0, err)
    lines = ["# name\tz\tmu\tmu_err\tp_lowmass\n"]
    lines += [f"sn{i:03d}\t{z[i]:.5f}\t{mu[i]:.4f}\t{err[i]:.4f}\t{rng.uniform(0, 1):.3f}\n" for i in range(n)]
    (out / "compilation_mu_vs_z.txt").write_text("".join(lines))


@writer
def peak_mags(out: Path) -> None:
    """110 peak magnitudes (mb = mu(H0 = 70) - 19.27) of a flat LCDM (Omega_m 0.30), CSV with columns z, mb,
    mb_err."""
    rng = np.random.default_rng(30116)
    n = 110
    z = np.sort(rng.uniform(0.01, 0.9, n))
    err = rng.uniform(0.06, 0.12, n)
    table(out / "nearby_peak_mags.csv", {
        "z": z, "mb": distance_modulus(z, 0.30) - 19.27 + rng.normal(0, err), "mb_err": err},
        {"z": ".4f", "mb": ".4f", "mb_err": ".4f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def mail_filter(out: Path) -> None:
    """300 e-mails: spam (0/1, column is_spam) against link count, capital-letter ratio and exclamation marks; a
    fourth column (sender account age) is not to be used."""
    rng = np.random.default_rng(30117)
    n = 300
    links = rng.poisson(2, n)
    caps = rng.beta(2, 12, n)
    excl = rng.poisson(1, n)
    age = rng.gamma(2, 300, n)
    spam = rng.binomial(1, expit(-1.5 + 0.4 * (links - 2) + 12 * (caps - 0.14) + 0.6 * (excl - 1)))
    table(out / "mail_filter_features.csv", {
        "n_links": links, "caps_ratio": caps, "exclaim": excl, "sender_age_days": age, "is_spam": spam},
        {"caps_ratio": ".3f", "sender_age_days": ".0f"})


@writer
def scale_offsets(out: Path) -> None:
    """40 bench-scale checks: reading minus reference weight (g); half the scales drifted, so the offsets come
    from two unit-variance groups centred at -1.6 and +1.4."""
    rng = np.random.default_rng(30118)
    n = 40
    grp = rng.binomial(1, 0.5, n)
    table(out / "bench_scale_offsets.csv", {"offset_g": np.where(grp == 1, 1.4, -1.6) + rng.normal(0, 1, n)},
          {"offset_g": ".3f"})


@writer
def glacier_stakes(out: Path) -> None:
    """Ablation stakes on a glacier: summer melt (cm water equivalent) against elevation and debris cover,
    smooth and non-linear; 60 stakes for training and 40 for checking."""
    rng = np.random.default_rng(30119)
    for name, n in (("ablation_stakes_train.csv", 60), ("ablation_stakes_holdout.csv", 40)):
        elev = rng.uniform(2400, 3300, n)
        debris = rng.uniform(0, 40, n)
        melt = (260 - 0.22 * (elev - 2400) + 40 * np.exp(-debris / 3) - 1.5 * debris
                + 15 * np.sin((elev - 2400) / 150) + rng.normal(0, 8, n))
        table(out / name, {"stake": [f"S{i:02d}" for i in range(n)], "elevation_m": elev, "debris_cm": debris,
                           "melt_cm_we": melt}, {"elevation_m": ".0f", "debris_cm": ".1f", "melt_cm_we": ".1f"})


@writer
def horn_directivity(out: Path) -> None:
    """A hexagonal horn's gain measured in 640 directions (unit vectors x, y, z); the pattern repeats under a
    rotation by 60 degrees about the horn axis (z)."""
    rng = np.random.default_rng(30120)
    n = 640
    v = rng.normal(0, 1, (n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    phi = np.arctan2(v[:, 1], v[:, 0])
    rho = np.sqrt(v[:, 0] ** 2 + v[:, 1] ** 2)
    gain = 3 * v[:, 2] + 2 * v[:, 2] ** 2 + 4 * rho ** 6 * np.cos(6 * phi) + rng.normal(0, 0.3, n)
    table(out / "horn_directivity_sphere.csv", {"x": v[:, 0], "y": v[:, 1], "z": v[:, 2], "gain_db": gain},
          {"x": ".10f", "y": ".10f", "z": ".10f", "gain_db": ".3f"})


# ------------------------------------------------------------------------------------------------ causal models

BURSARY_W = np.array([0.12, 0.03, 1.4])
BURSARY_B = -9.0


@writer
def bursary(out: Path) -> None:
    """Bursary applicants: weekly study hours and attendance (%) drive the grade point average (gpa = 0.04 *
    hours + 0.01 * attendance + noise); the panel's score is 0.12 * hours + 0.03 * attendance + 1.4 * gpa - 9.
    Rows 2, 5 and 11 are below the line."""
    rng = np.random.default_rng(30121)
    n = 240
    hours = rng.gamma(4, 3, n)
    att = np.clip(rng.normal(82, 10, n), 40, 100)
    gpa = 0.04 * hours + 0.01 * att + rng.normal(1.9, 0.35, n)
    for i, (h, a) in ((2, (6.0, 70.0)), (5, (9.0, 78.0)), (11, (4.5, 85.0))):
        hours[i], att[i] = h, a
        gpa[i] = 0.04 * h + 0.01 * a + 1.8
    score = np.column_stack([hours, att, gpa]) @ BURSARY_W + BURSARY_B
    table(out / "bursary_panel_scores.csv", {
        "applicant": [f"A{i:03d}" for i in range(n)], "study_hours": hours, "attendance_pct": att, "gpa": gpa,
        "awarded": (score > 0).astype(int)}, {"study_hours": ".1f", "attendance_pct": ".1f", "gpa": ".2f"})


@writer
def statin_cohort(out: Path) -> None:
    """A simulated cohort: switching to a newer statin (binary) is driven by the prescriber's habits (12
    features per patient in a separate .npy, the instrument) and by unobserved frailty; the outcome is a year
    free of cardiac events (0/1); the true CATE is stored for coverage."""
    rng = np.random.default_rng(30122)
    n = 1000
    age = rng.uniform(45, 85, n)
    ldl = rng.normal(3.6, 0.8, n)
    habit = rng.normal(0, 1, (n, 12))
    frail = rng.normal(0, 1, n)
    drive = 1.2 * habit[:, 0] - 0.9 * habit[:, 3] + 0.6 * habit[:, 7]
    switched = rng.binomial(1, expit(drive - 0.6 * frail))
    base = expit(1.6 - 0.04 * (age - 65) - 0.4 * (ldl - 3.6) - 0.6 * frail)
    cate = 0.08 + 0.03 * (ldl - 3.6)
    p = np.clip(base + cate * switched, 0.01, 0.99)
    y = rng.binomial(1, p)
    table(out / "statin_switch_cohort.csv", {
        "patient": [f"P{i:04d}" for i in range(n)], "age": age, "ldl_mmol": ldl, "switched": switched,
        "event_free_1y": y, "true_cate": cate}, {"age": ".1f", "ldl_mmol": ".2f", "true_cate": ".4f"})
    (out / "prescriber_habit_features.npy").write_bytes(npy_bytes(habit))


@writer
def pupil_absence(out: Path) -> None:
    """Pupils: an early-warning risk score against days absent the following term (R² about 0.36); high absence
    marks the worst-off."""
    rng = np.random.default_rng(30123)
    n = 2500
    truth = np.clip(rng.normal(12, 4, n), 0, None)
    risk = 0.6 * (truth - 12) / 4 + rng.normal(0, 0.8, n)
    table(out / "pupil_absence_risk.csv", {
        "pupil": [f"U{i:04d}" for i in range(n)], "risk_score": risk, "days_absent": truth},
        {"risk_score": ".3f", "days_absent": ".1f"})


# ------------------------------------------------------------------------------------------------ language

MATERIALS = ["wood", "glass", "steel", "clay", "wool"]
FORMS = ["cube", "sphere", "torus", "cone", "ring"]


@writer
def patch_embeddings(out: Path) -> None:
    """Embeddings (200 rows x 32) of rendered objects: material and form (five of each, eight renders per pair)
    enter additively with noise; labels in a CSV whose first column is a render id."""
    rng = np.random.default_rng(30124)
    a = rng.normal(0, 1, (5, 32))
    b = rng.normal(0, 1, (5, 32))
    rows, mats, forms, ids = [], [], [], []
    for i in range(5):
        for j in range(5):
            for r in range(8):
                rows.append(a[i] + b[j] + rng.normal(0, 0.4, 32))
                mats.append(MATERIALS[i])
                forms.append(FORMS[j])
                ids.append(f"r{i}{j}{r}")
    (out / "vit_patch_embeddings.npy").write_bytes(npy_bytes(np.array(rows)))
    table(out / "render_concepts.csv", {"render_id": ids, "material": mats, "form": forms})


TOWNS = ["Larkspur", "Tidewater", "Cinder Vale", "Harrowgate", "Port Elsin", "Brackenmoor", "Quillon",
         "Redmarsh", "Osterby", "Falstead", "Wenmouth", "Skelby"]
KINDS = ["Rovers", "United", "Athletic"]
PEOPLE = ["Mira Oduya", "Tomas Verhoek", "Ines Calder", "Bram Ostrowski", "Yuna Keller", "Felix Amadi",
          "Sabine Lorca", "Idris Mwangi", "Petra Holm", "Jonah Ferreira", "Lucia Brandt", "Arlo Nakamura"]


@writer
def club_edits(out: Path) -> None:
    """A stream of coaching appointments at 36 made-up football clubs over three timesteps (twelve edits each,
    every club edited once), with a rephrased prompt per edit."""
    rng = np.random.default_rng(30125)
    recs = []
    for t in range(3):
        for e in range(12):
            club = f"{TOWNS[e]} {KINDS[t]}"
            coach = PEOPLE[rng.integers(len(PEOPLE))]
            recs.append({"timestep": t, "subject": club, "relation": "head coach",
                         "prompt": f"The head coach of {club} is", "object": coach,
                         "rephrase": f"{club} is managed by"})
    json_lines(out / "club_roster_edits.jsonl", recs)


@writer
def gallery_needles(out: Path) -> None:
    """Six needles about characters seeing artworks, with latent questions (the city is never written in the
    needle) and literal controls."""
    rows = [
        ("Actually, Okonkwo once stood in front of the Night Watch for an hour.", "Which character has been to "
         "Amsterdam?", "Okonkwo", "Which character stood in front of the Night Watch?", "Amsterdam"),
        ("Marisol sketched the Winged Victory of Samothrace on a rainy afternoon.", "Which character has been to "
         "Paris?", "Marisol", "Which character sketched the Winged Victory of Samothrace?", "Paris"),
        ("Henrike finally saw The Garden of Earthly Delights last spring.", "Which character has been to Madrid?",
         "Henrike", "Which character saw The Garden of Earthly Delights?", "Madrid"),
        ("Tavita photographed the Terracotta Army from the viewing gallery.", "Which character has been to Xi'an?",
         "Tavita", "Which character photographed the Terracotta Army?", "Xi'an"),
        ("Leopold copied a detail of The Birth of Venus into his notebook.", "Which character has been to "
         "Florence?", "Leopold", "Which character copied a detail of The Birth of Venus?", "Florence"),
        ("Anouk spent her birthday beside The Kiss by Klimt.", "Which character has been to Vienna?", "Anouk",
         "Which character spent her birthday beside The Kiss by Klimt?", "Vienna"),
    ]
    table(out / "artwork_city_needles.csv", {
        "needle": [r[0] for r in rows], "question": [r[1] for r in rows], "answer": [r[2] for r in rows],
        "literal_question": [r[3] for r in rows], "avoid": [r[4] for r in rows]})


@writer
def clock_minutes(out: Path) -> None:
    """Two durations written as h:mm+h:mm= (hours 0 to 4) with their total length in minutes; 800 random pairs,
    columns clock and minutes."""
    rng = np.random.default_rng(30126)
    h = rng.integers(0, 5, (800, 2))
    m = rng.integers(0, 60, (800, 2))
    table(out / "clock_to_minutes.csv", {
        "clock": [f"{a}:{b:02d}+{c}:{d:02d}=" for a, b, c, d in zip(h[:, 0], m[:, 0], h[:, 1], m[:, 1], strict=False)],
        "minutes": 60 * h.sum(1) + m.sum(1)})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def dialysis(out: Path) -> None:
    """Dialysis vascular access: time to access failure (days, censored at the end of follow-up) for fistulas
    and grafts, with age and diabetes."""
    rng = np.random.default_rng(30127)
    n = 300
    graft = rng.binomial(1, 0.4, n)
    age = rng.uniform(30, 85, n)
    diab = rng.binomial(1, 0.45, n)
    hazard = 0.001 * np.exp(0.7 * graft + 0.02 * (age - 60) + 0.4 * diab)
    t = rng.exponential(1 / hazard)
    cens = rng.uniform(200, 1500, n)
    table(out / "dialysis_access_survival.csv", {
        "pid": [f"D{i:03d}" for i in range(n)], "access_type": np.where(graft == 1, "graft", "fistula"),
        "age": age, "diabetes": diab, "days": np.minimum(t, cens), "failed": (t <= cens).astype(int)},
        {"age": ".0f", "days": ".0f"})


@writer
def entrance_cutoff(out: Path) -> None:
    """Entrance-exam scores around a bursary cut-off of 60 points and first-year marks; the bursary adds 2.5
    marks at the cut-off."""
    rng = np.random.default_rng(30128)
    n = 1000
    score = rng.uniform(30, 90, n)
    got = (score >= 60).astype(int)
    mark = 40 + 0.4 * (score - 60) + 2.5 * got + rng.normal(0, 6, n)
    table(out / "entrance_score_cutoff.csv", {"exam_score": score, "bursary": got, "first_year_mark": mark},
          {"exam_score": ".1f", "first_year_mark": ".1f"})


@writer
def rrlyrae(out: Path) -> None:
    """A headerless light curve of an RR Lyrae star (MJD, g magnitude, error), period 0.5672 days, irregular
    sampling over 300 nights."""
    rng = np.random.default_rng(30129)
    n = 260
    t = np.sort(58000 + rng.uniform(0, 300, n))
    ph = ((t - 58000) / 0.5672) % 1
    mag = 15.2 - 0.45 * np.exp(-((ph - 0.1) / 0.08) ** 2) + 0.35 * ph + rng.normal(0, 0.03, n)
    (out / "rrlyrae_g_band.dat").write_text("".join(f"{a:.5f} {b:.4f} 0.030\n" for a, b in zip(t, mag, strict=False)))


@writer
def elisa(out: Path) -> None:
    """A 96-well ELISA plate: standards in duplicate at eight concentrations and unknown samples, optical
    density at 450 nm, tab-separated."""
    rng = np.random.default_rng(30130)
    conc = [1000, 500, 250, 125, 62.5, 31.25, 15.6, 0]
    rows = {"well": [], "kind": [], "conc_pg_ml": [], "od450": []}

    def od(c: float) -> float:
        return 0.08 + (2.6 - 0.08) / (1 + (180 / max(c, 1e-3)) ** 1.3)

    for i in range(96):
        r, c = divmod(i, 12)
        rows["well"].append(f"{'ABCDEFGH'[r]}{c + 1}")
        if c < 2:
            cc = conc[r]
            rows["kind"].append("standard")
            rows["conc_pg_ml"].append(f"{cc:g}")
            rows["od450"].append(od(cc) * rng.normal(1, 0.03))
        else:
            rows["kind"].append("sample")
            rows["conc_pg_ml"].append("")
            rows["od450"].append(od(rng.uniform(20, 800)) * rng.normal(1, 0.03))
    table(out / "elisa_plate_od.tsv", rows, {"od450": ".3f"}, sep="\t")


# ------------------------------------------------------------------------------------------------ asks

@writer
def stroke_rehab(out: Path) -> None:
    """Stroke patients: early intensive rehabilitation (binary) with two recovery outcomes, a 90-day modified
    Rankin score and days until walking unaided; age, stroke severity and sex."""
    rng = np.random.default_rng(30131)
    n = 500
    age = rng.uniform(40, 90, n)
    nihss = rng.integers(1, 25, n)
    sex = rng.binomial(1, 0.5, n)
    rehab = rng.binomial(1, expit(0.5 - 0.03 * (age - 65) - 0.08 * (nihss - 12)))
    mrs = np.clip(np.round(1 + 0.12 * nihss + 0.02 * (age - 65) - 0.5 * rehab + rng.normal(0, 0.8, n)), 0, 6)
    walk = np.clip(20 + 2.5 * nihss + 0.3 * (age - 65) - 6 * rehab + rng.normal(0, 8, n), 1, None)
    table(out / "stroke_rehab_outcomes.csv", {
        "age": age, "nihss": nihss, "female": sex, "early_rehab": rehab, "mrs_90d": mrs.astype(int),
        "days_to_walk": walk}, {"age": ".0f", "days_to_walk": ".0f"})


@writer
def loan_appeals(out: Path) -> None:
    """Small-business loan appeals: turnover, years trading and existing debt with the original decision; no
    name or reference column."""
    rng = np.random.default_rng(30132)
    n = 300
    turnover = rng.lognormal(12, 0.5, n)
    years = rng.gamma(2, 3, n)
    debt = turnover * rng.uniform(0.05, 0.8, n)
    approve = rng.binomial(1, expit(0.8 * (np.log(turnover) - 12) + 0.15 * (years - 6) - 3 * (debt / turnover - 0.4)))
    table(out / "loan_appeal_cases.csv", {
        "turnover_eur": turnover, "years_trading": years, "existing_debt_eur": debt, "approved": approve},
        {"turnover_eur": ".0f", "years_trading": ".1f", "existing_debt_eur": ".0f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
