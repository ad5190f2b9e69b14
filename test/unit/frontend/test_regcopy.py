"""Copies through registers (IREE's fp8 kernels) made direct-to-LDS copies and pipelined.

IREE copies fp8 tiles through registers into a padded LDS (``memref<128x136xf8E4M3FN>``).
The kernels are generated with ``iree-compile`` (``test/data/iree/generate.py``, once per
module, 2048x2048x1024: IREE's 128x128 tile with K step 128) at the prefetch point and in
the late form.  Accepted: pipelined and exact on the emulator.  Each check of
``pipeline_mlir/frontend/regcopy.py`` is hit by a mutant of the late form and refused at
the op with the reason.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from pipeline_mlir.frontend import natural as N
from pipeline_mlir.frontend import regcopy as R
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

SIZE = dict(m=2048, n=2048, k=1024)
FORMATS = {"fp8": "f8E4M3FN", "fp8e5m2": "f8E5M2"}


@pytest.fixture(scope="module")
def kernels():
    """(dtype, form) -> IREE's kernel text, generated on first use."""
    cache = {}

    def get(dtype: str, form: str) -> str:
        if (dtype, form) not in cache:
            fn = G.prefetch_point if form == "prefetch" else G.late_form
            cache[dtype, form] = fn(G.matmul_source(dtype, **SIZE))
        return cache[dtype, form]
    return get


def _run(capsys, tmp_path, text: str, *args: str) -> tuple[int, str]:
    src = tmp_path / "k.mlir"
    src.write_text(text)
    rc = main([str(src), *args])
    out, err = capsys.readouterr()
    return rc, out + err


#: (dtype, form) -> the emulator's modes run here: E4M3FN both forms in both modes; E5M2
#: (the same kernel as test_iree_configurations.py's fp8e5m2_abt_2048x2048x1024, which runs
#: both forms in late mode, and test_iree_families.py its late form in random order) only
#: its prefetch point in random order, the one run no other test makes
MODES = {("fp8", "prefetch"): ("late", "random"), ("fp8", "late"): ("late", "random"),
         ("fp8e5m2", "prefetch"): ("random",)}


@pytest.mark.usefixtures("shared_code_objects")    # (compiled once for both modes)
@pytest.mark.parametrize("dtype, form", list(MODES))
def test_fp8_register_copies_pipeline_exactly(kernels, capsys, tmp_path, dtype, form):
    """Both fp8 formats: pipelined by --pipeline=4wave alone, and exact on the emulator with
    memory completing as late as allowed and in random order (:data:`MODES`)."""
    text = kernels(dtype, form)
    assert f"memref<128x136x{FORMATS[dtype]}" in text and "gather_to_lds" not in text
    for mode in MODES[dtype, form]:
        rc, out = _run(capsys, tmp_path, text, "--pipeline=4wave", "--emulate",
                       "--emulate-workgroups=3", f"--emulate-mode={mode}")
        assert rc == 0 and f"mode={mode}: exact, max error 0, 3 of 256" in out, out


def test_the_copies_become_dma_into_a_dense_tile(kernels):
    """Each wave's 16 bytes per lane go to one dense 128x128 buffer per operand; the
    4-wave schedule inferred is fp8 with K step 128."""
    ctx = new_context()
    with ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(kernels("fp8", "late"), ctx)
        (loop,) = N.find_natural_loops(m.operation)
        an = N.analyse_loop(loop)
        assert [a.op.name for a in an.scan.copies] == ["amdgpu.gather_to_lds"] * 8
        assert {str(b.type) for b in an.buffers} == {
            "memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>"}
        assert all(c.lds.shape == (256, 16) for c in an.copies)
        text = str(m)
    assert "128x136" not in text and not re.search(r"vector\.store .*workgroup", text)
    assert len(re.findall(r"amdgpu\.gather_to_lds .*: vector<16xf8E4M3FN>", text)) == 8


# ---- mutants of the late form: each check refuses at the op ----------------------------------

