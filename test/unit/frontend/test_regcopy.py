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
from pipeline_mlir.frontend.kernel_ir import describe
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


@pytest.mark.usefixtures("shared_code_objects")    # (compiled once for both modes)
@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_fp8_register_copies_pipeline_exactly(kernels, capsys, tmp_path, form):
    """Both forms: pipelined by --pipeline=4wave alone, and exact on the emulator, on the
    grid's first and last workgroup (full tiles: every workgroup runs the same code at
    another base), with memory completing as late as allowed and in random order.  The
    late form runs with A's copies written as pairs of 8 bytes per lane (made 4-byte
    copies: ``test_eight_byte_copies_are_two_dword_copies``), one build for both modes.
    The same kernels in E5M2 (``fp8e5m2_abt_2048x2048x1024``) run in late mode from both
    forms in test/unit/tools/test_iree_configurations.py and in random order from the late
    form in test/unit/tools/test_iree_families.py; the plain late form's copies are
    theirs."""
    text = kernels("fp8", form)
    assert f"memref<128x136x{FORMATS['fp8']}" in text and "gather_to_lds" not in text
    if form == "late":
        text = _eight_byte_copies(text)
    for mode in ("late", "random"):
        rc, out = _run(capsys, tmp_path, text, "--pipeline=4wave", "--emulate",
                       "--emulate-workgroups=2", f"--emulate-mode={mode}")
        assert rc == 0 and f"mode={mode}: exact, max error 0, 2 of 256" in out, out


def test_the_copies_become_dma_into_a_dense_tile(kernels):
    """Each wave's 16 bytes per lane go to one dense 128x128 buffer per operand; the
    4-wave schedule inferred is fp8 with K step 128.  A message about such a copy names
    the op the user wrote where it stands, the global load (``describe``; before, the
    ``amdgpu.gather_to_lds`` the front end made, at the load's line)."""
    ctx = new_context()
    lines = kernels("fp8", "late").split("\n")
    with ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(kernels("fp8", "late"), ctx)
        (loop,) = N.find_natural_loops(m.operation)
        an = N.analyse_loop(loop)
        assert [a.op.name for a in an.scan.copies] == ["amdgpu.gather_to_lds"] * 8
        for a in an.scan.copies:
            said = describe(a.op)
            assert said.startswith("'vector.load' op at line "), said
            assert "= vector.load" in lines[int(said.split()[4].split(":")[0]) - 1], said
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


def _eight_byte_halves(text: str, k: int) -> str:
    """The ``k``-th 16-byte register copy written as two of 8 bytes per lane that move the
    same data, each wave's lanes in order: lane ``l`` of copy ``h`` stores at element
    ``p = d + 512 h + 8 l`` of the 128-wide tile (``d`` the wave's first), row ``p // 128``,
    column ``p % 128``, and loads the global element the kernel's tile puts there."""
    lines = text.split("\n")
    i, j, _ = _pair(text, k)
    ind, v, g, gr, gc, gt, et = re.match(
        r"^( *)(%\w+) = vector\.load (%\w+)\[(%\w+), (%\w+)\] : (.+), vector<16x(\w+)>$",
        lines[i]).groups()
    sind, lds, lr, lc, lt = re.match(
        r"^( *)vector\.store %\w+, (%\w+)\[(%\w+), (%\w+)\] : (.+), vector<16x\w+>$",
        lines[j]).groups()
    p = f"%m{k}_"
    ops = [f"{p}l = gpu.lane_id upper_bound 64"] + [
        f"{p}c{c} = arith.constant {c} : index" for c in (8, 16, 128, 512)] + [
        f"{p}pr = arith.muli {lr}, {p}c128 : index", f"{p}p = arith.addi {p}pr, {lc} : index",
        f"{p}l16 = arith.muli {p}l, {p}c16 : index", f"{p}d = arith.subi {p}p, {p}l16 : index",
        f"{p}rb = arith.subi {gr}, {lr} : index", f"{p}cb = arith.subi {gc}, {lc} : index",
        f"{p}l8 = arith.muli {p}l, {p}c8 : index", f"{p}p0 = arith.addi {p}d, {p}l8 : index",
        f"{p}p1 = arith.addi {p}p0, {p}c512 : index"]
    for h in (0, 1):
        ops += [f"{p}r{h} = arith.divui {p}p{h}, {p}c128 : index",
                f"{p}k{h} = arith.remui {p}p{h}, {p}c128 : index",
                f"{p}gr{h} = arith.addi {p}rb, {p}r{h} : index",
                f"{p}gc{h} = arith.addi {p}cb, {p}k{h} : index",
                f"{p}v{h} = vector.load {g}[{p}gr{h}, {p}gc{h}] : {gt}, vector<8x{et}>"]
    lines[j:j + 1] = [f"{sind}vector.store {p}v{h}, {lds}[{p}r{h}, {p}k{h}] : {lt}, "
                      f"vector<8x{et}>" for h in (0, 1)]
    lines[i:i + 1] = [ind + x for x in ops]
    return "\n".join(lines)


