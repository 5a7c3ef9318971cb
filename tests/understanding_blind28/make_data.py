"""Write every data file of the twenty-eighth blind prose task set, deterministically.

``python tests/understanding_blind28/make_data.py`` rewrites the set's ``data/`` (``--out DIR`` writes elsewhere);
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
    array,
    correlated_cov,
    distance_modulus,
    expit,
    gzip_text,
    json_lines,
    main,
    ordered,
    table,
    write_covariance,
)

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def dairy(out: Path) -> None:
    """Cows at dry-off: an internal teat sealant (binary) is used more on older cows, on cows with a high previous
    somatic cell count and in larger herds; it lowers the log cell count after calving by about 0.3."""
    rng = np.random.default_rng(28101)
    n = 600
    parity = rng.integers(1, 7, n)
    dim = rng.normal(305, 40, n)
    prev = rng.normal(5.0, 0.7, n)
    herd = rng.integers(40, 400, n)
    seal = rng.binomial(1, expit(-0.2 + 0.1 * (parity - 3) + 0.35 * (prev - 5) + 0.0015 * (herd - 200)))
    scc = 4.6 - 0.3 * seal + 0.12 * (parity - 3) + 0.45 * (prev - 5) + 0.001 * (herd - 200) + rng.normal(0, 0.5, n)
    table(out / "dryoff_sealant_cows.csv", {
        "cow": [f"C{i:04d}" for i in range(n)], "parity": parity, "days_in_milk": dim, "prev_log_scc": prev,
        "herd_size": herd, "sealant": seal, "log_scc_after": scc},
        {"days_in_milk": ".0f", "prev_log_scc": ".3f", "log_scc_after": ".3f"})


TOPICS = ["soil microbiome", "coastal erosion", "protein folding", "urban heat", "glacier retreat", "river sediment",
          "crop genetics", "bat echolocation", "battery cathodes", "air quality"]
AIMS = ["We will quantify", "This project maps", "We propose to model", "We aim to measure", "Our team will test"]
HOOKS = ["using a new field campaign.", "with a long-term monitoring network.", "through controlled experiments.",
         "by combining archives and simulations.", "with community partners."]


@writer
def grants(out: Path) -> None:
    """Grant proposals with a short abstract: proposals whose abstracts promise a field campaign or experiments
    (and whose investigators are junior) got a pre-submission review more often; the review raises the panel
    score by about 0.4 points on a 1-9 scale."""
    rng = np.random.default_rng(28102)
    n = 240
    topic = rng.integers(0, len(TOPICS), n)
    aim = rng.integers(0, len(AIMS), n)
    hook = rng.integers(0, len(HOOKS), n)
    years = rng.integers(1, 30, n)
    budget = rng.lognormal(5.5, 0.4, n)
    hands_on = np.isin(hook, [0, 2]).astype(float)
    review = rng.binomial(1, expit(-0.2 + 0.9 * hands_on - 0.05 * (years - 12)))
    score = np.clip(5 + 0.4 * review + 0.6 * hands_on + 0.04 * (years - 12) + rng.normal(0, 0.9, n), 1, 9)
    abstracts = [f"{AIMS[a]} {TOPICS[t]} {HOOKS[h]}" for a, t, h in zip(aim, topic, hook, strict=True)]
    table(out / "proposal_abstracts_panel.csv", {
        "proposal": [f"GR-{i:03d}" for i in range(n)], "abstract": abstracts, "pi_years": years,
        "budget_k": budget, "pre_review": review, "panel_score": score}, {"budget_k": ".0f", "panel_score": ".2f"})


@writer
def trawl(out: Path) -> None:
    """Trawl hauls: skippers fishing deeper and in warmer water chose larger codend meshes; each extra millimetre
    of mesh lowers the log juvenile bycatch by about 0.02."""
    rng = np.random.default_rng(28103)
    n = 500
    depth = rng.uniform(40, 260, n)
    sst = rng.normal(11, 2, n)
    hours = rng.uniform(1.5, 6, n)
    kw = rng.normal(600, 150, n)
    mesh = 80 + 0.08 * (depth - 150) + 2.0 * (sst - 11) + rng.normal(0, 8, n)
    byc = 2.0 - 0.02 * (mesh - 80) + 0.004 * (depth - 150) + 0.05 * (sst - 11) + 0.15 * hours + rng.normal(0, 0.4, n)
    table(out / "codend_mesh_hauls.csv", {
        "haul": [f"H{i:04d}" for i in range(n)], "depth_m": depth, "sst_c": sst, "tow_hours": hours,
        "engine_kw": kw, "mesh_mm": mesh, "log_juv_bycatch": byc},
        {"depth_m": ".0f", "sst_c": ".2f", "tow_hours": ".2f", "engine_kw": ".0f", "mesh_mm": ".1f",
         "log_juv_bycatch": ".3f"})


@writer
def irrigation_sms(out: Path) -> None:
    """Farmers offered irrigation advisory text messages (binary uptake); water use in two seasons, kharif and
    rabi, both lowered by the advice (more in rabi)."""
    rng = np.random.default_rng(28104)
    n = 450
    land = rng.gamma(3, 0.8, n)
    well = rng.uniform(10, 80, n)
    phone = rng.binomial(1, 0.7, n)
    sms = rng.binomial(1, expit(-0.5 + 1.0 * phone + 0.2 * (land - 2.4)))
    kharif = 900 * land - 40 * sms + 3 * well + rng.normal(0, 150, n)
    rabi = 1100 * land - 160 * sms + 4 * well + rng.normal(0, 180, n)
    table(out / "advisory_sms_water.csv", {
        "farmer": [f"F{i:04d}" for i in range(n)], "land_ha": land, "well_depth_m": well, "smartphone": phone,
        "sms_uptake": sms, "water_kharif_m3": kharif, "water_rabi_m3": rabi},
        {"land_ha": ".2f", "well_depth_m": ".1f", "water_kharif_m3": ".0f", "water_rabi_m3": ".0f"})


# ------------------------------------------------------------------------------------------------ surveys

PORTS = ["harbour_a", "harbour_b", "harbour_c"]
AGE3 = ["under_35", "35_54", "55_plus"]
GEAR = ["trawl", "static", "hook"]
MPA = ["favour", "undecided", "against"]
QUOTA = ["too_low", "about_right", "too_high"]


@writer
def fishers(out: Path) -> None:
    """Fishers asked about a marine protected area and about quotas, with a repeat of the protected-area question a
    fortnight later; older fishers and harbour C over-respond; trawlers oppose the area more; fleet-register
    margins of harbour and age; a chatbot's answer shares as each gear type."""
    rng = np.random.default_rng(28105)
    n = 540
    port = rng.choice(PORTS, n, p=[0.25, 0.3, 0.45])
    age = rng.choice(AGE3, n, p=[0.2, 0.35, 0.45])
    gear = rng.choice(GEAR, n, p=[0.35, 0.4, 0.25])
    s = -0.7 * (gear == "trawl") + 0.4 * (gear == "hook") + 0.3 * (age == "under_35") - 0.2 * (port == "harbour_c")
    latent = s + rng.logistic(size=n) * 0.3
    first = ordered(rng, latent, MPA, (-0.4, 0.5))
    again = ordered(rng, latent, MPA, (-0.4, 0.5))
    table(out / "fisher_mpa_poll.csv", {
        "fisher": [f"FS{i:04d}" for i in range(n)], "harbour": port, "age_group": age, "gear": gear,
        "q_mpa": first, "q_quota": ordered(rng, 0.5 * (gear == "static") - 0.3 * (age == "55_plus"), QUOTA,
                                           (-0.5, 0.5)),
        "q_mpa_retest": again})
    table(out / "fleet_register_shares.csv", {
        "variable": ["harbour"] * 3 + ["age_group"] * 3, "level": PORTS + AGE3,
        "share": [0.40, 0.35, 0.25, 0.30, 0.40, 0.30]}, {"share": ".2f"})
    q, a, sh, sub = [], [], [], []
    shares = {"trawl": ([0.25, 0.30, 0.45], [0.5, 0.3, 0.2]), "static": ([0.45, 0.30, 0.25], [0.3, 0.5, 0.2]),
              "hook": ([0.55, 0.25, 0.20], [0.4, 0.4, 0.2])}
    for g in GEAR:
        for question, levels, vals in (("q_mpa", MPA, shares[g][0]), ("q_quota", QUOTA, shares[g][1])):
            for lev, v in zip(levels, vals, strict=True):
                q.append(question)
                a.append(lev)
                sh.append(v)
                sub.append(g)
    table(out / "chatbot_gear_personas.csv", {"question": q, "answer": a, "share": sh, "subgroup": sub},
          {"share": ".2f"})


