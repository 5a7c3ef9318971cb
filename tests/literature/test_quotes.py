"""Quoted spans are checked against a chunk's text the way a citation audit needs."""

from __future__ import annotations

from cmbagent.literature import quote_in_text

TEXT = ("WSAD-DT introduces two centroids\u2014one for normal samples and one for anomalies\u2014and a heavy-tailed "
        "kernel to main- tain a wider margin against out-of-class instances.")


def test_quotes_match_through_typography_case_spacing_and_ellipses() -> None:
    assert quote_in_text("two centroids—one for normal samples", TEXT)
    assert quote_in_text("two centroids-one for NORMAL   samples", TEXT)
    assert quote_in_text("to maintain a wider margin", TEXT)  # a PDF line-break hyphen
    assert quote_in_text("\u201cintroduces two centroids \u2026 a heavy-tailed kernel\u201d", TEXT)


def test_wrong_reordered_or_trivial_quotes_do_not_match() -> None:
    assert not quote_in_text("three centroids", TEXT)
    assert not quote_in_text("a heavy-tailed kernel ... introduces two centroids", TEXT)  # wrong order
    assert not quote_in_text("the", TEXT)  # too short to be evidence
    assert not quote_in_text("   ", TEXT)
