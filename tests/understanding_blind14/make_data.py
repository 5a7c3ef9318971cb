"""Write every data file of the fourteenth blind prose task set, deterministically.

``python tests/understanding_blind14/make_data.py`` rewrites the set's ``data/``; how every set's script runs
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
    json_lines,
    main,
    ordered,
    table,
)

HERE = Path(__file__).resolve().parent
writer = Writers()


# ------------------------------------------------------------------------------------------ causal effects

@writer
def salmon_pens(out: Path) -> None:
    """Sea pens of salmon: an oral vaccine (binary) went to warmer, denser, deeper pens and to heavier smolts;
    it adds about 0.3 kg of weight gain over the cycle."""
    rng = np.random.default_rng(14101)
    n = 360
    temp = rng.uniform(7, 14, n)
    density = rng.uniform(8, 22, n)
    depth = rng.uniform(10, 40, n)
    smolt = rng.gamma(8, 12, n)
    vacc = rng.binomial(1, expit(0.15 * (temp - 10.5) + 0.05 * (density - 15) + 0.01 * (depth - 25)
                                 + 0.005 * (smolt - 96)))
    gain = np.clip(3.2 + 0.3 * vacc + 0.15 * (temp - 10.5) - 0.04 * (density - 15) + 0.004 * (smolt - 96)
                   + rng.normal(0, 0.35, n), 0.5, None)
    table(out / "salmon_pens.csv", {
        "pen": [f"SP{i:03d}" for i in range(n)], "vaccinated": vacc, "water_temp_c": temp,
        "stocking_kg_m3": density, "pen_depth_m": depth, "smolt_weight_g": smolt, "weight_gain_kg": gain},
        {"water_temp_c": ".1f", "stocking_kg_m3": ".1f", "pen_depth_m": ".0f", "smolt_weight_g": ".0f",
         "weight_gain_kg": ".3f"})


@writer
def rail_grinding(out: Path) -> None:
    """Rail sections: grinding passes a year (continuous) go to heavier-used, tighter-curved, older track; each
    pass cuts rail defects by about 0.4 per km."""
    rng = np.random.default_rng(14102)
    n = 420
    tonnage = rng.gamma(4, 6, n)
    radius = rng.uniform(300, 3000, n)
    age = rng.uniform(1, 40, n)
    passes = np.clip(0.05 * tonnage + 0.6 * (radius < 800) + 0.02 * age + rng.normal(0, 0.5, n), 0, None)
    defects = np.clip(1.5 - 0.4 * passes + 0.06 * tonnage + 0.9 * (radius < 800) + 0.05 * age
                      + rng.normal(0, 0.5, n), 0, None)
    table(out / "rail_grinding_sections.csv", {
        "section": [f"K{i:04d}" for i in range(n)], "grind_passes": passes, "tonnage_mgt": tonnage,
        "curve_radius_m": radius, "track_age_yr": age, "defects_per_km": defects},
        {"grind_passes": ".2f", "tonnage_mgt": ".1f", "curve_radius_m": ".0f", "track_age_yr": ".1f",
         "defects_per_km": ".2f"})


MOTIVES = {  # opening phrases of an introductory forum post, motivation score
    "career": (["I need this for a promotion at work", "my manager asked me to finish this",
                "I am switching careers into data work"], 1.0),
    "curious": (["just curious about the topic", "saw this and thought why not",
                 "browsing a few courses this month"], -0.9),
    "student": (["revising for my university exams", "this covers a module I am failing",
                 "my tutor recommended this course"], 0.4),
}
HOBBIES = ["I live near the coast", "I have two kids", "I like hiking", "I work night shifts", "I play chess",
           "I am retired", "I commute by train", "I bake at weekends"]


@writer
def mooc_learners(out: Path) -> None:
    """Online-course learners: live tutoring (binary) was booked more by motivated learners, whose motivation is
    visible only in their introductory forum post; tutoring raises completion by about 8 points."""
    rng = np.random.default_rng(14103)
    n = 300
    kinds = list(MOTIVES)
    prior = rng.poisson(1.5, n)
    hours = rng.uniform(1, 10, n)
    posts, tutor, done = [], [], []
    for i in range(n):
        phrases, m = MOTIVES[kinds[int(rng.integers(3))]]
        posts.append(f"Hello all, {rng.choice(phrases)}. {rng.choice(HOBBIES)}.")
        t = rng.random() < expit(0.9 * m + 0.1 * (hours[i] - 5))
        tutor.append(int(t))
        done.append(int(rng.random() < expit(-0.6 + 0.4 * t + 0.9 * m + 0.2 * prior[i] + 0.12 * (hours[i] - 5))))
    table(out / "mooc_learners.csv", {
        "learner": [f"L{i:04d}" for i in range(n)], "live_tutor": tutor, "prior_courses": prior,
        "hours_per_week": hours, "intro_post": posts, "completed": done}, {"hours_per_week": ".1f"})


@writer
def wheeze_children(out: Path) -> None:
    """Preschool wheeze: an inhaled steroid (binary) was prescribed more to children whose chest X-ray looks a
    certain way in a 16-d image embedding, and to older children with eczema; it adds about 9 symptom-free days
    in 90."""
    rng = np.random.default_rng(14104)
    n = 380
    latent = rng.normal(size=(n, 3))
    emb = latent @ (rng.normal(size=(3, 16)) / 2) + 0.3 * rng.normal(size=(n, 16))
    age = rng.uniform(12, 60, n)
    eczema = rng.binomial(1, 0.35, n)
    ics = rng.binomial(1, expit(0.8 * latent[:, 0] - 0.4 * latent[:, 1] + 0.02 * (age - 36) + 0.5 * eczema))
    free = np.clip(55 + 9 * ics - 7 * latent[:, 0] + 4 * latent[:, 2] + 0.1 * (age - 36) - 4 * eczema
                   + rng.normal(0, 7, n), 0, 90)
    table(out / "wheeze_children.csv", {
        "child": [f"W{i:04d}" for i in range(n)], "ics": ics, "age_months": age, "eczema": eczema,
        "symptom_free_days": free}, {"age_months": ".0f", "symptom_free_days": ".0f"})
    array(out / "wheeze_chest_xray_emb.npy", emb)


@writer
def solar_cleaning(out: Path) -> None:
    """Solar sites (no header row): robotic panel cleaning (binary) went to dusty, dry, older sites; it adds
    about 0.12 kWh per kWp a day. Columns: site, cleaned, soiling_index, rain_mm_week, panel_age_yr,
    yield_kwh_kwp."""
    rng = np.random.default_rng(14105)
    n = 400
    soil = rng.uniform(0, 1, n)
    rain = rng.gamma(2, 6, n)
    age = rng.uniform(0, 15, n)
    cleaned = rng.binomial(1, expit(2.0 * (soil - 0.5) - 0.05 * (rain - 12) + 0.06 * (age - 7)))
    yld = 4.4 + 0.12 * cleaned - 0.5 * soil + 0.01 * rain - 0.02 * age + rng.normal(0, 0.12, n)
    table(out / "solar_site_cleaning.csv", {
        "site": [f"PV{i:03d}" for i in range(n)], "cleaned": cleaned, "soiling_index": soil,
        "rain_mm_week": rain, "panel_age_yr": age, "yield_kwh_kwp": yld},
        {"soiling_index": ".3f", "rain_mm_week": ".1f", "panel_age_yr": ".1f", "yield_kwh_kwp": ".3f"},
        header=False)


@writer
def cleaner_fish(out: Path) -> None:
    """Salmon pens with or without cleaner fish (wrasse, binary); no sea-lice count in the file."""
    rng = np.random.default_rng(14106)
    n = 240
    temp = rng.uniform(7, 14, n)
    wrasse = rng.binomial(1, 0.5, n)
    table(out / "wrasse_pen_log.csv", {
        "pen": [f"WP{i:03d}" for i in range(n)], "wrasse_stocked": wrasse, "water_temp_c": temp,
        "fish_count_k": rng.uniform(40, 120, n), "mortality_pct": np.clip(rng.normal(3, 1, n), 0, None)},
        {"water_temp_c": ".1f", "fish_count_k": ".1f", "mortality_pct": ".2f"})


@writer
def bronchiolitis(out: Path) -> None:
    """Infants with bronchiolitis: high-flow oxygen (binary) and two lengths of stay (ward days, whole stay)."""
    rng = np.random.default_rng(14107)
    n = 300
    age = rng.uniform(1, 12, n)
    sats = rng.normal(92, 3, n)
    hf = rng.binomial(1, expit(-0.3 * (sats - 92)))
    ward = np.clip(2.5 - 0.3 * hf + 0.2 * (92 - sats) + rng.normal(0, 0.8, n), 0.5, None)
    table(out / "bronchiolitis_stays.csv", {
        "infant": [f"B{i:04d}" for i in range(n)], "age_months": age, "admission_sats": sats, "high_flow": hf,
        "los_ward_days": ward, "los_total_days": ward + np.clip(rng.normal(0.8, 0.6, n), 0, None) * (1 + hf)},
        {"age_months": ".1f", "admission_sats": ".0f", "los_ward_days": ".1f", "los_total_days": ".1f"})


@writer
def lead_pipes(out: Path) -> None:
    """Households: lead service-line replacement (binary) and a child's blood lead above the action level (0/1),
    with unseen household care; three scheduling variables of the works shift replacement only."""
    rng = np.random.default_rng(14108)
    n = 600
    house_age = rng.uniform(20, 110, n)
    income = rng.normal(0, 1, n)
    care = rng.normal(size=n)
    crew = rng.uniform(0.5, 25, n)
    wait = rng.gamma(3, 10, n)
    works = rng.binomial(1, 0.4, n)
    replaced = rng.binomial(1, expit(0.8 - 0.08 * crew - 0.03 * (wait - 30) + 0.9 * works + 0.4 * care
                                     + 0.2 * income))
    high = rng.binomial(1, expit(-1.0 - 0.9 * replaced + 0.015 * (house_age - 65) - 0.4 * income - 0.6 * care))
    table(out / "lead_line_households.csv", {
        "household": [f"H{i:04d}" for i in range(n)], "house_age_yr": house_age, "income_z": income,
        "crew_distance_km": crew, "permit_wait_days": wait, "street_works": works, "line_replaced": replaced,
        "blood_lead_high": high},
        {"house_age_yr": ".0f", "income_z": ".3f", "crew_distance_km": ".2f", "permit_wait_days": ".0f"})


@writer
def guesthouse_listings(out: Path) -> None:
    """Guesthouse listings: photos drive the reply rate a little and both drive the review count; a linear score
    decides the featured badge. Rows 0 and 4 are small listings without the badge."""
    rng = np.random.default_rng(14109)
    n = 50
    photos = np.clip(rng.normal(14, 5, n), 1, None)
    reply = np.clip(40 + 1.5 * photos + rng.normal(0, 10, n), 0, 100)
    reviews = np.clip(0.8 * photos + 0.4 * reply + rng.normal(0, 8, n), 0, None)
    photos[0], reply[0], reviews[0] = 4, 35, 12
    photos[4], reply[4], reviews[4] = 6, 50, 20
    table(out / "guesthouse_listings.csv", {"listing": [f"G{i:03d}" for i in range(n)], "photos": photos,
                                            "reply_rate": reply, "reviews": reviews},
          {"photos": ".0f", "reply_rate": ".1f", "reviews": ".0f"})


# ------------------------------------------------------------------------------------------------ surveys

AGE_BANDS = ["18-34", "35-54", "55+"]
AGREE = ["agree", "neutral", "disagree"]


@writer
def island_residents(out: Path) -> None:
    """Island residents asked in 2022 and 2024 about capping cruise calls and a tourist tax, with design weights
    (dw); the old town and the young are over-sampled. Margins by age band and district, and a chatbot's answer
    shares."""
    rng = np.random.default_rng(14110)
    n = 640
    year = rng.choice([2022, 2024], n)
    age = rng.choice(AGE_BANDS, n, p=[0.45, 0.35, 0.2])
    district = rng.choice(["old_town", "harbour", "hills"], n, p=[0.5, 0.3, 0.2])
    dw = rng.uniform(0.6, 1.6, n)
    cruise = ordered(rng, 0.5 * (district == "old_town") + 0.4 * (year == 2024) - 0.3 * (age == "18-34"), AGREE,
                     (-0.5, 0.5))
    tax = ordered(rng, 0.3 * (age == "55+") + 0.2 * (district == "hills"), AGREE, (-0.3, 0.6))
    table(out / "island_residents_survey.csv", {
        "resp": np.arange(1, n + 1), "year": year, "dw": dw, "age_band": age, "district": district,
        "q_cruise_cap": cruise, "q_tourist_tax": tax}, {"dw": ".3f"})
    rows = [("age_band", "18-34", 0.26), ("age_band", "35-54", 0.36), ("age_band", "55+", 0.38),
            ("district", "old_town", 0.22), ("district", "harbour", 0.38), ("district", "hills", 0.40)]
    table(out / "island_margins.csv", {"variable": [r[0] for r in rows], "level": [r[1] for r in rows],
                                       "share": [r[2] for r in rows]}, {"share": ".2f"})
    shares = {"q_cruise_cap": (0.45, 0.35, 0.20), "q_tourist_tax": (0.50, 0.20, 0.30)}
    table(out / "island_chatbot_shares.csv", {
        "question": [q for q in shares for _ in AGREE], "answer": [a for _ in shares for a in AGREE],
        "share": [s for q in shares for s in shares[q]]}, {"share": ".2f"})


@writer
def water_customers(out: Path) -> None:
    """Water-utility customers on trust in smart meters and fairness of the tariff; owners and large
    households answered more. A reference sample of all account holders (no weights) and an assistant's
    sampled answers (one row each)."""
    rng = np.random.default_rng(14111)
    n = 520
    tenure = rng.choice(["owner", "renter"], n, p=[0.7, 0.3])
    hh = rng.choice(["1", "2-3", "4+"], n, p=[0.2, 0.4, 0.4])
    meter = ordered(rng, 0.4 * (tenure == "owner") - 0.2 * (hh == "4+"), AGREE, (-0.4, 0.5))
    price = ordered(rng, -0.5 * (hh == "4+") + 0.2 * (tenure == "owner"), AGREE, (-0.2, 0.7))
    table(out / "water_customer_survey.csv", {
        "account": [f"A{i:05d}" for i in range(n)], "tenure": tenure, "household_size": hh,
        "q_meter_trust": meter, "q_price_fair": price})
    m = 1000
    table(out / "water_account_reference.csv", {
        "tenure": rng.choice(["owner", "renter"], m, p=[0.55, 0.45]),
        "household_size": rng.choice(["1", "2-3", "4+"], m, p=[0.35, 0.4, 0.25])})
    qs, ans = [], []
    for q, p in (("q_meter_trust", [0.6, 0.25, 0.15]), ("q_price_fair", [0.3, 0.4, 0.3])):
        for a in rng.choice(AGREE, 40, p=p):
            qs.append(q)
            ans.append(str(a))
    table(out / "water_assistant_replies.csv", {"question": qs, "answer": ans})


# ------------------------------------------------------------------------------------------------ anomalies

@writer
def pharmacy_audits(out: Path) -> None:
    """Monthly stock audits of controlled drugs in community pharmacies; about 4% had a confirmed discrepancy
    (discrepancy_confirmed), with larger count gaps, more manual adjustments and late returns."""
    rng = np.random.default_rng(14112)
    n = 900
    bad = rng.random(n) < 0.04
    table(out / "pharmacy_stock_audits.csv", {
        "dispensed_units": rng.gamma(5, 120, n), "count_gap_units": np.abs(rng.normal(0, 3, n)) + 12 * bad,
        "manual_adjustments": rng.poisson(1, n) + rng.poisson(4, n) * bad,
        "returns_late_days": rng.poisson(2, n) + rng.poisson(9, n) * bad,
        "staff_on_shift": rng.integers(2, 9, n), "discrepancy_confirmed": bad.astype(int)},
        {"dispensed_units": ".0f", "count_gap_units": ".1f"})


@writer
def tremor_windows(out: Path) -> None:
    """Ten-minute windows of seismic tremor at a volcano observatory, unlabelled; about 2% are unrest episodes
    (high RSAM, low dominant frequency, high SO2)."""
    rng = np.random.default_rng(14113)
    n = 800
    unrest = rng.random(n) < 0.02
    table(out / "tremor_windows.csv", {
        "rsam": rng.lognormal(3.0, 0.4, n) * np.where(unrest, 4.0, 1.0),
        "dominant_hz": rng.normal(3.5, 0.6, n) - 1.8 * unrest, "kurtosis": rng.gamma(3, 1, n),
        "so2_t_day": rng.gamma(4, 120, n) + 1500 * unrest, "tilt_urad": rng.normal(0, 0.5, n) + 2 * unrest},
        {"rsam": ".2f", "dominant_hz": ".3f", "kurtosis": ".3f", "so2_t_day": ".0f", "tilt_urad": ".3f"})


# ------------------------------------------------------------------------------------------------ robustness

@writer
def whale_calls(out: Path) -> None:
    """Hydrophone detections: humpback song units (humpback = 1) against ship noise and other sources, separated
    nonlinearly by frequency, duration, bandwidth and tonality."""
    rng = np.random.default_rng(14114)
    n = 600
    hb = rng.random(n) < 0.45
    table(out / "whale_call_features.csv", {
        "peak_hz": rng.lognormal(np.where(hb, 6.0, 5.2), 0.4), "duration_s": rng.lognormal(np.where(hb, 0.3, 0.9), 0.5),
        "bandwidth_hz": rng.gamma(np.where(hb, 3, 6), 60), "tonality": rng.beta(np.where(hb, 5, 2), 3),
        "snr_db": rng.normal(12, 4, n), "humpback": hb.astype(int)},
        {"peak_hz": ".1f", "duration_s": ".3f", "bandwidth_hz": ".1f", "tonality": ".3f", "snr_db": ".2f"})


@writer
def squad_injuries(out: Path) -> None:
    """Footballers' weeks: a soft-tissue injury next week (injured) against load; the acute:chronic workload
    ratio adds little beyond the sprint distance and previous injuries it tracks."""
    rng = np.random.default_rng(14115)
    n = 600
    sprint = rng.gamma(5, 60, n)
    acwr = 0.8 + 0.0012 * sprint + rng.normal(0, 0.12, n)
    prev = rng.poisson(0.5, n)
    age = rng.uniform(18, 34, n)
    sleep = rng.normal(7.5, 0.8, n)
    logit = -2.2 + 0.004 * (sprint - 300) + 0.5 * (acwr - 1.16) + 0.6 * prev + 0.05 * (age - 26) - 0.3 * (sleep - 7.5)
    table(out / "squad_injury_weeks.csv", {
        "sprint_m": sprint, "acute_chronic_ratio": acwr, "previous_injuries": prev, "age_yr": age,
        "sleep_h": sleep, "injured": rng.binomial(1, expit(logit))},
        {"sprint_m": ".0f", "acute_chronic_ratio": ".3f", "age_yr": ".1f", "sleep_h": ".2f"})


@writer
def hotel_cancellations(out: Path) -> None:
    """Hotel bookings with a cancellation label (lead time, deposit, repeat guest, price)."""
    rng = np.random.default_rng(14116)
    n = 500
    lead = rng.gamma(2, 40, n)
    deposit = rng.binomial(1, 0.3, n)
    repeat = rng.binomial(1, 0.15, n)
    price = rng.gamma(6, 20, n)
    table(out / "hotel_bookings_cancel.csv", {
        "lead_days": lead, "deposit": deposit, "repeat_guest": repeat, "nightly_eur": price,
        "cancelled": rng.binomial(1, expit(-1 + 0.01 * (lead - 80) - 1.2 * deposit - 0.8 * repeat))},
        {"lead_days": ".0f", "nightly_eur": ".2f"})


# ------------------------------------------------------------------------------------------------ bayes

RING = '''"""Log density of a noisy ring of radius 2 in the plane (unnormalised)."""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    r = torch.sqrt((z ** 2).sum(dim=1) + 1e-12)
    return -0.5 * ((r - 2.0) / 0.25) ** 2
'''


@writer
def ring_density(out: Path) -> None:
    """A user's log density: a ring of radius 2 and width 0.25 in two dimensions (a Python file)."""
    (out / "ring_log_density.py").write_text(RING)