def _pair(text: str, k: int = 0) -> tuple[int, int, list[str]]:
    """Line numbers of the ``k``-th global load and the LDS store of its value."""
    lines = text.split("\n")
    loads = [i for i, ln in enumerate(lines)
             if "= vector.load" in ln and "fat_raw_buffer" in ln]
    i = loads[k]
    value = lines[i].split("=")[0].strip()
    j = next(j for j in range(i, len(lines)) if f"vector.store {value}," in lines[j])
    return i, j, lines


def _twice(text):
    i, j, lines = _pair(text)
    lines.insert(j + 1, lines[j])
    return "\n".join(lines)


def _resize(text, shape="8"):
    i, j, lines = _pair(text)
    for n in (i, j):
        lines[n] = lines[n].replace("vector<16xf8E4M3FN>", f"vector<{shape}xf8E4M3FN>")
    return "\n".join(lines)


def _column(text, store: bool, const: int, expr: str):
    """The first copy's load (or store) at column ``expr`` (of ``%col``, the column it had,
    and ``%k``, a constant ``const``) instead."""
    i, j, lines = _pair(text)
    n = j if store else i
    col = re.search(r"\[%\w+, (%\w+)\]", lines[n]).group(1)
    lines[n] = lines[n].replace(f", {col}]", ", %new_col]")
    lines[n:n] = [f"%k = arith.constant {const} : index",
                  f"%new_col = {expr.replace('%col', col)} : index"]
    return "\n".join(lines)


def _gap(text):
    i, j, lines = _pair(text)
    del lines[j]
    del lines[i]
    return "\n".join(lines)


def _overlap(text):
    _i0, j0, _ = _pair(text)
    _i1, j1, lines = _pair(text, 1)
    idx = re.search(r"%alloc\[[^\]]*\]", lines[j0]).group(0)
    lines[j1] = re.sub(r"%alloc\[[^\]]*\]", idx, lines[j1])
    return "\n".join(lines)


def _read_padding(text):
    lines = text.split("\n")
    k = next(k for k, ln in enumerate(lines)
             if "= vector.load %alloc[" in ln and "vector<32x" in ln)
    lines[k] = re.sub(r"(%alloc\[%\w+), %\w+\]", r"\1, %c104]", lines[k])
    lines.insert(k, "%c104 = arith.constant 104 : index")
    return "\n".join(lines)


def _swizzled(text):
    return text.replace("%alloc = memref.alloc() :", "%alloc = memref.alloc() {iree_codegen."
                        "swizzle = #iree_codegen.xor_shuffle<128, 16>} :", 1)


def _cast_user(text):
    lines = text.split("\n")
    k = next(k for k, ln in enumerate(lines) if "%alloc = memref.alloc()" in ln)
    lines.insert(k + 1, "%cast_x = memref.cast %alloc : memref<128x136xf8E4M3FN, "
                        "#gpu.address_space<workgroup>> to memref<?x136xf8E4M3FN, "
                        "#gpu.address_space<workgroup>>")
    return "\n".join(lines)


def _other_use(text):
    i, j, lines = _pair(text)
    value = lines[i].split("=")[0].strip()
    lines.insert(j + 1, f"%ext = vector.extract {value}[0] : f8E4M3FN from vector<16xf8E4M3FN>")
    return "\n".join(lines)


