"""Write every data file of the held-out prose task set, deterministically.

``python tests/understanding_heldout/make_data.py`` rewrites ``tests/understanding_heldout/data/``; ``--out DIR``
writes elsewhere (``test_set.py`` does that and compares checksums with the committed files). Each file is
simulated here with numpy alone from its own seed, so the quantities the manifest's answers rest on (a
programme's true effect, the cosmology a supernova sample was drawn from) are known; they go to
``data/truths.json``. Floats are written with fixed formats so the bytes do not depend on the platform.

Nothing here uses cmbagent's code, and the data are new: other fields, other column conventions (camelCase,
units in names, tab-separated files, a covariance without an error column, a CosmoSIS chain, JSON lines) than
the examples (``examples/data/``) and the public set (``tests/understanding/data/``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

if __name__ == "__main__":  # run as a script: the shared writers live in the tests package
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.prose_sets.writing import Writers, expit, json_lines, main, table

HERE = Path(__file__).resolve().parent
C_KM_S = 299792.458

Truths = dict[str, object]
writer = Writers()


def comoving_distance(z: np.ndarray, om: float, w: float = -1.0) -> np.ndarray:
    """Flat-universe comoving distance in units of c/H0 (constant w), by a fine trapezoid integral."""
    grid = np.linspace(0.0, float(np.max(z)) * 1.001, 20001)
    inv_e = 1.0 / np.sqrt(om * (1 + grid) ** 3 + (1 - om) * (1 + grid) ** (3 * (1 + w)))
    cumulative = np.concatenate([[0.0], np.cumsum(0.5 * (inv_e[1:] + inv_e[:-1]) * np.diff(grid))])
    return np.interp(z, grid, cumulative)


# ------------------------------------------------------------------------------------------ causal effects

@writer
def adherence_trial(out: Path) -> Truths:
    """SMS reminders and medication adherence: sicker patients living alone were enrolled more often."""
    rng = np.random.default_rng(2101)
    n = 1100
    age = rng.integers(35, 86, n)
    hba1c = np.round(rng.normal(7.8, 1.2, n), 1)
    meds = rng.poisson(3.0, n) + 1
    alone = rng.binomial(1, 0.3, n)
    dist = np.round(rng.lognormal(1.0, 0.6, n), 1)
    logit = -0.6 + 0.03 * (age - 60) + 0.5 * (hba1c - 7.8) + 0.3 * (meds - 4) + 0.9 * alone + 0.12 * (dist - 3)
    sms = rng.binomial(1, expit(logit))
    y0 = 80 - 4.0 * (hba1c - 7.8) - 2.5 * (meds - 4) - 9.0 * alone - 1.3 * (dist - 3) + rng.normal(0, 7, n)
    y1 = y0 + 6.0 + 3.0 * alone - 0.06 * (age - 60)
    y0, y1 = (np.round(np.clip(v, 0, 100), 1) for v in (y0, y1))
    table(out / "adherence_trial_export.csv", {
        "patient_id": [f"P{i:04d}" for i in range(1, n + 1)], "ageYears": age, "baselineHbA1c": hba1c,
        "nMedications": meds, "livesAlone": alone, "distanceToPharmacyKm": dist, "smsReminder": sms,
        "adherencePct": np.where(sms == 1, y1, y0)},
        {"baselineHbA1c": ".1f", "distanceToPharmacyKm": ".1f", "adherencePct": ".1f"})
    return {"ate": round(float(np.mean(y1 - y0)), 4)}


@writer
def greenhouse_irrigation(out: Path) -> Truths:
    """Water given per week (continuous) and fruit yield; hot benches get more water and set less fruit."""
    rng = np.random.default_rng(2102)
    n = 520
    bench = rng.integers(1, 9, n)
    early = rng.binomial(1, 0.5, n)
    temp = np.round(rng.normal(23.0, 2.0, n) + 0.3 * (bench - 4.5), 1)
    ec = np.round(rng.normal(2.5, 0.4, n), 2)
    water = np.round(12 + 1.6 * (temp - 23) + 3.0 * early - 2.0 * (ec - 2.5) + rng.normal(0, 2.0, n), 1)
    theta = 0.12
    fruit = (theta * water + 2.0 - 0.35 * (temp - 23) - 0.04 * (temp - 23) ** 2 + 0.5 * early
             - 0.6 * (ec - 2.5) ** 2 + rng.normal(0, 0.35, n))
    table(out / "greenhouse_irrigation.tsv", {
        "plant": [f"GH-{i:03d}" for i in range(n)], "bench": bench, "cultivar_early": early,
        "air_temp_mean": temp, "ec_ms_cm": ec, "water_l_per_week": water, "fruit_kg": fruit},
        {"air_temp_mean": ".1f", "ec_ms_cm": ".2f", "water_l_per_week": ".1f", "fruit_kg": ".3f"}, sep="\t")
    return {"theta": theta}


@writer
def charter_lottery(out: Path) -> Truths:
    """Charter-school lottery: 12 lottery numbers per applicant (the instrument), enrolment, GPA on 0-4."""
    rng = np.random.default_rng(2103)
    n = 1400
    income = np.round(rng.lognormal(3.8, 0.5, n), 1)
    draws = rng.uniform(0, 1, (n, 12))
    offered = (draws.min(axis=1) < 0.06).astype(float)  # an offer from any of the 12 school lotteries
    motivation = rng.normal(0, 1, n)
    take_up = expit(-0.5 + 2.5 * offered + 0.8 * motivation - 0.004 * (income - 45))
    enrolled = rng.binomial(1, take_up)
    gpa = np.clip(2.4 + 0.25 * enrolled + 0.3 * motivation + 0.006 * (income - 45) + rng.normal(0, 0.45, n),
                  0.0, 4.0)
    table(out / "lottery_applicants.csv", {
        "applicant": np.arange(1, n + 1), "family_income_k": income, "enrolled": enrolled, "gpa_y2": gpa},
        {"family_income_k": ".1f", "gpa_y2": ".2f"})
    np.save(out / "lottery_draws.npy", draws.astype("<f4"))
    return {"gpa_observed_range": [round(float(np.round(gpa, 2).min()), 2), round(float(np.round(gpa, 2).max()), 2)]}


@writer
def bursary_applications(out: Path) -> Truths:
    """Bursary decisions on four marks out of 100 with a known causal order (teacher rating first)."""
    rng = np.random.default_rng(2104)
    n = 400
    teacher = np.clip(np.round(rng.normal(60, 12, n)), 0, 100)
    maths = np.clip(np.round(20 + 0.6 * teacher + rng.normal(0, 10, n)), 0, 100)
    essay = np.clip(np.round(25 + 0.5 * teacher + rng.normal(0, 10, n)), 0, 100)
    interview = np.clip(np.round(30 + 0.5 * essay + rng.normal(0, 10, n)), 0, 100)
    score = 0.09 * (maths - 56) + 0.07 * (essay - 55) + 0.06 * (interview - 57) - 0.6
    awarded = rng.binomial(1, expit(score))
    table(out / "bursary_applications.csv", {
        "applicant_ref": [f"B{i:03d}" for i in range(n)], "teacher_rating": teacher.astype(int),
        "maths_mark": maths.astype(int), "essay_mark": essay.astype(int), "interview_mark": interview.astype(int),
        "awarded": awarded})
    return {}


# -------------------------------------------------------------------------------------------- supernovae

@writer
def salt2_fits(out: Path) -> Truths:
    """160 SALT2-style peak magnitudes of a flat wCDM universe; the zero point M is unknown to the user."""
    rng = np.random.default_rng(2105)
    n, om, w, big_m = 160, 0.31, -0.88, -19.36
    zcmb = np.sort(np.round(np.concatenate([rng.uniform(0.015, 0.1, 40), rng.uniform(0.1, 1.1, n - 40)]), 4))
    zhel = np.round(zcmb + rng.normal(0, 0.0008, n), 5)
    dmb = np.round(0.10 + 0.07 * zcmb + rng.uniform(0, 0.03, n), 3)
    mu = 5 * np.log10((1 + zhel) * comoving_distance(zcmb, om, w) * C_KM_S / 70.0) + 25
    mb = mu + big_m + dmb * rng.standard_normal(n)
    table(out / "deep_survey_salt2_fits.csv", {
        "SNID": [f"DS{i:03d}" for i in range(n)], "zcmb": zcmb, "zhel": zhel, "mb": mb, "dmb": dmb},
        {"zcmb": ".4f", "zhel": ".5f", "mb": ".4f", "dmb": ".3f"})
    return {"Omega_m": om, "w": w}


@writer
def hubble_flow_binned(out: Path) -> Truths:
    """36 binned distance moduli without an error column; all errors live in the full covariance file."""
    rng = np.random.default_rng(2106)
    om = 0.36
    z = np.round(np.geomspace(0.02, 1.4, 36), 4)
    stat = 0.035 + 0.03 * z / 1.4
    deep = (z > 0.1).astype(float)
    cov = np.diag(stat**2) + 0.03**2 * np.outer(deep, deep) + 0.02**2 * np.outer(z, z)
    cov = np.round(cov, 9)
    mu = 5 * np.log10((1 + z) * comoving_distance(z, om) * C_KM_S / 70.0) + 25
    mu = mu + np.linalg.cholesky(cov) @ rng.standard_normal(z.size)
    table(out / "hubble_flow_mu.csv", {"redshift": z, "distance_modulus": mu},
          {"redshift": ".4f", "distance_modulus": ".4f"})
    lines = [str(z.size)] + [" ".join(f"{v:.9e}" for v in row) for row in cov]
    (out / "hubble_flow_cov.txt").write_text("\n".join(lines) + "\n")
    return {"Omega_m": om}


@writer
def cosmic_shear_chain(out: Path) -> Truths:
    """A weighted CosmoSIS-style chain of 3000 rows whose first 1200 still drift towards the posterior."""
    rng = np.random.default_rng(2107)
    n, burn = 3000, 1200
    om = rng.normal(0.29, 0.035, n)
    s8 = 0.78 + rng.normal(0, 0.02, n)
    sigma8 = s8 / np.sqrt(om / 0.3)
    h = rng.normal(0.70, 0.04, n)
    ob = rng.normal(0.048, 0.004, n)
    a1 = rng.normal(0.4, 0.3, n)
    fade = np.clip(1 - np.arange(n) / burn, 0, None)  # linear drift: a quarter burn-in keeps some of it
    om, sigma8, a1 = om + 0.12 * fade, sigma8 - 0.15 * fade, a1 + 1.5 * fade
    weight = np.round(rng.gamma(4.0, 0.25, n), 4)
    like = -0.5 * (((om - 0.29) / 0.035) ** 2 + ((sigma8 - 0.8) / 0.05) ** 2)
    prior = np.full(n, -3.2189)
    lines = ["#cosmological_parameters--omega_m\tcosmological_parameters--sigma_8\tcosmological_parameters--h0\t"
             "cosmological_parameters--omega_b\tintrinsic_alignment_parameters--a1\tprior\tlike\tpost\tweight",
             "#sampler=metropolis", "#n_samples=3000"]
    for i in range(n):
        lines.append("\t".join(f"{v:.5f}" for v in (om[i], sigma8[i], h[i], ob[i], a1[i], prior[i], like[i],
                                                      prior[i] + like[i], weight[i])))
    (out / "cosmic_shear_chain_mcmc.txt").write_text("\n".join(lines) + "\n")
    return {"burn_in_rows": burn}


@writer
def kestrel_supernovae(out: Path) -> Truths:
    """100 distance moduli of a flat wCDM universe near Planck's; the error column is statistical only, the
    covariance (no N line) adds a calibration offset between the low- and high-redshift halves."""
    rng = np.random.default_rng(2126)
    n, om, w = 100, 0.315, -0.95
    z = np.sort(np.round(np.concatenate([rng.uniform(0.015, 0.1, 30), rng.uniform(0.1, 1.3, n - 30)]), 4))
    stat = np.round(0.11 + 0.06 * z, 4)
    deep = (z > 0.1).astype(float)
    cov = np.diag(stat**2) + 0.025**2 * np.outer(deep, deep) + 0.01**2 * np.outer(z, z)
    cov = np.round(cov, 8)
    mu = 5 * np.log10((1 + z) * comoving_distance(z, om, w) * C_KM_S / 67.4) + 25
    mu = mu + np.linalg.cholesky(cov) @ rng.standard_normal(n)
    table(out / "kestrel_sn_distances.csv", {
        "sn_name": [f"KST-{i:03d}" for i in range(n)], "z": z, "mu": mu, "mu_err": stat},
        {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    (out / "kestrel_sn_covariance.txt").write_text("".join(" ".join(f"{v:.8e}" for v in row) + "\n" for row in cov))
    return {"Omega_m": om, "w": w}


# ------------------------------------------------------------------------------ anomalies and classifiers

@writer
def bearing_vibration(out: Path) -> Truths:
    """Vibration features of 1500 bearings; 4% are faulty (somewhat heavier tails, higher crest factor)."""
    rng = np.random.default_rng(2108)
    n = 1500
    fault = (rng.uniform(size=n) < 0.04).astype(int)
    rms = rng.lognormal(-0.5, 0.2, n) * (1 + 0.2 * fault)
    kurt = 3 + rng.gamma(2.0, 0.3, n) + fault * rng.gamma(1.5, 0.5, n)
    crest = 3.5 + rng.normal(0, 0.4, n) + 0.5 * fault
    peak = rng.normal(120, 15, n) + fault * rng.choice([-15.0, 20.0], n)
    temp = rng.normal(48, 4, n) + 2 * fault
    table(out / "bearing_vibration_features.csv", {
        "rms_g": rms, "kurtosis": kurt, "crest_factor": crest, "peak_freq_hz": peak, "temp_c": temp,
        "fault_flag": fault}, {"rms_g": ".4f", "kurtosis": ".3f", "crest_factor": ".3f", "peak_freq_hz": ".1f",
                               "temp_c": ".1f"})
    return {"fault_share": round(float(fault.mean()), 4)}


@writer
def galaxy_morphology(out: Path) -> Truths:
    """Non-parametric morphology of 900 galaxies; early types are concentrated, smooth and red."""
    rng = np.random.default_rng(2109)
    n = 900
    early = rng.binomial(1, 0.45, n)
    conc = rng.normal(2.8 + 1.0 * early, 0.45, n)
    asym = np.abs(rng.normal(0.15 - 0.08 * early, 0.07, n))
    smooth = np.abs(rng.normal(0.12 - 0.06 * early, 0.06, n))
    gini = rng.normal(0.45 + 0.12 * early, 0.06, n)
    m20 = rng.normal(-1.6 - 0.5 * early, 0.3, n)
    colour = rng.normal(0.55 + 0.2 * early, 0.12, n)
    table(out / "morphology_catalogue.csv", {
        "concentration": conc, "asymmetry": asym,
        "smoothness": smooth, "gini": gini, "m20": m20, "colour_gr": colour, "early_type": early},
        {k: ".4f" for k in ("concentration", "asymmetry", "smoothness", "gini", "m20", "colour_gr")})
    return {}


@writer
def telco_churn(out: Path) -> Truths:
    """Churn of 1500 customers; total_charges is nearly tenure x monthly charge (a redundant feature)."""
    rng = np.random.default_rng(2110)
    n = 1500
    tenure = rng.integers(1, 73, n)
    monthly = np.round(rng.uniform(20, 110, n), 2)
    total = np.round(tenure * monthly * rng.normal(1.0, 0.03, n), 2)
    calls = rng.poisson(1.5, n)
    annual = rng.binomial(1, 0.4, n)
    paperless = rng.binomial(1, 0.6, n)
    logit = -0.5 - 0.04 * (tenure - 30) + 0.02 * (monthly - 65) + 0.35 * calls - 1.2 * annual + 0.4 * paperless
    churned = rng.binomial(1, expit(logit))
    table(out / "telco_churn_sample.csv", {
        "tenure_months": tenure, "monthly_charge": monthly, "total_charges": total, "n_support_calls": calls,
        "contract_annual": annual, "paperless_billing": paperless, "churned": churned},
        {"monthly_charge": ".2f", "total_charges": ".2f"})
    return {}


@writer
def credit_lines(out: Path) -> Truths:
    """Credit defaults with two income columns (the applicant's and the household's)."""
    rng = np.random.default_rng(2111)
    n = 1200
    applicant = np.round(rng.lognormal(10.4, 0.4, n), -2)
    household = np.round(applicant + rng.lognormal(10.0, 0.8, n) * rng.binomial(1, 0.6, n), -2)
    age = rng.integers(21, 70, n)
    util = np.round(rng.beta(2, 3, n), 3)
    late = rng.poisson(0.6, n)
    logit = -1.0 - 0.7 * np.log(household / 40000) + 2.0 * (util - 0.4) + 0.6 * late - 0.01 * (age - 40)
    table(out / "credit_lines.csv", {
        "applicant_income": applicant, "household_income": household, "age": age, "utilisation": util,
        "n_late_payments": late, "defaulted": rng.binomial(1, expit(logit))},
        {"applicant_income": ".0f", "household_income": ".0f", "utilisation": ".3f"})
    return {}


# ------------------------------------------------------------------------------------------- Bayesian fits

BANANA = '''"""Log density (unnormalised) of a banana-shaped 2-D posterior from our growth-curve model.

