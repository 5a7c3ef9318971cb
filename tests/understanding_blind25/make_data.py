"""Write every data file of the twenty-fifth blind prose task set, deterministically.

``python tests/understanding_blind25/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
def prescribed_burns(out: Path) -> None:
    """Forest units: a prescribed burn (binary) went to gentle, low-lying units with heavy fuel loads; it lowers
    the severity (dNBR) of the later wildfire by about 120."""
    rng = np.random.default_rng(25101)
    n = 400
    slope = rng.uniform(0, 35, n)
    elev = rng.uniform(300, 1800, n)
    fuel = rng.gamma(5, 6, n)
    since = rng.integers(2, 60, n)
    burn = rng.binomial(1, expit(-0.06 * (slope - 17) - 0.0015 * (elev - 1000) + 0.04 * (fuel - 30)))
    dnbr = (450 - 120 * burn + 6 * (slope - 17) + 0.08 * (elev - 1000) + 5 * (fuel - 30) + 1.5 * (since - 30)
            + rng.normal(0, 60, n))
    table(out / "burn_units_severity.csv", {
        "unit": [f"FU-{i:04d}" for i in range(n)], "slope_deg": slope, "elevation_m": elev,
        "fuel_load_t_ha": fuel, "years_since_fire": since, "prescribed_burn": burn, "dnbr": dnbr},
        {"slope_deg": ".1f", "elevation_m": ".0f", "fuel_load_t_ha": ".1f", "dnbr": ".0f"})


@writer
def street_canopy(out: Path) -> None:
    """Census tracts: tree canopy cover (per cent, continuous) is higher in leafy, less sealed, less dense tracts;
    each percentage point lowers the summer land-surface temperature by about 0.09 degrees C."""
    rng = np.random.default_rng(25102)
    n = 350
    imperv = rng.uniform(20, 90, n)
    dens = rng.gamma(3, 2500, n)
    water = rng.uniform(0.1, 8, n)
    canopy = np.clip(45 - 0.4 * (imperv - 55) - 0.0008 * (dens - 7500) + rng.normal(0, 7, n), 1, None)
    lst = (36 - 0.09 * canopy + 0.08 * (imperv - 55) + 0.00015 * (dens - 7500) + 0.3 * (water - 4)
           + rng.normal(0, 0.8, n))
    table(out / "tract_canopy_surface_temp.csv", {
        "tract": [f"T{i:05d}" for i in range(n)], "imperv_pct": imperv, "pop_density": dens,
        "dist_water_km": water, "canopy_pct": canopy, "lst_c": lst},
        {"imperv_pct": ".1f", "pop_density": ".0f", "dist_water_km": ".2f", "canopy_pct": ".1f", "lst_c": ".2f"})


ANGRY = ["Guest furious about the noise from the bar until 2am.", "Very angry: room not cleaned for three days.",
         "Shouted at reception over a double charge.", "Threatened a bad review after the lift broke."]
MILD = ["Mentioned the shower was a bit slow to warm.", "Asked for extra pillows, otherwise happy.",
        "Said breakfast ran out of croissants.", "Quiet stay, one remark about the wifi."]


@writer
def hotel_callbacks(out: Path) -> None:
    """Hotel complaints: a manager's call-back (binary) went mostly to angry guests, whose anger shows only in the
    desk note (text); angry guests rebook less, and the call-back raises the rebooking probability by about
    0.12."""
    rng = np.random.default_rng(25103)
    n = 300
    angry = rng.random(n) < 0.4
    nights = rng.integers(1, 8, n)
    spend = rng.gamma(4, 80, n) * nights / 3
    call = rng.binomial(1, expit(-0.8 + 2.0 * angry))
    rebook = rng.binomial(1, np.clip(0.45 + 0.12 * call - 0.3 * angry + 0.01 * (nights - 4), 0.02, 0.98))
    notes = [ANGRY[rng.integers(0, 4)] if a else MILD[rng.integers(0, 4)] for a in angry]
    table(out / "front_desk_complaints.csv", {
        "stay": [f"H{i:04d}" for i in range(n)], "nights": nights, "spend_eur": spend, "note": notes,
        "callback": call, "rebooked": rebook}, {"spend_eur": ".0f"})


@writer
def solar_subsidy(out: Path) -> None:
    """Villages: a solar home-system subsidy (binary) reached poorer villages, whose poverty shows only in
    satellite-tile embeddings (an .npz with one array ``emb``, 16 columns); it lowers monthly kerosene spending by
    about 2.0."""
    rng = np.random.default_rng(25104)
    n = 300
    poor = rng.normal(0, 1, n)
    hh = rng.normal(5.5, 1.2, n)
    market = rng.gamma(3, 4, n)
    sub = rng.binomial(1, expit(1.2 * poor + 0.03 * (market - 12)))
    spend = 9 - 2.0 * sub - 1.6 * poor + 0.6 * (hh - 5.5) + 0.05 * (market - 12) + rng.normal(0, 0.9, n)
    emb = np.outer(poor, rng.normal(0, 1, 16)) + rng.normal(0, 0.5, (n, 16))
    table(out / "village_kerosene_survey.csv", {
        "village": [f"V-{i:03d}" for i in range(n)], "hh_size": hh, "dist_market_km": market,
        "subsidy": sub, "kerosene_usd": spend}, {"hh_size": ".1f", "dist_market_km": ".1f", "kerosene_usd": ".2f"})
    npz(out / "village_tile_vectors.npz", {"emb": npy_bytes(emb)})


# ------------------------------------------------------------------------------------------------ surveys

AGE = ["16_34", "35_59", "60_plus"]
RES = ["local", "domestic", "overseas"]
EBIKE = ["allow", "unsure", "ban"]
FEE = ["raise", "keep", "cut"]


@writer
def park_visitors(out: Path) -> None:
    """National-park visitors asked about e-bikes on trails and the entrance fee, with intercept design weights;
    older and local visitors over-respond; margins for age group and residence; a language model's sampled
    answers, one row per draw (no share column)."""
    rng = np.random.default_rng(25105)
    n = 640
    age = rng.choice(AGE, n, p=[0.2, 0.4, 0.4])
    res = rng.choice(RES, n, p=[0.5, 0.35, 0.15])
    s1 = 0.7 * (age == "16_34") - 0.5 * (res == "local")
    s2 = -0.6 * (res == "local") + 0.5 * (res == "overseas")
    table(out / "park_intercept_survey.csv", {
        "resp_code": [f"NP{i:04d}" for i in range(n)], "dw": rng.uniform(0.6, 1.8, n), "age_group": age,
        "residence": res, "q_ebikes": ordered(rng, s1, EBIKE, (-0.3, 0.6)), "q_fee": ordered(rng, s2, FEE, (-0.2, 0.9))},
        {"dw": ".3f"})
    table(out / "park_visitor_margins.csv", {
        "variable": ["age_group"] * 3 + ["residence"] * 3, "level": AGE + RES,
        "share": [0.38, 0.42, 0.20, 0.30, 0.45, 0.25]}, {"share": ".2f"})
    q = ["q_ebikes"] * 60 + ["q_fee"] * 60
    a = list(rng.choice(EBIKE, 60, p=[0.5, 0.3, 0.2])) + list(rng.choice(FEE, 60, p=[0.2, 0.5, 0.3]))
    table(out / "llm_ranger_draws.csv", {"question": q, "answer": a})


TENURE = ["owner", "private_rent", "social_rent"]
AGEB = ["18_39", "40_64", "65_up"]
SUPPORT = ["support", "neutral", "oppose"]
GRANT = ["yes", "depends", "no"]


@writer
def heat_pump_ballot(out: Path) -> None:
    """A town's residents' panel on heat pumps, two questionnaire forms (A neutral, B mentioning the grant): form
    B raises support; owners over-respond; a reference sample of residents (tenure, age band; no weights)."""
    rng = np.random.default_rng(25106)
    n = 560
    ten = rng.choice(TENURE, n, p=[0.65, 0.2, 0.15])
    age = rng.choice(AGEB, n, p=[0.2, 0.4, 0.4])
    form = rng.choice(["A", "B"], n)
    s1 = 0.6 * (form == "B") + 0.3 * (ten == "owner") - 0.4 * (age == "65_up")
    s2 = 0.5 * (ten != "owner")
    table(out / "heatpump_panel_forms.csv", {
        "panel_id": [f"HP-{i:04d}" for i in range(n)], "form": form, "tenure": ten, "age_band": age,
        "q_support": ordered(rng, s1, SUPPORT, (-0.3, 0.5)), "q_grant": ordered(rng, s2, GRANT, (-0.4, 0.7))})
    m = 1000
    table(out / "town_resident_sample.csv", {
        "tenure": rng.choice(TENURE, m, p=[0.5, 0.3, 0.2]), "age_band": rng.choice(AGEB, m, p=[0.35, 0.4, 0.25])})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def transformer_gases(out: Path) -> None:
    """Dissolved-gas analysis of power transformers: seven gas concentrations (ppm); about 6% are incipient faults
    (fault 1), with raised hydrogen, acetylene and ethylene."""
    rng = np.random.default_rng(25107)
    n = 900
    bad = rng.random(n) < 0.06
    table(out / "substation_dga_samples.csv", {
        "h2": rng.gamma(3, 15, n) + 120 * bad * rng.random(n), "ch4": rng.gamma(3, 10, n) + 40 * bad,
        "c2h2": rng.gamma(1, 0.5, n) + 8 * bad * rng.random(n), "c2h4": rng.gamma(2, 8, n) + 50 * bad,
        "c2h6": rng.gamma(2, 10, n), "co": rng.gamma(5, 60, n), "co2": rng.gamma(6, 500, n), "fault": bad},
        {k: ".1f" for k in ("h2", "ch4", "c2h2", "c2h4", "c2h6", "co", "co2")})


@writer
def gearbox_windows(out: Path) -> None:
    """Wind-turbine gearbox SCADA windows: ten features; about 4% precede a bearing failure (y = 1). Arrays X, y."""
    rng = np.random.default_rng(25108)
    n = 1200
    y = (rng.random(n) < 0.04).astype(np.int64)
    x = rng.normal(0, 1, (n, 10))
    x[y == 1] += rng.normal(0, 1.0, (int(y.sum()), 10)) + np.array([1.8, 0, 1.2, 0, 0, -1.0, 0, 0.8, 0, 0])
    npz(out / "gearbox_scada_windows.npz", {"X": npy_bytes(x), "y": npy_bytes(y, "<i8")})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def drill_core(out: Path) -> None:
    """Drill-core intervals: XRF assays (Fe, Cu, S, As, Zn; percent, log-normal); ore (1) where copper and
    sulphur are high together, a curved boundary."""
    rng = np.random.default_rng(25109)
    n = 700
    fe = rng.lognormal(2.0, 0.4, n)
    cu = rng.lognormal(-1.0, 0.8, n)
    s = rng.lognormal(0.5, 0.6, n)
    ars = rng.lognormal(-3, 0.7, n)
    zn = rng.lognormal(-1.5, 0.6, n)
    ore = (np.log(cu) + 0.6 * np.log(s) + 0.15 * np.log(cu) ** 2 + rng.normal(0, 0.3, n) > -0.4).astype(int)
    table(out / "core_interval_assays.csv", {
        "interval": [f"DH{7 + i // 100:02d}-{i % 100:03d}" for i in range(n)], "fe_pct": fe, "cu_pct": cu,
        "s_pct": s, "as_pct": ars, "zn_pct": zn, "ore": ore},
        {"fe_pct": ".2f", "cu_pct": ".3f", "s_pct": ".2f", "as_pct": ".4f", "zn_pct": ".3f"})


@writer
def roadkill(out: Path) -> None:
    """Road segments: whether a segment is a wildlife-collision hotspot (hotspot 1), driven by traffic and forest
    edge; the speed limit matters only through traffic (they are correlated)."""
    rng = np.random.default_rng(25110)
    n = 600
    speed = rng.choice([50, 60, 70, 80, 90, 100], n)
    aadt = np.exp(6.5 + 0.02 * (speed - 75) + rng.normal(0, 0.4, n))
    edge = rng.uniform(0, 100, n)
    verge = rng.gamma(3, 1.2, n)
    light = rng.binomial(1, 0.3, n)
    p = expit(-1.2 + 1.1 * (np.log(aadt) - 6.5) + 0.03 * (edge - 50) - 0.6 * light)
    table(out / "road_segment_collisions.csv", {
        "speed_limit": speed, "log_aadt": np.log(aadt), "forest_edge_pct": edge, "verge_m": verge,
        "night_lit": light, "hotspot": rng.binomial(1, p)},
        {"log_aadt": ".3f", "forest_edge_pct": ".1f", "verge_m": ".2f"})


# ------------------------------------------------------------------------------------------------ chains

@writer
def radial_velocity_chain(out: Path) -> None:
    """A radial-velocity planet chain (semi-amplitude K, period, eccentricity, argument of periastron, jitter)
    with a plain header; it starts far off and settles in about 300 of its 3,000 rows."""
    rng = np.random.default_rng(25111)
    centre = np.array([12.4, 41.7, 0.18, 1.9, 2.3])
    sd = np.array([0.6, 0.05, 0.03, 0.2, 0.3])
    x = ar_chain(rng, 3000, centre, sd, np.array([20.0, 41.0, 0.5, 0.5, 6.0]), 300.0, rho=0.7)
    (out / "rv_keplerian_chain.txt").write_text(
        "# K_ms P_d ecc omega_rad jitter_ms\n"
        + "".join(f"{r[0]:.4f} {r[1]:.5f} {r[2]:.4f} {r[3]:.4f} {r[4]:.4f}\n" for r in x))


@writer
def seir_chains(out: Path) -> None:
    """Three chains of an SEIR outbreak fit (R0, incubation days, infectious days), 2,500 rows each, with a short
    settling at the start."""
    rng = np.random.default_rng(25112)
    centre = np.array([2.4, 5.1, 6.8])
    sd = np.array([0.08, 0.3, 0.5])
    for tag, start in (("a", [3.0, 4.0, 9.0]), ("b", [2.0, 6.5, 5.0]), ("c", [2.8, 5.5, 8.0])):
        x = ar_chain(rng, 2500, centre, sd, np.array(start), 120.0)
        (out / f"seir_outbreak_chain_{tag}.txt").write_text(
            "# R0 incubation_d infectious_d\n" + "".join(f"{r[0]:.4f} {r[1]:.4f} {r[2]:.4f}\n" for r in x))


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def cpl_thesis_mock(out: Path) -> None:
    """180 distance moduli of a flat CPL mock (Omega_m 0.31, w0 -0.95, wa 0.2) out to z 1.6; diagonal errors."""
    rng = np.random.default_rng(25113)
    n = 180
    z = np.sort(rng.uniform(0.02, 1.6, n))
    err = rng.uniform(0.07, 0.12, n)
    table(out / "thesis_cpl_mu.csv", {
        "z": z, "mu": distance_modulus(z, 0.31, w0=-0.95, wa=0.2) + rng.normal(0, err), "mu_err": err},
        {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def ladder_demo(out: Path) -> None:
    """140 distance moduli of a slightly open LCDM (Omega_m 0.28, Omega_de 0.70) with H0 = 72, each with a
    supernova name."""
    rng = np.random.default_rng(25114)
    n = 140
    z = np.sort(rng.uniform(0.01, 1.4, n))
    err = rng.uniform(0.08, 0.14, n)
    table(out / "outreach_ladder_mu.csv", {
        "sn": [f"SN20{10 + i % 14}{chr(97 + i % 26)}{chr(97 + (i * 7) % 26)}" for i in range(n)], "z": z,
        "mu": distance_modulus(z, 0.28, ode=0.70, h0=72.0) + rng.normal(0, err), "mu_err": err},
        {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def year_one_mags(out: Path) -> None:
    """95 peak magnitudes (mb, M = -19.25 at H0 = 70) of a flat LCDM (Omega_m 0.33)."""
    rng = np.random.default_rng(25115)
    n = 95
    z = np.sort(rng.uniform(0.015, 0.9, n))
    err = rng.uniform(0.09, 0.15, n)
    table(out / "survey_year1_peaks.csv", {
        "z": z, "mb": distance_modulus(z, 0.33) - 19.25 + rng.normal(0, err), "mb_err": err},
        {"z": ".4f", "mb": ".4f", "mb_err": ".3f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def ring_density(out: Path) -> None:
    """A user's log density in Python: a ring of radius 2 and width 0.3 in two dimensions (a lensed source
    position), brighter on one side."""
    (out / "einstein_ring_logp.py").write_text(
        '"""Unnormalised log density of a source position on an Einstein ring (two dimensions)."""\n\n'
        "import torch\n\n\n"
        "def log_prob(z: torch.Tensor) -> torch.Tensor:\n"
        "    r = torch.sqrt((z ** 2).sum(-1) + 1e-12)\n"
        "    return -0.5 * ((r - 2.0) / 0.3) ** 2 + 0.5 * z[:, 0] / (r + 1e-6)\n")


@writer
def germination(out: Path) -> None:
    """45 seed trays: germination (0/1) rises with temperature and moisture; a tray code per row."""
    rng = np.random.default_rng(25116)
    n = 45
    temp = rng.uniform(8, 28, n)
    moist = rng.uniform(10, 40, n)
    g = rng.binomial(1, expit(0.25 * (temp - 18) + 0.1 * (moist - 25)))
    table(out / "seed_tray_germination.csv", {
        "tray": [f"TR{i:02d}" for i in range(n)], "temp_c": temp, "moisture_pct": moist, "germinated": g},
        {"temp_c": ".1f", "moisture_pct": ".1f"})


@writer
def kiln_shrinkage(out: Path) -> None:
    """60 test tiles: firing shrinkage (%) smooth in peak kiln temperature and clay moisture."""
    rng = np.random.default_rng(25117)
    n = 60
    temp = rng.uniform(1000, 1300, n)
    moist = rng.uniform(15, 30, n)
    shrink = 4 + 6 * expit((temp - 1180) / 40) + 0.08 * (moist - 22) ** 2 / 4 + rng.normal(0, 0.25, n)
    table(out / "tile_firing_shrinkage.csv", {"peak_temp_c": temp, "moisture_pct": moist, "shrink_pct": shrink},
          {"peak_temp_c": ".0f", "moisture_pct": ".1f", "shrink_pct": ".2f"})


@writer
def rotor_energy(out: Path) -> None:
    """900 conformations of a molecule with three equivalent methyl rotors: torsion angles (radians) and the
    energy, unchanged by a third of a turn of any rotor and by cycling the three rotors."""
    rng = np.random.default_rng(25118)
    n = 900
    phi = rng.uniform(-np.pi, np.pi, (n, 3))
    e = (np.cos(3 * phi).sum(1) + 0.4 * (np.cos(3 * phi[:, 0]) * np.cos(3 * phi[:, 1])
                                        + np.cos(3 * phi[:, 1]) * np.cos(3 * phi[:, 2])
                                        + np.cos(3 * phi[:, 2]) * np.cos(3 * phi[:, 0])) + rng.normal(0, 0.15, n))
    table(out / "methyl_rotor_energies.csv", {"tor1": phi[:, 0], "tor2": phi[:, 1], "tor3": phi[:, 2],
                                              "energy_kj": e},
          {"tor1": ".5f", "tor2": ".5f", "tor3": ".5f", "energy_kj": ".4f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def scholarship(out: Path) -> None:
    """Scholarship applicants: study hours drive GPA, which drives the test score; shortlisted (1) by a panel
    rule on GPA and test score."""
    rng = np.random.default_rng(25119)
    n = 120
    hours = rng.gamma(4, 3, n)
    gpa = np.clip(2.2 + 0.06 * hours + rng.normal(0, 0.35, n), 0, 4)
    test = 55 + 9 * gpa + rng.normal(0, 6, n)
    short = (0.9 * (gpa - 3) + 0.05 * (test - 82) + rng.normal(0, 0.3, n) > 0).astype(int)
    table(out / "bursary_panel_applicants.csv", {"study_hours": hours, "gpa": gpa, "test_score": test,
                                           "shortlisted": short},
          {"study_hours": ".1f", "gpa": ".2f", "test_score": ".0f"})


@writer
def telehealth(out: Path) -> None:
    """Clinic patients: telehealth uptake (binary) driven by five broadband measurements of the patient's exchange
    (the instruments) and by unobserved frailty; a missed appointment (0/1) is less likely with telehealth, more
    so for patients living far away."""
    rng = np.random.default_rng(25120)
    n = 600
    age = rng.uniform(20, 85, n)
    dist = rng.gamma(2, 10, n)
    bb = rng.normal(0, 1, (n, 5))
    frail = rng.normal(0, 1, n)
    tele = rng.binomial(1, expit(1.3 * bb[:, 0] + 0.8 * bb[:, 3] - 0.6 * frail - 0.02 * (age - 50)))
    p = np.clip(0.3 - (0.05 + 0.004 * dist) * tele + 0.08 * frail + 0.003 * dist, 0.01, 0.99)
    cols = {"patient": [f"P{i:04d}" for i in range(n)], "age": age, "distance_km": dist}
    cols.update({f"bb_{j + 1}": bb[:, j] for j in range(5)})
    cols.update({"telehealth": tele, "missed": rng.binomial(1, p)})
    table(out / "clinic_telehealth_uptake.csv", cols,
          {"age": ".0f", "distance_km": ".1f", **{f"bb_{j + 1}": ".3f" for j in range(5)}})


# ------------------------------------------------------------------------------------------------ lm

PLACES = [("the Rijksmuseum", "Amsterdam"), ("the Alhambra", "Granada"), ("the Hagia Sophia", "Istanbul"),
          ("the Atomium", "Brussels")]
PEOPLE = ["Maren", "Idris", "Kalani", "Tove"]


@writer
def estuary_needles(out: Path) -> None:
    """Four needles of the latent kind (a landmark in the needle, its city only in the question's answer) with
    literal questions, and a haystack of templated tide-log sentences (about 4,000 words)."""
    rows = {"needle": [], "question": [], "answer": [], "literal_question": []}
    for who, (place, city) in zip(PEOPLE, PLACES, strict=True):
        rows["needle"].append(f"In the end, {who} spent the whole afternoon sketching next to {place}.")
        rows["question"].append(f"Which of the ferry crew has been to {city}?")
        rows["answer"].append(who)
        rows["literal_question"].append(f"Which of the ferry crew spent an afternoon sketching next to {place}?")
    table(out / "estuary_crew_needles.csv", rows)
    rng = np.random.default_rng(25121)
    verbs = ["rose", "fell", "held", "turned", "slackened"]
    things = ["the ebb", "the flood", "the swell", "the channel buoy", "the mud bank", "the eel grass"]
    times = ["at dawn", "by noon", "after the squall", "before the pilot boarded", "near midnight"]
    lines = []
    while sum(len(s.split()) for s in lines) < 4000:
        lines.append(f"The log notes that {things[rng.integers(0, 6)]} {verbs[rng.integers(0, 5)]} "
                     f"{times[rng.integers(0, 5)]}, and the keeper wrote {int(rng.integers(2, 40))} marks in pencil.")
    (out / "tide_keeper_log.txt").write_text("\n".join(" ".join(lines[i:i + 6]) for i in range(0, len(lines), 6))
                                             + "\n")


# ------------------------------------------------------------------------------------------------ near misses

@writer
def bp_monitors(out: Path) -> None:
    """Paired systolic readings (mmHg) from a cuffless wrist device and the auscultatory reference."""
    rng = np.random.default_rng(25122)
    n = 85
    ref = rng.normal(132, 18, n)
    dev = ref + 2.5 + 0.05 * (ref - 132) + rng.normal(0, 6, n)
    table(out / "wrist_cuff_pairs.csv", {"subject": [f"S{i:03d}" for i in range(n)], "reference_mmhg": ref,
                                         "device_mmhg": dev}, {"reference_mmhg": ".0f", "device_mmhg": ".0f"})


@writer
def soil_nitrate(out: Path) -> None:
    """Soil nitrate (mg/kg) at 150 grid points of a field, spatially correlated."""
    rng = np.random.default_rng(25123)
    n = 150
    x = rng.uniform(0, 300, n)
    y = rng.uniform(0, 200, n)
    d = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    cov = 16 * np.exp(-d / 60) + 1e-6 * np.eye(n)
    no3 = 25 + np.linalg.cholesky(cov) @ rng.normal(0, 1, n) + rng.normal(0, 1, n)
    table(out / "paddock_nitrate_cores.csv", {"core": [f"N{i:03d}" for i in range(n)], "x_m": x, "y_m": y,
                                              "no3_mg_kg": no3}, {"x_m": ".1f", "y_m": ".1f", "no3_mg_kg": ".2f"})


@writer
def mira_estimates(out: Path) -> None:
    """Visual magnitude estimates of a long-period variable over about six years (period near 330 days), unevenly
    sampled."""
    rng = np.random.default_rng(25124)
    n = 260
    jd = np.sort(2458000 + rng.uniform(0, 2200, n))
    mag = 8.5 + 2.3 * np.sin(2 * np.pi * (jd - 2458000) / 331.0) + rng.normal(0, 0.3, n)
    table(out / "mira_visual_estimates.csv", {"jd": jd, "vmag": mag}, {"jd": ".3f", "vmag": ".1f"})


# ------------------------------------------------------------------------------------------------ asks

@writer
def mentoring(out: Path) -> None:
    """Junior staff: mentored at all (binary) and mentoring hours (continuous), both raising retention at 18
    months; tenure and grade as covariates."""
    rng = np.random.default_rng(25125)
    n = 380
    grade = rng.integers(1, 5, n)
    tenure = rng.uniform(0, 3, n)
    ment = rng.binomial(1, expit(0.4 * (grade - 2.5)))
    hours = ment * rng.gamma(3, 6, n)
    stay = rng.binomial(1, expit(0.2 + 0.5 * ment + 0.02 * hours + 0.3 * tenure))
    table(out / "junior_staff_mentoring.csv", {
        "emp": [f"E{i:04d}" for i in range(n)], "grade": grade, "tenure_y": tenure, "mentored": ment,
        "mentor_hours": hours, "retained_18m": stay}, {"tenure_y": ".2f", "mentor_hours": ".1f"})


@writer
def chiller_log(out: Path) -> None:
    """Hourly chiller plant readings with an alarm column that is 1 for nuisance alarms as often as for faults."""
    rng = np.random.default_rng(25126)
    n = 800
    fault = rng.random(n) < 0.03
    nuisance = rng.random(n) < 0.05
    table(out / "chiller_plant_hourly.csv", {
        "supply_c": rng.normal(6.5, 0.4, n) + 2 * fault, "return_c": rng.normal(12, 0.6, n),
        "kw": rng.normal(310, 25, n) + 60 * fault, "cond_bar": rng.normal(9.5, 0.5, n) + 1.5 * fault,
        "alarm": fault | nuisance}, {"supply_c": ".2f", "return_c": ".2f", "kw": ".0f", "cond_bar": ".2f"})


MODE = ["car", "bus", "bike", "walk"]


@writer
def council_poll(out: Path) -> None:
    """A council transport poll (commute mode, a congestion charge) and a chatbot's answer shares; no population
    table."""
    rng = np.random.default_rng(25127)
    n = 430
    age = rng.choice(AGEB, n, p=[0.2, 0.35, 0.45])
    ward = rng.choice(["north", "centre", "south"], n)
    table(out / "council_commute_poll.csv", {
        "resp": [f"CP{i:04d}" for i in range(n)], "age_band": age, "ward": ward,
        "q_mode": rng.choice(MODE, n, p=[0.45, 0.25, 0.15, 0.15]),
        "q_charge": ordered(rng, 0.5 * (age == "18_39"), SUPPORT, (-0.2, 0.6))})
    table(out / "chatbot_commute_shares.csv", {
        "question": ["q_mode"] * 4 + ["q_charge"] * 3, "answer": MODE + SUPPORT,
        "share": [0.35, 0.3, 0.2, 0.15, 0.4, 0.3, 0.3]}, {"share": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