@writer
def oyster_growth(out: Path) -> None:
    """45 oyster bags: shell growth (mm a month) rising with water temperature, falling with salinity."""
    rng = np.random.default_rng(14117)
    n = 45
    temp = rng.uniform(9, 22, n)
    sal = rng.uniform(18, 34, n)
    table(out / "oyster_bag_growth.csv", {"temp_c": temp, "salinity_psu": sal,
                                         "growth_mm": 3 + 0.3 * (temp - 15) - 0.1 * (sal - 26) + rng.normal(0, 0.5, n)},
          {"temp_c": ".1f", "salinity_psu": ".1f", "growth_mm": ".2f"})


@writer
def sprint_times(out: Path) -> None:
    """30 m sprint times of academy players against stride length, cadence and wind (nonlinear); 40 training
    rows and 20 test rows in two files."""
    rng = np.random.default_rng(14118)
    for name, n in (("sprint_trials_train.csv", 40), ("sprint_trials_test.csv", 20)):
        stride = rng.uniform(1.6, 2.3, n)
        cadence = rng.uniform(3.8, 4.9, n)
        wind = rng.uniform(-2, 2, n)
        t = 30 / (stride * cadence) * (1 + 0.03 * np.sin(3 * wind)) + 0.6 + rng.normal(0, 0.05, n)
        table(out / name, {"stride_m": stride, "cadence_hz": cadence, "wind_ms": wind, "time_30m_s": t},
              {"stride_m": ".3f", "cadence_hz": ".3f", "wind_ms": ".2f", "time_30m_s": ".3f"})


