"""Write every data file of the seventeenth blind prose task set, deterministically.

``python tests/understanding_blind17/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
def drip_plots(out: Path) -> None:
    """Smallholder maize plots: drip kits (binary) went to larger plots nearer a market with poorer soil nitrogen;
    a kit adds about 0.6 t/ha."""
    rng = np.random.default_rng(17101)
    n = 350
    plot = rng.gamma(3, 0.4, n)
    soil_n = rng.uniform(8, 40, n)
    market = rng.gamma(2, 6, n)
    kit = rng.binomial(1, expit(0.5 * (plot - 1.2) - 0.03 * (soil_n - 24) - 0.04 * (market - 12)))
    maize = np.clip(2.4 + 0.6 * kit + 0.04 * (soil_n - 24) - 0.02 * (market - 12) + 0.15 * (plot - 1.2)
                    + rng.normal(0, 0.45, n), 0.2, None)
    table(out / "smallholder_drip_plots.csv", {
        "farm_id": [f"F{i:04d}" for i in range(n)], "drip_kit": kit, "plot_ha": plot, "soil_n_ppm": soil_n,
        "dist_market_km": market, "maize_t_ha": maize},
        {"plot_ha": ".2f", "soil_n_ppm": ".1f", "dist_market_km": ".1f", "maize_t_ha": ".2f"})


@writer
def knee_rehab(out: Path) -> None:
    """Knee-replacement patients: minutes a week of supervised physiotherapy (continuous) went to younger patients
    with worse pre-operative scores; every ten minutes adds about 6 m to the six-minute walk at six weeks."""
    rng = np.random.default_rng(17102)
    n = 300
    age = rng.uniform(52, 85, n)
    bmi = rng.normal(29, 4, n)
    koos = rng.uniform(20, 70, n)
    physio = np.clip(90 - 1.0 * (age - 68) - 0.6 * (koos - 45) - 1.0 * (bmi - 29) + rng.normal(0, 25, n), 0, None)
    walk = 380 + 0.6 * physio - 3.0 * (age - 68) - 4.0 * (bmi - 29) + 1.5 * (koos - 45) + rng.normal(0, 30, n)
    table(out / "knee_rehab_cohort.csv", {
        "patient": [f"K{i:04d}" for i in range(n)], "physio_min_wk": physio, "age_yr": age, "bmi": bmi,
        "preop_koos": koos, "walk6_m": walk},
        {"physio_min_wk": ".0f", "age_yr": ".0f", "bmi": ".1f", "preop_koos": ".0f", "walk6_m": ".0f"})


FUEL = {  # what a ranger writes about the fuel on a stand (-1 light, 0 moderate, 1 heavy)
    1: ["deep litter and a lot of dead wood on the ground", "heavy brush under the canopy after the blowdown",
        "ladder fuels everywhere, needles knee deep in places"],
    0: ["some downed branches along the ridge", "patchy understorey, moderate litter",
        "a normal amount of needle cast"],
    -1: ["floor mostly bare, grazed by elk", "thin litter, rock showing through", "clean understorey, little to burn"],
}
STAND_EXTRAS = ["Access road washed out in May.", "Nest boxes on the north edge.", "Survey plot markers replaced.",
                "Beetle traps checked.", "Creek crossing is soft.", "Gate code changed."]


@writer
def stand_burns(out: Path) -> None:
    """Conifer stands: a prescribed burn (binary) was carried out where the ranger's note describes heavy fuel
    (visible only in the note); when wildfire later came through, burned stands scored about 90 dNBR units less
    severe."""
    rng = np.random.default_rng(17103)
    n = 300
    age = rng.uniform(20, 140, n)
    canopy = rng.uniform(20, 95, n)
    notes, burn, dnbr = [], [], []
    for i in range(n):
        f = int(rng.integers(-1, 2))
        notes.append(f"{rng.choice(FUEL[f])}. {rng.choice(STAND_EXTRAS)}")
        b = int(rng.random() < expit(1.3 * f + 0.01 * (age[i] - 80)))
        burn.append(b)
        dnbr.append(450 - 90 * b + 120 * f + 0.8 * (age[i] - 80) + 1.5 * (canopy[i] - 57) + rng.normal(0, 50))
    table(out / "forest_stand_burns.csv", {
        "stand": [f"S{i:03d}" for i in range(n)], "rx_burn": burn, "stand_age_yr": age, "canopy_pct": canopy,
        "ranger_note": notes, "dnbr": dnbr}, {"stand_age_yr": ".0f", "canopy_pct": ".0f", "dnbr": ".0f"})


@writer
def village_minigrid(out: Path) -> None:
    """Villages: a solar mini-grid connection (binary) went to villages whose satellite tiles look a certain way in
    a 24-d image embedding and to larger villages; it raises monthly household income by about 9 dollars."""
    rng = np.random.default_rng(17104)
    n = 320
    latent = rng.normal(size=(n, 3))
    emb = latent @ (rng.normal(size=(3, 24)) / 2) + 0.3 * rng.normal(size=(n, 24))
    pop = rng.lognormal(7, 0.5, n)
    road = rng.gamma(2, 5, n)
    grid = rng.binomial(1, expit(0.7 * latent[:, 0] + 0.5 * (np.log(pop) - 7) - 0.03 * (road - 10)))
    income = 60 + 9 * grid + 8 * latent[:, 0] - 3 * latent[:, 1] + 4 * (np.log(pop) - 7) - 0.4 * (road - 10) \
        + rng.normal(0, 6, n)
    table(out / "village_minigrid.csv", {
        "village": [f"V{i:03d}" for i in range(n)], "minigrid": grid, "population": pop, "km_to_road": road,
        "hh_income_usd_mo": income}, {"population": ".0f", "km_to_road": ".1f", "hh_income_usd_mo": ".1f"})
    array(out / "village_tile_embeddings.npy", emb)


# ------------------------------------------------------------------------------------------------ surveys

SUPPORT = ["support", "neither", "oppose"]
AGES = ["18-29", "30-49", "50-64", "65+"]
SETTLE = ["urban", "town", "rural"]


@writer
def wind_survey(out: Path) -> None:
    """Attitudes to onshore wind: rural and older people are over-sampled; two questionnaire forms (A names the
    nearest town, B does not), and form B draws less opposition. Census margins and a model's answer shares."""
    rng = np.random.default_rng(17105)
    n = 800
    age = rng.choice(AGES, n, p=[0.12, 0.25, 0.3, 0.33])
    settle = rng.choice(SETTLE, n, p=[0.3, 0.3, 0.4])
    form = rng.choice(["A", "B"], n)
    local = ordered(rng, 0.4 * (form == "B") - 0.5 * (settle == "rural") - 0.3 * (age == "65+"), SUPPORT,
                    (-0.6, 0.4))
    bills = ordered(rng, 0.3 * (age == "18-29") + 0.2 * (settle == "urban"), SUPPORT, (-0.8, 0.3))
    table(out / "onshore_wind_poll.csv", {
        "id": np.arange(1, n + 1), "form": form, "age_group": age, "settlement": settle,
        "q_turbine_nearby": local, "q_pay_via_bills": bills})
    rows = [("age_group", a, s) for a, s in zip(AGES, (0.2, 0.33, 0.25, 0.22), strict=True)]
    rows += [("settlement", a, s) for a, s in zip(SETTLE, (0.55, 0.28, 0.17), strict=True)]
    table(out / "wind_census_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                            "share": [r[2] for r in rows]}, {"share": ".2f"})
    shares = {"q_turbine_nearby": (0.55, 0.25, 0.20), "q_pay_via_bills": (0.40, 0.30, 0.30)}
    table(out / "wind_llm_answer_shares.csv", {
        "question": [q for q in shares for _ in SUPPORT], "answer": [a for _ in shares for a in SUPPORT],
        "share": [s for q in shares for s in shares[q]]}, {"share": ".2f"})


SATISF = ["satisfied", "mixed", "dissatisfied"]
MEMBERS = ["adult", "student", "senior"]


@writer
def library_survey(out: Path) -> None:
    """Public-library users: students answered more; satisfaction asked twice (a retest a fortnight later). A
    sample of the membership register (age group and member type) and a model's sampled answers, one per row."""
    rng = np.random.default_rng(17106)
    n = 450
    age = rng.choice(AGES, n, p=[0.4, 0.25, 0.2, 0.15])
    member = rng.choice(MEMBERS, n, p=[0.35, 0.45, 0.2])
    score = 0.4 * (member == "senior") - 0.3 * (age == "18-29")
    sat = ordered(rng, score, SATISF, (-0.7, 0.5))
    flip = rng.random(n) < 0.2
    retest = [SATISF[int(rng.integers(3))] if f else s for s, f in zip(sat, flip, strict=True)]
    sunday = ordered(rng, 0.5 * (member == "student"), ["yes", "unsure", "no"], (-0.5, 0.3))
    table(out / "library_user_survey.csv", {
        "resp_id": np.arange(1, n + 1), "age_group": age, "member_type": member, "q_satisfaction": sat,
        "q_satisfaction_retest": retest, "q_open_sundays": sunday})
    m = 1000
    table(out / "library_register_extract.csv", {
        "age_group": rng.choice(AGES, m, p=[0.18, 0.3, 0.27, 0.25]),
        "member_type": rng.choice(MEMBERS, m, p=[0.55, 0.2, 0.25])})
    q, a = [], []
    for _ in range(60):
        q.append("q_satisfaction")
        a.append(str(rng.choice(SATISF, p=[0.6, 0.3, 0.1])))
        q.append("q_open_sundays")
        a.append(str(rng.choice(["yes", "unsure", "no"], p=[0.7, 0.2, 0.1])))
    table(out / "library_llm_sampled_answers.csv", {"question": q, "answer": a})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def hive_weeks(out: Path) -> None:
    """Weekly beehive sensor summaries; about 5% of hive-weeks preceded a colony collapse (collapsed = 1), with
    weight loss, a cooler brood nest, more humidity and a louder, higher hum."""
    rng = np.random.default_rng(17107)
    n = 1000
    bad = rng.random(n) < 0.05
    table(out / "hive_sensor_weeks.csv", {
        "weight_change_kg": rng.normal(0.3, 0.8, n) - 0.6 * bad, "brood_temp_c": rng.normal(34.8, 0.5, n) - 0.5 * bad,
        "humidity_pct": rng.normal(55, 6, n) + 3 * bad, "hum_db": rng.normal(42, 4, n) + 2 * bad,
        "hum_peak_hz": rng.normal(250, 20, n) + 15 * bad, "collapsed": bad.astype(int)},
        {"weight_change_kg": ".2f", "brood_temp_c": ".2f", "humidity_pct": ".1f", "hum_db": ".1f",
         "hum_peak_hz": ".0f"})


@writer
def water_loggers(out: Path) -> None:
    """Acoustic leak loggers on water mains, no labels (an .npz with X only): about 3% of the nights come from
    leaking pipes (more noise energy in the leak band, a flatter spectrum, less night-to-night change)."""
    rng = np.random.default_rng(17108)
    n = 800
    bad = rng.random(n) < 0.03
    x = np.column_stack([rng.gamma(3, 4, n) + 18 * bad, rng.normal(0.4, 0.1, n) + 0.25 * bad,
                         rng.gamma(2, 1.5, n) - 1.5 * bad * rng.random(n), rng.uniform(50, 300, n),
                         rng.normal(12, 3, n)])
    npz(out / "main_logger_nights.npz", {"X": npy_bytes(x)})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def transit_candidates(out: Path) -> None:
    """Transit candidates: confirmed planets (is_planet = 1) against false positives (eclipsing binaries,
    blends), separated nonlinearly in depth, duration ratio, odd-even depth difference and centroid shift."""
    rng = np.random.default_rng(17109)
    n = 600
    planet = rng.random(n) < 0.4
    table(out / "koi_vetting_features.csv", {
        "depth_ppm": rng.lognormal(np.where(planet, 6.5, 8.0), np.where(planet, 0.6, 1.0)),
        "dur_ratio": rng.normal(np.where(planet, 1.0, 1.4), 0.25),
        "odd_even_sigma": np.abs(rng.normal(0, np.where(planet, 1.0, 3.0))),
        "centroid_arcsec": rng.gamma(np.where(planet, 1.5, 3.0), 0.3),
        "snr": rng.gamma(4, 5, n), "is_planet": planet.astype(int)},
        {"depth_ppm": ".0f", "dur_ratio": ".3f", "odd_even_sigma": ".3f", "centroid_arcsec": ".3f", "snr": ".1f"})


@writer
def olive_oils(out: Path) -> None:
    """Olive oils by fatty-acid profile: coastal against inland groves (coastal = 1), separable in oleic,
    linoleic and palmitic shares."""
    rng = np.random.default_rng(17110)
    n = 480
    coastal = rng.random(n) < 0.5
    table(out / "olive_oil_fatty_acids.csv", {
        "oleic_pct": rng.normal(np.where(coastal, 74, 70), 2.5), "linoleic_pct": rng.normal(np.where(coastal, 8, 11), 1.8),
        "palmitic_pct": rng.normal(np.where(coastal, 12.5, 13.5), 1.2), "stearic_pct": rng.normal(2.5, 0.4, n),
        "linolenic_pct": rng.normal(0.7, 0.15, n), "coastal": coastal.astype(int)},
        {"oleic_pct": ".2f", "linoleic_pct": ".2f", "palmitic_pct": ".2f", "stearic_pct": ".2f",
         "linolenic_pct": ".2f"})


@writer
def flood_claims(out: Path) -> None:
    """Household flood claims (claim = 1) against elevation, distance to river, past claims, building age and an
    area deprivation index; deprivation is partly carried by building age and elevation."""
    rng = np.random.default_rng(17111)
    n = 600
    elev = rng.gamma(3, 8, n)
    river = rng.gamma(2, 400, n)
    past = rng.poisson(0.4, n)
    bage = rng.uniform(5, 120, n)
    depriv = np.clip(0.3 * (bage - 60) / 30 - 0.02 * (elev - 24) + rng.normal(0, 0.8, n), -3, 3)
    logit = -1.0 - 0.06 * (elev - 24) - 0.0012 * (river - 800) + 0.6 * past + 0.3 * depriv
    table(out / "household_flood_claims.csv", {
        "elevation_m": elev, "river_dist_m": river, "past_claims": past, "building_age_yr": bage,
        "deprivation_idx": depriv, "claim": rng.binomial(1, expit(logit))},
        {"elevation_m": ".1f", "river_dist_m": ".0f", "building_age_yr": ".0f", "deprivation_idx": ".3f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def lagoon_sn(out: Path) -> None:
    """50 distance moduli (H0 70) of a curved sample (Omega_m 0.30, Omega_de 0.65) with a covariance written
    with its count line."""
    rng = np.random.default_rng(17112)
    n = 50
    z = np.sort(rng.uniform(0.02, 1.5, n))
    err = rng.uniform(0.08, 0.14, n)
    cov = correlated_cov(z, err, 0.02, 0.4)
    mu = distance_modulus(z, 0.30, 0.65) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "lagoon_sn_distances.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    write_covariance(out / "lagoon_sn_covmat.txt", cov)


@writer
def harbour_sn(out: Path) -> None:
    """70 peak magnitudes (M -19.35 at H0 70) of a flat sample with evolving dark energy (Omega_m 0.31, w0 -0.9,
    wa -0.4)."""
    rng = np.random.default_rng(17113)
    n = 70
    z = np.sort(rng.uniform(0.015, 1.6, n))
    err = rng.uniform(0.09, 0.15, n)
    mb = distance_modulus(z, 0.31, w0=-0.9, wa=-0.4) - 19.35 + rng.normal(0, err)
    table(out / "harbour_sn_mb.csv", {"z": z, "mb": mb, "mb_err": err}, {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})


@writer
def marsh_sn(out: Path) -> None:
    """45 peak magnitudes of a flat wCDM sample (Omega_m 0.315, w -0.95) for a joint fit with the CMB."""
    rng = np.random.default_rng(17114)
    n = 45
    z = np.sort(rng.uniform(0.02, 1.2, n))
    err = rng.uniform(0.1, 0.15, n)
    mb = distance_modulus(z, 0.315, w0=-0.95, h0=67.4) - 19.25 + rng.normal(0, err)
    table(out / "marsh_sn_peakmags.csv", {"z": z, "mb": mb, "mb_err": err},
          {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})


@writer
def lensing_chain(out: Path) -> None:
    """A weighted plain-header chain of a cosmic-shear run (weight, lnlike, S8, Omega_m, sigma8, A_IA), 1,800 rows
    settling over the first few percent."""
    rng = np.random.default_rng(17115)
    n = 1800
    centre = np.array([0.775, 0.29, 0.79, 0.5])
    sd = np.array([0.018, 0.03, 0.05, 0.3])
    x = ar_chain(rng, n, centre, sd, np.array([0.85, 0.4, 0.75, 1.5]), 40.0)
    x[:, 2] = x[:, 0] / np.sqrt(x[:, 1] / 0.3)
    lnl = -0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) - 300.0
    wt = rng.integers(1, 5, n)
    lines = ["# weight lnlike S8 Omega_m sigma8 A_IA"]
    lines += [f"{w:d} {lk:.3f} {r[0]:.5f} {r[1]:.5f} {r[2]:.5f} {r[3]:.4f}" for w, lk, r in zip(wt, lnl, x, strict=True)]
    (out / "shear_run_weighted_chain.txt").write_text("\n".join(lines) + "\n")


@writer
def bao_chains(out: Path) -> None:
    """Four plain-header chains of a BAO fit (Omega_m, H0_rd, w), 700 rows each, started apart."""
    rng = np.random.default_rng(17116)
    centre = np.array([0.305, 101.5, -0.98])
    sd = np.array([0.015, 1.2, 0.07])
    starts = ([0.36, 98.0, -0.8], [0.26, 104.0, -1.2], [0.33, 103.0, -0.85], [0.28, 99.0, -1.1])
    for k, start in enumerate(starts, 1):
        x = ar_chain(rng, 700, centre, sd, np.array(start), 60.0, rho=0.7)
        lines = ["# omega_m H0_rd w"] + [f"{r[0]:.5f} {r[1]:.4f} {r[2]:.5f}" for r in x]
        (out / f"bao_fit_chain{k}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ bayes

DENSITY = '''"""Unnormalised log posterior of a three-parameter dust emission model (temperature, index, log mass).

The parameters are standardised: a curved, correlated ridge with a heavier tail in the third one.
"""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    t, b, m = z[:, 0], z[:, 1], z[:, 2]
    ridge = -0.5 * ((b + 0.6 * t - 0.3 * t**2) / 0.4) ** 2
    return -0.5 * t**2 + ridge - 0.5 * (m - 0.5 * b) ** 2 / 1.5 - 0.1 * torch.abs(m)
'''


@writer
def dust_density(out: Path) -> None:
    """A Python file with ``log_prob(z)``: a banana-shaped ridge between temperature and index, mass loosely tied."""
    (out / "dust_sed_logpost.py").write_text(DENSITY)


@writer
def frog_calls(out: Path) -> None:
    """Dominant call frequency (kHz) of 40 frogs recorded at one pond: two species, means 2.2 and 4.6 kHz, sd 1."""
    rng = np.random.default_rng(17117)
    sp = rng.random(40) < 0.5
    table(out / "pond_call_frequencies.csv", {"recording": [f"rec{i:02d}" for i in range(40)],
                                              "dom_freq_khz": rng.normal(np.where(sp, 4.6, 2.2), 1.0)},
          {"dom_freq_khz": ".3f"})


@writer
def soil_probe(out: Path) -> None:
    """Soil-moisture probe calibration: volumetric water content against the probe's permittivity reading and
    soil temperature (a smooth, saturating curve), 44 cores."""
    rng = np.random.default_rng(17118)
    n = 44
    eps = rng.uniform(3, 30, n)
    temp = rng.uniform(4, 28, n)
    vwc = 45 * np.tanh((eps - 3) / 18) - 0.15 * (temp - 15) + rng.normal(0, 1.2, n)
    table(out / "soil_probe_cores.csv", {"core": [f"C{i:02d}" for i in range(n)], "permittivity": eps,
                                         "soil_temp_c": temp, "vwc_pct": vwc},
          {"permittivity": ".2f", "soil_temp_c": ".1f", "vwc_pct": ".2f"})


@writer
def magnet_directions(out: Path) -> None:
    """Magnetic anisotropy energy against field direction (unit vectors): threefold about z and mirror-symmetric
    in x, 320 directions."""
    rng = np.random.default_rng(17119)
    n = 320
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    theta = np.arccos(np.clip(v[:, 2], -1, 1))
    phi = np.arctan2(v[:, 1], v[:, 0])
    e = 1.2 * np.cos(theta) ** 2 + 0.5 * np.sin(theta) ** 3 * np.cos(3 * phi) * np.cos(theta) \
        + rng.normal(0, 0.1, n)
    table(out / "anisotropy_field_dirs.csv", {"nx": v[:, 0], "ny": v[:, 1], "nz": v[:, 2], "e_anis_mev": e},
          {"nx": ".6f", "ny": ".6f", "nz": ".6f", "e_anis_mev": ".4f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def coop_loans(out: Path) -> None:
    """Fishing cooperatives' microloan applications: savings grow with annual catch; approval (approved) by a
    logistic rule in catch, fleet size and savings; rows 3, 8 and 15 are small cooperatives the rule declines."""
    rng = np.random.default_rng(17120)
    n = 80
    catch_t = rng.gamma(4, 10, n)
    fleet = rng.integers(2, 15, n)
    savings = 0.15 * catch_t + rng.normal(0, 2, n)
    for i, (c, f, v) in {3: (12.0, 3, 1.0), 8: (9.0, 4, 0.6), 15: (15.0, 2, 1.5)}.items():
        catch_t[i], fleet[i], savings[i] = c, f, v
    y = rng.binomial(1, expit(-4 + 0.05 * catch_t + 0.15 * fleet + 0.3 * savings))
    table(out / "coop_microloans.csv", {"coop": [f"CO{i:02d}" for i in range(n)], "annual_catch_t": catch_t,
                                        "fleet_size": fleet, "savings_kusd": savings, "approved": y},
          {"annual_catch_t": ".1f", "savings_kusd": ".2f"})


@writer
def telehealth(out: Path) -> None:
    """Post-surgery patients: telehealth follow-up (binary) with unseen motivation; recovery score 0 to 100.
    Three local connectivity measures shift uptake only."""
    rng = np.random.default_rng(17121)
    n = 600
    age = rng.uniform(30, 85, n)
    u = rng.normal(size=n)
    bb = rng.gamma(3, 15, n)
    tower = rng.gamma(2, 3, n)
    outage = rng.poisson(3, n)
    tele = rng.binomial(1, expit(0.03 * (bb - 45) - 0.15 * (tower - 6) - 0.2 * (outage - 3) + 0.6 * u
                                 - 0.02 * (age - 58)))
    rec = np.clip(60 + 8 * tele - 0.3 * (age - 58) + 6 * u + rng.normal(0, 8, n), 0, 100)
    table(out / "telehealth_followup.csv", {
        "patient": [f"T{i:04d}" for i in range(n)], "telehealth": tele, "age_yr": age, "broadband_mbps": bb,
        "tower_km": tower, "outage_days": outage, "recovery_0_100": rec},
        {"age_yr": ".0f", "broadband_mbps": ".1f", "tower_km": ".2f", "recovery_0_100": ".1f"})


@writer
def energy_arrears(out: Path) -> None:
    """Households: a model's predicted energy-bill arrears and the arrears realised a year later (R^2 about 0.3);
    high arrears are the worst-off."""
    rng = np.random.default_rng(17122)
    n = 1500
    latent = rng.normal(size=n)
    pred = 400 + 150 * latent
    real = np.clip(400 + 150 * latent + rng.normal(0, 230, n), 0, None)
    table(out / "arrears_predictions.csv", {"account": [f"A{i:05d}" for i in range(n)], "pred_arrears_gbp": pred,
                                            "arrears_gbp": real}, {"pred_arrears_gbp": ".0f", "arrears_gbp": ".0f"})


# ------------------------------------------------------------------------------------------------ lm

@writer
def minute_prompts(out: Path) -> None:
    """Durations written as hours and minutes with the total in minutes: '3h 07m' -> 187."""
    rng = np.random.default_rng(17123)
    h = rng.integers(0, 24, 900)
    m = rng.integers(0, 60, 900)
    table(out / "duration_to_minutes.csv", {"duration": [f"{a}h {b:02d}m" for a, b in zip(h, m, strict=True)],
                                            "minutes": 60 * h + m})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def aphid_doses(out: Path) -> None:
    """Aphids dead out of those exposed at six insecticide doses, four replicate leaf discs each (probit, LD50
    about 12 mg/L)."""
    rng = np.random.default_rng(17124)
    dose = np.repeat([1.5, 3, 6, 12, 24, 48], 4)
    p = expit(1.7 * 2.2 * (np.log10(dose) - np.log10(12)))
    n = rng.integers(18, 26, dose.size)
    table(out / "aphid_leaf_disc_bioassay.csv", {"dose_mg_l": dose, "exposed": n, "dead": rng.binomial(n, p)},
          {"dose_mg_l": ".1f"})


@writer
def quake_catalogue(out: Path) -> None:
    """A regional earthquake catalogue above magnitude 2.0 (Gutenberg-Richter b about 1.05), 640 events."""
    rng = np.random.default_rng(17125)
    n = 640
    mag = 2.0 + rng.exponential(1 / (1.05 * np.log(10)), n)
    t = np.sort(rng.uniform(0, 3650, n))
    table(out / "regional_quakes_m2plus.csv", {"day": t, "lat": rng.uniform(37.0, 38.5, n),
                                               "lon": rng.uniform(14.0, 15.8, n), "depth_km": rng.gamma(3, 4, n),
                                               "ml": mag}, {"day": ".3f", "lat": ".3f", "lon": ".3f",
                                                            "depth_km": ".1f", "ml": ".1f"})


@writer
def tram_boardings(out: Path) -> None:
    """Monthly tram boardings (thousands), January 2014 to December 2024: trend, a yearly season and a dip in
    2020."""
    rng = np.random.default_rng(17126)
    months = np.arange(132)
    level = 2100 + 6 * months + 180 * np.sin(2 * np.pi * (months - 2) / 12)
    level[(months >= 74) & (months < 90)] *= 0.55
    table(out / "tram_monthly_boardings.csv", {
        "month": [f"{2014 + m // 12}-{m % 12 + 1:02d}" for m in months],
        "boardings_k": level + rng.normal(0, 40, months.size)}, {"boardings_k": ".0f"})


@writer
def sleep_reaction(out: Path) -> None:
    """Reaction times of 20 volunteers over ten days of restricted sleep (a random intercept and slope each)."""
    rng = np.random.default_rng(17127)
    ids, days, rt = [], [], []
    for s in range(20):
        a = 250 + rng.normal(0, 25)
        b = 10 + rng.normal(0, 6)
        for d in range(10):
            ids.append(f"P{s:02d}")
            days.append(d)
            rt.append(a + b * d + rng.normal(0, 25))
    table(out / "restricted_sleep_rt.csv", {"subject": ids, "day": days, "mean_rt_ms": rt}, {"mean_rt_ms": ".1f"})


# ------------------------------------------------------------------------------------------------ asks

@writer
def ferry_sailings(out: Path) -> None:
    """Ferry sailings before and after online check-in (binary) with departure and arrival delay columns."""
    rng = np.random.default_rng(17128)
    n = 500
    wind = rng.gamma(3, 5, n)
    pax = rng.uniform(80, 900, n)
    online = rng.binomial(1, expit(0.002 * (pax - 500)))
    dep = np.clip(6 - 3 * online + 0.2 * (wind - 15) + 0.006 * (pax - 500) + rng.normal(0, 4, n), 0, None)
    arr = np.clip(dep + 0.3 * (wind - 15) + rng.normal(0, 3, n), 0, None)
    table(out / "ferry_sailings_2024.csv", {
        "sailing": [f"SL{i:04d}" for i in range(n)], "online_checkin": online, "wind_kn": wind, "passengers": pax,
        "dep_delay_min": dep, "arr_delay_min": arr},
        {"wind_kn": ".1f", "passengers": ".0f", "dep_delay_min": ".1f", "arr_delay_min": ".1f"})


@writer
def radio_survey(out: Path) -> None:
    """Radio listeners' survey with two design-weight columns (the original and a revised one) and census margins."""
    rng = np.random.default_rng(17129)
    n = 400
    age = rng.choice(AGES, n, p=[0.1, 0.3, 0.3, 0.3])
    region = rng.choice(["coast", "inland"], n, p=[0.6, 0.4])
    trust = ordered(rng, 0.3 * (age == "65+"), ["high", "medium", "low"], (-0.5, 0.5))
    table(out / "radio_listener_panel.csv", {
        "pid": np.arange(1, n + 1), "age_group": age, "region": region, "wt_design": rng.uniform(0.6, 1.8, n),
        "wt_design_rev": rng.uniform(0.5, 2.2, n), "q_trust_news": trust},
        {"wt_design": ".3f", "wt_design_rev": ".3f"})
    rows = [("age_group", a, s) for a, s in zip(AGES, (0.2, 0.32, 0.26, 0.22), strict=True)]
    rows += [("region", "coast", 0.45), ("region", "inland", 0.55)]
    table(out / "radio_census_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                             "share": [r[2] for r in rows]}, {"share": ".2f"})


@writer
def wafer_probe(out: Path) -> None:
    """Wafer probe summaries with two fail columns (at wafer probe and at final test) that disagree."""
    rng = np.random.default_rng(17130)
    n = 600
    bad = rng.random(n) < 0.05
    table(out / "wafer_probe_summary.csv", {
        "leakage_na": rng.gamma(2, 3, n) + 8 * bad, "vth_shift_mv": rng.normal(0, 5, n) + 9 * bad,
        "ring_osc_mhz": rng.normal(510, 12, n) - 15 * bad, "defect_density": rng.gamma(2, 0.05, n) + 0.2 * bad,
        "fail_probe": (bad & (rng.random(n) < 0.75)).astype(int),
        "fail_final": (bad & (rng.random(n) < 0.6) | (rng.random(n) < 0.015)).astype(int)},
        {"leakage_na": ".2f", "vth_shift_mv": ".2f", "ring_osc_mhz": ".1f", "defect_density": ".4f"})


@writer
def germination(out: Path) -> None:
    """Seed lots: germinated by day 7 and by day 14 (two label columns) against seed traits."""
    rng = np.random.default_rng(17131)
    n = 500
    mass = rng.normal(4.0, 0.8, n)
    moist = rng.uniform(6, 14, n)
    age = rng.uniform(0, 36, n)
    vig = 0.8 * (mass - 4) - 0.15 * (moist - 10) - 0.05 * (age - 18)
    d7 = rng.random(n) < expit(vig - 0.5)
    d14 = d7 | (rng.random(n) < expit(vig + 0.5))
    table(out / "seed_lot_germination.csv", {
        "seed_mass_mg": mass, "moisture_pct": moist, "storage_months": age, "germ_d7": d7.astype(int),
        "germ_d14": d14.astype(int)}, {"seed_mass_mg": ".2f", "moisture_pct": ".1f", "storage_months": ".0f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
