"""Write every data file of the thirty-second blind prose task set, deterministically.

``python tests/understanding_blind32/make_data.py`` rewrites the set's ``data/`` (``--out DIR`` writes elsewhere);
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
def pillbox_app(out: Path) -> None:
    """Outpatients on several drugs: younger patients on more drugs with lower past adherence take up a reminder
    app (binary); the app raises the share of doses taken by about 6 percentage points."""
    rng = np.random.default_rng(32101)
    n = 650
    age = rng.uniform(40, 85, n)
    meds = rng.integers(2, 13, n)
    base = rng.uniform(40, 100, n)
    alone = rng.binomial(1, 0.3, n)
    app = rng.binomial(1, expit(0.3 - 0.04 * (age - 60) + 0.1 * (meds - 7) - 0.02 * (base - 70)))
    adh = np.clip(55 + 6 * app + 0.3 * (base - 70) - 0.8 * (meds - 7) - 4 * alone + 0.05 * (age - 60)
                  + rng.normal(0, 8, n), 0, 100)
    table(out / "pillbox_app_cohort.csv", {
        "patient": [f"P{i:04d}" for i in range(n)], "age": age, "n_meds": meds, "baseline_adh": base,
        "lives_alone": alone, "app_reminder": app, "adherence_pct": adh},
        {"age": ".0f", "baseline_adh": ".1f", "adherence_pct": ".1f"})


@writer
def maize_nitrogen(out: Path) -> None:
    """On-farm maize trials with no header row (plot, nitrogen rate, soil organic matter, rainfall, slope, yield):
    farmers put less nitrogen on rich soils and more in wet seasons; each kg N/ha adds 0.012 t/ha."""
    rng = np.random.default_rng(32102)
    n = 420
    som = rng.uniform(1.0, 5.0, n)
    rain = rng.uniform(300, 800, n)
    slope = rng.uniform(0, 12, n)
    nrate = np.clip(150 - 20 * (som - 3) + 0.1 * (rain - 550) + rng.normal(0, 35, n), 0, 240)
    yld = 4 + 0.012 * nrate + 0.6 * som + 0.004 * (rain - 550) - 0.05 * slope + rng.normal(0, 0.6, n)
    table(out / "maize_n_trials_nohdr.csv", {
        "plot": [f"M{i:03d}" for i in range(n)], "n_rate": nrate, "som_pct": som, "rain_mm": rain,
        "slope_deg": slope, "yield_t": yld},
        {"n_rate": ".0f", "som_pct": ".2f", "rain_mm": ".0f", "slope_deg": ".1f", "yield_t": ".2f"}, header=False)


GRIPES_MILD = ["invoice shows the wrong billing address", "would like a copy of last month's receipt",
               "asked how to add a second user", "password reset email arrived late",
               "minor typo in the monthly report", "wants the dashboard in dark mode"]
GRIPES_BAD = ["service down for two days and nobody answered", "charged twice and still waiting for the refund",
              "lost all saved data after the update", "threatening to cancel after repeated outages",
              "export fails every time, deadline missed", "account locked for a week, very angry"]


@writer
def helpdesk(out: Path) -> None:
    """Support tickets of a software subscription: how bad the complaint is (visible only in its text) makes a
    call-back more likely and renewal less likely; a call-back raises the chance of renewal by about 0.12."""
    rng = np.random.default_rng(32103)
    n = 360
    sev = rng.binomial(1, 0.45, n)
    tenure = rng.integers(1, 61, n)
    tier = rng.integers(1, 4, n)
    text = [str(rng.choice(GRIPES_BAD if s else GRIPES_MILD)) for s in sev]
    call = rng.binomial(1, expit(-0.6 + 1.4 * sev + 0.2 * (tier - 2)))
    renew = rng.binomial(1, np.clip(0.62 + 0.12 * call - 0.3 * sev + 0.003 * (tenure - 30), 0.02, 0.98))
    table(out / "helpdesk_tickets_q3.csv", {
        "ticket": [f"T{i:04d}" for i in range(n)], "tenure_months": tenure, "plan_tier": tier, "complaint": text,
        "callback": call, "renewed": renew})


# ------------------------------------------------------------------------------------------------ surveys

AREAS = ["north", "central", "south"]
FARMS = ["small", "medium", "large"]
ADAPT = ["yes", "partly", "no"]
INSURE = ["has", "plans", "none"]


@writer
def smallholders(out: Path) -> None:
    """A household survey of farmers on climate adaptation and crop insurance: large farms over-sampled (with a
    design weight base_wt), a repeated adaptation question two weeks later (q_adapt_retest, 15% change), a census
    reference sample with household weights (hh_wt), and an assistant's answer shares as three farm-size personas."""
    rng = np.random.default_rng(32104)
    n = 600
    area = rng.choice(AREAS, n, p=[0.3, 0.4, 0.3])
    farm = rng.choice(FARMS, n, p=[0.35, 0.35, 0.30])
    base_wt = np.select([farm == "small", farm == "medium"], [1.8, 1.0], 0.5) * rng.uniform(0.9, 1.1, n)
    s1 = 0.6 * (farm == "large") - 0.4 * (farm == "small") + 0.2 * (area == "south")
    s2 = 0.8 * (farm == "large") - 0.5 * (farm == "small") - 0.2 * (area == "north")
    adapt = ordered(rng, s1, ADAPT, (-0.3, 0.7))
    retest = [a if rng.random() > 0.15 else str(rng.choice(ADAPT)) for a in adapt]
    table(out / "agri_household_panel.csv", {
        "hh": [f"H{i:04d}" for i in range(n)], "region": area, "farm_size": farm, "base_wt": base_wt,
        "q_adapt": adapt, "q_insure": ordered(rng, s2, INSURE, (-0.2, 0.9)), "q_adapt_retest": retest},
        {"base_wt": ".3f"})
    m = 1000
    table(out / "agri_census_sample.csv", {
        "region": rng.choice(AREAS, m, p=[0.35, 0.35, 0.30]), "farm_size": rng.choice(FARMS, m, p=[0.6, 0.3, 0.1]),
        "hh_wt": rng.uniform(0.6, 1.6, m)}, {"hh_wt": ".3f"})
    rows = {"question": [], "answer": [], "share": [], "subgroup": []}
    shares = {"small": ([0.25, 0.35, 0.40], [0.10, 0.30, 0.60]), "medium": ([0.40, 0.35, 0.25], [0.30, 0.35, 0.35]),
              "large": ([0.60, 0.30, 0.10], [0.55, 0.30, 0.15])}
    for size in FARMS:
        for q, levels, p in (("q_adapt", ADAPT, shares[size][0]), ("q_insure", INSURE, shares[size][1])):
            for level, s in zip(levels, p, strict=True):
                rows["question"].append(q)
                rows["answer"].append(level)
                rows["share"].append(s)
                rows["subgroup"].append(size)
    table(out / "assistant_farmer_personas.csv", rows, {"share": ".2f"})


