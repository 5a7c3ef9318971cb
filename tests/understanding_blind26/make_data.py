"""Write every data file of the twenty-sixth blind prose task set, deterministically.

``python tests/understanding_blind26/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
def diversion(out: Path) -> None:
    """Court cases: pre-trial diversion (binary) went to younger defendants with fewer prior arrests, lighter
    charges and a job; it lowers the probability of a re-arrest within twelve months by about 0.10."""
    rng = np.random.default_rng(26101)
    n = 500
    age = rng.uniform(18, 60, n)
    prior = rng.poisson(1.5, n)
    sev = rng.integers(1, 6, n)
    emp = rng.binomial(1, 0.55, n)
    div = rng.binomial(1, expit(0.8 - 0.03 * (age - 30) - 0.5 * prior - 0.4 * (sev - 3) + 0.6 * emp))
    p = np.clip(0.35 - 0.10 * div + 0.06 * prior + 0.03 * (sev - 3) - 0.004 * (age - 30) - 0.08 * emp, 0.02, 0.95)
    table(out / "diversion_docket_outcomes.csv", {
        "case_id": [f"DV-{i:04d}" for i in range(n)], "age": age, "prior_arrests": prior, "charge_severity": sev,
        "employed": emp, "diverted": div, "rearrest_12m": rng.binomial(1, p)}, {"age": ".0f"})


@writer
def exoskeleton(out: Path) -> None:
    """Warehouse pickers: weekly hours in a passive back exoskeleton (continuous) are higher for older, heavier,
    longer-serving staff; each hour lowers lost working days over the year by about 0.15."""
    rng = np.random.default_rng(26102)
    n = 420
    age = rng.uniform(19, 63, n)
    bmi = rng.normal(27, 4, n)
    night = rng.binomial(1, 0.35, n)
    tenure = rng.gamma(2, 2.5, n)
    hours = np.clip(8 + 0.15 * (age - 40) + 0.3 * (bmi - 27) + 0.5 * tenure + 3 * night + rng.normal(0, 4, n), 0, None)
    days = (6 - 0.15 * hours + 0.12 * (age - 40) + 0.25 * (bmi - 27) + 1.5 * night + 0.2 * tenure
            + rng.normal(0, 2, n))
    table(out / "picker_exosuit_hours.csv", {
        "picker": [f"WH{i:04d}" for i in range(n)], "age": age, "bmi": bmi, "night_shift": night,
        "tenure_y": tenure, "exo_hours_wk": hours, "lost_days": days},
        {"age": ".0f", "bmi": ".1f", "tenure_y": ".1f", "exo_hours_wk": ".1f", "lost_days": ".1f"})


HARD = ["Landlord already filed, tenant has no lease copy and is behind since spring.",
        "Serious disrepair dispute, tenant withheld rent, court date next week.",
        "Second notice this year, tenant lost job and cannot reach the landlord.",
        "Eviction hearing scheduled, tenant reports harassment and lock changes."]
EASY = ["Tenant wants advice on a late fee, landlord open to a payment plan.",
        "Question about deposit return, no notice served yet.",
        "Tenant one month behind, landlord has agreed to wait.",
        "General question about a lease renewal clause."]


@writer
def legal_aid(out: Path) -> None:
    """Tenants at a legal-aid intake: representation (binary) went mostly to hard cases, whose difficulty shows
    only in the intake note (text); hard cases are evicted more often and representation lowers the eviction
    probability by about 0.15."""
    rng = np.random.default_rng(26103)
    n = 300
    hard = rng.random(n) < 0.45
    arrears = rng.gamma(2, 900, n)
    hh = rng.integers(1, 7, n)
    rep = rng.binomial(1, expit(-0.7 + 1.8 * hard))
    p = np.clip(0.25 - 0.15 * rep + 0.3 * hard + 0.00004 * (arrears - 1800), 0.02, 0.97)
    notes = [HARD[rng.integers(0, 4)] if h else EASY[rng.integers(0, 4)] for h in hard]
    table(out / "tenant_intake_register.csv", {
        "file_no": [f"LA{i:05d}" for i in range(n)], "arrears_usd": arrears, "household_size": hh,
        "intake_note": notes, "represented": rep, "evicted": rng.binomial(1, p)}, {"arrears_usd": ".0f"})


# ------------------------------------------------------------------------------------------------ surveys

PLATFORM = ["pc", "console", "mobile"]
AGEG = ["13_17", "18_29", "30_up"]
BAN = ["ban", "regulate", "leave"]
RATING = ["raise", "keep", "lower"]


@writer
def esports_poll(out: Path) -> None:
    """Players asked about loot boxes and age ratings; PC players over-respond; margins of platform and age group;
    a language model answering as a player of each platform (answer shares with a subgroup column)."""
    rng = np.random.default_rng(26104)
    n = 600
    plat = rng.choice(PLATFORM, n, p=[0.55, 0.3, 0.15])
    age = rng.choice(AGEG, n, p=[0.25, 0.5, 0.25])
    s1 = 0.6 * (age == "30_up") - 0.4 * (plat == "mobile")
    s2 = 0.5 * (age == "30_up") - 0.3 * (age == "13_17")
    table(out / "esports_player_poll.csv", {
        "player_id": [f"GX{i:04d}" for i in range(n)], "platform": plat, "age_group": age,
        "q_lootbox": ordered(rng, s1, BAN, (-0.4, 0.5)), "q_rating": ordered(rng, s2, RATING, (-0.3, 0.8))})
    table(out / "gamer_population_margins.csv", {
        "variable": ["platform"] * 3 + ["age_group"] * 3, "level": PLATFORM + AGEG,
        "share": [0.30, 0.25, 0.45, 0.20, 0.45, 0.35]}, {"share": ".2f"})
    rows = {"question": [], "answer": [], "share": [], "subgroup": []}
    for k, plat_name in enumerate(PLATFORM):
        for q, levels, base in (("q_lootbox", BAN, [0.3, 0.5, 0.2]), ("q_rating", RATING, [0.25, 0.55, 0.2])):
            sh = np.array(base) + np.array([0.05 * k, -0.03 * k, -0.02 * k])
            for lv, s in zip(levels, sh / sh.sum(), strict=True):
                rows["question"].append(q)
                rows["answer"].append(lv)
                rows["share"].append(s)
                rows["subgroup"].append(plat_name)
    table(out / "lootbox_persona_answers.csv", rows, {"share": ".3f"})


STAGE = ["early", "mid", "senior"]
MEDIUM = ["print", "broadcast", "digital"]
AI = ["welcome", "wary", "oppose"]
PAY = ["strike", "negotiate", "accept"]


@writer
def union_rounds(out: Path) -> None:
    """A journalists' union asked its members twice (rounds 2023 and 2025) about newsroom AI tools and a pay
    offer; digital and early-career members over-respond; the AI item repeated a fortnight later in the same
    round (a retest); the roster's margins of career stage and medium."""
    rng = np.random.default_rng(26105)
    n = 700
    rnd = np.where(np.arange(n) < 330, "2023", "2025")
    stage = rng.choice(STAGE, n, p=[0.45, 0.35, 0.2])
    med = rng.choice(MEDIUM, n, p=[0.25, 0.2, 0.55])
    s1 = -0.5 * (rnd == "2025") + 0.4 * (med == "digital") - 0.3 * (stage == "senior")
    ai = ordered(rng, s1, AI, (-0.2, 0.7))
    retest = [a if rng.random() < 0.8 else AI[rng.integers(0, 3)] for a in ai]
    table(out / "union_member_rounds.csv", {
        "member": [f"NUJ{i:04d}" for i in range(n)], "round": rnd, "career_stage": stage, "medium": med,
        "q_ai_tools": ai, "q_ai_tools_retest": retest,
        "q_pay_offer": ordered(rng, 0.4 * (stage == "early"), PAY, (-0.1, 0.9))})
    table(out / "union_roster_margins.csv", {
        "variable": ["career_stage"] * 3 + ["medium"] * 3, "level": STAGE + MEDIUM,
        "share": [0.30, 0.40, 0.30, 0.40, 0.25, 0.35]}, {"share": ".2f"})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def wafer_probe(out: Path) -> None:
    """Wafer-probe readings of dies (five parametric tests); about 5% are latent defects with high leakage and
    slow rise times; an engineer confirmed 14 defects (1) and 60 good dies (0), every other row blank."""
    rng = np.random.default_rng(26106)
    n = 900
    bad = rng.random(n) < 0.05
    vth = rng.normal(0.45, 0.02, n) - 0.03 * bad
    leak = rng.lognormal(0, 0.3, n) * (1 + 3 * bad)
    ron = rng.normal(120, 6, n) + 12 * bad * rng.random(n)
    rise = rng.normal(35, 2, n) + 6 * bad
    cap = rng.normal(2.2, 0.1, n)
    lab = np.full(n, "", dtype=object)
    lab[rng.choice(np.flatnonzero(bad), 14, replace=False)] = "1"
    lab[rng.choice(np.flatnonzero(~bad), 60, replace=False)] = "0"
    table(out / "probe_card_die_tests.csv", {
        "vth_v": vth, "leak_na": leak, "ron_mohm": ron, "rise_ps": rise, "cap_pf": cap, "confirmed": list(lab)},
        {"vth_v": ".4f", "leak_na": ".3f", "ron_mohm": ".1f", "rise_ps": ".2f", "cap_pf": ".3f"})