@writer
def seal_haulout(out: Path) -> None:
    """Seal haul-out index against tidal phase and wind direction (radians in [0, 2 pi)): semidiurnal in the
    tide (unchanged by a half-cycle shift) and symmetric in wind direction about north (x -> -x)."""
    rng = np.random.default_rng(14119)
    n = 400
    tide = rng.uniform(0, 2 * np.pi, n)
    wind = rng.uniform(0, 2 * np.pi, n)
    y = np.cos(2 * tide) + 0.6 * np.cos(wind) + 0.3 * np.cos(2 * tide) * np.cos(wind) + rng.normal(0, 0.3, n)
    table(out / "seal_haulout_angles.csv", {"tide_phase": tide, "wind_dir": wind, "haulout_index": y},
          {"tide_phase": ".5f", "wind_dir": ".5f", "haulout_index": ".4f"})


# ------------------------------------------------------------------------------------------------ cosmology

@writer
def harrier_sn(out: Path) -> None:
    """90 distance moduli from a cluster-lensed supernova follow-up, flat wCDM (Omega_m 0.3, w -0.9)."""
    rng = np.random.default_rng(14120)
    n = 90
    z = np.sort(rng.uniform(0.03, 1.4, n))
    err = rng.uniform(0.1, 0.16, n)
    mu = distance_modulus(z, 0.30, w0=-0.9) + rng.normal(0, err)
    table(out / "harrier_cluster_sn.csv", {"z": z, "mu": mu, "sigma_mu": err},
          {"z": ".4f", "mu": ".4f", "sigma_mu": ".3f"})