EXHIBIT = ["very_good", "good", "poor"]
FEE = ["free", "small_fee", "full_fee"]


@writer
def museum(out: Path) -> None:
    """Museum exit interviews in two waves (2023 and 2025) with design weights (weekday visitors sampled at half
    the weekend rate); ratings of the new gallery fall a little in 2025; a guide bot's answer shares."""
    rng = np.random.default_rng(28106)
    n = 640
    wave = np.where(np.arange(n) < 320, "2023", "2025")
    weekend = rng.binomial(1, 0.6, n)
    dw = np.where(weekend == 1, 1.0, 2.0) * rng.uniform(0.9, 1.1, n)
    local = rng.binomial(1, 0.45, n)
    s1 = 0.4 * weekend - 0.35 * (wave == "2025") + 0.2 * local
    s2 = 0.5 * local - 0.2 * weekend
    table(out / "gallery_exit_interviews.csv", {
        "visitor": [f"V{i:04d}" for i in range(n)], "round": wave, "weekend": weekend, "local": local,
        "base_wt": dw, "q_gallery": ordered(rng, s1, EXHIBIT, (-0.6, 0.7)),
        "q_charging": ordered(rng, s2, FEE, (-0.3, 0.8))}, {"base_wt": ".3f"})
    table(out / "guide_bot_shares.csv", {
        "question": ["q_gallery"] * 3 + ["q_charging"] * 3, "answer": EXHIBIT + FEE,
        "share": [0.50, 0.40, 0.10, 0.45, 0.40, 0.15]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def hives(out: Path) -> None:
    """Daily hive sensor summaries, about 6% from queenless colonies (lighter, cooler and more variable brood
    temperature, a higher hum pitch); every day labelled."""
    rng = np.random.default_rng(28107)
    n = 1000
    bad = rng.random(n) < 0.06
    weight = rng.normal(42, 6, n) - bad * rng.uniform(3, 9, n)
    brood = rng.normal(34.8, 0.4, n) - bad * rng.uniform(0.8, 2.5, n)
    brood_sd = rng.gamma(2, 0.15, n) + bad * rng.uniform(0.3, 0.9, n)
    hum = rng.normal(250, 15, n) + bad * rng.uniform(20, 60, n)
    rh = rng.normal(60, 7, n)
    flights = rng.poisson(900, n) - bad * rng.integers(100, 400, n)
    table(out / "apiary_daily_sensors.csv", {
        "hive_kg": weight, "brood_c": brood, "brood_sd_c": brood_sd, "hum_hz": hum, "rel_humidity": rh,
        "flights": flights, "queenless": bad},
        {"hive_kg": ".2f", "brood_c": ".2f", "brood_sd_c": ".3f", "hum_hz": ".1f", "rel_humidity": ".1f"})


@writer
def customs(out: Path) -> None:
    """Import declarations: about 4% misdeclared (declared value far below the weight-based value, unusual tariff
    lines); officers checked about a third of the rows: fraud_confirmed is 1 or 0 where checked, blank elsewhere."""
    rng = np.random.default_rng(28108)
    n = 900
    fraud = rng.random(n) < 0.04
    kg = rng.lognormal(6, 1, n)
    per_kg = rng.lognormal(2.5, 0.4, n) * np.where(fraud, rng.uniform(0.15, 0.4, n), 1.0)
    value = kg * per_kg
    tariff_rare = rng.gamma(1.5, 1, n) + fraud * rng.uniform(1, 4, n)
    transit = rng.integers(0, 4, n) + fraud * rng.integers(0, 3, n)
    age = rng.gamma(3, 2, n)
    checked = rng.random(n) < 0.33
    checked |= fraud & (rng.random(n) < 0.3)
    label = [("1" if f else "0") if c else "" for f, c in zip(fraud, checked, strict=True)]
    table(out / "import_declarations.csv", {
        "declaration": [f"D{i:05d}" for i in range(n)], "gross_kg": kg, "declared_value": value,
        "tariff_rarity": tariff_rare, "transit_countries": transit, "importer_age_yr": age,
        "fraud_confirmed": label},
        {"gross_kg": ".1f", "declared_value": ".0f", "tariff_rarity": ".3f", "importer_age_yr": ".1f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def tephra(out: Path) -> None:
    """Glass shards of two eruptions (from_katla 1 or 0) by major-element oxides (wt%): the two sources differ in
    TiO2, FeO and K2O, with overlap and a curved boundary."""
    rng = np.random.default_rng(28109)
    n = 420
    k = rng.random(n) < 0.5
    sio2 = np.where(k, rng.normal(47, 1.5, n), rng.normal(50, 2.5, n))
    tio2 = np.where(k, rng.normal(4.3, 0.5, n), rng.normal(2.8, 0.8, n))
    al2o3 = rng.normal(13.5, 1, n)
    feo = np.where(k, rng.normal(14.5, 1.2, n), rng.normal(12.5, 1.8, n))
    mgo = rng.normal(5.2, 0.8, n)
    cao = rng.normal(9.8, 1, n)
    k2o = np.where(k, rng.normal(0.75, 0.15, n), rng.normal(0.55, 0.25, n) + 0.05 * (sio2 - 50) ** 2 / 4)
    table(out / "tephra_glass_majors.csv", {
        "sio2": sio2, "tio2": tio2, "al2o3": al2o3, "feo": feo, "mgo": mgo, "cao": cao, "k2o": k2o,
        "from_katla": k}, {c: ".2f" for c in ("sio2", "tio2", "al2o3", "feo", "mgo", "cao", "k2o")})


@writer
def claims(out: Path) -> None:
    """Motor policies: a claim in the year (claimed 1) depends on driver age, annual distance and prior claims; the
    postcode deprivation score adds a little and is correlated with vehicle value and distance."""
    rng = np.random.default_rng(28110)
    n = 800
    age = rng.uniform(18, 80, n)
    dep = rng.uniform(0, 10, n)
    value = np.exp(9.6 - 0.05 * dep + rng.normal(0, 0.4, n))
    km = rng.gamma(4, 3000, n) + 300 * dep
    prior = rng.poisson(0.3 + 0.04 * dep, n)
    p = expit(-1.6 - 0.03 * (age - 45) + 0.00006 * (km - 15000) + 0.5 * prior + 0.06 * (dep - 5))
    table(out / "motor_policy_claims.csv", {
        "driver_age": age, "vehicle_value": value, "annual_km": km, "prior_claims": prior,
        "postcode_deprivation": dep, "claimed": rng.binomial(1, p)},
        {"driver_age": ".0f", "vehicle_value": ".0f", "annual_km": ".0f", "postcode_deprivation": ".2f"})


# ------------------------------------------------------------------------------------------------ chains

@writer
def shear_chain(out: Path) -> None:
    """Weighted importance-sampled output of a cosmic-shear analysis in the CosmoSIS layout ('#section--name'
    header, a weight column), gzipped: Omega_m, sigma_8, h, A_IA (S_8 = sigma_8 sqrt(Omega_m/0.3) near 0.77); no
    burn-in (the weights carry the posterior)."""
    rng = np.random.default_rng(28111)
    n = 3000
    om = rng.normal(0.29, 0.07, n).clip(0.08)
    s8cap = rng.normal(0.77, 0.03, n)
    s8 = s8cap / np.sqrt(om / 0.3)
    h = rng.uniform(0.6, 0.8, n)
    aia = rng.normal(0.6, 0.9, n)
    loglike = -0.5 * ((s8cap - 0.77) / 0.02) ** 2 - 0.5 * ((om - 0.29) / 0.05) ** 2 - 0.5 * ((aia - 0.6) / 0.6) ** 2
    logq = -0.5 * ((s8cap - 0.77) / 0.03) ** 2 - 0.5 * ((om - 0.29) / 0.07) ** 2 - 0.5 * ((aia - 0.6) / 0.9) ** 2
    wt = np.exp(loglike - logq - (loglike - logq).max())
    header = ("#cosmological_parameters--omega_m\tcosmological_parameters--sigma_8\tcosmological_parameters--h0\t"
              "intrinsic_alignment_parameters--a\tprior\tlike\tpost\tweight\n")
    body = "".join(f"{om[i]:.5f}\t{s8[i]:.5f}\t{h[i]:.5f}\t{aia[i]:.4f}\t0.0\t{loglike[i]:.4f}\t{loglike[i]:.4f}\t"
                   f"{wt[i]:.6e}\n" for i in range(n))
    gzip_text(out / "shear_importance_weighted.txt.gz", header + body)


@writer
def pk_chains(out: Path) -> None:
    """Three Metropolis chains of a one-compartment pharmacokinetic model (clearance in L/h, volume in L,
    absorption rate ka in 1/h, residual sd), 1,200 rows each with a plain '#' header, started apart and settling over about 80 rows."""
    rng = np.random.default_rng(28112)
    centre = np.array([4.2, 38.0, 1.1, 0.18])
    sd = np.array([0.3, 3.0, 0.15, 0.02])
    for tag, start in (("1", [8.0, 70.0, 3.0, 0.5]), ("2", [1.5, 15.0, 0.3, 0.05]), ("3", [6.0, 20.0, 2.0, 0.3])):
        x = ar_chain(rng, 1200, centre, sd, np.array(start), 80.0, rho=0.55)
        (out / f"pk_onecomp_chain{tag}.txt").write_text(
            "# clearance volume ka sigma_res\n" + "".join(f"{r[0]:.4f} {r[1]:.3f} {r[2]:.4f} {r[3]:.4f}\n" for r in x))


@writer
def lens_chains(out: Path) -> None:
    """Two chains of a CMB-lensing analysis, one with the neutrino mass fixed and one with it free (a wider,
    lower sigma_8): plain '#' header, 1,500 rows each."""
    rng = np.random.default_rng(28113)
    for tag, centre, sd in (("mnu_fixed", [0.312, 0.811, 67.6], [0.012, 0.010, 0.9]),
                            ("mnu_free", [0.318, 0.795, 67.1], [0.015, 0.018, 1.2])):
        x = ar_chain(rng, 1500, np.array(centre), np.array(sd), np.array(centre) * 1.2, 50.0, rho=0.5)
        (out / f"lensing_run_{tag}.txt").write_text(
            "# omega_m sigma8 H0\n" + "".join(f"{r[0]:.5f} {r[1]:.5f} {r[2]:.3f}\n" for r in x))


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def union_like(out: Path) -> None:
    """90 distance moduli of a flat LCDM (Omega_m 0.29) in the Union2.1 table layout (name, redshift, distance
    modulus, its error, host-mass probability; tab-separated, '#' header)."""
    rng = np.random.default_rng(28114)
    n = 90
    z = np.sort(rng.uniform(0.015, 1.3, n))
    err = rng.uniform(0.08, 0.25, n)
    mu = distance_modulus(z, 0.29) + rng.normal(0, err)
    pm = rng.uniform(0, 1, n)
    lines = ["# Name\tRedshift\tDistance Modulus\tDistance Modulus Error\tP(Low Mass)\n"]
    lines += [f"sn{2000 + i // 26}{chr(97 + i % 26)}\t{z[i]:.6f}\t{mu[i]:.6f}\t{err[i]:.6f}\t{pm[i]:.4f}\n"
              for i in range(n)]
    (out / "legacy_sample_mu_vs_z.txt").write_text("".join(lines))


@writer
def jla_binned(out: Path) -> None:
    """31 binned distance moduli of a flat wCDM (Omega_m 0.30, w -1.05) in the JLA binned layout ('#z mu') with a
    full covariance (N then N*N values)."""
    rng = np.random.default_rng(28115)
    z = np.geomspace(0.01, 1.3, 31)
    err = np.linspace(0.03, 0.09, 31)
    cov = correlated_cov(z, err, 0.015, 0.4)
    mu = distance_modulus(z, 0.30, w0=-1.05) + np.linalg.cholesky(cov) @ rng.normal(0, 1, 31)
    (out / "binned_mub_31.txt").write_text("#z mu\n" + "".join(f"{a:.6f} {b:.6f}\n" for a, b in zip(z, mu, strict=True)))
    write_covariance(out / "binned_mub_31_cov.txt", cov)


@writer
def magnitudes(out: Path) -> None:
    """70 peak magnitudes (mb = mu - 19.25 at H0 70) of a flat LCDM (Omega_m 0.31) with errors, as a CSV."""
    rng = np.random.default_rng(28116)
    n = 70
    z = np.sort(rng.uniform(0.02, 0.9, n))
    dmb = rng.uniform(0.08, 0.14, n)
    table(out / "hst_cycle_peak_mags.csv", {
        "z": z, "mb": distance_modulus(z, 0.31) - 19.25 + rng.normal(0, dmb), "dmb": dmb},
        {"z": ".4f", "mb": ".4f", "dmb": ".3f"})


@writer
def joint_wcdm(out: Path) -> None:
    """75 distance moduli of a flat wCDM (Omega_m 0.31, w -0.95) with a covariance (diagonal errors plus a
    correlated floor of 0.02 mag), for a joint fit with the CMB."""
    rng = np.random.default_rng(28117)
    n = 75
    z = np.sort(rng.uniform(0.02, 1.5, n))
    err = rng.uniform(0.06, 0.12, n)
    cov = correlated_cov(z, err, 0.02, 0.5)
    mu = distance_modulus(z, 0.31, w0=-0.95, h0=67.5) + np.linalg.cholesky(cov) @ rng.normal(0, 1, n)
    table(out / "dark_energy_sn_moduli.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    write_covariance(out / "dark_energy_sn_cov.txt", cov)


@writer
def salt_photometry(out: Path) -> None:
    """Multi-band photometry (g, r, i, z) of six supernovae: flux against days from peak with errors (a near miss:
    light curves, not distances)."""
    rng = np.random.default_rng(28118)
    rows = {"sn": [], "mjd": [], "band": [], "flux": [], "flux_err": []}
    for s in range(6):
        peak = 60100 + 30 * s
        for band, amp in (("g", 900), ("r", 1100), ("i", 950), ("z", 800)):
            for t in np.sort(rng.uniform(-15, 45, 12)):
                f = amp * np.exp(-0.5 * (t / 12) ** 2) * (1 + 0.2 * (t > 15))
                e = 25 + 0.03 * f
                rows["sn"].append(f"DES{s:02d}")
                rows["mjd"].append(peak + t)
                rows["band"].append(band)
                rows["flux"].append(f + rng.normal(0, e))
                rows["flux_err"].append(e)
    table(out / "transient_griz_fluxes.csv", rows, {"mjd": ".3f", "flux": ".2f", "flux_err": ".2f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def nests(out: Path) -> None:
    """Ground nests of a wader: hatching (hatched 1) falls with predator activity and late laying and rises with
    vegetation cover; clutch size does not matter."""
    rng = np.random.default_rng(28119)
    n = 160
    clutch = rng.integers(2, 5, n)
    lay = rng.normal(0, 8, n)
    pred = rng.gamma(2, 1, n)
    cover = rng.uniform(5, 80, n)
    p = expit(0.4 - 0.06 * lay - 0.7 * (pred - 2) + 0.03 * (cover - 40))
    table(out / "wader_nest_fates.csv", {
        "nest": [f"W{i:03d}" for i in range(n)], "clutch": clutch, "lay_day": lay, "predator_idx": pred,
        "cover_pct": cover, "hatched": rng.binomial(1, p)},
        {"lay_day": ".0f", "predator_idx": ".2f", "cover_pct": ".0f"})


@writer
def glacier(out: Path) -> None:
    """36 days of ablation-stake melt on a glacier tongue, as the anomaly from the season's mean melt (mm w.e. per
    day): linear in air temperature (up) and albedo (down), noise sd about 0.5 mm."""
    rng = np.random.default_rng(28120)
    n = 36
    temp = rng.uniform(2, 6, n)
    albedo = rng.uniform(0.3, 0.6, n)
    melt = 1.2 * (temp - 4) - 8 * (albedo - 0.45) + rng.normal(0, 0.5, n)
    table(out / "stake_melt_days.csv", {
        "day": [f"2025-07-{i + 1:02d}" if i < 31 else f"2025-08-{i - 30:02d}" for i in range(n)],
        "air_temp_c": temp, "albedo": albedo, "melt_anom_mm": melt},
        {"air_temp_c": ".2f", "albedo": ".3f", "melt_anom_mm": ".2f"})


@writer
def gas_sensor(out: Path) -> None:
    """A metal-oxide gas sensor's reading error against temperature and humidity: a smooth bump in temperature and
    a slight rise with humidity; 45 calibration points and a separate set of 30 check points from another day."""
    def f(t: np.ndarray, h: np.ndarray) -> np.ndarray:
        return 3 * np.exp(-((t - 25) / 10) ** 2) + 0.004 * (h - 50)

    rng = np.random.default_rng(28121)
    for name, n in (("mox_calibration_runs.csv", 45), ("mox_check_runs.csv", 30)):
        t = rng.uniform(5, 45, n)
        h = rng.uniform(20, 90, n)
        table(out / name, {"temp_c": t, "rh_pct": h, "error_ppm": f(t, h) + rng.normal(0, 0.1, n)},
              {"temp_c": ".2f", "rh_pct": ".1f", "error_ppm": ".3f"})


@writer
def sun_panel(out: Path) -> None:
    """Power of a hexagonal spacecraft's body-mounted panels against the sun direction (unit vector in the body
    frame): unchanged by a sixth of a turn about the body z axis and by the mirror z -> -z; 600 attitudes."""
    rng = np.random.default_rng(28122)
    n = 600
    v = rng.normal(0, 1, (n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    x, y, zc = v[:, 0], v[:, 1], v[:, 2]
    six = np.real((x + 1j * y) ** 6)
    power = 120 + 40 * zc ** 2 + 15 * six + 10 * zc ** 4 + rng.normal(0, 2, n)
    table(out / "hexsat_sun_power.csv", {"sun_x": x, "sun_y": y, "sun_z": zc, "power_w": power},
          {"sun_x": ".6f", "sun_y": ".6f", "sun_z": ".6f", "power_w": ".3f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def grant_applicants(out: Path) -> None:
    """Small-business grant applicants (years trading, employees, revenue in thousands) drawn from the linear SCM
    the task gives (employees = 0.8 years + U, revenue = 12 employees + 2 years + U); rows 2 and 5 score below the
    scoring rule's cut."""
    rng = np.random.default_rng(28123)
    n = 60
    years = rng.gamma(3, 2.5, n)
    emp = 0.8 * years + rng.normal(0, 3, n)
    rev = 12 * emp + 2 * years + rng.normal(0, 40, n)
    years[2], emp[2], rev[2] = 2.0, 1.5, 30.0
    years[5], emp[5], rev[5] = 4.0, 3.0, 45.0
    table(out / "microgrant_applicants.csv", {
        "applicant": [f"A{i:02d}" for i in range(n)], "years_trading": years, "employees": emp, "revenue_k": rev},
        {"years_trading": ".1f", "employees": ".1f", "revenue_k": ".1f"})


@writer
def thermostats(out: Path) -> None:
    """600 households: a smart thermostat (binary) taken up more where utility marketing reached them (six
    exposure features in an .npy, the instrument) and by unobserved enthusiasm; monthly savings in dollars,
    bounded to [0, 100], raised by about 12 dollars more in older houses."""
    rng = np.random.default_rng(28124)
    n = 600
    age = rng.uniform(0, 80, n)
    area = rng.normal(140, 40, n)
    expo = rng.normal(0, 1, (n, 6))
    keen = rng.normal(0, 1, n)
    take = rng.binomial(1, expit(-0.2 + expo[:, :3] @ np.array([1.2, 0.8, -0.6]) + 0.8 * keen))
    effect = 8 + 0.1 * age
    save = np.clip(25 + effect * take + 0.08 * (area - 140) + 6 * keen + rng.normal(0, 8, n), 0, 100)
    table(out / "thermostat_households.csv", {
        "household": [f"HH{i:04d}" for i in range(n)], "house_age_yr": age, "floor_m2": area,
        "smart_thermostat": take, "savings_usd": save}, {"house_age_yr": ".0f", "floor_m2": ".0f", "savings_usd": ".2f"})
    array(out / "utility_marketing_exposure.npy", expo)


@writer
def dropout_scores(out: Path) -> None:
    """Pupils with two risk scores (last year's model and this year's) and the realised attendance rate (low is
    worse); the new score predicts a little better."""
    rng = np.random.default_rng(28125)
    n = 2000
    att = np.clip(rng.normal(0.9, 0.07, n), 0.3, 1.0)
    v1 = 0.9 + 0.5 * (att - 0.9) + rng.normal(0, 0.05, n)
    v2 = 0.9 + 0.6 * (att - 0.9) + rng.normal(0, 0.04, n)
    table(out / "attendance_two_scores.csv", {
        "pupil": [f"P{i:05d}" for i in range(n)], "score_2024_model": v1, "score_2025_model": v2,
        "attendance_rate": att}, {"score_2024_model": ".4f", "score_2025_model": ".4f", "attendance_rate": ".4f"})


# ------------------------------------------------------------------------------------------------ lm

FONTS = ["serif", "sans", "mono", "script", "slab", "blackletter"]
LETTERS = ["a", "e", "g", "k", "r", "s"]


@writer
def glyphs(out: Path) -> None:
    """A vision model's 24-dimensional embeddings of rendered glyphs, six fonts by six letters, ten renderings per
    pair: an additive font part plus a letter part plus a small interaction and noise; labels with an image id."""
    rng = np.random.default_rng(28126)
    fvec = rng.normal(0, 1, (6, 24))
    lvec = rng.normal(0, 1, (6, 24))
    inter = rng.normal(0, 0.3, (6, 6, 24))
    rows, fl, ll, ids = [], [], [], []
    for f in range(6):
        for li in range(6):
            for r in range(10):
                rows.append(fvec[f] + lvec[li] + inter[f, li] + rng.normal(0, 0.4, 24))
                fl.append(FONTS[f])
                ll.append(LETTERS[li])
                ids.append(f"img{f}{li}{r}")
    order = rng.permutation(len(rows))
    array(out / "glyph_render_embeddings.npy", np.array(rows)[order])
    table(out / "glyph_render_labels.csv", {
        "image_id": [ids[i] for i in order], "font": [fl[i] for i in order], "letter": [ll[i] for i in order]})


SHIPS = ["Marlin Queen", "North Tern", "Sea Lantern", "Grey Heron", "Kestrel Bay", "Amber Tide", "Polar Wren",
         "Salt Finch", "Iron Gull", "Blue Mallow", "Storm Petrel", "Red Cormorant"]
PORTS_OLD = ["Bergen", "Aberdeen", "Cork", "Brest", "Vigo", "Esbjerg"]
PORTS_NEW = ["Tromso", "Lerwick", "Galway", "Lorient", "Porto", "Hirtshals", "Cuxhaven", "Bilbao"]


@writer
def ship_stream(out: Path) -> None:
    """A stream of fact edits over three timesteps: the home port of each of twelve vessels changes (four per
    timestep), with a rephrased question and a locality probe about the port's country."""
    recs = []
    for i, ship in enumerate(SHIPS):
        port = PORTS_NEW[(i * 3) % len(PORTS_NEW)]
        recs.append({"timestep": i // 4, "subject": ship, "relation": "home port",
                     "prompt": f"The home port of the vessel {ship} is", "object": port,
                     "rephrase": f"Which harbour is the {ship} registered to?",
                     "locality_prompt": f"The port of {PORTS_OLD[i % 6]} lies on the coast of",
                     "locality_answer": ["Norway", "Scotland", "Ireland", "France", "Spain", "Denmark"][i % 6]})
    json_lines(out / "vessel_homeport_edits.jsonl", recs)


# ------------------------------------------------------------------------------------------------ near misses

@writer
def reservoir(out: Path) -> None:
    """Two years of daily rainfall and reservoir inflow; inflow follows rain with a lag of one to three days."""
    rng = np.random.default_rng(28127)
    n = 730
    rain = rng.gamma(0.4, 8, n) * (rng.random(n) < 0.45)
    inflow = np.empty(n)
    inflow[:3] = 20
    for t in range(3, n):
        inflow[t] = 0.7 * inflow[t - 1] + 0.8 * rain[t - 1] + 0.5 * rain[t - 2] + 0.2 * rain[t - 3] + 6 + rng.normal(0, 2)
    table(out / "catchment_rain_inflow.csv", {
        "date_index": np.arange(n), "rain_mm": rain, "inflow_m3s": inflow}, {"rain_mm": ".1f", "inflow_m3s": ".2f"})


@writer
def bird_calls(out: Path) -> None:
    """An acoustic classifier's scores for 1,500 clips against the true label (call present), deliberately
    over-confident."""
    rng = np.random.default_rng(28128)
    n = 1500
    y = rng.binomial(1, 0.35, n)
    logit = (y - 0.35) * 3 + rng.normal(0, 1.4, n)
    table(out / "nightjar_clip_scores.csv", {
        "clip": [f"K{i:05d}" for i in range(n)], "score": expit(2.2 * logit), "call_present": y}, {"score": ".4f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
