"""Write every data file of the twenty-third blind prose task set, deterministically.

``python tests/understanding_blind23/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
def sealant_molars(out: Path) -> None:
    """Schoolchildren: fissure sealant (binary) went more often to children with high sugar scores and low
    fluoride; it lowers the two-year caries increment by about 0.6 surfaces."""
    rng = np.random.default_rng(23101)
    n = 380
    age = rng.uniform(6, 12, n)
    sugar = rng.normal(5, 2, n)
    fluor = rng.choice([0.1, 0.3, 0.7, 1.0], n)
    seal = rng.binomial(1, expit(0.35 * (sugar - 5) - 1.2 * (fluor - 0.5)))
    inc = np.clip(2.0 - 0.6 * seal + 0.35 * (sugar - 5) - 1.0 * (fluor - 0.5) + 0.08 * (age - 9)
                  + rng.normal(0, 0.8, n), 0, None)
    table(out / "sealant_molar_followup.csv", {
        "child": [f"K{i:04d}" for i in range(n)], "age_years": age, "sugar_score": sugar, "fluoride_ppm": fluor,
        "sealant": seal, "caries_increment": inc},
        {"age_years": ".1f", "sugar_score": ".1f", "fluoride_ppm": ".1f", "caries_increment": ".2f"})


@writer
def meter_swap(out: Path) -> None:
    """Household water accounts: a smart meter (binary) was fitted first to large households with gardens; it
    lowers monthly use by about 0.9 cubic metres."""
    rng = np.random.default_rng(23102)
    n = 450
    size = rng.integers(1, 7, n)
    garden = rng.gamma(2, 40, n)
    band = rng.integers(1, 5, n)
    smart = rng.binomial(1, expit(0.4 * (size - 3) + 0.01 * (garden - 80)))
    use = 4 + 2.1 * size + 0.02 * garden - 0.5 * band - 0.9 * smart + rng.normal(0, 1.5, n)
    table(out / "meter_swap_bills.csv", {
        "account": [f"W{i:05d}" for i in range(n)], "household_size": size, "garden_m2": garden,
        "tariff_band": band, "smart_meter": smart, "monthly_m3": use}, {"garden_m2": ".0f", "monthly_m3": ".2f"})


@writer
def altitude_camp(out: Path) -> None:
    """Endurance athletes: days spent at an altitude camp (continuous, 0 to 28) were longer for fitter,
    higher-volume athletes; each day adds about 0.12 ml/kg/min to the change in VO2max."""
    rng = np.random.default_rng(23103)
    n = 260
    base = rng.normal(58, 6, n)
    age = rng.integers(18, 36, n)
    km = rng.gamma(8, 10, n)
    days = np.clip(10 + 0.5 * (base - 58) + 0.08 * (km - 80) + rng.normal(0, 5, n), 0, 28)
    change = 0.12 * days - 0.05 * (base - 58) + 0.02 * (km - 80) - 0.04 * (age - 26) + rng.normal(0, 1.0, n)
    table(out / "altitude_camp_squad.csv", {
        "athlete": [f"A{i:03d}" for i in range(n)], "baseline_vo2": base, "age": age, "weekly_km": km,
        "days_at_altitude": days, "vo2max_change": change},
        {"baseline_vo2": ".1f", "weekly_km": ".0f", "days_at_altitude": ".0f", "vo2max_change": ".2f"})


NOTES = {  # what an inspector writes about a trader's record keeping (1 tidy, 0 patchy, -1 chaotic)
    1: ["books kept by an accountant and reconciled monthly", "digital records, receipts scanned weekly"],
    0: ["records partly on paper, partly in a spreadsheet", "bookkeeping done by the owner when time allows"],
    -1: ["shoebox of receipts, no ledger", "cash takings not written down most days"],
}
NOTE_EXTRAS = ["Seasonal trade.", "Family business.", "Second site opened last year.", "Sole trader.",
               "Sells at markets.", "Recently changed premises."]


@writer
def late_filing(out: Path) -> None:
    """Small traders: a reminder letter (binary) was sent mostly where the inspector's note describes chaotic
    record keeping (visible only in the note); the letter cuts days late by about 6."""
    rng = np.random.default_rng(23104)
    n = 240
    turnover = rng.gamma(3, 40, n)
    prior = rng.poisson(1.0, n)
    notes, letter, late = [], [], []
    for i in range(n):
        d = int(rng.integers(-1, 2))
        notes.append(f"{rng.choice(NOTES[d])}. {rng.choice(NOTE_EXTRAS)}")
        s = int(rng.random() < expit(-1.3 * d + 0.3 * (prior[i] - 1)))
        letter.append(s)
        late.append(max(0.0, 20 - 6 * s - 8 * d + 3 * prior[i] - 0.02 * (turnover[i] - 120) + rng.normal(0, 4)))
    table(out / "late_filing_letters.csv", {
        "trader": [f"T{i:04d}" for i in range(n)], "turnover_k": turnover, "prior_late": prior,
        "inspector_note": notes, "reminder_letter": letter, "days_late": late},
        {"turnover_k": ".1f", "days_late": ".1f"})


# ------------------------------------------------------------------------------------------------ surveys

AGE = ["18_34", "35_59", "60_plus"]
TEN = ["owner", "renter"]
FAIR = ["fair", "unsure", "unfair"]
BAN = ["support", "neutral", "oppose"]


@writer
def water_customers(out: Path) -> None:
    """Water customers asked whether metered charging is fair and about a hosepipe ban; older owners
    over-respond; ward census margins for age and tenure; an assistant's answer shares per question."""
    rng = np.random.default_rng(23105)
    n = 560
    age = rng.choice(AGE, n, p=[0.15, 0.35, 0.5])
    ten = rng.choice(TEN, n, p=[0.75, 0.25])
    s1 = 0.6 * (ten == "owner") + 0.3 * (age == "60_plus")
    s2 = -0.5 * (age == "18_34") + 0.3 * (ten == "owner")
    table(out / "drought_panel_replies.csv", {
        "id": np.arange(1, n + 1), "age_band": age, "tenure": ten,
        "q_meter_fair": ordered(rng, s1, FAIR, (-0.3, 0.8)), "q_hosepipe_ban": ordered(rng, s2, BAN, (-0.6, 0.5))})
    table(out / "ward_census_margins.csv", {
        "variable": ["age_band"] * 3 + ["tenure"] * 2, "level": AGE + TEN,
        "share": [0.32, 0.42, 0.26, 0.58, 0.42]}, {"share": ".2f"})
    table(out / "assistant_tariff_answers.csv", {
        "question": ["q_meter_fair"] * 3 + ["q_hosepipe_ban"] * 3, "answer": FAIR + BAN,
        "share": [0.55, 0.30, 0.15, 0.40, 0.35, 0.25]}, {"share": ".2f"})


