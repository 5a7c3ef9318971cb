"""Two readings a sceptic's own tasks showed missing (issue 29, session 17), each with tables and sentences
written for this test.

- **How many rows to list.** "List the 25 most suspicious hours nobody has checked yet" asks the anomaly method to
  list 25 rows; it listed ten whatever was asked, and the run said ``done`` with its checklist met. The method now
  takes ``n_listed``, and the reader takes the count from a request to list, show or name the top rows; the
  stand-in labels of an unlabelled table ("the 20 most isolated ... stand in as the anomalies") stay
  ``n_labeled``.
- **A prior on "it".** "What matter density do these distances prefer? Put a flat prior from 0.05 to 0.95 on it."
  The prior names its parameter by a pronoun; it is the one parameter the sentence before names. With two
  parameters there, the prior is not guessed.
- **A count to list that nothing takes** ("then list the 10 bins with the largest pulls") is asked about: "list"
  was read as a description ("the file lists …").
- **Two silent runs.** "Prior marks … affected who got tutored" made the treatment the outcome; "before we run
  anything …, how does a flat prior differ from a Gaussian one?" ran a supernova fit.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.reading._make import hubble_bins, read_with


def _sensors(folder: Path, *, labels: bool = True) -> Path:
    rng = np.random.default_rng(21)
    n = 300
    features = rng.normal(0, 1, (n, 3))
    features[:12] += 4.0
    path = folder / "compressors.csv"
    header = "flow,pressure_drop,motor_amps"
    columns = [np.round(features, 4)]
    if labels:
        verified = np.full(n, "", dtype=object)
        verified[:4], verified[100:130] = "1", "0"
        lines = [header + ",verified"] + [",".join(f"{v:.4f}" for v in row) + f",{mark}"
                                         for row, mark in zip(features, verified, strict=True)]
        path.write_text("\n".join(lines) + "\n")
        return path
    np.savetxt(path, columns[0], delimiter=",", header=header, comments="", fmt="%.4f")
    return path


def test_how_many_rows_to_list_is_read(tmp_path: Path) -> None:
    path = _sensors(tmp_path)
    for text, listed in [
        ("compressors.csv has a row per compressor-day; `verified` is 1 where an engineer found a leak, 0 where it "
         "was fine, blank where nobody went. Rank the days nobody verified by how odd they look and show me the top "
         "12.", 12),
        ("Our engineers verified a few compressor-days in compressors.csv (`verified`: 1 leaking, 0 fine, blank "
         "unknown). Using those labels, name the fifteen likeliest leaks among the days nobody looked at.", 15),
    ]:
        reading = read_with(path, text)
        assert reading.method == "anomaly.wsad_dt", (reading.method, text)
        assert reading.understanding is not None
        assert reading.understanding.arguments.get("n_listed") == listed, (reading.understanding.arguments, text)


def test_stand_in_labels_are_not_a_list_to_show(tmp_path: Path) -> None:
    path = _sensors(tmp_path, labels=False)
    text = ("Nobody has labelled compressors.csv. Let the 20 most isolated compressor-days stand in as the labelled "
            "anomalies and score every day.")
    reading = read_with(path, text)
    assert reading.understanding is not None
    arguments = reading.understanding.arguments
    assert arguments.get("n_labeled") == 20 and "n_listed" not in arguments, arguments


def test_a_flat_prior_on_it_is_on_the_parameter_the_sentence_before_names(tmp_path: Path) -> None:
    bins, _ = hubble_bins(tmp_path)
    text = (f"{bins.name} lists binned distance moduli (z, mu, sigma), independent errors. In flat LCDM, which "
            "matter density fits them best? Give it a uniform prior between 0.1 and 0.6, and seed 3.")
    reading = read_with(bins, text)
    assert reading.method == "cosmology.fit_supernovae"
    assert reading.understanding is not None
    assert reading.understanding.arguments.get("priors") == {"Omega_m": [0.1, 0.6]}, reading.understanding.arguments


def test_a_prior_on_it_after_two_parameters_is_not_guessed(tmp_path: Path) -> None:
    bins, _ = hubble_bins(tmp_path)
    text = (f"{bins.name} lists binned distance moduli (z, mu, sigma), independent errors. Fit w0 and the matter "
            "density together. Give it a uniform prior between 0.1 and 0.6, and seed 3.")
    reading = read_with(bins, text)
    priors = (reading.understanding.arguments.get("priors") if reading.understanding else None) or {}
    assert priors == {}, priors
    assert not reading.clear  # the 0.1 and 0.6 went nowhere: asked, not dropped


def test_a_count_to_list_that_no_argument_takes_is_asked_about(tmp_path: Path) -> None:
    """"List the 10 bins with the largest pulls" was read as a description (the table "lists" rows), so the 10 went
    unasked and undelivered; a request to list is a request, and a supernova fit has nothing that lists bins."""
    bins, _ = hubble_bins(tmp_path)
    text = (f"{bins.name} lists binned distance moduli (z, mu, sigma), independent errors. Fit flat LCDM with seed "
            "3, then list the 10 bins with the largest pulls.")
    reading = read_with(bins, text)
    assert reading.method == "cosmology.fit_supernovae"
    asked = [*reading.understanding.questions, *reading.unread] if reading.understanding else list(reading.unread)
    assert not reading.clear and any("10" in q for q in asked), asked
    described = read_with(bins, f"{bins.name} lists 24 binned distance moduli (z, mu, sigma), independent errors. "
                                "Fit flat LCDM with seed 3.")
    assert described.clear, described.unread  # "lists 24" says what the file holds


def test_what_decided_the_treatment_does_not_make_it_the_outcome(tmp_path: Path) -> None:
    """"Prior marks and attendance affected who got tutored" says what decided the treatment; its "affected" made
    `tutored` the outcome and the marks the treatment, and the run said ``done`` with the roles reversed."""
    from tests.reading._make import tutoring

    path = tutoring(tmp_path)
    text = (f"{path.name}: one row per pupil, `tutored` (1 if they had tutoring), `maths_score`, `prior_score`, "
            "`girl`, `class_size`. How much did the tutoring raise maths scores? Earlier scores, sex and class size "
            "all affected who got tutored.")
    reading = read_with(path, text)
    assert reading.method == "causal.dml_ate"
    arguments = reading.understanding.arguments if reading.understanding else {}
    assert reading.clear, reading.unread
    assert (arguments["treatment"], arguments["outcome"]) == ("tutored", "maths_score"), arguments


def test_a_question_asked_before_running_anything_runs_nothing(tmp_path: Path) -> None:
    """"Before we run anything on these bins, what is the difference between a flat and a Gaussian prior?" asks
    for an explanation; the offline reader ran a supernova fit on the bins."""
    bins, _ = hubble_bins(tmp_path)
    text = (f"Before we run anything on our supernova bins ({bins.name}): in a few sentences, how does a flat prior "
            "on the matter density differ in practice from a Gaussian one?")
    reading = read_with(bins, text)
    assert reading.method is None, (reading.method, reading.choice.status)
