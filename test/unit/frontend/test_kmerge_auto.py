"""``merge_k=auto``, the 4-wave default (``pipeline_mlir/frontend/kmerge_auto.py``): a
latency-short loop merged where the merge pays and is safe, else pipelined as it is, the
decision said on the adopted loop (``sched.merge_k``).

On the 4-wave example's natural loop (IREE's 128x128 tile in 4 waves, K steps of 32: two
stages hold 512 cycles of MFMAs against a global load's 790), adopted only (no build):
each rule of the module docstring declines on its own input and merges one step past it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.frontend.kmerge_auto import DECLINED, occupancy_refusal, vgpr_floor
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parent))
from test_kmerge import EXAMPLE, _more_lds  # noqa: E402


MERGED = "merge_k=auto: 2 K steps merged into each K tile (two stages of one K step hold 512"


def _adopt(path: Path, options: str, capsys) -> tuple[str, str | None]:
    """(the adopted loop's BK, its ``sched.merge_k`` note or None)."""
    rc = main([str(path), f"--pass-pipeline=builtin.module(sched-adopt-loop{{schedule=4wave"
                          f"{options}}})"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    bk = re.findall(r"BK = (\d+) : i64", out)
    note = re.findall(r'sched\.merge_k = "([^"]*)"', out)
    assert len(bk) == 1 and len(note) <= 1, out[-3000:]
    return bk[0], note[0] if note else None


@pytest.mark.parametrize("k, kw, options, merged, said", [
    # (16 K steps, 4 pairs of merged steps, 3 steady-state iterations, merged by default:
    # test_a_given_bk_names_the_k_steps_merged)
    (512, {}, " merge_k=false", False, None),
    # loop_once: the schedule's loop runs at least once, so 3 more need 5 pairs
    (512, {}, " loop_once=true", False, f"{DECLINED} the loop runs 16 K steps, fewer than "
                                        f"the 20"),
    (640, {}, " loop_once=true", True, MERGED),
    # 14 K steps: 3 pairs, 2 steady-state iterations
    (448, {}, "", False, f"{DECLINED} the loop runs 14 K steps"),
    # a K tile the pipeline names is the loop's
    (512, {}, " BK=32", False, f"{DECLINED} the pipeline sets BK=32"),
    # ... and so do the per-load counts of the loop as it is (the merged loop issues twice
    # the loads and reads per copy): a pipeline written for it keeps it, not refused
    (512, {}, " vm_per_load_a=1", False, f"{DECLINED} with 2 merged, 'scf.for' op: the "
                                         f"pipeline asks for vm_per_load_a=1, but the loop's "
                                         f"payload has vm_per_load_a=2"),
    (512, {}, " vm_per_load_a=2", True, MERGED),
    # K known only at launch
    (512, {"dynamic": True}, "", False, f"{DECLINED} its trip count is known only at launch"),
    # 32768 bytes of other LDS: 98304 per workgroup merged, one workgroup of 4 waves per CU
    (512, {"more": True}, "", False, f"{DECLINED} 2 merged would leave 1 wave per SIMD "
                                     f"(fewer than 2; limited by lds: 98304 bytes"),
])
def test_auto_merges_only_where_it_pays(tmp_path, capsys, k, kw, options, merged, said):
    text = EXAMPLE.kernel_text(lds="alloc", k=k, dynamic=kw.get("dynamic", False))
    path = tmp_path / "natural.mlir"
    path.write_text(_more_lds(text) if kw.get("more") else text)
    bk, note = _adopt(path, options, capsys)
    assert bk == ("64" if merged else "32")
    assert (note is None) if said is None else (note is not None and note.startswith(said)), \
        note


def test_the_vgpr_floor_declines_a_wave_of_too_many_registers():
    """Accumulators plus ``m`` K steps of fragments: 64 accumulators of 4 f32 (256 VGPRs)
    and 32 VGPRs of bf16 fragments a K step are 320 merged in pairs, one wave per SIMD by
    VGPRs, where the LDS allows 2; 16 accumulators leave 4."""
    with ir.Context(), ir.Location.unknown():
        acc = ir.VectorType.get([4], ir.F32Type.get())
    reads = [SimpleNamespace(lds=np.zeros((256, 8)), buffer=b) for b in (0, 0, 0, 0, 1, 1, 1, 1)]

    def analysis(accs: int):
        return SimpleNamespace(scan=SimpleNamespace(mfmas=[SimpleNamespace(
                                   results=[SimpleNamespace(type=acc)])], block=(256, 1, 1),
                                   threads=256),
                               reads=reads, accumulators=lambda: accs,
                               buffer_views={0: SimpleNamespace(elem_bytes=2),
                                             1: SimpleNamespace(elem_bytes=2)})
    assert vgpr_floor(analysis(64), 2) == 320
    assert occupancy_refusal(analysis(64), 2, 65536) == (
        f"{DECLINED} 2 merged would leave 1 wave per SIMD (fewer than 2; limited by vgpr: "
        f"65536 bytes of LDS per workgroup of 4 waves, at least 320 VGPRs a wave)")
    assert vgpr_floor(analysis(16), 2) == 128
    assert vgpr_floor(analysis(128), 2) == 576      # more than the file: no wave at all
    assert occupancy_refusal(analysis(128), 2, 65536) == (
        f"{DECLINED} 2 merged would need at least 576 VGPRs a wave, more than the 512 of a "
        f"lane's file")
    assert occupancy_refusal(analysis(16), 2, 65536) is None


def test_the_vgpr_floor_is_below_the_built_flagship(tmp_path, capsys):
    """The floor never overstates on a kernel where ``auto`` decides: IREE's bf16 kernel's
    loop (the 4-wave example's: the same tile, accumulators and fragments, so the same
    floor), merged by default, with 32 KiB more LDS beside its buffers declines saying its
    floor (128), at most the VGPRs LLVM gives IREE's merged kernel as built (its behaviour
    snapshot's report, which test_behaviour_snapshot.py holds to the build: 150), whose
    occupancy stays at 2 waves per SIMD."""
    path = tmp_path / "more.mlir"
    path.write_text(_more_lds(EXAMPLE.kernel_text(lds="alloc", k=512)))
    _, note = _adopt(path, "", capsys)
    floor = int(re.search(r"at least (\d+) VGPRs a wave", note).group(1))
    report = (Path(__file__).parents[2] / "data" / "behaviour" / "outputs" /
              "iree-matmul_bf16_abt_4096-prefetch.report.out").read_text()
    assert "K steps: merge_k=auto: 2 K steps merged" in report
    built = int(re.search(r"VGPRs +(\d+) architected", report).group(1))
    assert 0 < floor <= built, (floor, built)
    assert re.search(r"occupancy +(\d+) waves/SIMD", report).group(1) == "2"


ASKED = "merge_k={}: {} K steps merged into each K tile (the pipeline sets BK={}, {} of the " \
        "loop's K steps of 32)"


def test_a_given_bk_names_the_k_steps_merged(tmp_path, capsys):
    """``BK`` 2 or 4 times the loop's K tile merges that many K steps under ``auto`` and
    ``true`` (``pipeline_mlir/frontend/kmerge_asked.py``): ``BK=64`` is the kernel ``auto``
    builds (the adopted IR the same but for the note), ``BK=128`` merges 4."""
    path = tmp_path / "natural.mlir"
    path.write_text(EXAMPLE.kernel_text(lds="alloc", k=512))
    texts = {}
    for options, bk, note in [("", "64", MERGED),
                              (" BK=64", "64", ASKED.format("auto", 2, 64, 2)),
                              (" BK=128", "128", ASKED.format("auto", 4, 128, 4)),
                              (" merge_k=true BK=64", "64", ASKED.format("true", 2, 64, 2))]:
        rc = main([str(path), f"--pass-pipeline=builtin.module(sched-adopt-loop{{"
                              f"schedule=4wave{options}}})"])
        out, err = capsys.readouterr()
        assert rc == 0, err
        assert re.findall(r"BK = (\d+) : i64", out) == [bk], options
        assert note in out, (options, re.findall(r'sched\.merge_k = "([^"]*)"', out))
        texts[options] = re.sub(r'sched\.merge_k = "[^"]*"', "", out)
    assert texts[""] == texts[" BK=64"] == texts[" merge_k=true BK=64"]


@pytest.mark.parametrize("kw, options, said", [
    ({}, " BK=96", "the pipeline asks for BK=96, but the loop's payload has BK=32, and "
                   "merging its K steps reaches BK=64 or BK=128 only (2 or 4 of them)"),
    ({}, " BK=256", "the pipeline asks for BK=256, but the loop's payload has BK=32, and "),
    # merge_k=true asks for the merge, BK=32 for the loop as it is
    ({}, " merge_k=true BK=32", "merge_k=true asks for its K steps merged, but the front "
                                "end cannot merge them: the pipeline sets BK=32, the "
                                "loop's K tile as it is"),
    # 4 K steps: no pair of K tiles of 4 merged, which the schedule's loop needs
    ({"k": 128}, " BK=128", "the pipeline asks for BK=128, 4 of the loop's K steps of 32 "
                            "merged into each K tile, but the front end cannot merge them: "
                            "the loop runs 4 K steps, fewer than the 8"),
    # its LDS in workgroup attributions, which the merge does not take
    ({"lds": "attribution"}, " BK=64", "the pipeline asks for BK=64, 2 of the loop's K steps "
                                       "of 32 merged into each K tile, but the front end "
                                       "cannot merge them: its LDS buffer memref<4096xbf16, "
                                       "#gpu.address_space<workgroup>> is not a static "
                                       "memref.alloc"),
    # (merge_k=false with BK=64: refused by the partition, test_natural.py)
])
def test_a_given_bk_no_merge_reaches_is_refused_at_the_loop(tmp_path, capsys, kw, options, said):
    path = tmp_path / "natural.mlir"
    path.write_text(EXAMPLE.kernel_text(k=kw.get("k", 512)) if kw.get("lds") else
                    EXAMPLE.kernel_text(lds="alloc", k=kw.get("k", 512)))
    rc = main([str(path), f"--pass-pipeline=builtin.module(sched-adopt-loop{{schedule=4wave"
                          f"{options}}})"])
    _, err = capsys.readouterr()
    assert rc == 1 and err.count("error:") == 1 and "Traceback" not in err, err
    assert re.search(r":\d+:\d+: error: sched-adopt-loop: 'scf.for' op: ", err), err
    assert said in err, err


def test_a_loop_merged_for_time_is_proven_merged_only(monkeypatch, capsys):
    """The whole-grid proofs of a loop ``merge_k`` may merge for time run only for the loop
    built (``partition_loop``'s ``defer``, ``frontend/natural.py``): IREE's f16 300x100x1030
    kernel (late form, adopted only) merged by default proves its merged loop alone; with
    ``BK=32`` (the merge declined) its own loop is proven, and a refusal of those proofs
    (the test's) is the loop's, as with ``merge_k=false``: the same route (the merge its
    partition then needs) and the same message at the same op, not the declined merge's
    note on an adopted loop."""
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend import every_workgroup
    from pipeline_mlir.frontend.marks import MERGED_ATTR
    natural = Path(__file__).parents[2] / "lit" / "passes" / "Inputs" / \
        "iree-f16-abt-300x100x1030.late.mlir"
    proven, refuse = [], []
    prove = every_workgroup.prove_every_workgroup

    def counted(an, ch, ev):
        proven.append(MERGED_ATTR in an.scan.loop.attributes)
        if refuse and not proven[-1]:
            raise IRError(an.scan.loop, "'scf.for' op: refused by the test's proof")
        return prove(an, ch, ev)
    monkeypatch.setattr(every_workgroup, "prove_every_workgroup", counted)

    def adopt(options):
        proven.clear()
        rc = main([str(natural), f"--pass-pipeline=builtin.module("
                   f"sched-adopt-loop{{schedule=4wave{options}}})"])
        return rc, capsys.readouterr()
    rc, (out, err) = adopt("")
    assert rc == 0 and "BK = 64 : i64" in out, err[-2000:]
    assert proven and all(proven), proven       # (the merged loop's only)
    rc, (out, err) = adopt(" BK=32")
    assert rc == 0 and "BK = 32 : i64" in out, err[-2000:]
    assert proven == [False] * len(proven) and proven, proven
    refuse.append(True)
    said = {options: adopt(options) for options in (" BK=32", " merge_k=false BK=32")}
    # (refused as it is, the loop takes the merge its partition needs: 2 K steps, BK=64)
    assert said[" BK=32"][0] == 1 and "asks for BK=32, but the loop's payload has BK=64" in \
        said[" BK=32"][1].err, said[" BK=32"]
    assert said[" BK=32"] == said[" merge_k=false BK=32"]