SURT = ["keep", "no_view", "remove"]
PRICE = ["too_high", "about_right", "too_low"]


@writer
def opera_patrons(out: Path) -> None:
    """Opera-house patrons: two questionnaire forms (A neutral, B mentions the cost of the surtitle screen)
    shift the surtitle answer; the surtitle question is asked again at the end (retest)."""
    rng = np.random.default_rng(23106)
    n = 480
    form = rng.choice(["A", "B"], n)
    age = rng.choice(AGE, n, p=[0.2, 0.4, 0.4])
    s = 0.4 - 0.7 * (form == "B") - 0.3 * (age == "60_plus")
    latent = s + rng.logistic(size=n)
    first = [SURT[0] if v > 0.5 else SURT[1] if v > -0.6 else SURT[2] for v in latent]
    again = [SURT[0] if v > 0.5 else SURT[1] if v > -0.6 else SURT[2] for v in latent + rng.normal(0, 0.8, n)]
    table(out / "opera_patron_ballots.csv", {
        "patron": np.arange(1, n + 1), "form": form, "age_band": age, "q_surtitles": first,
        "q_ticket_price": ordered(rng, 0.3 * (age == "18_34"), PRICE, (-0.8, 0.9)), "q_surtitles_retest": again})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def bleed_valve(out: Path) -> None:
    """Aircraft bleed-air valve readings per flight (pressure, temperature, valve position, duct pressure
    ratio, cycle time); about 5% of flights preceded a valve fault, labelled in 'fault'."""
    rng = np.random.default_rng(23107)
    n = 900
    fault = rng.random(n) < 0.05
    press = rng.normal(45, 3, n) - 4 * fault * rng.random(n)
    temp = rng.normal(200, 8, n) + 15 * fault * rng.random(n)
    pos = rng.normal(60, 5, n) + 8 * fault * rng.choice([-1, 1], n)
    ratio = rng.normal(1.8, 0.08, n) - 0.15 * fault * rng.random(n)
    cyc = rng.gamma(20, 0.1, n) + 1.0 * fault * rng.random(n)
    table(out / "bleed_valve_sensor_log.csv", {
        "press_psi": press, "temp_c": temp, "valve_pos_pct": pos, "duct_ratio": ratio, "cycle_s": cyc,
        "fault": fault}, {"press_psi": ".2f", "temp_c": ".1f", "valve_pos_pct": ".1f", "duct_ratio": ".3f",
                          "cycle_s": ".2f"})