@writer
def kestrel_sn(out: Path) -> None:
    """50 standardised magnitudes (M -19.25 at H0 70) of flat Lambda-CDM (Omega_m 0.3), whitespace separated
    (zcmb, mb, dmb), and a covariance of N*N values with no count line."""
    rng = np.random.default_rng(14121)
    n = 50
    z = np.sort(rng.uniform(0.02, 1.1, n))
    err = rng.uniform(0.1, 0.15, n)
    cov = correlated_cov(z, err, 0.02, 0.3)
    mb = distance_modulus(z, 0.30) - 19.25 + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "kestrel_sn_mb.txt", {"zcmb": z, "mb": mb, "dmb": err}, {"zcmb": ".4f", "mb": ".4f", "dmb": ".3f"},
          sep=" ")
    (out / "kestrel_mb_covmat.txt").write_text("".join(f"{v:.5e}\n" for v in cov.ravel()))


@writer
def osprey_sn(out: Path) -> None:
    """100 distance moduli of an open-ish Lambda universe (Omega_m 0.29, Omega_de 0.68), columns redshift,
    distmod, mu_err."""
    rng = np.random.default_rng(14122)
    n = 100
    z = np.sort(rng.uniform(0.02, 1.5, n))
    err = rng.uniform(0.11, 0.17, n)
    mu = distance_modulus(z, 0.29, 0.68) + rng.normal(0, err)
    table(out / "osprey_sn_distances.csv", {"redshift": z, "distmod": mu, "mu_err": err},
          {"redshift": ".4f", "distmod": ".4f", "mu_err": ".3f"})