@writer
def reaction_wheel(out: Path) -> None:
    """Reaction-wheel telemetry windows of a small satellite: eight features; about 5% precede a bearing
    anomaly (y = 1). Arrays X, y."""
    rng = np.random.default_rng(26107)
    n = 1000
    y = (rng.random(n) < 0.05).astype(np.int64)
    x = rng.normal(0, 1, (n, 8))
    x[y == 1] += rng.normal(0, 0.8, (int(y.sum()), 8)) + np.array([1.5, 0, 0, 1.1, 0, -0.9, 0, 0.7])
    npz(out / "wheel_telemetry_windows.npz", {"X": npy_bytes(x), "y": npy_bytes(y, "<i8")})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def pollen(out: Path) -> None:
    """Pollen grains measured under the microscope (five morphometric features); pine (1) against everything
    else (0), close to linearly separable with overlap."""
    rng = np.random.default_rng(26108)
    n = 520
    pine = rng.random(n) < 0.4
    polar = rng.normal(45, 6, n) + 12 * pine
    equat = rng.normal(38, 5, n) + 8 * pine
    exine = rng.normal(1.8, 0.3, n) + 0.4 * pine
    pores = rng.poisson(3, n) * (1 - pine)
    sac = rng.normal(0.2, 0.1, n) + 0.5 * pine
    table(out / "core_pollen_morphometry.csv", {
        "polar_um": polar, "equatorial_um": equat, "exine_um": exine, "pore_count": pores, "sac_ratio": sac,
        "is_pinus": pine}, {"polar_um": ".1f", "equatorial_um": ".1f", "exine_um": ".2f", "sac_ratio": ".3f"})