@writer
def calorimeter_channels(out: Path) -> None:
    """Calorimeter readout channels in a calibration scan: pedestal, noise, gain, timing and two shape
    features; about 4% of channels are hot or dead (y = 1). Arrays X and y."""
    rng = np.random.default_rng(23108)
    n = 1200
    y = (rng.random(n) < 0.04).astype(np.int64)
    x = rng.normal(0, 1, (n, 6))
    x[y == 1] += rng.normal(0, 1, (int(y.sum()), 6)) * 1.5 + np.array([1.2, 2.0, -1.0, 0.5, 0.0, 0.8])
    npz(out / "calorimeter_channel_scan.npz", {"X": npy_bytes(x), "y": npy_bytes(y, "<i8")})


@writer
def district_meters(out: Path) -> None:
    """District water meter reads, one row a district and numeric only (night flow, day flow, pressure,
    temperature, reading gaps); crews checked some districts: checked_leak is 1 for a confirmed leak, 0 for
    confirmed fine, blank where unchecked."""
    rng = np.random.default_rng(23109)
    n = 700
    leak = rng.random(n) < 0.06
    night = rng.gamma(4, 0.5, n) + 2.5 * leak * rng.random(n) + 0.8 * leak
    day = rng.normal(12, 2, n) + 1.5 * leak
    pres = rng.normal(3.2, 0.3, n) - 0.4 * leak
    temp = rng.normal(11, 3, n)
    gaps = rng.poisson(1, n)
    checked = np.where(rng.random(n) < 0.25, 1, 0)
    lab = ["1" if (c and leaky) else ("0" if c else "") for c, leaky in zip(checked, leak, strict=True)]
    for i in np.flatnonzero(leak)[:6]:  # a few more confirmed leaks
        lab[i] = "1"
    table(out / "district_meter_reads.csv", {
        "night_flow_ls": night, "day_flow_ls": day,
        "pressure_bar": pres, "temp_c": temp, "read_gaps": gaps, "checked_leak": lab},
        {"night_flow_ls": ".3f", "day_flow_ls": ".2f", "pressure_bar": ".2f", "temp_c": ".1f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def dye_lots(out: Path) -> None:
    """Dye lots: spectrophotometer L*, a*, b* differences from the standard and bath settings; a lot passes
    the shade check (pass_shade 1) when its colour difference is small (nonlinear boundary)."""
    rng = np.random.default_rng(23110)
    n = 500
    dl, da, db = rng.normal(0, 1, n), rng.normal(0, 0.8, n), rng.normal(0, 0.8, n)
    bath = rng.normal(90, 4, n)
    ratio = rng.uniform(5, 15, n)
    de = np.sqrt(dl ** 2 + da ** 2 + db ** 2) + 0.05 * np.abs(bath - 90) + rng.normal(0, 0.2, n)
    table(out / "dye_lot_spectro.csv", {
        "delta_L": dl, "delta_a": da, "delta_b": db, "bath_temp_c": bath, "liquor_ratio": ratio,
        "pass_shade": (de < 1.3).astype(int)},
        {"delta_L": ".3f", "delta_a": ".3f", "delta_b": ".3f", "bath_temp_c": ".1f", "liquor_ratio": ".1f"})


@writer
def airfield_strikes(out: Path) -> None:
    """Airfield days: a bird strike (strike 1) is driven by flock counts and earthworm activity; grass height
    matters through the worms (correlated with them)."""
    rng = np.random.default_rng(23111)
    n = 700
    grass = rng.uniform(5, 30, n)
    worm = 0.1 * grass + rng.normal(0, 0.8, n)
    wind = rng.gamma(3, 4, n)
    temp = rng.normal(12, 6, n)
    flock = rng.poisson(6, n)
    strike = rng.binomial(1, expit(-2.5 + 0.6 * worm + 0.2 * (flock - 6) + 0.03 * grass - 0.03 * wind))
    table(out / "airfield_strike_days.csv", {
        "grass_height_cm": grass, "worm_index": worm, "wind_kn": wind, "temp_c": temp, "flock_count": flock,
        "strike": strike}, {"grass_height_cm": ".1f", "worm_index": ".2f", "wind_kn": ".1f", "temp_c": ".1f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def allometry_chain(out: Path) -> None:
    """A chain of a height-diameter (Näslund-type) model for a forest inventory: parameters a, b, sigma and a
    log-likelihood column, started away from the centre."""
    rng = np.random.default_rng(23112)
    x = ar_chain(rng, 3000, np.array([1.42, 0.21, 1.8]), np.array([0.05, 0.008, 0.1]),
                 np.array([1.9, 0.3, 3.0]), 60.0)
    ll = -0.5 * (((x - np.array([1.42, 0.21, 1.8])) / np.array([0.05, 0.008, 0.1])) ** 2).sum(1) - 310
    (out / "height_diameter_chain.txt").write_text(
        "# a b sigma loglike\n" + "".join(f"{r[0]:.5f} {r[1]:.5f} {r[2]:.4f} {v:.3f}\n" for r, v in zip(x, ll, strict=True)))


@writer
def wire_gain_chains(out: Path) -> None:
    """Three chains of a drift-chamber wire gain calibration (gain, attenuation length, offset) started from
    different points; they agree after the first tenth."""
    rng = np.random.default_rng(23113)
    centre = np.array([1.05, 320.0, -2.4])
    sd = np.array([0.02, 12.0, 0.3])
    for tag, start in (("a", np.array([1.2, 250.0, 0.0])), ("b", np.array([0.9, 400.0, -5.0])),
                       ("c", np.array([1.1, 300.0, -1.0]))):
        x = ar_chain(rng, 1000, centre, sd, start, 25.0)
        (out / f"wire_gain_chain_{tag}.txt").write_text(
            "# gain att_len_cm offset_adc\n" + "".join(f"{r[0]:.5f} {r[1]:.3f} {r[2]:.4f}\n" for r in x))


@writer
def curved_lowz_sn(out: Path) -> None:
    """80 distance moduli of a curved LCDM mock (Omega_m 0.30, Omega_de 0.75) out to z 1.6, with small errors
    and a correlated covariance."""
    rng = np.random.default_rng(23114)
    n = 80
    z = np.sort(rng.uniform(0.02, 1.6, n))
    err = rng.uniform(0.05, 0.08, n)
    cov = correlated_cov(z, err, 0.02, 0.3)
    mu = distance_modulus(z, 0.30, 0.75) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "open_question_sn.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f",
                                                                           "mu_err": ".3f"})
    write_covariance(out / "open_question_sn_cov.txt", cov)


@writer
def ladder_sn(out: Path) -> None:
    """70 distance moduli of a flat LCDM mock calibrated to H0 73 (Omega_m 0.31); diagonal errors."""
    rng = np.random.default_rng(23115)
    n = 70
    z = np.sort(rng.uniform(0.01, 0.8, n))
    err = rng.uniform(0.11, 0.17, n)
    mu = distance_modulus(z, 0.31, h0=73.0) + rng.normal(0, err)
    table(out / "ladder_anchored_mu.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


@writer
def joint_sn(out: Path) -> None:
    """60 distance moduli of a flat LCDM mock (Omega_m 0.31) for a joint fit with the CMB; diagonal errors."""
    rng = np.random.default_rng(23116)
    n = 60
    z = np.sort(rng.uniform(0.02, 1.0, n))
    err = rng.uniform(0.1, 0.14, n)
    mu = distance_modulus(z, 0.31) + rng.normal(0, err)
    table(out / "photometric_sn_tier2.csv", {"z": z, "mu": mu, "mu_err": err},
          {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})


# ------------------------------------------------------------------------------------------------ bayes

@writer
def stand_heights(out: Path) -> None:
    """45 inventory trees: height (m) linear in diameter and slope plus noise of sd 1.5 m."""
    rng = np.random.default_rng(23117)
    n = 45
    dbh = rng.uniform(12, 60, n)
    slope = rng.uniform(0, 30, n)
    h = 8 + 0.35 * dbh - 0.08 * slope + rng.normal(0, 1.5, n)
    table(out / "spruce_plot_heights.csv", {"dbh_cm": dbh, "slope_deg": slope, "height_m": h},
          {"dbh_cm": ".1f", "slope_deg": ".1f", "height_m": ".2f"})


@writer
def stalls_reverb(out: Path) -> None:
    """80 seats of an opera house's stalls: reverberation time (s) smooth in row and lateral offset."""
    rng = np.random.default_rng(23118)
    n = 80
    row = rng.uniform(1, 30, n)
    off = rng.uniform(-12, 12, n)
    rt = 1.4 + 0.15 * np.sin(row / 6) + 0.004 * off ** 2 - 0.002 * row + rng.normal(0, 0.03, n)
    table(out / "stalls_reverb_points.csv", {"seat_row": row, "seat_offset_m": off, "rt_s": rt},
          {"seat_row": ".1f", "seat_offset_m": ".2f", "rt_s": ".3f"})


@writer
def twin_hits(out: Path) -> None:
    """500 pairs of hits in a detector with three identical sectors: the response depends on both azimuths
    only through functions with period 2*pi/3 in each, symmetric in the two hits."""
    rng = np.random.default_rng(23119)
    n = 500
    a, b = rng.uniform(0, 2 * np.pi, n), rng.uniform(0, 2 * np.pi, n)
    r = np.cos(3 * a) + np.cos(3 * b) + 0.5 * np.cos(3 * a) * np.cos(3 * b) + rng.normal(0, 0.2, n)
    table(out / "twin_hit_azimuths.csv", {"phi_first": a, "phi_second": b, "response": r},
          {"phi_first": ".4f", "phi_second": ".4f", "response": ".4f"})


# ------------------------------------------------------------------------------------------------ causal, other

@writer
def vat_flags(out: Path) -> None:
    """Traders flagged for a VAT audit: turnover drives the cash share, which drives late filings; the flag
    rises with cash share and late filings."""
    rng = np.random.default_rng(23120)
    n = 400
    turn = rng.gamma(3, 60, n)
    cash = np.clip(0.5 - 0.001 * turn + rng.normal(0, 0.12, n), 0, 1)
    late = np.clip(np.round(4 * cash + rng.normal(0, 1, n)), 0, None)
    flag = rng.binomial(1, expit(-2 + 4 * cash + 0.6 * late - 0.002 * turn))
    table(out / "vat_audit_flags.csv", {"turnover_k": turn, "cash_share": cash, "late_filings": late,
                                        "audited": flag}, {"turnover_k": ".1f", "cash_share": ".3f",
                                                           "late_filings": ".0f"})


@writer
def prehab(out: Path) -> None:
    """Squad players: a prehab programme (binary) is taken up more by players near the clinic and those who won
    the slot lottery; an unobserved keenness confounds; outcome is injury-free weeks out of 20."""
    rng = np.random.default_rng(23121)
    n = 600
    age = rng.uniform(18, 34, n)
    load = rng.normal(500, 80, n)
    dist = rng.gamma(2, 5, n)
    lottery = rng.binomial(1, 0.5, n)
    keen = rng.normal(0, 1, n)
    pre = rng.binomial(1, expit(0.8 * keen - 0.12 * (dist - 10) + 1.5 * lottery - 0.7))
    weeks = np.clip(np.round(12 + 3 * pre + 1.5 * keen - 0.15 * (age - 26) - 0.008 * (load - 500)
                             + rng.normal(0, 2, n)), 0, 20)
    table(out / "prehab_squad_weeks.csv", {
        "player": [f"P{i:03d}" for i in range(n)], "age": age, "training_load": load,
        "distance_to_clinic_km": dist, "slot_lottery": lottery, "prehab": pre, "injury_free_weeks": weeks},
        {"age": ".1f", "training_load": ".0f", "distance_to_clinic_km": ".1f", "injury_free_weeks": ".0f"})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def composite_fillings(out: Path) -> None:
    """Composite restorations followed up at recall visits: months to failure or censoring and the tooth type."""
    rng = np.random.default_rng(23122)
    n = 300
    tooth = rng.choice(["molar", "premolar", "anterior"], n, p=[0.5, 0.3, 0.2])
    scale = np.where(tooth == "molar", 70, np.where(tooth == "premolar", 90, 120))
    t = rng.weibull(1.4, n) * scale
    cens = rng.uniform(12, 96, n)
    table(out / "composite_restorations_recall.csv", {
        "restoration": [f"R{i:04d}" for i in range(n)], "tooth_type": tooth,
        "months": np.minimum(t, cens), "failed": (t <= cens).astype(int)}, {"months": ".1f"})


@writer
def ringing_histories(out: Path) -> None:
    """Capture histories of ringed swifts over seven breeding seasons (one 0/1 column a season)."""
    rng = np.random.default_rng(23123)
    n = 260
    hist = np.zeros((n, 7), dtype=int)
    for i in range(n):
        first = rng.integers(0, 6)
        alive = True
        for s in range(first, 7):
            if s > first:
                alive = alive and rng.random() < 0.78
            hist[i, s] = int(alive and (s == first or rng.random() < 0.6))
    table(out / "swift_ring_histories.csv", {"ring": [f"SW{i:04d}" for i in range(n)],
                                             **{f"y{2017 + s}": hist[:, s] for s in range(7)}})


# ------------------------------------------------------------------------------------------------ asks

@writer
def squad_power(out: Path) -> None:
    """Players with and without a plyometric block: two candidate performance outcomes (sprint time and
    jump height), both affected."""
    rng = np.random.default_rng(23124)
    n = 220
    age = rng.uniform(17, 32, n)
    mass = rng.normal(78, 8, n)
    plyo = rng.binomial(1, expit(-0.1 * (age - 24)))
    table(out / "plyometric_block_tests.csv", {
        "player": [f"Q{i:03d}" for i in range(n)], "age": age, "body_mass_kg": mass, "plyo_block": plyo,
        "sprint_20m_s": 3.1 - 0.05 * plyo + 0.005 * (mass - 78) + rng.normal(0, 0.08, n),
        "cmj_cm": 38 + 2.5 * plyo - 0.2 * (age - 24) + rng.normal(0, 3, n)},
        {"age": ".1f", "body_mass_kg": ".1f", "sprint_20m_s": ".3f", "cmj_cm": ".1f"})


@writer
def apu_logs(out: Path) -> None:
    """Two auxiliary power unit logs (left and right aircraft of a pair), per start: exhaust gas temperature,
    start time and oil pressure; a few odd starts in each."""
    for tag, seed in (("tail_214", 23125), ("tail_215", 23126)):
        rng = np.random.default_rng(seed)
        n = 500
        bad = rng.random(n) < 0.04
        table(out / f"apu_starts_{tag}.csv", {
            "egt_c": rng.normal(560, 15, n) + 60 * bad, "start_s": rng.normal(38, 3, n) + 10 * bad,
            "oil_psi": rng.normal(52, 2, n)}, {"egt_c": ".0f", "start_s": ".1f", "oil_psi": ".1f"})


@writer
def pump_curve(out: Path) -> None:
    """40 test points of a booster pump: head (m) roughly linear in flow and speed."""
    rng = np.random.default_rng(23127)
    n = 40
    flow = rng.uniform(5, 40, n)
    speed = rng.uniform(1200, 2900, n)
    table(out / "booster_pump_tests.csv", {
        "flow_ls": flow, "speed_rpm": speed, "head_m": 10 - 0.3 * flow + 0.012 * speed + rng.normal(0, 1.5, n)},
        {"flow_ls": ".1f", "speed_rpm": ".0f", "head_m": ".2f"})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
