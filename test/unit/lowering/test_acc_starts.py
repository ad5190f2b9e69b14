"""Which K-loops the input starts from masked reads, else a zero
(``pipeline_mlir/lowering/acc_starts.py``): the front end's word on which the ISA gate's
``acc-init`` takes a zero past a uniform branch around a load of C as the input's own start
(``test/unit/isa/test_acc_inits.py``).

The snippet is IREE's late form of a ``C +=`` read cut at C's edge (f16 ``C += A x B^T`` +
bias + relu 184x246x648, finding 112), cut down: each element of a private buffer written
under an ``scf.if`` (the element of C in bounds, else the zero), the loop's accumulator
read from the buffer, and the buffer written again after the loop (the epilogue's results
staged back).  Each mutant makes a start that is not such a read, and the word is not
given."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.lowering.acc_starts import masked_starts

KERNEL = """
func.func @k(%c: memref<8x8xf32, #amdgpu.address_space<fat_raw_buffer>>, %n: index,
             %a: vector<4xf16>, %b: vector<4xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : vector<4xf32>
  %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  scf.for %i = %c0 to %c4 step %c1 {
    %in = arith.cmpi slt, %i, %n : index
    %x = scf.if %in -> (f32) {
      %e = memref.load %c[%i, %c0] : memref<8x8xf32, #amdgpu.address_space<fat_raw_buffer>>
      scf.yield %e : f32
    } else {
      scf.yield %zero : f32
    }
    memref.store %x, %p[%i] : memref<4xf32, #gpu.address_space<private>>
  }
  %init = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %zeros) -> (vector<4xf32>) {
    %e = memref.load %p[%i] : memref<4xf32, #gpu.address_space<private>>
    %w = vector.insert %e, %v [%i] : f32 into vector<4xf32>
    scf.yield %w : vector<4xf32>
  }
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%v = %init) -> (vector<4xf32>) {
    %d = amdgpu.mfma 16x16x16 %a * %b + %v : vector<4xf16>, vector<4xf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  vector.store %acc, %p[%c0] : memref<4xf32, #gpu.address_space<private>>, vector<4xf32>
  return
}
"""


def _word(text: str) -> bool:
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        loops = walk_ops(module.operation, lambda op: op.name == "scf.for")
        return masked_starts(loops[-1])


@pytest.mark.parametrize("old, new", [
    (None, None),
    # the else value 1.0: the input starts the padding from another constant
    ("scf.yield %zero : f32\n", "%one = arith.constant 1.0 : f32\n      scf.yield %one : f32\n"),
    # the element read unguarded: the input starts it from the load alone
    ("memref.store %x, %p", "%u = memref.load %c[%i, %c1] : memref<8x8xf32, "
                            "#amdgpu.address_space<fat_raw_buffer>>\n    memref.store %u, %p"),
    # the accumulator started from a constant zero alone: no masked read at all
    ("iter_args(%v = %init)", "iter_args(%v = %zeros)"),
    # the buffer written, before the loop, with a value computed
    ("  %acc = scf.for", "  %s = arith.addf %zero, %zero : f32\n  memref.store %s, %p[%c0] : "
                         "memref<4xf32, #gpu.address_space<private>>\n  %acc = scf.for"),
    # a start computed from the read (not only moved)
    ("iter_args(%v = %init)", "iter_args(%v = %twice)"),
])
def test_a_loop_started_from_masked_reads_is_said_so(old, new):
    """The snippet's loop starts its accumulator from masked reads of C, else the zero:
    the word is given (its later staging of the results not counted against it); each
    mutant's start is another, and it is not."""
    text = KERNEL if old is None else KERNEL.replace(old, new, 1)
    if "%twice" in text:
        text = text.replace("  %acc = scf.for", "  %twice = arith.addf %init, %init : "
                                                "vector<4xf32>\n  %acc = scf.for", 1)
    assert (text == KERNEL) == (old is None)
    assert _word(text) is (old is None)


#: the prefetch point's read of the same: a ``map_load`` of C into the buffer, padded
MAP_LOAD = """
func.func @k(%c: memref<8x8xf32, #amdgpu.address_space<fat_raw_buffer>>, %n: index,
             %a: vector<4xf16>, %b: vector<4xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  iree_linalg_ext.map_load %c into %p {
  ^bb0(%i: index):
    iree_linalg_ext.yield %i, %c0, %zero : index, index, f32
  } : memref<8x8xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<4xf32, #gpu.address_space<private>>
  %init = vector.transfer_read %p[%c0], %zero {in_bounds = [true]} : memref<4xf32, #gpu.address_space<private>>, vector<4xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%v = %init) -> (vector<4xf32>) {
    %d = amdgpu.mfma 16x16x16 %a * %b + %v : vector<4xf16>, vector<4xf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  vector.transfer_write %acc, %p[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32, #gpu.address_space<private>>
  return
}
"""