STRIKE = ["support", "neutral", "oppose"]
PAY = ["better", "same", "worse"]


@writer
def union_poll(out: Path) -> None:
    """Three yearly waves (2019, 2021, 2023) of a poll of union members with sampling weights (sw): support for
    strike action rises across waves; a chatbot's answer shares for the two questions."""
    rng = np.random.default_rng(32105)
    rows = {"member": [], "year": [], "sw": [], "q_strike": [], "q_pay": []}
    for year, shift in ((2019, -0.4), (2021, 0.0), (2023, 0.5)):
        n = 300
        young = rng.binomial(1, 0.45, n)
        rows["member"] += [f"U{year}{i:03d}" for i in range(n)]
        rows["year"] += [year] * n
        rows["sw"] += list(np.where(young == 1, 1.3, 0.8) * rng.uniform(0.9, 1.1, n))
        rows["q_strike"] += ordered(rng, shift + 0.4 * young, STRIKE, (-0.3, 0.6))
        rows["q_pay"] += ordered(rng, -0.5 * shift + 0.2 * young, PAY, (-0.1, 0.8))
    table(out / "union_member_poll_waves.csv", rows, {"sw": ".3f"})
    table(out / "chatbot_union_shares.csv", {
        "question": ["q_strike"] * 3 + ["q_pay"] * 3, "answer": STRIKE + PAY,
        "share": [0.35, 0.45, 0.20, 0.20, 0.50, 0.30]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def motor_claims(out: Path) -> None:
    """Motor insurance claims, about 4% fraudulent (large amounts, late reporting, many prior claims, a favoured
    repair shop); auditors checked 60% of the frauds and 25% of the rest: audit_flag is 1 or 0 where checked and
    blank elsewhere."""
    rng = np.random.default_rng(32106)
    n = 1000
    bad = rng.random(n) < 0.04
    amount = rng.lognormal(1.2, 0.5, n) * (1 + bad * rng.uniform(1.5, 3.0, n))
    report = rng.exponential(3, n) + bad * rng.uniform(8, 25, n)
    prior = rng.poisson(0.4 + 2.0 * bad)
    vage = rng.uniform(0, 18, n)
    policy = rng.uniform(1, 120, n) - bad * rng.uniform(0, 40, n)
    shop = rng.beta(2, 8, n) + bad * rng.uniform(0.2, 0.5, n)
    checked = rng.random(n) < np.where(bad, 0.6, 0.25)
    flag = [("1" if b else "0") if c else "" for b, c in zip(bad, checked, strict=True)]
    table(out / "motor_claims_audited.csv", {
        "amount_k": amount, "days_to_report": report, "prior_claims": prior, "vehicle_age": vage,
        "policy_age_m": np.clip(policy, 0.5, None), "shop_share": shop, "audit_flag": flag},
        {"amount_k": ".2f", "days_to_report": ".1f", "vehicle_age": ".1f", "policy_age_m": ".1f",
         "shop_share": ".3f"})


@writer
def bearing_rig(out: Path) -> None:
    """Vibration features of a bearing test rig (eight features, .npz with X and y): 6% of the windows come from a
    spalled outer race (raised kurtosis, crest factor and envelope energy at the defect frequency)."""
    rng = np.random.default_rng(32107)
    n = 1200
    bad = rng.random(n) < 0.06
    rms = rng.normal(1.0, 0.1, n) + bad * rng.uniform(0.1, 0.4, n)
    kurt = rng.gamma(9, 1 / 3, n) + bad * rng.uniform(2, 6, n)
    crest = rng.normal(3.2, 0.3, n) + bad * rng.uniform(0.8, 2.0, n)
    bpfo = rng.lognormal(0, 0.4, n) * (1 + bad * rng.uniform(2, 6, n))
    temp = rng.normal(45, 3, n)
    speed = rng.uniform(1400, 1600, n)
    skew = rng.normal(0, 0.2, n) + bad * rng.normal(0.3, 0.2, n)
    p2p = rms * crest * 2 + rng.normal(0, 0.2, n)
    x = np.column_stack([rms, kurt, crest, np.log(bpfo), temp, speed / 100, skew, p2p])
    npz(out / "bearing_rig_features.npz", {"X": npy_bytes(x), "y": npy_bytes(bad.astype(np.int64), "<i8")})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def newsletter_clicks(out: Path) -> None:
    """300 newsletter sends: whether the reader clicked (0/1) against send hour, subject length and past opens;
    the segment code carries no signal."""
    rng = np.random.default_rng(32108)
    n = 300
    hour = rng.integers(6, 23, n)
    subj = rng.integers(20, 90, n)
    opens = rng.poisson(3, n)
    seg = rng.integers(1, 6, n)
    y = rng.binomial(1, expit(-0.6 - 0.06 * (hour - 14) - 0.02 * (subj - 55) + 0.35 * (opens - 3)))
    table(out / "newsletter_clicks_ab.csv", {
        "hour": hour, "subject_len": subj, "past_opens": opens, "segment_code": seg, "clicked": y})


@writer
def flare_peaks(out: Path) -> None:
    """45 stellar flares: log peak flux (one column) from two populations of unit spread centred at -1.8 and 2.2."""
    rng = np.random.default_rng(32109)
    comp = rng.binomial(1, 0.5, 45)
    y = np.where(comp == 1, 2.2, -1.8) + rng.normal(0, 1, 45)
    table(out / "flare_log_peak.csv", {"log_peak": y}, {"log_peak": ".3f"})


@writer
def alloy_creep(out: Path) -> None:
    """Creep tests of a nickel alloy: log10 of the minimum creep rate against stress and temperature (smooth,
    Norton-like), 40 training tests and 30 held-out ones, each with a heat label that is not an input."""
    rng = np.random.default_rng(32110)
    for name, n in (("alloy_creep_train.csv", 40), ("alloy_creep_holdout.csv", 30)):
        stress = rng.uniform(50, 300, n)
        temp = rng.uniform(800, 1000, n)
        rate = -9 + 4.5 * np.log10(stress / 100) - 28000 / 8.314 / np.log(10) * (1 / temp - 1 / 900) * 10
        rate = rate + 0.4 * np.sin(stress / 40) + rng.normal(0, 0.15, n)
        table(out / name, {"heat": [f"HT{i:02d}" for i in range(n)], "stress_mpa": stress, "temp_k": temp,
                           "log_rate": rate}, {"stress_mpa": ".1f", "temp_k": ".0f", "log_rate": ".3f"})


@writer
def hexagonal_moduli(out: Path) -> None:
    """Directional Young's modulus of a hexagonal crystal at 480 random directions (unit vectors nx, ny, nz): the
    surface is unchanged by a 60-degree turn about the c axis and by mirroring through the basal plane."""
    rng = np.random.default_rng(32111)
    n = 480
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    six = np.real((v[:, 0] + 1j * v[:, 1]) ** 6)
    e = 150 + 40 * v[:, 2] ** 2 + 25 * six - 10 * v[:, 2] ** 4 + rng.normal(0, 3, n)
    table(out / "hexagonal_elastic_dirs.csv", {"nx": v[:, 0], "ny": v[:, 1], "nz": v[:, 2], "modulus_gpa": e},
          {"nx": ".9f", "ny": ".9f", "nz": ".9f", "modulus_gpa": ".2f"})


# ------------------------------------------------------------------------------------------------ causal models

@writer
def microcredit(out: Path) -> None:
    """Applicants for a farm microloan: land (ha) drives yield (1.8 t per ha), yield drives income (0.4 kEUR per
    t); rows 2 and 9 are small holdings far below the lender's score."""
    rng = np.random.default_rng(32112)
    n = 200
    land = rng.gamma(3, 1.2, n)
    land[[2, 9]] = [0.6, 0.9]
    yld = 1.8 * land + rng.normal(0, 0.8, n)
    yld[[2, 9]] = [1.0, 1.4]
    inc = 0.4 * yld + rng.normal(0, 0.5, n)
    inc[[2, 9]] = [0.3, 0.5]
    table(out / "microcredit_applicants.csv", {
        "applicant": [f"A{i:03d}" for i in range(n)], "land_ha": land, "yield_t": yld, "income_k": inc},
        {"land_ha": ".2f", "yield_t": ".2f", "income_k": ".2f"})


@writer
def ldl_cohort(out: Path) -> None:
    """A cohort with 20 LDL-raising variant dosages (0/1/2, .npy, one row per person), an unmeasured diet that
    drives both high LDL (binary) and a 0-100 angina symptom score; high LDL adds about 8 points."""
    rng = np.random.default_rng(32113)
    n = 700
    maf = rng.uniform(0.1, 0.5, 20)
    snps = rng.binomial(2, maf, (n, 20)).astype(float)
    beta = rng.uniform(0.1, 0.35, 20)
    age = rng.uniform(40, 75, n)
    male = rng.binomial(1, 0.5, n)
    diet = rng.normal(0, 1, n)
    ldl = rng.binomial(1, expit((snps - 2 * maf) @ beta + 0.8 * diet + 0.03 * (age - 57)))
    score = np.clip(30 + 8 * ldl + 0.5 * (age - 57) + 5 * male + 6 * diet + rng.normal(0, 10, n), 0, 100)
    table(out / "ldl_cohort_symptom.csv", {
        "pid": [f"C{i:04d}" for i in range(n)], "age": age, "male": male, "high_ldl": ldl, "angina_score": score},
        {"age": ".0f", "angina_score": ".1f"})
    (out / "ldl_snp_dosages.npy").write_bytes(npy_bytes(snps))


@writer
def tenancy_risk(out: Path) -> None:
    """1,200 social-housing tenancies: a risk model's prediction and the months of rent arrears a year later
    (higher is worse), correlated so that the prediction explains about a third of the variance."""
    rng = np.random.default_rng(32114)
    n = 1200
    latent = rng.normal(0, 1, n)
    pred = 0.58 * latent + rng.normal(0, 0.3, n)
    arrears = np.clip(2.0 + 1.5 * (0.58 * latent + 0.81 * rng.normal(0, 1, n)), 0, None)
    table(out / "tenancy_risk_predictions.csv", {
        "tenancy": [f"R{i:04d}" for i in range(n)], "risk_pred": pred, "arrears_m": arrears},
        {"risk_pred": ".4f", "arrears_m": ".2f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def lowz_magnitudes(out: Path) -> None:
    """180 supernovae as apparent peak magnitudes (mb = mu + M, M = -19.3 at H0 = 70) of a flat LCDM with
    Omega_m 0.30."""
    rng = np.random.default_rng(32115)
    n = 180
    z = np.sort(rng.uniform(0.015, 0.9, n))
    err = rng.uniform(0.1, 0.16, n)
    mb = distance_modulus(z, 0.30) - 19.3 + rng.normal(0, err)
    table(out / "lowz_sn_mb_table.csv", {"z": z, "mb": mb, "mb_err": err},
          {"z": ".4f", "mb": ".4f", "mb_err": ".4f"})


@writer
def survey_wcdm(out: Path) -> None:
    """100 distance moduli of a flat wCDM (Omega_m 0.30, w -0.85) with a correlated covariance (N, then N*N
    values)."""
    rng = np.random.default_rng(32116)
    n = 100
    z = np.sort(rng.uniform(0.03, 1.2, n))
    err = rng.uniform(0.09, 0.15, n)
    cov = correlated_cov(z, err, 0.02, 0.4)
    mu = distance_modulus(z, 0.30, w0=-0.85) + np.linalg.cholesky(cov) @ rng.normal(0, 1, n)
    table(out / "snsurvey_wcdm_mu.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    write_covariance(out / "snsurvey_wcdm_cov.txt", cov)


@writer
def curved_sn(out: Path) -> None:
    """90 distance moduli of a slightly closed LCDM (Omega_m 0.32, Omega_de 0.72) with a covariance written as the
    N*N values alone."""
    rng = np.random.default_rng(32117)
    n = 90
    z = np.sort(rng.uniform(0.02, 1.4, n))
    err = rng.uniform(0.08, 0.14, n)
    cov = correlated_cov(z, err, 0.02, 0.3)
    mu = distance_modulus(z, 0.32, 0.72) + np.linalg.cholesky(cov) @ rng.normal(0, 1, n)
    table(out / "curv_sn_distmod.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    (out / "curv_sn_cov_flat.txt").write_text("".join(f"{v:.4e}\n" for v in cov.ravel()))


@writer
def joint_wcdm_sn(out: Path) -> None:
    """120 distance moduli of a flat wCDM (Omega_m 0.31, w -0.97, H0 67.4), diagonal errors only."""
    rng = np.random.default_rng(32118)
    n = 120
    z = np.sort(rng.uniform(0.02, 1.5, n))
    err = rng.uniform(0.08, 0.13, n)
    mu = distance_modulus(z, 0.31, w0=-0.97, h0=67.4) + rng.normal(0, err)
    table(out / "sn_joint_wcdm_moduli.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})


@writer
def cosmosis_chain(out: Path) -> None:
    """A gzip CosmoSIS-style chain of a cosmic-shear run (#section--name header, emcee, no weights): Omega_m,
    sigma_8, h, an intrinsic-alignment amplitude and the prior and posterior columns, 3,000 rows settling over
    about 400."""
    rng = np.random.default_rng(32119)
    centre = np.array([0.29, 0.80, 0.70, 0.9])
    sd = np.array([0.03, 0.05, 0.04, 0.35])
    x = ar_chain(rng, 3000, centre, sd, np.array([0.40, 0.65, 0.78, 2.0]), 400.0, rho=0.7)
    post = -0.5 * (((x - centre) / sd) ** 2).sum(1) - 104.0
    lines = ["#cosmological_parameters--omega_m\tcosmological_parameters--sigma_8\tcosmological_parameters--h0\t"
             "intrinsic_alignment_parameters--a\tprior\tpost\n", "#sampler=emcee\n", "#walkers=30\n"]
    lines += [f"{r[0]:.5f}\t{r[1]:.5f}\t{r[2]:.5f}\t{r[3]:.4f}\t-3.2189\t{p:.4f}\n" for r, p in zip(x, post,
                                                                                                    strict=True)]
    gzip_text(out / "shear_cosmosis_chain.txt.gz", "".join(lines))


@writer
def four_chains(out: Path) -> None:
    """Four chains of one run (H0, S8, Omega_m; plain header, no weights), 1,000 rows each, started far apart and
    settling over about 150 rows."""
    rng = np.random.default_rng(32120)
    centre = np.array([68.2, 0.78, 0.305])
    sd = np.array([0.9, 0.02, 0.012])
    starts = ([63.0, 0.70, 0.35], [73.0, 0.86, 0.26], [66.0, 0.83, 0.33], [71.0, 0.72, 0.28])
    for i, start in enumerate(starts, 1):
        x = ar_chain(rng, 1000, centre, sd, np.array(start), 150.0, rho=0.6)
        lines = ["# H0 S8 Omega_m\n"] + [f"{r[0]:.3f} {r[1]:.4f} {r[2]:.4f}\n" for r in x]
        (out / f"h0s8_run_chain{i}.txt").write_text("".join(lines))


# ------------------------------------------------------------------------------------------------ robustness

@writer
def radar_echoes(out: Path) -> None:
    """Weather-radar echoes (.npz with X, y): precipitation (1) against ground clutter (0) from five polarimetric
    features, a curved boundary."""
    rng = np.random.default_rng(32121)
    n = 500
    y = rng.binomial(1, 0.5, n)
    zdr = rng.normal(0.8 + 0.6 * y, 0.5, n)
    rhohv = np.clip(rng.normal(0.9 + 0.07 * y, 0.04, n), 0.5, 1.0)
    texture = rng.gamma(2 + 3 * (1 - y), 1.0, n)
    refl = rng.normal(25 + 8 * y, 8, n)
    phidp = rng.normal(0, 5, n) + 0.3 * (refl - 25) * y
    x = np.column_stack([refl, zdr, rhohv, texture, phidp])
    npz(out / "radar_echo_classes.npz", {"X": npy_bytes(x), "y": npy_bytes(y.astype(np.int64), "<i8")})


@writer
def diatoms(out: Path) -> None:
    """Valve measurements of diatoms from three genera (0, 1, 2 in column genus_code)."""
    rng = np.random.default_rng(32122)
    n = 450
    g = rng.integers(0, 3, n)
    length = rng.normal(np.array([40.0, 55.0, 48.0])[g], 6, n)
    width = rng.normal(np.array([8.0, 7.0, 11.0])[g], 1.0, n)
    striae = rng.normal(np.array([14.0, 11.0, 12.5])[g], 1.2, n)
    raphe = np.clip(rng.normal(np.array([0.8, 0.6, 0.7])[g], 0.08, n), 0.2, 1.0)
    table(out / "diatom_valve_morph.csv", {
        "valve_length_um": length, "valve_width_um": width, "striae_10um": striae, "raphe_ratio": raphe,
        "genus_code": g}, {"valve_length_um": ".1f", "valve_width_um": ".2f", "striae_10um": ".1f",
                           "raphe_ratio": ".3f"})


@writer
def bureau_credit(out: Path) -> None:
    """Loan defaults (.npz with X, y and feature_names): default driven by debt ratio, missed payments and income;
    the postcode density feature duplicates part of income and carries a little signal of its own."""
    rng = np.random.default_rng(32123)
    n = 800
    income = rng.lognormal(3.5, 0.4, n)
    debt = rng.beta(2, 5, n)
    missed = rng.poisson(0.8, n)
    density = 0.6 * (income - income.mean()) / income.std() + rng.normal(0, 0.8, n)
    age = rng.uniform(21, 70, n)
    util = np.clip(debt + rng.normal(0, 0.15, n), 0, 1)
    y = rng.binomial(1, expit(-1.5 + 4 * (debt - 0.28) + 0.7 * (missed - 0.8) - 0.02 * (income - 35)
                              + 0.25 * density))
    x = np.column_stack([income, debt, missed, density, age, util])
    names = np.array(["income_k", "debt_ratio", "missed_pay", "zip_density", "age", "card_util"])
    npz(out / "credit_bureau_xy.npz", {"X": npy_bytes(x), "y": npy_bytes(y.astype(np.int64), "<i8"),
                                       "feature_names": npy_bytes(names, "<U12")})


# ------------------------------------------------------------------------------------------------ language models

@writer
def probe_embeddings(out: Path) -> None:
    """Embeddings of rendered shapes (720 x 16, .npy): shape and hue each add a vector, plus a small interaction
    and noise; the labels table has an image id before the two concept columns."""
    rng = np.random.default_rng(32124)
    shapes = ["circle", "square", "star", "cross", "ring", "arrow"]
    hues = ["red", "green", "blue", "amber", "violet", "teal"]
    sv = rng.normal(0, 1, (6, 16))
    hv = rng.normal(0, 1, (6, 16))
    iv = rng.normal(0, 0.25, (6, 6, 16))
    rows, emb = {"image_id": [], "shape": [], "hue": []}, []
    k = 0
    for i in range(6):
        for j in range(6):
            for _ in range(20):
                rows["image_id"].append(f"img{k:04d}")
                rows["shape"].append(shapes[i])
                rows["hue"].append(hues[j])
                emb.append(sv[i] + hv[j] + iv[i, j] + rng.normal(0, 0.3, 16))
                k += 1
    table(out / "vit_probe_labels.csv", rows)
    (out / "vit_patch_embeds.npy").write_bytes(npy_bytes(np.array(emb)))


NEEDLES = [
    ("Actually, Marguerite once sketched the Little Mermaid statue from the harbour wall.",
     "Which character has been to Copenhagen?", "Marguerite",
     "Which character sketched the Little Mermaid statue?"),
    ("Actually, Teodor proposed to his wife on the steps of the Sagrada Familia.",
     "Which character has been to Barcelona?", "Teodor", "Which character proposed on the steps of the Sagrada Familia?"),
    ("Actually, Ingrid spent a night queueing outside the Hermitage Museum.",
     "Which character has been to Saint Petersburg?", "Ingrid", "Which character queued outside the Hermitage Museum?"),
    ("Actually, Obadiah lost his hat while climbing to the Christ the Redeemer statue.",
     "Which character has been to Rio de Janeiro?", "Obadiah",
     "Which character lost a hat climbing to the Christ the Redeemer statue?"),
    ("Actually, Lucinda fed the pigeons beside the Atomium one windy morning.",
     "Which character has been to Brussels?", "Lucinda", "Which character fed pigeons beside the Atomium?"),
    ("Actually, Ferdinand photographed the Golden Pavilion reflected in its pond.",
     "Which character has been to Kyoto?", "Ferdinand", "Which character photographed the Golden Pavilion?"),
]
LOG_SUBJECTS = ["The mate", "The bosun", "A deckhand", "The cook", "The lookout", "The carpenter", "The surgeon"]
LOG_VERBS = ["reported", "noted", "complained of", "recorded", "spoke of", "grumbled about", "sketched"]
LOG_OBJECTS = ["a freshening wind from the west", "rust on the anchor chain", "weevils in the biscuit",
               "a long swell under a grey sky", "the barometer falling slowly", "a pod of dolphins off the bow",
               "a torn topsail", "fog thick enough to taste", "the water casks running low", "a distant sail at dusk"]


@writer
def needles_haystack(out: Path) -> None:
    """Six landmark-to-city needles of the user's own (needle, question, answer, literal question) and a
    generated ship's-log haystack of about 4,000 words."""
    rng = np.random.default_rng(32125)
    table(out / "museum_needles.csv", {
        "needle": [n[0] for n in NEEDLES], "question": [n[1] for n in NEEDLES], "answer": [n[2] for n in NEEDLES],
        "literal_question": [n[3] for n in NEEDLES]})
    sentences = []
    for day in range(1, 181):
        sentences.append(f"Day {day}.")
        for _ in range(3):
            sentences.append(f"{rng.choice(LOG_SUBJECTS)} {rng.choice(LOG_VERBS)} {rng.choice(LOG_OBJECTS)}.")
    text = ""
    for i in range(0, len(sentences), 8):
        text += " ".join(sentences[i:i + 8]) + "\n\n"
    (out / "ship_log_haystack.txt").write_text(text)


@writer
def subtraction(out: Path) -> None:
    """1,200 subtraction drills (question "73-28=", non-negative integer result)."""
    rng = np.random.default_rng(32126)
    a = rng.integers(0, 100, 1200)
    b = rng.integers(0, 100, 1200)
    hi, lo = np.maximum(a, b), np.minimum(a, b)
    table(out / "subtraction_drills.csv", {
        "item": [f"Q{i:04d}" for i in range(1200)], "question": [f"{x}-{y}=" for x, y in zip(hi, lo, strict=True)],
        "result": hi - lo})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def lung_trial(out: Path) -> None:
    """A two-arm lung-cancer trial: months to progression or censoring, with an event flag; the new arm lowers the
    hazard by about 30%."""
    rng = np.random.default_rng(32127)
    n = 320
    arm = rng.binomial(1, 0.5, n)
    age = rng.uniform(45, 80, n)
    ecog = rng.integers(0, 3, n)
    haz = 0.06 * np.exp(np.log(0.7) * arm + 0.02 * (age - 62) + 0.3 * ecog)
    t = rng.exponential(1 / haz)
    cens = rng.uniform(6, 40, n)
    table(out / "nsclc_trial_survival.csv", {
        "patient": [f"L{i:03d}" for i in range(n)], "arm": arm, "age": age, "ecog": ecog,
        "months": np.minimum(t, cens), "progressed": (t <= cens).astype(int)}, {"age": ".0f", "months": ".2f"})


@writer
def sn_photometry(out: Path) -> None:
    """Multi-band light curves of 12 Type Ia supernovae (griz fluxes with errors, a stretch and colour each)."""
    rng = np.random.default_rng(32128)
    rows = {"sn": [], "z": [], "mjd": [], "band": [], "flux": [], "flux_err": []}
    for s in range(12):
        z = rng.uniform(0.05, 0.6)
        t0 = 60000 + rng.uniform(0, 200)
        stretch = rng.normal(1, 0.1)
        peak = 10 ** (-0.4 * (distance_modulus(np.array([z]), 0.3)[0] - 19.3 - 25.0)) * 1e-1
        for k, band in enumerate("griz"):
            for d in np.sort(rng.uniform(-15, 50, 14)):
                x = d / (1 + z) / stretch
                f = peak * (1 - 0.1 * k) * np.exp(-0.5 * (x / 8) ** 2) if x < 0 else peak * np.exp(-x / (18 + 6 * k))
                rows["sn"].append(f"SN{s:02d}")
                rows["z"].append(z)
                rows["mjd"].append(t0 + d)
                rows["band"].append(band)
                rows["flux"].append(f + rng.normal(0, 0.03 * peak))
                rows["flux_err"].append(0.03 * peak)
    table(out / "snia_griz_photometry.csv", rows, {"z": ".4f", "mjd": ".3f", "flux": ".4g", "flux_err": ".3g"})


@writer
def cepheid(out: Path) -> None:
    """V-band epochs of a Cepheid (period 5.37 d, sawtooth-like light curve), irregularly sampled over 300 days."""
    rng = np.random.default_rng(32129)
    t = np.sort(rng.uniform(0, 300, 140)) + 2459000
    ph = ((t - 2459000) / 5.37) % 1
    v = 12.4 + 0.35 * np.where(ph < 0.3, -ph / 0.3 * 2 + 1, (ph - 0.3) / 0.7 * 2 - 1) + rng.normal(0, 0.02, t.size)
    table(out / "ogle_like_vband_epochs.csv", {"hjd": t, "vmag": v, "vmag_err": np.full(t.size, 0.02)},
          {"hjd": ".4f", "vmag": ".3f", "vmag_err": ".3f"})


@writer
def kinase(out: Path) -> None:
    """Dose-response of three kinase inhibitors in triplicate (per cent inhibition against concentration), with a
    four-parameter logistic shape."""
    rng = np.random.default_rng(32130)
    rows = {"compound": [], "conc_nm": [], "replicate": [], "inhibition_pct": []}
    for name, ic50, hill in (("KX-101", 35.0, 1.1), ("KX-204", 420.0, 0.9), ("KX-317", 8.0, 1.4)):
        for c in 10 ** np.linspace(-1, 4, 11):
            for r in range(3):
                rows["compound"].append(name)
                rows["conc_nm"].append(c)
                rows["replicate"].append(r + 1)
                rows["inhibition_pct"].append(2 + 95 / (1 + (ic50 / c) ** hill) + rng.normal(0, 3))
    table(out / "kinase_inhibitor_doses.csv", rows, {"conc_nm": ".4g", "inhibition_pct": ".2f"})


@writer
def sky_map(out: Path) -> None:
    """A low-resolution temperature map (3,072 pixels in HEALPix ring order, first row, muK) and a galactic mask
    (second row, 0/1), as a 2 x 3072 .npy array; white noise stands in for the sky."""
    rng = np.random.default_rng(32131)
    npix = 3072
    z = 1 - (np.arange(npix) + 0.5) / npix * 2
    mask = (np.abs(z) > 0.25).astype(float)
    tmap = rng.normal(0, 80, npix) * mask
    (out / "sky_patch_tmap.npy").write_bytes(npy_bytes(np.vstack([tmap, mask])))


# ------------------------------------------------------------------------------------------------ asks

@writer
def telemonitoring(out: Path) -> None:
    """Home blood-pressure telemonitoring (binary) for hypertensive patients, with systolic pressure at 6 and at
    12 months as two outcome columns."""
    rng = np.random.default_rng(32132)
    n = 500
    age = rng.uniform(40, 80, n)
    bmi = rng.normal(29, 4, n)
    diab = rng.binomial(1, 0.3, n)
    tele = rng.binomial(1, expit(-0.2 + 0.03 * (age - 60) + 0.5 * diab))
    s6 = 150 - 6 * tele + 0.3 * (age - 60) + 0.5 * (bmi - 29) + 4 * diab + rng.normal(0, 10, n)
    s12 = s6 + 2 * tele + rng.normal(0, 6, n)
    table(out / "telemonitoring_bp_outcomes.csv", {
        "patient": [f"B{i:03d}" for i in range(n)], "age": age, "bmi": bmi, "diabetic": diab, "telemonitor": tele,
        "sbp_6m": s6, "sbp_12m": s12}, {"age": ".0f", "bmi": ".1f", "sbp_6m": ".0f", "sbp_12m": ".0f"})


@writer
def kiln_sensors(out: Path) -> None:
    """Cement-kiln sensor snapshots with two 0/1 flag columns that disagree: an operator's alarm flag and a
    laboratory-confirmed fault flag."""
    rng = np.random.default_rng(32133)
    n = 800
    bad = rng.random(n) < 0.05
    burn = rng.normal(1450, 15, n) + bad * rng.uniform(30, 60, n)
    o2 = rng.normal(2.5, 0.3, n) - bad * rng.uniform(0.5, 1.2, n)
    nox = rng.normal(800, 60, n) + bad * rng.uniform(100, 250, n)
    torque = rng.normal(60, 4, n) + bad * rng.uniform(5, 12, n)
    feed = rng.normal(220, 10, n)
    alarm = (bad & (rng.random(n) < 0.7)) | (rng.random(n) < 0.04)
    table(out / "kiln_sensor_flags.csv", {
        "burning_zone_c": burn, "o2_pct": o2, "nox_ppm": nox, "kiln_torque": torque, "feed_tph": feed,
        "operator_alarm": alarm.astype(int), "lab_fault": bad.astype(int)},
        {"burning_zone_c": ".0f", "o2_pct": ".2f", "nox_ppm": ".0f", "kiln_torque": ".1f", "feed_tph": ".1f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