MUTANTS = {
    "stored twice": (_twice, "used by vector.store, not stored whole to LDS by one store"),
    "used otherwise": (_other_use, "used by vector.extract, vector.store, not stored whole"),
    "8 bytes": (_resize, "copies 8 bytes per lane; a direct-to-LDS copy moves 4 or 16"),
    "two runs": (lambda t: _resize(t, "2x8"), "several runs of elements per lane"),
    "gap": (_gap, "leave gaps; the front end makes them direct-to-LDS copies when"),
    "overlap": (_overlap, "elements twice"),
    "lanes reversed": (lambda t: _column(t, True, 112, "arith.subi %k, %col"),
                       "writes a wave's lanes in order from one address"),
    "reads padding": (_read_padding, "reads columns past the 128 the copies write"),
    # IREE's swizzle is dropped only when every access stays inside one of its chunks;
    # here the padded rows (136 elements) put 16-element accesses across 128-element rows
    "swizzled": (_swizzled, "accesses 16 elements across the 16-element chunks that the "
                            "swizzle of memref<128x136xf8E4M3FN"),
    "cast": (_cast_user, "'memref.cast' op at line"),
}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_mutants_are_refused_at_the_op(kernels, capsys, tmp_path, name):
    mutate, why = MUTANTS[name]
    rc, out = _run(capsys, tmp_path, mutate(kernels("fp8", "late")), "--pipeline=4wave")
    assert rc == 1 and why in out and "Traceback" not in out, out
    assert re.match(r".*k\.mlir:\d+:\d+: error: ", out), out


def test_a_misaligned_copy_is_register_staged(kernels, capsys, tmp_path):
    """A copy whose global source is one element off 16-byte alignment is no DMA copy: it
    is register-staged (``sched-stage-copies``), a load, an LDS store and a wait, in the
    emitted MLIR; the aligned copies stay DMA copies."""
    text = _column(kernels("fp8", "late"), False, 1, "arith.addi %col, %k")
    rc, out = _run(capsys, tmp_path, text, "--pipeline=4wave")
    assert rc == 0, out
    assert "sched.register_staged" not in out and "gpu.lane_id" in out, out
    assert "amdgpu.gather_to_lds" in out


def test_out_of_bounds_transfers_are_refused(kernels, capsys, tmp_path):
    """At the prefetch point the copies are vector.transfer_read/write pairs: one that
    may read out of bounds, or reads a column, is no direct-to-LDS copy."""
    text = kernels("fp8", "prefetch")
    k = text.index("{in_bounds = [true, true]} : memref<1x16xf8E4M3FN, strided<[1024, 1]")
    oob = text[:k] + "{in_bounds = [true, false]}" + text[k + len("{in_bounds = [true, true]}"):]
    rc, out = _run(capsys, tmp_path, oob, "--pipeline=4wave")
    assert rc == 1 and "may access out of bounds (in_bounds is not all true)" in out, out
    column = text[:k] + ("{in_bounds = [true, true], permutation_map = affine_map<(d0, d1) "
                         "-> (d1, d0)>}") + text[k + len("{in_bounds = [true, true]}"):]
    rc, out = _run(capsys, tmp_path, column, "--pipeline=4wave")
    assert rc == 1 and "a copy is a minor-identity run" in out, out


def test_wave_starts_must_be_affine_in_the_wave(kernels):
    """Lanes in order but the waves' first elements not a constant plus a multiple of the
    wave index: refused (no single index expression before the loop)."""
    ctx = new_context()
    with ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(kernels("fp8", "late"), ctx)
        (loop,) = N.find_natural_loops(m.operation)
        scan = N.scan_loop(loop)
        a = scan.copies[0]
        starts = np.repeat([0, 2048, 1024, 3072], 64) + (np.arange(256) % 64) * 16
        dense = starts[:, None] + np.arange(16)[None, :]
        with pytest.raises(Exception, match=r"the waves start writing at LDS elements "
                                            r"\[0, 2048, 1024, 3072\], not a constant plus"):
            R._gather(a, dense, None, None)


def test_a_copy_across_the_first_barrier_writes_lds_after_it(kernels, capsys, tmp_path):
    """IREE's late form may load a tile before the loop's first barrier and store it after
    it (f16 ``A^T x B`` at K = 1030): the direct-to-LDS copy goes where the store was,
    after the barrier; at the load it would overwrite LDS the previous iteration's reads
    still read, which the loop's soundness check refuses as a race."""
    i, j, lines = _pair(kernels("fp8", "late"))
    b = next(k for k in range(i, 0, -1) if "gpu.barrier" in lines[k])
    assert "scf.for" in lines[b - 1], "IREE's fp8 loop no longer begins with its barrier"
    barrier = lines.pop(b)
    lines.insert(j - 1, barrier)         # between the load and its store
    rc, out = _run(capsys, tmp_path, "\n".join(lines),
                   "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})")
    assert rc == 0 and "Traceback" not in out, out