@pytest.mark.parametrize("pad", ["%zero", "%one"])
def test_a_loop_started_from_a_padded_gather_is_said_so(pad):
    """The prefetch point's ``map_load`` of C padded with the zero: the word is given;
    padded with 1.0, it is not."""
    text = MAP_LOAD.replace("%c0, %zero : index, index, f32", f"%c0, {pad} : index, "
                            f"index, f32").replace("%zero = arith.constant 0.0 : f32\n",
                                                   "%zero = arith.constant 0.0 : f32\n"
                                                   "  %one = arith.constant 1.0 : f32\n")
    assert f"%c0, {pad} :" in text
    assert _word(text) is (pad == "%zero")


def test_a_loop_inside_a_loop_is_not_said_so():
    """The snippet inside a loop over its iterations one after another: the staging of
    the results after the K-loop could reach the next iteration's reads; not said."""
    head = "  %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>\n"
    text = KERNEL.replace(head, head + "  scf.for %o = %c0 to %c4 step %c1 {\n", 1).replace(
        "  return\n", "  }\n  return\n", 1)
    assert text.count("scf.for") == KERNEL.count("scf.for") + 1
    assert _word(KERNEL) and not _word(text)


def test_a_start_read_with_padding_is_not_said_so():
    """The prefetch point's read of the buffer not in bounds (its padding may start an
    element): not said."""
    text = MAP_LOAD.replace("%init = vector.transfer_read %p[%c0], %zero {in_bounds = [true]}",
                            "%init = vector.transfer_read %p[%c1], %zero {in_bounds = [false]}")
    assert text != MAP_LOAD and _word(MAP_LOAD) and not _word(text)


#: IREE's prefetch point of f8E4M3FN ``C += A x B`` + relu 17x16x480 (4 stages; a grid of
#: one workgroup, finding 123) reads a lane's 4 rows of C in one masked transfer, the rows
#: inside C kept (``vector.create_mask``), the others the zero padding, and writes them to
#: the private buffer the accumulator starts from
MASKED_READ = """
func.func @k(%c: memref<8x8xf32, #amdgpu.address_space<fat_raw_buffer>>, %n: index,
             %a: vector<4xf16>, %b: vector<4xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = memref.alloca() : memref<4x1xf32, #gpu.address_space<private>>
  %m = vector.create_mask %n, %c1 : vector<4x1xi1>
  %r = vector.transfer_read %c[%c0, %c0], %zero, %m {in_bounds = [true, true]} : memref<8x8xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<4x1xf32>
  vector.transfer_write %r, %p[%c0, %c0] {in_bounds = [true, true]} : vector<4x1xf32>, memref<4x1xf32, #gpu.address_space<private>>
  %e = vector.transfer_read %p[%c0, %c0], %zero {in_bounds = [true, true]} : memref<4x1xf32, #gpu.address_space<private>>, vector<4x1xf32>
  %init = vector.shape_cast %e : vector<4x1xf32> to vector<4xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%v = %init) -> (vector<4xf32>) {
    %d = amdgpu.mfma 16x16x16 %a * %b + %v : vector<4xf16>, vector<4xf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  return
}
"""


@pytest.mark.parametrize("old, new", [
    (None, None),
    # padded with 1.0: the rows past C's edge start from another constant
    ("%c0], %zero, %m", "%c0], %one, %m"),
    # no mask, in bounds: a plain read of C, no masked start
    ("%c0], %zero, %m {in_bounds = [true, true]} : memref<8x8xf32",
     "%c0], %zero {in_bounds = [true, true]} : memref<8x8xf32"),
])
def test_a_loop_started_from_a_masked_transfer_is_said_so(old, new):
    """The prefetch point's masked transfer of a lane's rows of C padded with the zero: the
    word is given; padded with 1.0, or unmasked (no padding read), it is not."""
    text = MASKED_READ if old is None else MASKED_READ.replace(old, new, 1)
    assert (text == MASKED_READ) == (old is None)
    assert _word(text) is (old is None)