x ~ N(1.5, 0.5^2) and y | x ~ N(x^2, 0.3^2): the mean of y is 1.5^2 + 0.5^2 = 2.5.
"""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    x, y = z[:, 0], z[:, 1]
    return -0.5 * ((x - 1.5) / 0.5) ** 2 - 0.5 * ((y - x**2) / 0.3) ** 2
'''


@writer
def banana_density(out: Path) -> Truths:
    (out / "banana_logprob.py").write_text(BANANA)
    return {"mean_x": 1.5, "mean_y": 2.5}


@writer
def petrel_morphometrics(out: Path) -> Truths:
    """45 storm petrels: culmen depth anomaly (mm) against wing and tarsus length."""
    rng = np.random.default_rng(2112)
    n = 45
    wing = np.round(rng.normal(118, 4, n), 1)
    tarsus = np.round(0.15 * (wing - 118) + rng.normal(22.5, 0.9, n), 1)
    depth = 0.35 * (wing - 118) / 4 + 0.5 * (tarsus - 22.5) + rng.normal(0, 0.8, n)
    table(out / "petrel_morphometrics.csv", {
        "bird_id": [f"SP{i:02d}" for i in range(n)], "wing_mm": wing, "tarsus_mm": tarsus,
        "depth_anomaly_mm": depth}, {"wing_mm": ".1f", "tarsus_mm": ".1f", "depth_anomaly_mm": ".2f"})
    return {}


@writer
def kerbside_no2(out: Path) -> Truths:
    """70 hourly NO2 readings against wind speed and traffic count, with a site code column."""
    rng = np.random.default_rng(2113)
    n = 70
    wind = np.round(rng.uniform(0.5, 9.0, n), 1)
    traffic = rng.integers(200, 2400, n)
    no2 = 18 + 38 * np.exp(-wind / 3.0) * (traffic / 1200) ** 0.8 + rng.normal(0, 2.5, n)
    table(out / "kerbside_no2.csv", {
        "site_code": rng.choice(["KB03", "KB07", "KB11"], n), "wind_ms": wind, "traffic_veh_h": traffic,
        "no2_ugm3": no2}, {"wind_ms": ".1f", "no2_ugm3": ".1f"})
    return {}


@writer
def rotor_scan(out: Path) -> Truths:
    """Torsion scan of a methyl rotor: threefold in the first angle, even in the second (radians)."""
    rng = np.random.default_rng(2114)

    def energy(t1: np.ndarray, t2: np.ndarray) -> np.ndarray:
        return 1.1 * (1 - np.cos(3 * t1)) + 0.6 * np.cos(t2) + 0.25 * np.cos(3 * t1) * np.cos(2 * t2)

    for name, n in (("rotor_scan_train.csv", 400), ("rotor_scan_test.csv", 300)):
        t1, t2 = rng.uniform(-np.pi, np.pi, n), rng.uniform(-np.pi, np.pi, n)
        table(out / name, {"theta1": t1, "theta2": t2, "e_kcal": energy(t1, t2) + rng.normal(0, 0.05, n)},
              {"theta1": ".5f", "theta2": ".5f", "e_kcal": ".4f"})
    return {}


# --------------------------------------------------------------------------------- language models and text

@writer
def patch_embeddings(out: Path) -> Truths:
    """240 image-patch embeddings (24-d) of 6 materials x 5 textures: additive plus a small interaction."""
    rng = np.random.default_rng(2115)
    materials = ["oak", "slate", "wool", "steel", "clay", "glass"]
    textures = ["smooth", "ribbed", "pitted", "woven", "cracked"]
    u = rng.normal(0, 1.0, (6, 24))
    v = rng.normal(0, 1.0, (5, 24))
    inter = rng.normal(0, 0.35, (6, 5, 24))
    rows, labels = [], []
    for k in range(240):
        a, b = rng.integers(6), rng.integers(5)
        rows.append(u[a] + v[b] + inter[a, b] + rng.normal(0, 0.5, 24))
        labels.append({"image_id": f"img_{k:04d}", "lighting": str(rng.choice(["day", "lamp"])),
                       "material": materials[a], "texture": textures[b]})
    (out / "vit_patch_embeddings.csv").write_text(
        "".join(",".join(f"{x:.5f}" for x in row) + "\n" for row in rows))
    json_lines(out / "patch_labels.jsonl", labels)
    return {}


@writer
def cabinet_changes(out: Path) -> Truths:
    """Four rounds of fictional ministerial reshuffles: who holds which portfolio, one edit per row, each with a
    fact that must not change (the country's capital)."""
    rng = np.random.default_rng(2116)
    countries = ["Norland", "Vesteria", "Kallmark", "Oridia", "Tessaly"]
    posts = ["minister of fisheries", "minister of culture", "minister of transport"]
    first = ["Ilse", "Tomas", "Mirela", "Aksel", "Renata", "Jonas", "Petra", "Luka", "Sanna", "Oskar", "Vera"]
    last = ["Varga", "Lindqvist", "Moreau", "Halloran", "Brandt", "Okafor", "Sato", "Novak", "Reyes", "Kerr"]
    capitals = {"Norland": "Skarvik", "Vesteria": "Almont", "Kallmark": "Dunholt", "Oridia": "Peravel",
                "Tessaly": "Mirenne"}
    records = []
    for step in range(1, 5):
        for c in countries:
            for p in posts:
                if rng.uniform() < 0.4:
                    continue
                who = f"{rng.choice(first)} {rng.choice(last)}"
                records.append({"timestep": step, "subject": c, "relation": p,
                                "prompt": f"The {p} of {c} is", "object": who,
                                "rephrase": f"Who serves as {c}'s {p}? The answer is",
                                "locality_prompt": f"The capital of {c} is", "locality_answer": capitals[c]})
    table(out / "cabinet_changes.csv", {k: [r[k] for r in records] for k in records[0]})
    return {"edits": len(records)}


@writer
def lighthouse_logbook(out: Path) -> Truths:
    """A plain-text haystack: 360 generated keeper's-log sentences (about 9,000 tokens)."""
    rng = np.random.default_rng(2117)
    weather = ["a fresh westerly", "thick fog", "a long swell from the south", "sleet and hail", "a flat calm",
               "squalls from the north-east", "a clear cold sky", "drizzle all morning"]
    chores = ["trimmed the wick", "polished the lens", "wound the clockwork", "carried oil up the tower",
              "repainted the gallery rail", "mended the rain gauge", "scraped salt off the lantern glass",
              "checked the fog bell", "logged the barometer", "cleaned the chimney"]
    sights = ["a collier beating up the channel", "two herring drifters", "a schooner under reefed sails",
              "gannets diving off the point", "seals hauled out on the lower rocks", "a steamer's smoke",
              "the pilot cutter", "driftwood on the shingle", "a pod of porpoises", "the relief boat"]
    lines = []
    for day in range(360):
        month = ["March", "April", "May", "June", "July", "August"][day // 60]
        lines.append(f"{month} {day % 28 + 1}. Wind was {rng.choice(weather)}; the keeper {rng.choice(chores)} "
                     f"and later {rng.choice(chores)}, and saw {rng.choice(sights)} before the light was lit.")
    (out / "lighthouse_logbook.txt").write_text("\n".join(lines) + "\n")
    return {}


@writer
def paediatric_doses(out: Path) -> Truths:
    """800 weight-based dose questions (mg = kg x mg/kg), answers whole milligrams."""
    rng = np.random.default_rng(2118)
    records = []
    for _ in range(800):
        kg = int(rng.integers(3, 41))
        per_kg = int(rng.choice([5, 10, 12, 15, 20, 25]))
        records.append({"query": f"child {kg} kg, {per_kg} mg/kg, total mg =", "dose_mg": kg * per_kg})
    json_lines(out / "paediatric_doses.jsonl", records)
    return {}


# ------------------------------------------------------------------------------------------------- surveys

def _survey_population(rng: np.random.Generator, n: int, young_bias: float, north_bias: float):
    sex = rng.choice(["female", "male"], n, p=[0.51, 0.49])
    p_age = np.array([0.28 + young_bias, 0.34, 0.38 - young_bias])
    age = rng.choice(["18-34", "35-54", "55+"], n, p=p_age / p_age.sum())
    p_reg = np.array([0.22 + north_bias, 0.31, 0.27, 0.20 - north_bias])
    region = rng.choice(["north", "south", "east", "west"], n, p=p_reg / p_reg.sum())
    return sex, age, region


@writer
def omnibus_survey(out: Path) -> Truths:
    """An omnibus wave over-sampling the young and the north, with design weights, census margins and a
    model's answer distributions."""
    rng = np.random.default_rng(2119)
    n = 1200
    sex, age, region = _survey_population(rng, n, 0.14, 0.12)
    base_wt = np.where(region == "north", 0.7, 1.1) * rng.uniform(0.9, 1.1, n)
    trust_lean = (0.5 * (age == "18-34") - 0.4 * (age == "55+") + 0.3 * (region == "south") - 0.2 * (sex == "male"))
    u = rng.logistic(0, 1, n) + trust_lean
    trust = np.where(u > 1.0, "a great deal", np.where(u > -1.0, "some", "hardly any"))
    c = rng.logistic(0, 1, n) + 0.8 * (age == "18-34") - 0.5 * (region == "east")
    climate = np.where(c > 0.5, "top priority", np.where(c > -1.5, "important", "not important"))
    table(out / "omnibus_wave3.csv", {
        "resp_id": np.arange(30001, 30001 + n), "sex": sex, "age_band": age, "region": region,
        "base_wt": base_wt, "trust_science": trust, "climate_priority": climate}, {"base_wt": ".4f"})
    margins = [("sex", "female", 0.51), ("sex", "male", 0.49), ("age_band", "18-34", 0.28),
               ("age_band", "35-54", 0.34), ("age_band", "55+", 0.38), ("region", "north", 0.22),
               ("region", "south", 0.31), ("region", "east", 0.27), ("region", "west", 0.20)]
    table(out / "census_margins_2021.csv", {"variable": [m[0] for m in margins], "level": [m[1] for m in margins],
                                            "share": [m[2] for m in margins]}, {"share": ".2f"})
    model = [("trust_science", "a great deal", 0.42), ("trust_science", "some", 0.48),
             ("trust_science", "hardly any", 0.10), ("climate_priority", "top priority", 0.55),
             ("climate_priority", "important", 0.38), ("climate_priority", "not important", 0.07)]
    table(out / "llm_trust_answers.csv", {"question": [m[0] for m in model], "answer": [m[1] for m in model],
                                          "share": [m[2] for m in model]}, {"share": ".2f"})
    return {}


@writer
def ai_regulation_panel(out: Path) -> Truths:
    """An online panel (split-ballot wording A/B) and a weighted reference probability sample."""
    rng = np.random.default_rng(2120)

    def people(n: int, grad: float, young: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        educ = rng.choice(["school", "college", "degree"], n, p=[0.45 - grad, 0.30, 0.25 + grad])
        age = rng.choice(["18-39", "40-64", "65+"], n, p=[0.35 + young, 0.40, 0.25 - young])
        urban = rng.binomial(1, 0.7 + young / 2, n)
        return educ, age, urban

    educ, age, urban = people(1000, 0.15, 0.12)
    form = rng.choice(["A", "B"], 1000)
    lean = 0.6 * (educ == "degree") - 0.3 * (age == "65+") + 0.3 * urban + 0.4 * (form == "B")
    v = rng.logistic(0, 1, 1000) + lean
    answer = np.where(v > 0.8, "strict rules", np.where(v > -1.2, "light rules", "no new rules"))
    table(out / "online_panel_ai.csv", {"panelist": np.arange(1, 1001), "educ": educ, "age_group": age,
                                        "urban": urban, "form": form, "ai_regulation": answer})
    r_educ, r_age, r_urban = people(800, 0.0, 0.0)
    table(out / "reference_probability_sample.csv", {
        "case_id": np.arange(1, 801), "educ": r_educ, "age_group": r_age, "urban": r_urban,
        "pw": np.round(rng.uniform(0.5, 2.0, 800), 3)}, {"pw": ".3f"})
    return {}


# ------------------------------------------------------------------------- plain work and ambiguous tasks

@writer
def photometry(out: Path) -> Truths:
    rng = np.random.default_rng(2121)
    n = 40
    r = rng.uniform(17, 22, n)
    table(out / "photometry_ugriz.csv", {
        "obj": [f"J{int(x):06d}" for x in rng.integers(0, 999999, n)], "u": r + rng.normal(1.6, 0.4, n),
        "g": r + rng.normal(0.6, 0.2, n), "r": r, "i": r - rng.normal(0.25, 0.1, n),
        "z": r - rng.normal(0.35, 0.15, n)}, {b: ".3f" for b in "ugriz"})
    return {}


@writer
def trial_followup(out: Path) -> Truths:
    rng = np.random.default_rng(2122)
    n = 240
    arm = np.repeat(["standard", "intensified"], n // 2)
    rate = np.where(arm == "intensified", 1 / 900, 1 / 600)
    t_event = rng.exponential(1 / rate)
    t_censor = rng.uniform(180, 1095, n)
    table(out / "trial_followup.csv", {"patient": np.arange(1, n + 1), "arm": arm,
                                       "time_days": np.minimum(t_event, t_censor).round().astype(int),
                                       "event": (t_event <= t_censor).astype(int)})
    return {}


@writer
def grb_afterglow(out: Path) -> Truths:
    rng = np.random.default_rng(2123)
    t = np.round(np.geomspace(300, 4e5, 45))
    flux = 2e-10 * (t / 1000) ** -1.25
    err = 0.12 * flux
    table(out / "grb_afterglow_xrt.csv", {"t_s": t, "flux_cgs": flux * (1 + 0.12 * rng.standard_normal(t.size)),
                                          "flux_err": err}, {"t_s": ".0f", "flux_cgs": ".4e", "flux_err": ".3e"})
    return {"decay_index": 1.25}


@writer
def logger_pair(out: Path) -> Truths:
    """Two climate loggers' March exports, 15-minute readings overlapping by two days, a few rows repeated."""
    rng = np.random.default_rng(2124)
    start = np.datetime64("2024-03-01T00:00")
    for name, first, last in (("logger_A_2024-03.csv", 0, 1728), ("logger_B_2024-03.csv", 1536, 2976)):
        idx = np.arange(first, last)
        idx = np.sort(np.concatenate([idx, rng.choice(idx, 12, replace=False)]))
        stamps = [str(start + np.timedelta64(int(15 * i), "m")).replace("T", " ") for i in idx]
        temp = 8 + 5 * np.sin(2 * np.pi * (idx / 96 - 0.3)) + rng.normal(0, 0.3, idx.size)
        table(out / name, {"timestamp": stamps, "temp_c": temp, "rh_pct": np.clip(70 - 2 * temp + rng.normal(
            0, 3, idx.size), 5, 100)}, {"temp_c": ".2f", "rh_pct": ".1f"})
    return {}


@writer
def after_school(out: Path) -> Truths:
    """Two after-school offers (mentoring, homework club) and the change in GPA."""
    rng = np.random.default_rng(2125)
    n = 800
    prior = np.round(rng.normal(2.8, 0.5, n), 2)
    fsm = rng.binomial(1, 0.3, n)
    attendance = np.round(np.clip(rng.normal(92, 5, n), 60, 100), 1)
    mentoring = rng.binomial(1, expit(-0.5 + 0.8 * fsm - 0.5 * (prior - 2.8)))
    club = rng.binomial(1, expit(-0.3 + 0.05 * (attendance - 92)))
    change = 0.15 * mentoring + 0.08 * club - 0.1 * fsm + 0.01 * (attendance - 92) + rng.normal(0, 0.25, n)
    table(out / "after_school_outcomes.csv", {
        "student": np.arange(1, n + 1), "mentoring": mentoring, "homework_club": club, "prior_gpa": prior,
        "free_school_meals": fsm, "attendance_pct": attendance, "gpa_change": change},
        {"prior_gpa": ".2f", "attendance_pct": ".1f", "gpa_change": ".3f"})
    return {}


def generate(out: Path) -> dict[str, Truths]:
    truths = writer.run(out)
    (out / "truths.json").write_text(json.dumps(truths, indent=1, sort_keys=True) + "\n")
    return truths


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
