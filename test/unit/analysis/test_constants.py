"""The one constant folder (``ir_facts.constant_int``) and the one trip count of an
``scf.for`` with constant bounds (``ir_facts.constant_trips``) that the front end, its tails
and the stage-ahead pass all read."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.ir_facts import constant_bounds, constant_int, constant_trips, zero_bits
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops


@pytest.fixture(scope="module")
def ctx():
    """One MLIR context for the module's cases: making one costs tens of milliseconds,
    which each case paid before."""
    return new_context()


def _module(body: str):
    return ir.Module.parse("func.func @f(%n: index, %x: i32) {\n" + body + "\n  return\n}")


def _value(body: str):
    """The value the last op of ``body`` (``%v = ...``) defines."""
    m = _module(body)
    ops = walk_ops(m.operation, lambda o: len(o.results) == 1)
    return m, ops[-1].results[0]


@pytest.mark.parametrize("body, want", [
    ("%v = arith.constant 7 : index", 7),
    ("%a = arith.constant 3 : index\n%b = arith.constant 4 : index\n"
     "%v = arith.muli %a, %b : index", 12),
    ("%a = arith.constant 3 : index\n%b = arith.constant 40 : index\n"
     "%c = arith.addi %a, %b : index\n%v = arith.subi %a, %c : index", -40),
    ("%a = arith.constant 5 : i32\n%v = arith.index_cast %a : i32 to index", 5),
    # wrapped to the result's width as the machine computes it
    ("%a = arith.constant 2147483647 : i32\n%b = arith.constant 1 : i32\n"
     "%v = arith.addi %a, %b : i32", -2147483648),
    # zero-extended casts read the operand's bits unsigned; a narrowing cast truncates
    ("%a = arith.constant -1 : i32\n%v = arith.index_castui %a : i32 to index", 4294967295),
    ("%a = arith.constant -2 : i32\n%v = arith.extui %a : i32 to i64", 4294967294),
    ("%a = arith.constant -2 : i32\n%v = arith.extsi %a : i32 to i64", -2),
    ("%a = arith.constant 4294967298 : index\n%v = arith.index_cast %a : index to i32", 2),
    # not constants: an argument, an op it does not fold, a float
    ("%a = arith.constant 3 : index\n%v = arith.addi %a, %n : index", None),
    ("%a = arith.constant 8 : index\n%b = arith.constant 2 : index\n"
     "%v = arith.divui %a, %b : index", None),
    ("%v = arith.constant 1.0 : f32", None),
])
def test_constant_int(ctx, body, want):
    with ctx:
        _m, v = _value(body)
        assert constant_int(v) == want


@pytest.mark.parametrize("lb, ub, step, bounds, trips", [
    ("arith.constant 0 : index", "arith.constant 128 : index", "arith.constant 32 : index",
     (0, 128, 32), 4),
    ("arith.constant 0 : index", "arith.constant 100 : index", "arith.constant 32 : index",
     (0, 100, 32), 4),
    ("arith.constant 64 : index", "arith.constant 0 : index", "arith.constant 32 : index",
     (64, 0, 32), 0),
    # folded bounds count too
    ("arith.constant 0 : index", "arith.muli %st, %st : index", "arith.constant 8 : index",
     (0, 64, 8), 8),
    # a step that is not positive: no trip count (the loop never ends)
    ("arith.constant 0 : index", "arith.constant 128 : index", "arith.constant 0 : index",
     (0, 128, 0), None),
    ("arith.constant 0 : index", "arith.constant 128 : index", "arith.constant -32 : index",
     (0, 128, -32), None),
    # a bound known only at run time
    ("arith.constant 0 : index", "arith.addi %n, %n : index", "arith.constant 32 : index",
     None, None),
])
def test_constant_trips(ctx, lb, ub, step, bounds, trips):
    with ctx:
        m = _module(f"%st = {step}\n%lb = {lb}\n%ub = {ub}\n"
                    f"scf.for %i = %lb to %ub step %st {{\n}}")
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        assert constant_bounds(loop) == bounds
        assert constant_trips(loop) == trips


def test_zero_bits_is_every_bit_clear(ctx):
    """The one test of a padding (``ir_facts.zero_bits``): integer 0 and float +0.0, scalar
    or splat, in every float width; -0.0 (a read past the end returns +0.0), a non-zero,
    a non-splat and a value not an ``arith.constant`` are not."""
    zero = ["0 : i8", "0 : index", "0.0 : f32", "0.000000e+00 : bf16", "0.0 : f8E4M3FN",
            "dense<0> : vector<16xi8>", "dense<0.0> : vector<8xbf16>",
            "dense<0.000000e+00> : vector<4xf8E5M2>"]
    other = ["-0.0 : f32", "-0.0 : bf16", "-0.0 : f8E4M3FN", "dense<-0.0> : vector<8xbf16>",
             "dense<-0.000000e+00> : vector<8xf16>", "1 : i8", "1.0e-30 : f32",
             "dense<[0.0, 1.0]> : vector<2xf32>", "dense<[0.0, -0.0]> : vector<2xf32>"]
    with ctx:
        for text, want in [(t, True) for t in zero] + [(t, False) for t in other]:
            m, v = _value(f"%v = arith.constant {text}")
            assert zero_bits(v) is want, text
        m, v = _value("%v = arith.index_cast %n : index to i32")
        assert not zero_bits(v)


@pytest.mark.parametrize("lb, ub, bounds, trips", [
    (0, 8, (0, 8, 1), 8),
    # -1 unsigned is 2**32 - 1: 2**32 - 1 iterations, none signed
    (0, -1, None, None),
    # -2 unsigned is above 1: no iteration, 3 signed
    (-2, 1, None, None),
])
def test_unsigned_trips(lb, ub, bounds, trips):
    """An ``scf.for unsigned`` has the bounds and trip count the signed reading gives only
    where the two readings agree (both bounds >= 0); else none (refused or taken as known
    only at run time by the callers)."""
    with new_context():
        m = _module(f"%lb = arith.constant {lb} : i32\n%ub = arith.constant {ub} : i32\n"
                    f"%st = arith.constant 1 : i32\n"
                    f"scf.for unsigned %i = %lb to %ub step %st : i32 {{\n}}")
        loop = walk_ops(m.operation, lambda o: o.name == "scf.for")[0]
        assert constant_bounds(loop) == bounds
        assert constant_trips(loop) == trips