@writer
def sorting_line(out: Path) -> None:
    """Fruit on a sorting line (size, colour, blemish, firmness) with two label columns: passing the domestic
    grade and passing the stricter export grade."""
    rng = np.random.default_rng(26109)
    n = 400
    size = rng.normal(72, 6, n)
    hue = rng.uniform(0, 1, n)
    blem = rng.gamma(1.5, 2, n)
    firm = rng.normal(7, 1, n)
    score = 0.1 * (size - 72) + 2 * (hue - 0.5) - 0.3 * blem + 0.5 * (firm - 7)
    table(out / "packhouse_sorter_log.csv", {
        "diameter_mm": size, "blush_frac": hue, "blemish_mm2": blem, "firmness_kgf": firm,
        "grade_ok": (score > -1).astype(int), "export_ok": (score > 0.5).astype(int)},
        {"diameter_mm": ".1f", "blush_frac": ".3f", "blemish_mm2": ".2f", "firmness_kgf": ".2f"})


@writer
def dropout(out: Path) -> None:
    """University students: withdrawal in the first year (withdrew 1) driven by first-term credits and
    attendance; first-generation status matters only through them (correlated)."""
    rng = np.random.default_rng(26110)
    n = 600
    first = rng.binomial(1, 0.3, n)
    credits = np.clip(rng.normal(27, 5, n) - 3 * first, 0, 40)
    attend = np.clip(rng.normal(0.82, 0.1, n) - 0.05 * first, 0, 1)
    commute = rng.gamma(2, 12, n)
    aid = rng.binomial(1, 0.4 + 0.2 * first)
    p = expit(-1.5 - 0.15 * (credits - 27) - 6 * (attend - 0.82) + 0.01 * (commute - 24))
    table(out / "first_year_withdrawals.csv", {
        "first_gen": first, "term1_credits": credits, "attendance": attend, "commute_min": commute,
        "need_aid": aid, "withdrew": rng.binomial(1, p)},
        {"term1_credits": ".0f", "attendance": ".3f", "commute_min": ".0f"})


