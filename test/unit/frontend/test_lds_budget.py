"""Every LDS budget of the front end counts every LDS buffer the kernel declares.

``declared_lds`` in ``frontend/kernel_ir.py`` lists a kernel's workgroup allocations, its
``gpu.func`` ``workgroup(...)`` attributions and the workgroup ``memref.global`` buffers
it reads through ``memref.get_global``; the partition's count beside the schedule's
buffers, the remainder planner's choice at the split and the growth a schedule buffer may
take for an aliased remainder (``aliased_remainder.spare_bytes``) all use it.  The example
natural kernel at 5 K tiles keeps, beside the schedule's 32 KiB, 120 KiB of f32 in a third
attribution (or a workgroup global) that it writes before the K-loop and reads after it:
the remainder's own 16 KiB would take the kernel to 168 KiB (LLVM refused it: "local
memory (172032) exceeds limit (163840)"), so it runs on the schedule's stage-0 buffers,
exact on the emulator.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

from kernel_builds import pipeline_opt_hsaco
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.kernel_ir import declared_lds, lds_bytes
from pipeline_mlir.isa.codeobject import read_code_object
from test_natural import run_text
from test_natural_emu import first_tile

sys.path.insert(0, str(Path(__file__).parents[3] / "examples"))
from natural_kernel import kernel_text  # noqa: E402

X = "memref<30720xf32, #gpu.address_space<workgroup>>"
LOOP_LDS = ("workgroup(%la: memref<4096xbf16, #gpu.address_space<workgroup>>, "
            "%lb: memref<4096xbf16, #gpu.address_space<workgroup>>)")


def _with_extra_lds(k: int, how: str, src: str = "global") -> str:
    """The natural kernel with 120 KiB more LDS (``how``: ``attribution`` or ``global``),
    zeroed by each thread before the K-loop and added to its last C element after it."""
    t = kernel_text(k=k, src=src)
    assert LOOP_LDS in t
    if how == "attribution":
        t = t.replace(LOOP_LDS, LOOP_LDS[:-1] + f", %lx: {X})")
        get = ""
    else:
        t = t.replace("  gpu.module @kernels {",
                      f"  gpu.module @kernels {{\n    memref.global \"private\" @gx : {X}", 1)
        get = f"      %lx = memref.get_global @gx : {X}\n"
    t = t.replace("      %res:16 = scf.for", f"{get}      %xz = arith.constant 0.0 : f32\n"
                  f"      memref.store %xz, %lx[%tid] : {X}\n      %res:16 = scf.for", 1)
    last = "      memref.store %ov15e3, %C[%or15e3, %oc15l]"
    assert last in t
    return t.replace(last, f"      %xl = memref.load %lx[%tid] : {X}\n"
                           f"      %ov15e3x = arith.addf %ov15e3, %xl : f32\n"
                           f"      memref.store %ov15e3x, %C[%or15e3, %oc15l]")


def test_the_remainder_beside_a_global_has_no_lds_of_its_own(capsys, tmp_path):
    """The remainder's own buffers do not fit beside the schedule's and the global's 120
    KiB: no allocation of its own, the schedule's 8 only."""
    rc, out, err = run_text(capsys, tmp_path, _with_extra_lds(32 * 5, "global"),
                            "--pipeline=4wave")
    assert rc == 0, err
    assert len(re.findall(r"memref\.alloc\(\)", out)) == 8, out


def test_the_remainder_beside_an_attribution_fits_and_is_exact():
    """With the attribution: the code object's LDS is the schedule's 32 KiB and the
    attribution's 120 KiB (155648 bytes; 172032 before, which LLVM refused), and its
    first tile of C is exact (the remainder on the schedule's stage-0 buffers)."""
    hsaco = pipeline_opt_hsaco("4wave", _with_extra_lds(32 * 5, "attribution", src="buffer"))
    (code,) = read_code_object(hsaco).kernels.values()
    assert code.fields["group_segment_fixed_size"] == 155648
    C, ref = first_tile(hsaco, "bf16", "late", k=32 * 5)
    assert np.array_equal(C, ref), f"max error {np.nanmax(np.abs(C - ref))}"