def _eight_byte_copies(text: str) -> str:
    """A's four register copies (the first four) each as two of 8 bytes per lane."""
    for k in (3, 2, 1, 0):                  # (the later first: the earlier keep their place)
        text = _eight_byte_halves(text, k)
    return text


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


def _row_moving(text):
    """The first copy's store at its row moved by the K-loop's variable, modulo the tile's
    128 rows: its first iteration's LDS elements, others in the later ones."""
    i, j, lines = _pair(text)
    iv, ty = re.findall(r"scf\.for (%\w+) = .*?(?:: (i\d+))? \{", "\n".join(lines[:j]))[-1]
    row = re.search(r"%alloc\[(%[\w#]+), ", lines[j]).group(1)
    lines[j] = lines[j].replace(f"%alloc[{row}, ", "%alloc[%new_row, ")
    lines[j:j] = [f"%k_index = arith.index_cast {iv} : {ty} to index" if ty else
                  f"%k_index = arith.addi {iv}, {iv} : index",
                  f"%new_row = affine.apply affine_map<(d0, d1) -> ((d0 + d1) mod 128)>"
                  f"({row}, %k_index)"]
    return "\n".join(lines)


MUTANTS = {
    "stored twice": (_twice, "used by vector.store, not stored whole to LDS by one store"),
    "used otherwise": (_other_use, "used by vector.extract, vector.store, not stored whole"),
    "3 bytes": (lambda t: _resize(t, "3"), "copies 3 bytes per lane; a direct-to-LDS copy "
                                            "moves 4 or 16 bytes per lane (and 8 as two"),
    # (2 bytes, a fraction of a dword: made a copy only the front end's own copies replace,
    # regcopy.NARROW; this one writes 2 of the row's 16 bytes per lane)
    "2 bytes": (lambda t: _resize(t, "2"), "leave gaps; the front end makes them direct-to-LDS"),
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
    "row moves with K": (_row_moving, "writes LDS at an index computed from the K-loop's "
                                      "variable"),
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


def _moved_off_the_sample(text: str, where: str) -> str:
    """A's first copy moved off its 16-byte alignment where the analysis does not sample
    it: by one element in the loop's last K step (of 8, step 1), or by 8 in workgroup 0
    (the sample is workgroup 1)."""
    cond, shift = {"last K step": ("%arg0, %m_c : i32", "7 : i32, 1"),
                   "workgroup 0": ("%workgroup_id_x, %m_c : index", "0 : index, 8")}[where]
    c, k = shift.split(", ")
    i, _, lines = _pair(text)
    col = re.search(r"\[%\w+, (%\w+)\]", lines[i]).group(1)
    lines[i] = lines[i].replace(f", {col}]", ", %m_col]")
    lines[i:i] = [f"%m_c = arith.constant {c}", f"%m_cond = arith.cmpi eq, {cond}",
                  "%m_0 = arith.constant 0 : index", f"%m_k = arith.constant {k} : index",
                  "%m_d = arith.select %m_cond, %m_k, %m_0 : index",
                  f"%m_col = arith.addi {col}, %m_d : index"]
    return "\n".join(lines)


@pytest.mark.parametrize("where", ["last K step", "workgroup 0"])
def test_a_copy_aligned_only_at_the_sample_is_register_staged(kernels, capsys, tmp_path,
                                                              monkeypatch, where):
    """A copy whose global address is aligned at the analysis' sample (the first two K
    steps, workgroup 1) and not in another K step or workgroup is register-staged: its
    alignment is proven from the index arithmetic over every workgroup, K step and launch
    (``regcopy.proven_aligned``; finding 88 of ``docs/iree-audits.md``), the sample's verdict
    only a necessary condition.  Judged at the sample alone, it was a direct-to-LDS copy
    issued at a misaligned address.  The unmoved kernel's copies stay direct-to-LDS."""
    adopt = "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"

    def staged(text: str) -> int:
        rc, out = _run(capsys, tmp_path, text, adopt)
        assert rc == 0, out
        return len(re.findall(r"amdgpu\.gather_to_lds .*sched\.register_staged", out))

    text = _moved_off_the_sample(kernels("fp8", "late"), where)
    assert staged(kernels("fp8", "late")) == 0
    assert staged(text) > 0
    monkeypatch.setattr(R, "proven_aligned", lambda a, block: True)   # (the sample alone)
    assert staged(text) == 0


ADOPT = "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"


def _staged(capsys, tmp_path, text: str) -> int:
    """How many copies of ``text``'s adopted loop are register-staged."""
    rc, out = _run(capsys, tmp_path, text, ADOPT)
    assert rc == 0, out
    return len(re.findall(r"amdgpu\.gather_to_lds .*sched\.register_staged", out))


def _k_at_launch() -> str:
    """IREE's 512x512x1020 late form with K known at launch (``dynamic.dynamic_k_masked_late``,
    ``test_dynamic_shapes.py``'s ``masked-k-late``: rows of a stride known only at launch,
    copies through registers) with K stated a multiple of 8 (``udiv = 8``: rows of 16
    bytes, the size of each copy)."""
    import dynamic as D
    text = D.dynamic_k_masked_late(G.late_form(G.matmul_source(
        dtype="bf16", m=512, n=512, k=1020), ()))
    assert text.count("umax = 4194304>") == 1
    return text.replace("umax = 4194304>", "umax = 4194304, udiv = 8>")


def _moved_in_workgroup_0(text: str) -> str:
    """A's first copy moved by 4 elements (8 bytes) in workgroup 0 alone, its loads of
    both branches (the masked one near the buffer's end, the plain one)."""
    anchor = "%411 = vector.create_mask %408 : vector<8xi1>\n"
    moved = ("%m_c = arith.constant 0 : i32\n%m_cond = arith.cmpi eq, %46, %m_c : i32\n"
             "%m_0 = arith.constant 0 : index\n%m_k = arith.constant 4 : index\n"
             "%m_d = arith.select %m_cond, %m_k, %m_0 : index\n"
             "%m_col = arith.addi %410, %m_d : index\n")
    for old, new in ((anchor, anchor + moved), ("load %1[%51, %410]", "load %1[%51, %m_col]")):
        assert text.count(old) == (2 if "load" in old else 1), old
        text = text.replace(old, new)
    return text


def test_a_launch_strided_copy_aligned_only_at_the_sample_is_register_staged(
        capsys, tmp_path, monkeypatch):
    """A copy of rows of a stride known only at launch is a direct-to-LDS copy only where
    its address is proven aligned in every workgroup, K step and launch: the row's term by
    the stride's stated divisor (``launch_stride.view_stride_divisors``), the column's by
    K's (``twos.py`` reads ``util.assume.int``'s ``udiv``), as for any buffer (finding 93
    of ``docs/iree-audits.md``).  A's first copy moved off 16 bytes in workgroup 0 only
    (the sample is workgroup 1) is staged.  Before, such a copy was judged at the sample
    alone and issued as a DMA copy at a misaligned address.  (The kernel's own copies are
    so proven and stay DMA copies, 24 of them: measured for the finding; the
    VectorDistribute fp8 kernel of ``test_dynamic_shapes.py``, ``vdk-late``, whose remainder
    refuses a staged copy, holds it in the default run.)"""
    moved = _moved_in_workgroup_0(_k_at_launch())
    assert _staged(capsys, tmp_path, moved) > 0
    monkeypatch.setattr(R, "proven_aligned", lambda a, block: True)   # (the sample alone)
    assert _staged(capsys, tmp_path, moved) == 0


def test_a_buffer_whose_start_is_not_stated_aligned_is_register_staged(kernels, capsys,
                                                                       tmp_path):
    """IREE's fp8 late form with A's binding stated aligned to 8 bytes only (its
    ``alignment`` and ``memref.assume_alignment``): A's 16-byte copies are staged, B's
    stay DMA copies (``dword_runs.base_zeros``, finding 93; before, the buffer's start was
    taken as aligned whatever the kernel said)."""
    text = kernels("fp8", "late")
    for old, new in (("binding(0) alignment(64)", "binding(0) alignment(8)"),
                     ("memref.assume_alignment %0, 64", "memref.assume_alignment %0, 8")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    rc, out = _run(capsys, tmp_path, text, ADOPT)
    assert rc == 0, out
    copies = re.findall(r"amdgpu\.gather_to_lds [^\n]*", out)
    staged = [c for c in copies if "sched.register_staged" in c]
    assert staged and len(staged) < len(copies), copies


def _copies(text: str) -> list:
    ctx = new_context()
    with ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(text, ctx)
        (loop,) = N.find_natural_loops(m.operation)
        return [str(ir.TypeAttr(a.op.attributes["transferType"]).value)
                for a in N.analyse_loop(loop).scan.copies]


def test_eight_byte_copies_are_two_dword_copies(kernels, monkeypatch):
    """A's copies written as pairs of 8 bytes per lane (no ``gather_to_lds`` moves 8): each
    is two 4-byte direct-to-LDS copies whose lanes fetch the bytes the LDS layout wants
    there (frontend/split_copy.py), checked per lane; the kernel is exact on the emulator
    (``test_fp8_register_copies_pipeline_exactly``'s fp8 late form, both modes).  The
    lanes' addresses left as they were (no thread id recomputed) are refused at the copy;
    so is a thread id of another op and a workgroup whose waves are not 64 x ids."""
    from pipeline_mlir.frontend import split_copy as S
    text = _eight_byte_copies(kernels("fp8", "late"))
    got = _copies(text)
    assert sorted(got) == ["vector<16xf8E4M3FN>"] * 4 + ["vector<4xf8E4M3FN>"] * 16, got
    other = text.replace("%m2_l = gpu.lane_id upper_bound 64",
                         "%m2_li = rocdl.workitem.id.x : i32\n%m2_lx = arith.index_castui "
                         "%m2_li : i32 to index\n%m2_c64 = arith.constant 64 : index\n"
                         "%m2_l = arith.remui %m2_lx, %m2_c64 : index")
    with pytest.raises(Exception, match="address for another lane from gpu.thread_id and "
                                        "gpu.lane_id only"):
        _copies(other)
    with monkeypatch.context() as m:
        m.setattr(S._Remap, "_thread", lambda self, v, o: v)
        with pytest.raises(Exception, match=r"split into two 4-byte copies, thread 1 of copy "
                                            r"0 reads element \d+, not \d+: its address is "
                                            r"not the kernel's for the lane"):
            _copies(text)
    ctx = new_context()
    with ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse(text, ctx)
        (loop,) = N.find_natural_loops(m.operation)
        a = N.scan_loop(loop).copies[0]
        with pytest.raises(Exception, match="in a workgroup of 32 threads along x; the front "
                                            "end makes it two 4-byte copies within each wave"):
            S.split_copy(a, None, None, (32, 8, 1), None, None)


def test_a_kept_copy_split_keeps_its_selects():
    """An 8-byte copy that keeps a mask (frontend/kept_masks.py) split: the lane's half
    added inside the last index's select, so a lane whose condition is false still reads
    the fixed element past the end, rank 1 (the select of ``delta``) or not (of 0); an
    index that is not the select kept_masks.py built is refused at the copy."""
    from pipeline_mlir.frontend import split_copy as S
    from pipeline_mlir.frontend.kept_masks import unkept
    ctx = new_context()
    with ctx, ir.Location.unknown(ctx):
        m = ir.Module.parse("""func.func @f(%c: i1, %x: index, %y: index, %odd: index) {
  %d = arith.constant 4096 : index
  %z = arith.constant 0 : index
  %s0 = arith.select %c, %x, %d : index
  %s1 = arith.select %c, %y, %z : index
  %copy = arith.addi %x, %y {sched.kept_mask} : index
  return
}""", ctx)
        f = m.body.operations[0]
        c, x, y, odd = f.regions[0].blocks[0].arguments
        ops = list(f.regions[0].blocks[0].operations)
        s0, s1, copy = ops[2].results[0], ops[3].results[0], ops[4]
        for idx, want in (([s0], [x]), ([s0, s1], [x, y])):
            with ir.InsertionPoint(copy):
                last = S._plus_odd(copy, idx, odd)
            got = unkept(idx[:-1] + [last])
            assert got is not None and got[:-1] == want[:-1], str(m)
            assert str(got[-1].owner).startswith("%") and "arith.addi" in str(got[-1].owner)
            assert list(got[-1].owner.operands) == [want[-1], odd], str(m)
        with pytest.raises(Exception, match="only with each index the select it built"):
            S._plus_odd(copy, [x], odd)


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
            R._gather(None, scan, a, dense, None, None, None)


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