@writer
def rideshare(out: Path) -> None:
    """Ride requests: cancelled (1) rises with wait time, rain and cold; several weather columns."""
    rng = np.random.default_rng(26111)
    n = 600
    wait = rng.gamma(3, 2.5, n)
    rain = rng.gamma(0.6, 2.0, n)
    temp = rng.normal(12, 7, n)
    wind = rng.gamma(2, 8, n)
    surge = rng.choice([1.0, 1.2, 1.5, 2.0], n)
    p = expit(-2 + 0.2 * (wait - 7.5) + 0.15 * rain - 0.03 * (temp - 12) + 0.4 * (surge - 1.3))
    table(out / "ride_request_outcomes.csv", {
        "wait_min": wait, "rain_mm": rain, "temp_c": temp, "wind_kph": wind, "surge": surge,
        "cancelled": rng.binomial(1, p)}, {"wait_min": ".1f", "rain_mm": ".1f", "temp_c": ".1f", "wind_kph": ".0f"})


# ------------------------------------------------------------------------------------------------ chains

@writer
def varve_chain(out: Path) -> None:
    """A weighted age-depth chain of a varved lake core (GetDist-style: weight, minus log posterior, then the
    sedimentation rate, the surface age offset and a hiatus length), already burned in and thinned."""
    rng = np.random.default_rng(26112)
    centre = np.array([1.42, -0.35, 180.0])
    sd = np.array([0.05, 0.12, 25.0])
    x = ar_chain(rng, 2000, centre, sd, centre, 1.0, rho=0.3)
    w = rng.integers(1, 5, 2000)
    mlp = 150 + 0.5 * (((x - centre) / sd) ** 2).sum(1)
    (out / "varve_agedepth_chain.txt").write_text(
        "# weight minuslogpost sed_rate_mm_yr age_offset_kyr hiatus_yr\n"
        + "".join(f"{wi} {m:.3f} {r[0]:.5f} {r[1]:.5f} {r[2]:.3f}\n" for wi, m, r in zip(w, mlp, x, strict=True)))


