"""Finite groups acting on the torus T^d = [0, 2π)^d and on the sphere S², given by generators.

A generator is a short string (see :func:`parse_generators`).  Each is checked to be a bijection of the domain
and an isometry (only isometries commute with the Laplacian, so only they map its eigenspaces to themselves,
which is what Spec-Avg's projection needs); the group they generate is enumerated by closure to say how many
elements it has, and refused when it is infinite or larger than :data:`MAX_ORDER`.

Torus elements are affine maps x ↦ A x + 2π t (mod 2π) with an integer matrix A and a rational t, kept in
exact arithmetic (``fractions.Fraction``), so closure is exact.  Sphere elements are orthogonal 3×3 matrices,
compared after rounding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from cmbagent.exceptions import UserError

__all__ = ["MAX_ORDER", "Element", "group_order", "parse_generators"]

MAX_ORDER = 20000
_AXES = {"x": 0, "y": 1, "z": 2}


@dataclass(frozen=True)
class Element:
    """One group element: ``apply(points)`` maps points of the domain (angles on the torus, unit vectors on
    the sphere)."""

    matrix: tuple[tuple[float, ...], ...]
    shift: tuple[Fraction, ...] = ()
    label: str = ""

    def apply(self, points: np.ndarray) -> np.ndarray:
        a = np.asarray(self.matrix, dtype=float)
        out = points @ a.T
        if self.shift:
            out = np.mod(out + 2 * np.pi * np.array([float(s) for s in self.shift]), 2 * np.pi)
        return out

    def key(self) -> tuple[object, ...]:
        if self.shift:
            return (self.matrix, tuple(s % 1 for s in self.shift))
        return tuple(round(v, 8) + 0.0 for row in self.matrix for v in row),

    def compose(self, other: Element) -> Element:
        """self ∘ other."""
        a, b = np.asarray(self.matrix), np.asarray(other.matrix)
        if self.shift:
            ai = [[int(v) for v in row] for row in self.matrix]
            shift = tuple(sum((ai[i][j] * other.shift[j] for j in range(len(ai))), Fraction(0)) + self.shift[i]
                          for i in range(len(ai)))
            matrix = tuple(tuple(int(v) for v in row) for row in (a @ b).round().astype(int))
            return Element(matrix, tuple(s % 1 for s in shift))
        return Element(tuple(tuple(float(v) for v in row) for row in a @ b))


def _argument_error(spec: str, why: str) -> UserError:
    return UserError(f"generators: {spec!r} {why}")


def _indices(text: str, spec: str, dim: int) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise _argument_error(spec, "needs integer coordinate indices") from None
    if any(not 0 <= v < dim for v in values):
        raise _argument_error(spec, f"names a coordinate outside 0..{dim - 1} (the domain has {dim})")
    return values


def _matrix(text: str, spec: str) -> np.ndarray:
    try:
        rows = [[float(v) for v in row.split(",")] for row in text.split(";")]
        m = np.array(rows, dtype=float)
    except ValueError:
        raise _argument_error(spec, "needs a matrix written as rows 'a,b;c,d'") from None
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise _argument_error(spec, f"must be a square matrix, got shape {m.shape}")
    return m


def _torus(spec: str, dim: int) -> Element:
    kind, _, rest = spec.partition(":")
    a = np.eye(dim, dtype=int)
    shift = [Fraction(0)] * dim
    if kind == "flip":
        (i,) = _indices(rest, spec, dim)
        a[i, i] = -1
    elif kind == "swap":
        idx = _indices(rest, spec, dim)
        if len(idx) != 2 or idx[0] == idx[1]:
            raise _argument_error(spec, "must name two different coordinates, e.g. 'swap:0,1'")
        a[[idx[0], idx[1]]] = a[[idx[1], idx[0]]]
    elif kind == "perm":
        p = _indices(rest, spec, dim)
        if sorted(p) != list(range(dim)):
            raise _argument_error(spec, f"is not a bijection of the torus: {p} is not a permutation of 0..{dim - 1}")
        a = np.eye(dim, dtype=int)[p]
    elif kind == "shift":
        coord, _, k = rest.partition(":")
        (i,) = _indices(coord, spec, dim)
        try:
            order = int(k)
        except ValueError:
            raise _argument_error(spec, "needs an integer k (a shift by 2π/k), e.g. 'shift:0:4'") from None
        if order < 1:
            raise _argument_error(spec, "needs k ≥ 1")
        shift[i] = Fraction(1, order)
    elif kind == "linear":
        m = _matrix(rest, spec)
        if m.shape != (dim, dim) or not np.allclose(m, m.round()):
            raise _argument_error(spec, f"must be an integer {dim}×{dim} matrix to map the torus to itself")
        if round(abs(np.linalg.det(m))) != 1:
            raise _argument_error(spec, f"is not a bijection of the torus (|det| = {abs(np.linalg.det(m)):.3g}, "
                                        "an integer matrix must have determinant ±1)")
        a = m.round().astype(int)
    else:
        raise _argument_error(spec, "is not a torus generator; use flip:i, swap:i,j, perm:p0,p1,..., shift:i:k "
                                    "or linear:rows")
    if not (np.abs(a).sum(axis=0) == 1).all() or not (np.abs(a).sum(axis=1) == 1).all():
        raise _argument_error(spec, "is a bijection but not an isometry of the torus; Spec-Avg needs isometries "
                                    "(signed permutations and shifts), which commute with the Laplacian")
    return Element(tuple(tuple(int(v) for v in row) for row in a), tuple(shift), label=spec)


def _rotation(axis: int, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    i, j = [k for k in range(3) if k != axis]
    r = np.eye(3)
    r[i, i], r[i, j], r[j, i], r[j, j] = c, -s, s, c
    return r


def _sphere(spec: str) -> Element:
    kind, _, rest = spec.partition(":")
    if kind == "rot":
        axis, _, k = rest.partition(":")
        if axis not in _AXES:
            raise _argument_error(spec, "needs an axis x, y or z, e.g. 'rot:z:4'")
        try:
            order = int(k)
        except ValueError:
            raise _argument_error(spec, "needs an integer k (a rotation by 2π/k), e.g. 'rot:z:4'") from None
        if order < 1:
            raise _argument_error(spec, "needs k ≥ 1")
        m = _rotation(_AXES[axis], 2 * np.pi / order)
    elif kind == "reflect":
        if rest not in _AXES:
            raise _argument_error(spec, "needs an axis x, y or z, e.g. 'reflect:z'")
        m = np.eye(3)
        m[_AXES[rest], _AXES[rest]] = -1
    elif kind == "matrix":
        m = _matrix(rest, spec)
        if m.shape != (3, 3):
            raise _argument_error(spec, "must be a 3×3 matrix on the sphere")
        if not np.allclose(m.T @ m, np.eye(3), atol=1e-9):
            raise _argument_error(spec, "is not a bijection of the sphere: the matrix is not orthogonal "
                                        "(it does not keep unit vectors on the sphere)")
    else:
        raise _argument_error(spec, "is not a sphere generator; use rot:axis:k, reflect:axis or matrix:rows")
    return Element(tuple(tuple(float(v) for v in row) for row in m), label=spec)


def parse_generators(specs: Sequence[str], *, domain: str, dim: int) -> list[Element]:
    """The generators as group elements; a malformed, non-bijective or non-isometric one is a UserError."""
    if not specs:
        raise UserError("generators: give at least one generator, e.g. ['flip:0', 'flip:1'] on the torus")
    if domain == "torus":
        return [_torus(s.strip(), dim) for s in specs]
    return [_sphere(s.strip()) for s in specs]


def group_order(generators: Sequence[Element]) -> int:
    """|G| by closure under composition; a UserError when the group is infinite or too large."""
    identity_matrix = np.eye(len(generators[0].matrix))
    first = generators[0]
    if first.shift:
        ident = Element(tuple(tuple(int(v) for v in row) for row in identity_matrix.astype(int)),
                        tuple(Fraction(0) for _ in first.shift))
    else:
        ident = Element(tuple(tuple(float(v) for v in row) for row in identity_matrix))
    seen = {ident.key(): ident}
    frontier = [ident]
    while frontier:
        nxt = []
        for element in frontier:
            for g in generators:
                product = g.compose(element)
                key = product.key()
                if key not in seen:
                    seen[key] = product
                    nxt.append(product)
                    if len(seen) > MAX_ORDER:
                        raise UserError(f"generators: they generate a group with more than {MAX_ORDER} elements "
                                        "(or an infinite one, e.g. a rotation by an irrational angle); use "
                                        "rotations by 2π/k")
        frontier = nxt
    return len(seen)