def _prefetched_in_registers(text: str) -> str:
    """IREE's one-wave kernel (late form) with its DMA copies made copies through registers
    that the wave prefetches: the next K tile loaded at the top of the body and stored to
    LDS at its end, after the reads of the tile the previous iteration stored (tile 0
    copied before the loop; the last iteration loads its own tile again); no barrier."""
    lines = text.split("\n")
    start = next(i for i, s in enumerate(lines) if " scf.for " in s)
    end = next(i for i in range(start, len(lines)) if "scf.yield" in lines[i])
    pad = " " * (len(lines[start + 1]) - len(lines[start + 1].lstrip()))
    last = int(re.search(r" to %c(\d+)_i32 ", lines[start]).group(1)) - 1
    head = ["%rc_one = arith.constant 1 : i32", f"%rc_last = arith.constant {last} : i32",
            "%rc_eight = arith.constant 8 : index",
            "%rc_lane = arith.muli %thread_id_x, %rc_eight : index"]
    body, stores = ["%kn = arith.addi %arg0, %rc_one : i32",
                    "%k = arith.minsi %kn, %rc_last : i32"], []
    for n, s in enumerate(lines[start + 1:end]):
        m = re.match(r"\s*amdgpu\.gather_to_lds (%\w+\[[^\]]*\]), (%\w+)\[(%\w+)\] : "
                     r"(vector<[^>]*>), (memref<[^>]*>>), (memref<[^>]*>>)", s)
        if m is None:
            if "gpu.barrier" not in s:
                body.append(s.replace("%arg0", "%k"))
            continue
        src, dst, off, vt, st, dt = m.groups()
        body.append(f"%v{n} = vector.load {src} : {st}, {vt}")
        stores += [f"%s{n} = arith.addi %rc_lane, {off} : index",
                   f"vector.store %v{n}, {dst}[%s{n}] : {dt}, {vt}"]
    # the prologue: the loop's index arithmetic and copies at iteration 0, renamed
    defined = {d for x in body + stores for d in re.findall(r"^(%\w+) =", x.strip())}
    pro = [re.sub(r"%(\w+)", lambda v: f"%p_{v.group(1)}" if v.group(0) in defined
                  else v.group(0), x.strip().replace("%k,", "%c0_i32,"))
           for x in body[2:] + stores if "vector.load %alloc" not in x
           and "amdgpu.mfma" not in x]
    return "\n".join(lines[:start] + [pad + x for x in head + pro] + [lines[start]] +
                     [pad + x.strip() for x in body + stores] + lines[end:])


def test_a_one_wave_read_between_a_copy_and_its_store_keeps_the_write_after_it(
        capsys, tmp_path):
    """A wave may read LDS between a copy's global load and its LDS store with no barrier
    (one wave needs none between its own read and store): IREE's one-wave kernel
    prefetching the next K tile in registers.  The direct-to-LDS copy at the load would
    overwrite the tile that read still reads; it goes where the store was, and the read,
    of the previous iteration's copy, is refused as loop-carried through LDS (it was
    refused as a race of the kernel, which it is not)."""
    sys.path.insert(0, str(ROOT / "test" / "unit"))
    from iree_configs import WAVES

    text = _prefetched_in_registers(G.late_form(G.matmul_source(
        **WAVES["bf16_abt_512_1wave"][0])))
    assert "gpu.barrier" not in text.split(" scf.for ")[1].split("scf.yield")[0]
    rc, out = _run(capsys, tmp_path, text, "--pipeline=4wave")
    assert rc == 1 and "loop-carried through LDS" in out and "Traceback" not in out, out
    assert re.match(r".*k\.mlir:\d+:\d+: error: .*'vector\.load' op reads LDS", out), out