@writer
def enzyme_chains(out: Path) -> None:
    """Two chains of a Michaelis-Menten fit (Vmax, Km, noise sigma), 3,000 rows each, gzipped, each with a long
    settling at the start (about 120 rows) from different ends."""
    rng = np.random.default_rng(26113)
    centre = np.array([8.4, 2.1, 0.31])
    sd = np.array([0.25, 0.15, 0.03])
    for tag, start in (("1", [12.0, 4.0, 0.8]), ("2", [5.0, 0.5, 0.1])):
        x = ar_chain(rng, 3000, centre, sd, np.array(start), 120.0, rho=0.5)
        gzip_text(out / f"kinetics_mm_chain{tag}.txt.gz",
                  "# Vmax Km sigma\n" + "".join(f"{r[0]:.4f} {r[1]:.4f} {r[2]:.4f}\n" for r in x))


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def capstone_moduli(out: Path) -> None:
    """130 distance moduli of a flat wCDM mock (Omega_m 0.30, w -0.88) out to z 1.3, each with an object code."""
    rng = np.random.default_rng(26114)
    n = 130
    z = np.sort(rng.uniform(0.02, 1.3, n))
    err = rng.uniform(0.06, 0.12, n)
    table(out / "capstone_wcdm_moduli.csv", {
        "obj": [f"CAP-{i:03d}" for i in range(n)], "z": z,
        "mu": distance_modulus(z, 0.30, w0=-0.88) + rng.normal(0, err), "mu_err": err},
        {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def binned_cpl(out: Path) -> None:
    """40 binned distance moduli of a flat CPL mock (Omega_m 0.315, w0 -0.9, wa -0.3) with a full covariance
    (diagonal errors plus a redshift-correlated floor)."""
    rng = np.random.default_rng(26115)
    z = np.linspace(0.03, 1.9, 40)
    err = np.full(40, 0.015) + 0.01 * z
    cov = correlated_cov(z, err, 0.01, 0.4)
    mu = distance_modulus(z, 0.315, w0=-0.9, wa=-0.3) + np.linalg.cholesky(cov) @ rng.normal(0, 1, 40)
    table(out / "cpl_binned_moduli.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".4f"})
    write_covariance(out / "cpl_binned_moduli_cov.txt", cov)


@writer
def ladder_h0(out: Path) -> None:
    """110 distance moduli of a flat LCDM (Omega_m 0.30) with H0 = 73 out to z 0.8."""
    rng = np.random.default_rng(26116)
    n = 110
    z = np.sort(rng.uniform(0.012, 0.8, n))
    err = rng.uniform(0.1, 0.16, n)
    table(out / "hubble_flow_moduli.csv", {
        "z": z, "mu": distance_modulus(z, 0.30, h0=73.0) + rng.normal(0, err), "mu_err": err},
        {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def joint_compilation(out: Path) -> None:
    """150 distance moduli of a flat wCDM (Omega_m 0.31, w -1.0) out to z 1.5 for a joint fit with the CMB."""
    rng = np.random.default_rng(26131)
    n = 150
    z = np.sort(rng.uniform(0.015, 1.5, n))
    err = rng.uniform(0.08, 0.15, n)
    table(out / "lowz_highz_compilation.csv", {
        "z": z, "mu": distance_modulus(z, 0.31) + rng.normal(0, err), "mu_err": err},
        {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def two_fitters(out: Path) -> None:
    """90 supernovae with distance moduli from two light-curve fitters (SALT-like and BayeSN-like columns) that
    differ by a redshift-dependent offset."""
    rng = np.random.default_rng(26117)
    n = 90
    z = np.sort(rng.uniform(0.02, 1.0, n))
    err = rng.uniform(0.08, 0.14, n)
    mu = distance_modulus(z, 0.31) + rng.normal(0, err)
    table(out / "sn_dual_fitter_moduli.csv", {
        "sn": [f"DES{i:04d}" for i in range(n)], "z": z, "mu_salt": mu, "mu_salt_err": err,
        "mu_bayesn": mu + 0.04 * z + rng.normal(0, 0.03, n), "mu_bayesn_err": err * 0.9},
        {"z": ".4f", "mu_salt": ".4f", "mu_salt_err": ".3f", "mu_bayesn": ".4f", "mu_bayesn_err": ".3f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def chytrid(out: Path) -> None:
    """Frog skin swabs: chytrid infection (0/1) more likely in cool water, at altitude and at low pH; a swab code
    and a site name per row."""
    rng = np.random.default_rng(26118)
    n = 160
    temp = rng.uniform(8, 26, n)
    elev = rng.uniform(200, 2200, n)
    ph = rng.normal(6.8, 0.5, n)
    inf = rng.binomial(1, expit(-0.15 * (temp - 17) + 0.0012 * (elev - 1200) - 0.8 * (ph - 6.8)))
    table(out / "frog_swab_results.csv", {
        "swab": [f"SW{i:03d}" for i in range(n)], "site": rng.choice(["creek_a", "tarn_b", "bog_c", "pond_d"], n),
        "water_temp_c": temp, "elevation_m": elev, "ph": ph, "infected": inf},
        {"water_temp_c": ".1f", "elevation_m": ".0f", "ph": ".2f"})


@writer
def lettuce(out: Path) -> None:
    """36 hydroponic rafts: lettuce head mass against the 180 g target (g), linear in nutrient conductivity, pH and
    light, noise sd 15 g."""
    rng = np.random.default_rng(26119)
    n = 36
    ec = rng.uniform(0.8, 2.4, n)
    ph = rng.uniform(5.5, 6.8, n)
    par = rng.uniform(150, 450, n)
    mass = 40 * (ec - 1.6) - 25 * (ph - 6.1) + 0.3 * (par - 300) + rng.normal(0, 15, n)
    table(out / "raft_lettuce_harvest.csv", {
        "raft": [f"R{i:02d}" for i in range(n)], "ec_ms_cm": ec, "ph": ph, "par_umol": par, "vs_target_g": mass},
        {"ec_ms_cm": ".2f", "ph": ".2f", "par_umol": ".0f", "vs_target_g": ".1f"})


@writer
def espresso(out: Path) -> None:
    """70 espresso shots: extraction yield (%) smooth in grind size and dose; water temperature barely matters."""
    rng = np.random.default_rng(26120)
    n = 70
    grind = rng.uniform(200, 450, n)
    dose = rng.uniform(16, 21, n)
    temp = rng.uniform(90, 95, n)
    ey = 20 + 2.5 * np.sin((grind - 200) / 60) - 0.6 * (dose - 18.5) + 0.05 * (temp - 92.5) + rng.normal(0, 0.3, n)
    table(out / "espresso_dialin_shots.csv", {
        "shot": [f"S{i:03d}" for i in range(n)], "grind_um": grind, "dose_g": dose, "water_c": temp,
        "extraction_pct": ey}, {"grind_um": ".0f", "dose_g": ".1f", "water_c": ".1f", "extraction_pct": ".2f"})


@writer
def grain_anisotropy(out: Path) -> None:
    """600 magnetisation directions (unit vectors) of single-domain grains and an anisotropy energy unchanged by
    a half turn about the x axis and about the z axis."""
    rng = np.random.default_rng(26121)
    n = 600
    v = rng.normal(0, 1, (n, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    x, y, z = v[:, 0], v[:, 1], v[:, 2]
    e = (x ** 2 * y ** 2 + 0.6 * z ** 4 + 1.5 * x * y * z + 0.3 * z ** 2 + 4 * x * y * z * (x ** 2 - y ** 2)
         + 3 * x ** 6 + rng.normal(0, 0.01, n))
    table(out / "grain_moment_energies.csv", {
        "grain": [f"G{i:04d}" for i in range(n)], "mx": v[:, 0], "my": v[:, 1], "mz": v[:, 2], "e_aniso": e},
        {"mx": ".9f", "my": ".9f", "mz": ".9f", "e_aniso": ".5f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def permits(out: Path) -> None:
    """Building permit applications: lot area drives floor area, which drives height; approved (1) by a rule on
    floor-area ratio and height; an application number per row."""
    rng = np.random.default_rng(26122)
    n = 150
    lot = rng.gamma(6, 80, n)
    floor = 0.5 * lot + rng.normal(0, 40, n)
    height = 4 + 0.012 * floor + rng.normal(0, 1.2, n)
    ok = (-0.004 * (floor - 0.5 * lot) - 0.5 * (height - 9.5) + rng.normal(0, 0.4, n) > 0).astype(int)
    table(out / "permit_applications.csv", {
        "app_no": [f"BP-{2300 + i}" for i in range(n)], "lot_area_m2": lot, "floor_area_m2": floor,
        "height_m": height, "approved": ok}, {"lot_area_m2": ".0f", "floor_area_m2": ".0f", "height_m": ".2f"})


@writer
def tutoring(out: Path) -> None:
    """Pupils: small-group tutoring uptake (binary) driven by six travel-time features to the tutoring hubs (the
    instrument array, one row per pupil) and unobserved motivation; the end-of-year score (0 to 100) rises with
    tutoring, more for pupils with low prior scores."""
    rng = np.random.default_rng(26123)
    n = 600
    prior = rng.uniform(20, 90, n)
    fsm = rng.binomial(1, 0.3, n)
    travel = rng.normal(0, 1, (n, 6))
    motiv = rng.normal(0, 1, n)
    tut = rng.binomial(1, expit(-1.2 * travel[:, 0] - 0.8 * travel[:, 2] + 0.6 * motiv))
    score = np.clip(prior + (12 - 0.1 * (prior - 20)) * tut + 5 * motiv - 3 * fsm + rng.normal(0, 6, n), 0, 100)
    table(out / "tutoring_pupil_scores.csv", {
        "pupil": [f"PU{i:04d}" for i in range(n)], "prior_score": prior, "fsm": fsm, "tutored": tut,
        "eoy_score": score}, {"prior_score": ".0f", "eoy_score": ".0f"})
    array(out / "hub_travel_features.npy", travel)


@writer
def housing(out: Path) -> None:
    """Households in a prevention programme: a model's predicted housing-stability index and the index a year
    later (low is worse), R squared about 0.3."""
    rng = np.random.default_rng(26124)
    n = 2500
    truth = rng.normal(50, 12, n)
    pred = 50 + 0.55 * (truth - 50) + rng.normal(0, 8, n)
    table(out / "stability_index_followup.csv", {
        "household": [f"HH{i:05d}" for i in range(n)], "pred_index": pred, "index_12m": truth},
        {"pred_index": ".1f", "index_12m": ".1f"})


# ------------------------------------------------------------------------------------------------ lm

@writer
def folk_tales(out: Path) -> None:
    """A plain-text haystack of templated folk-tale sentences (about 3,000 words)."""
    rng = np.random.default_rng(26125)
    who = ["the miller's daughter", "a one-eyed crow", "the tinker", "an old ferryman", "the youngest goat",
           "a fox in a red coat"]
    did = ["walked three days", "bargained with the wind", "hid the silver key", "sang to the well",
           "counted the stars twice"]
    where = ["beyond the birch wood", "under the salt bridge", "at the edge of the marsh", "in the king's barn",
             "on the cold hill"]
    lines = []
    while sum(len(s.split()) for s in lines) < 3000:
        lines.append(f"Long ago {who[rng.integers(0, 6)]} {did[rng.integers(0, 5)]} {where[rng.integers(0, 5)]}, "
                     f"and nobody spoke of it for {int(rng.integers(2, 60))} winters.")
    (out / "village_folk_tales.txt").write_text("\n".join(" ".join(lines[i:i + 5]) for i in range(0, len(lines), 5))
                                                + "\n")


# ------------------------------------------------------------------------------------------------ near misses

@writer
def bike_lanes(out: Path) -> None:
    """Daily cyclist counts on 24 streets, bike lanes opened in three waves (staggered adoption)."""
    rng = np.random.default_rng(26126)
    rows = {"street": [], "month": [], "lane_open_month": [], "cyclists": []}
    for s in range(24):
        opened = [6, 12, 18, 0][s % 4]
        for m in range(1, 25):
            rows["street"].append(f"ST{s:02d}")
            rows["month"].append(m)
            rows["lane_open_month"].append(opened)
            rows["cyclists"].append(int(rng.poisson(200 + 5 * s + 2 * m + (60 if opened and m >= opened else 0))))
    table(out / "street_cyclist_counts.csv", rows)


@writer
def galaxy_field(out: Path) -> None:
    """Positions (RA, Dec in degrees) of galaxies in a small field, clustered, and a random catalogue."""
    rng = np.random.default_rng(26127)
    centres = rng.uniform([150, 1.5], [151, 2.5], (40, 2))
    gal = np.vstack([c + rng.normal(0, 0.02, (15, 2)) for c in centres] + [rng.uniform([150, 1.5], [151, 2.5],
                                                                                      (400, 2))])
    table(out / "cosmos_patch_galaxies.csv", {"ra": gal[:, 0], "dec": gal[:, 1]}, {"ra": ".5f", "dec": ".5f"})
    ran = rng.uniform([150, 1.5], [151, 2.5], (2000, 2))
    table(out / "cosmos_patch_randoms.csv", {"ra": ran[:, 0], "dec": ran[:, 1]}, {"ra": ".5f", "dec": ".5f"})


@writer
def exam_items(out: Path) -> None:
    """Right/wrong answers of 300 candidates to 20 exam items (a two-parameter logistic response model)."""
    rng = np.random.default_rng(26128)
    theta = rng.normal(0, 1, 300)
    a = rng.uniform(0.6, 2.0, 20)
    b = rng.normal(0, 1, 20)
    resp = rng.random((300, 20)) < expit(a * (theta[:, None] - b))
    cols = {"candidate": [f"C{i:03d}" for i in range(300)]}
    cols.update({f"item{j + 1:02d}": resp[:, j] for j in range(20)})
    table(out / "entrance_exam_answers.csv", cols)


@writer
def river_gauge(out: Path) -> None:
    """Hourly river stage (m) at a gauge over 60 days, with two level shifts (a weir change and a channel
    shift)."""
    rng = np.random.default_rng(26129)
    n = 1440
    stage = 1.2 + 0.25 * (np.arange(n) > 500) - 0.4 * (np.arange(n) > 1100) + np.cumsum(rng.normal(0, 0.004, n))
    table(out / "gauge_stage_hourly.csv", {"hour": np.arange(n), "stage_m": stage + rng.normal(0, 0.02, n)},
          {"stage_m": ".3f"})


# ------------------------------------------------------------------------------------------------ asks

@writer
def loyalty(out: Path) -> None:
    """Shoppers: installing the loyalty app (binary) and spending in the following 30 and 180 days, with age and
    past spend as covariates."""
    rng = np.random.default_rng(26130)
    n = 500
    age = rng.uniform(18, 75, n)
    past = rng.gamma(3, 40, n)
    app = rng.binomial(1, expit(-0.02 * (age - 40) + 0.005 * (past - 120)))
    s30 = past / 4 + 8 * app + rng.normal(0, 10, n)
    table(out / "shopper_app_spend.csv", {
        "shopper": [f"LY{i:05d}" for i in range(n)], "age": age, "past_spend": past, "app_installed": app,
        "spend_30d": s30, "spend_180d": 5 * s30 + 10 * app + rng.normal(0, 30, n)},
        {"age": ".0f", "past_spend": ".1f", "spend_30d": ".2f", "spend_180d": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