@writer
def heron_sn(out: Path) -> None:
    """40 distance moduli (flat, Omega_m 0.31, w -1.05) for a joint fit with the CMB, with a covariance file
    (count line first)."""
    rng = np.random.default_rng(14123)
    n = 40
    z = np.sort(rng.uniform(0.03, 1.2, n))
    err = rng.uniform(0.11, 0.16, n)
    cov = correlated_cov(z, err, 0.02, 0.5)
    mu = distance_modulus(z, 0.31, w0=-1.05, h0=67.5) + rng.multivariate_normal(np.zeros(n), cov)
    table(out / "heron_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    (out / "heron_joint_cov.txt").write_text(f"{n}\n" + "".join(f"{v:.5e}\n" for v in cov.ravel()))


@writer
def plover_sn(out: Path) -> None:
    """40 distance moduli with two covariance files: statistical only, and statistical plus systematic."""
    rng = np.random.default_rng(14124)
    n = 40
    z = np.sort(rng.uniform(0.02, 1.0, n))
    err = rng.uniform(0.1, 0.15, n)
    stat = np.diag(err ** 2)
    full = correlated_cov(z, err, 0.03, 0.4)
    mu = distance_modulus(z, 0.3) + rng.multivariate_normal(np.zeros(n), full)
    table(out / "plover_sn_mu.csv", {"z": z, "mu": mu, "mu_err": err}, {"z": ".4f", "mu": ".4f", "mu_err": ".3f"})
    for name, cov in (("plover_cov_stat.txt", stat), ("plover_cov_statsys.txt", full)):
        (out / name).write_text(f"{n}\n" + "".join(f"{v:.5e}\n" for v in cov.ravel()))


@writer
def cluster_counts_chain(out: Path) -> None:
    """A Cobaya-style weighted chain of a cluster-abundance run (weight, minuslogpost, omegam, sigma8, S8),
    1,500 rows settling over the first few percent, gzip-compressed."""
    rng = np.random.default_rng(14125)
    centre = np.array([0.305, 0.80])
    sd = np.array([0.03, 0.035])
    x = ar_chain(rng, 1500, centre, sd, np.array([0.38, 0.70]), 30.0)
    s8 = x[:, 1] * np.sqrt(x[:, 0] / 0.3)
    weight = rng.integers(1, 5, 1500)
    post = 0.5 * np.sum(((x - centre) / sd) ** 2, axis=1) + 120.0
    lines = ["#    weight  minuslogpost  omegam  sigma8  S8"]
    lines += [f"{w:d} {p:.4f} {r[0]:.5f} {r[1]:.5f} {s:.5f}" for w, p, r, s in zip(weight, post, x, s8, strict=True)]
    gzip_text(out / "cluster_counts_chain.txt.gz", "\n".join(lines) + "\n")


@writer
def quasar_bao_chains(out: Path) -> None:
    """Three plain-header chains of one quasar-BAO run (ombh2, omch2, H0), 700 rows each."""
    rng = np.random.default_rng(14126)
    centre = np.array([0.0224, 0.119, 67.9])
    sd = np.array([0.0005, 0.004, 1.1])
    starts = ([0.0235, 0.13, 70.5], [0.0215, 0.11, 65.5], [0.0228, 0.125, 69.0])
    for tag, start in zip("abc", starts, strict=True):
        x = ar_chain(rng, 700, centre, sd, np.array(start), 30.0, rho=0.3)
        lines = ["# ombh2 omch2 H0"] + [f"{r[0]:.6f} {r[1]:.5f} {r[2]:.3f}" for r in x]
        (out / f"qso_bao_run_{tag}.txt").write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------------ lm

@writer
def dolphin_embeddings(out: Path) -> None:
    """Embeddings (16-d) of 400 dolphin photographs from a vision model, additive in species and behaviour
    (four of each) plus noise, with a label file (photo_id, species, behaviour)."""
    rng = np.random.default_rng(14127)
    species = ["bottlenose", "common", "rissos", "striped"]
    behaviour = ["travel", "feed", "socialise", "rest"]
    n = 400
    s = rng.integers(0, 4, n)
    b = rng.integers(0, 4, n)
    ps = rng.normal(size=(4, 16))
    pb = rng.normal(size=(4, 16))
    emb = ps[s] + pb[b] + 0.4 * rng.normal(size=(n, 16))
    array(out / "dolphin_photo_emb.npy", emb)
    table(out / "dolphin_photo_labels.csv", {"photo_id": [f"DP{i:04d}" for i in range(n)],
                                             "species": [species[i] for i in s],
                                             "behaviour": [behaviour[i] for i in b]})


DEPOTS = ["Northgate", "Eastfield", "Riverside", "Millbrook", "Highcross", "Ashvale", "Kingsmoor", "Westport"]
LINES = ["Coastway", "Valley line", "Orbital", "Harbour branch", "Moorland line", "Airport link", "Cathedral loop",
         "Ridge line", "Canal line", "Forest branch", "Abbey line", "Quarry spur", "Lakeside line", "Castle line",
         "Meadow branch", "Tower line"]


@writer
def depot_edits(out: Path) -> None:
    """A stream of 60 fact edits (4 timesteps of 15): which depot maintains the rolling stock of each line."""
    rng = np.random.default_rng(14128)
    recs = []
    for t in range(4):
        for j, line in enumerate(rng.permutation(LINES)[:15]):
            depot = str(rng.choice(DEPOTS))
            recs.append({"timestep": t, "subject": str(line), "relation": "maintained at",
                         "prompt": f"The trains of the {line} are maintained at", "object": depot,
                         "rephrase": f"Rolling stock for the {line} is serviced at"})
            del j
    json_lines(out / "depot_line_edits.jsonl", recs)


BULLETIN = {
    "when": ["Overnight", "Early in the morning", "By midday", "During the afternoon", "In the evening",
             "Around midnight", "Throughout the day", "After the rain"],
    "what": ["the summit webcam showed", "the tiltmeter recorded", "the gas team measured", "the field crew saw",
             "the seismic network located", "the infrasound array picked up", "the thermal camera detected"],
    "obs": ["a weak steam plume drifting east", "a few long-period events under the crater",
            "sulphur dioxide near background", "minor rockfall on the north flank", "no change in the lava lake",
            "slight inflation of the summit", "degassing from the western vent", "a cloud-covered summit"],
    "end": ["The alert level stays at yellow.", "Access to the crater rim remains closed.",
            "Ash is not expected beyond the upper slopes.", "The next bulletin follows tomorrow.",
            "Visitors should keep to the marked trails.", "Monitoring continues around the clock."],
}


@writer
def volcano_bulletins(out: Path) -> None:
    """A synthetic daily volcano-observatory bulletin text (about 6,000 words) for a haystack, and four needles
    of the user's own (needle, question, answer) whose answers need one association step."""
    rng = np.random.default_rng(14129)
    days = []
    for d in range(180):
        parts = [f"Bulletin {d + 1}."]
        for _ in range(2):
            parts.append(f"{rng.choice(BULLETIN['when'])} {rng.choice(BULLETIN['what'])} "
                         f"{rng.choice(BULLETIN['obs'])}.")
        parts.append(str(rng.choice(BULLETIN["end"])))
        days.append(" ".join(parts))
    (out / "volcano_bulletins.txt").write_text("\n".join(" ".join(days[i:i + 5]) for i in range(0, 180, 5)) + "\n")
    table(out / "observatory_needles.csv", {
        "needle": ["Ines spent her last field season sampling fumaroles beside the Blue Mosque.",
                   "Tomas once calibrated a gas sensor in the shadow of the Charles Bridge.",
                   "Priya keeps a photo of herself standing next to the Little Mermaid statue.",
                   "Ravi has a spare seismometer stored near the Alhambra."],
        "question": ["Which volcanologist has been to Turkey?", "Which technician has been to the Czech Republic?",
                     "Which colleague has visited Denmark?", "Which observer keeps equipment in Spain?"],
        "answer": ["Ines", "Tomas", "Priya", "Ravi"]})


# ------------------------------------------------------------------------------------------------ near misses

@writer
def eruption_dates(out: Path) -> None:
    """Onset years and months of 48 eruptions of one volcano since 1800 (gamma-renewal intervals), with VEI."""
    rng = np.random.default_rng(14130)
    t = 1800 + np.cumsum(rng.gamma(2.0, 2.3, 48))
    table(out / "eruption_onsets.csv", {"onset_year": np.floor(t).astype(int),
                                        "onset_month": (1 + np.floor((t % 1) * 12)).astype(int),
                                        "vei": rng.choice([1, 2, 3, 4], 48, p=[0.4, 0.35, 0.2, 0.05])})


@writer
def porpoise_detectors(out: Path) -> None:
    """Nightly detections (0/1) of harbour porpoise clicks at 30 click-detector moorings over 40 nights, with
    water depth; imperfect detection (p about 0.4) at occupied sites (about 60%)."""
    rng = np.random.default_rng(14131)
    rows = []
    for s in range(30):
        depth = rng.uniform(8, 45)
        occupied = rng.random() < expit(-0.5 + 0.06 * (depth - 20))
        for night in range(40):
            rows.append((f"M{s + 1:02d}", night + 1, depth, int(occupied and rng.random() < 0.4)))
    table(out / "porpoise_click_nights.csv", {
        "mooring": [r[0] for r in rows], "night": [r[1] for r in rows], "depth_m": [r[2] for r in rows],
        "detected": [r[3] for r in rows]}, {"depth_m": ".1f"})


@writer
def pharmacy_dispensing(out: Path) -> None:
    """Daily packs of amoxicillin dispensed at one pharmacy over two years (weekly and winter seasonality)."""
    rng = np.random.default_rng(14132)
    days = np.arange(730)
    rate = 30 + 12 * np.cos(2 * np.pi * (days - 15) / 365) - 10 * ((days % 7) == 6)
    table(out / "amoxicillin_daily_packs.csv", {"day": days + 1, "weekday": days % 7,
                                                "packs": rng.poisson(np.clip(rate, 1, None))})


def generate(out: Path) -> None:
    writer.run(out)


if __name__ == "__main__":
    main(__doc__, generate, HERE / "data")