def test_a_loop_run_as_written_counts_the_kernels_other_lds(capsys, tmp_path):
    """One K tile (no pair: the loop runs as written on buffers of its own) beside an
    attribution that leaves too little: refused at the loop, not by LLVM."""
    text = _with_extra_lds(32, "attribution").replace("30720xf32", "40000xf32")
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
    assert rc == 1 and out == "" and "Traceback" not in err, err
    assert "the kernel's other LDS need 176384 bytes, more than the 163840" in err, err
    assert "scf.for" in text.splitlines()[int(err.split(":")[1]) - 1]


DECLARED = """
gpu.module @m {
  memref.global "private" @g : memref<64xf32, #gpu.address_space<workgroup>>
  memref.global "private" @unused : memref<4096xf32, #gpu.address_space<workgroup>>
  gpu.func @k(%x: index) workgroup(%w: memref<256xi8, #gpu.address_space<workgroup>>)
      private(%p: memref<4xf32, #gpu.address_space<private>>) kernel {
    %a = memref.alloc() : memref<2x8xbf16, #gpu.address_space<workgroup>>
    %s = memref.alloca() : memref<16xi32, #gpu.address_space<workgroup>>
    %h = memref.alloc() : memref<1024xf32>
    %g1 = memref.get_global @g : memref<64xf32, #gpu.address_space<workgroup>>
    %g2 = memref.get_global @g : memref<64xf32, #gpu.address_space<workgroup>>
    %c100 = arith.constant 100 : index
    %n = arith.minui %x, %c100 : index
    %d = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
"""


def test_declared_lds_lists_each_buffer_once():
    """An attribution, an alloc and an alloca, one global read twice (once), not the
    private attribution, the global memory or the global the kernel does not read; an
    allocation of a size known only at run time at its proven bound (100 f32)."""
    with new_context() as ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(DECLARED, ctx)
        kernel = walk_ops(m.operation, lambda o: o.name == "gpu.func")[0]
        got = declared_lds(kernel)
        assert sorted(n for _, n in got) == [32, 64, 256, 256, 400]
        assert [len(v) for v, n in got if n == 256 and len(v) == 2] == [2]
        w = kernel.regions[0].blocks[0].arguments[1]
        assert lds_bytes(kernel) == 1008 and lds_bytes(kernel, [w]) == 752


def _with_sized_lds(size: str) -> str:
    """The natural kernel with a workgroup allocation of ``size`` i8 (SSA lines ending in
    ``%n``, the size) before its K-loop."""
    t = kernel_text(k=32 * 4)
    anchor = "      %tid = gpu.thread_id x\n"
    assert anchor in t
    return t.replace(anchor, anchor + size + "      %extra = memref.alloc(%n) : "
                     "memref<?xi8, #gpu.address_space<workgroup>>\n", 1)


def test_lds_of_a_size_known_at_run_time(capsys, tmp_path):
    """Counted at its proven bound: 150000 bytes beside the schedule's 32 KiB is refused at
    the loop for the LDS it takes; with no bound (the workgroup id) refused at the
    allocation, naming why (never left out of the budget)."""
    bounded = _with_sized_lds("      %big = arith.constant 150000 : index\n"
                              "      %bx = gpu.block_id x\n"
                              "      %n = arith.minui %bx, %big : index\n")
    rc, out, err = run_text(capsys, tmp_path, bounded, "--pipeline=4wave", "--emit=schedule")
    assert rc == 1 and out == "" and "Traceback" not in err, err
    assert "need 32768 bytes and the kernel's other LDS buffers" in err, err
    assert "150000 more, more than the 163840 bytes" in err, err
    free = _with_sized_lds("      %n = gpu.block_id x\n")
    rc, out, err = run_text(capsys, tmp_path, free, "--pipeline=4wave", "--emit=schedule")
    assert rc == 1 and out == "" and "Traceback" not in err, err
    line = free.splitlines()[int(err.split(":")[1]) - 1]
    assert "memref.alloc(%n)" in line, (err, line)
    assert "of a size known only at run time with no upper bound" in err, err
