"""Paths of the supernova files shipped with the examples (the main job's data)."""

from __future__ import annotations

from pathlib import Path

SN = Path(__file__).resolve().parents[3] / "examples" / "data" / "sn"
PANTHEON = SN / "Pantheon+SH0ES.dat"
UNION = SN / "SCPUnion2.1_mu_vs_z.txt"
JLA = SN / "jla_mub.txt"
JLA_COV = SN / "jla_mub_covmatrix.txt"
