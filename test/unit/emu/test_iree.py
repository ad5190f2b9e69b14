"""emu/iree.py on its own: which launch a kernel's arguments ask for, the element type its
MFMAs say, the sizes its buffer descriptors imply, and what a run that cannot find its grid
says.  (IREE's kernels themselves run in test/unit/tools/test_iree_emulate.py.)"""

from __future__ import annotations

import pytest

from emu_helpers import snippet_kernel
from kernel_builds import build
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.gemm import GridError, spread
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.iree import (Matmul, _sizes_of, emulate_matmul, launch_contract,
                                    matmul_dtype)


def _pointer(offset: int) -> dict:
    return {".offset": offset, ".size": 8, ".value_kind": "global_buffer",
            ".address_space": "global"}


def _value(offset: int, size: int = 8) -> dict:
    return {".offset": offset, ".size": size, ".value_kind": "by_value"}


def _with_args(args: list, text: str = "s_endpgm", threads: int = 64):
    k = snippet_kernel(text)
    k.meta = {".args": args, ".reqd_workgroup_size": [threads, 1, 1]}
    return k


HAL = [_pointer(0), _pointer(8), _pointer(16)]
MEMREF2 = [a for b in range(3) for a in (_pointer(56 * b), _pointer(56 * b + 8),
                                         *(_value(56 * b + 16 + 8 * i) for i in range(5)))]


def test_the_launch_is_read_from_the_kernel_arguments():
    assert launch_contract(load_kernel(build("4wave-fp8-64").hsaco)) == "gemm"
    assert launch_contract(_with_args(HAL)) == "hal"
    assert launch_contract(_with_args(MEMREF2)) == "memref"
    with pytest.raises(EmuError, match=r"its 2 kernel arguments \(global_buffer 8, by_value 4\) "
                                       r"are none of the launches the emulator knows"):
        launch_contract(_with_args([_pointer(0), _value(8, 4)]))
    k = _with_args(HAL)
    k.meta = None
    with pytest.raises(EmuError, match=r"no metadata \(.amdgpu_metadata\) says what its kernel "
                                       r"arguments are"):
        launch_contract(k)


MFMA = "v_mfma_f32_16x16x32_{} v[0:3], v[4:7], v[8:11], v[0:3]\n"


def test_the_element_type_is_the_one_the_mfmas_multiply():
    assert matmul_dtype(_with_args(HAL, MFMA.format("bf16") + "s_endpgm")) == "bf16"
    assert matmul_dtype(_with_args(HAL, MFMA.format("f16") * 2 + "s_endpgm")) == "f16"
    with pytest.raises(EmuError, match="has no MFMA: not a matmul the emulator can check"):
        matmul_dtype(_with_args(HAL))
    with pytest.raises(EmuError, match="multiplies bf16 and f16: one element type"):
        matmul_dtype(_with_args(HAL, MFMA.format("bf16") + MFMA.format("f16") + "s_endpgm"))
    fp8 = "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3] cbsz:{} blgp:{}\n"
    assert matmul_dtype(_with_args(HAL, fp8.format(0, 0) + "s_endpgm")) == "fp8"
    assert matmul_dtype(_with_args(HAL, fp8.format(1, 1) + "s_endpgm")) == "fp8e5m2"
    with pytest.raises(EmuError, match="FP8 E4M3 and FP8 E5M2 matmuls"):
        matmul_dtype(_with_args(HAL, fp8.format(0, 1) + "s_endpgm"))
    mfma32 = "v_mfma_f32_32x32x16_{} v[0:15], v[16:19], v[20:23], v[0:15]\n"   # pingpong, 4wave
    assert matmul_dtype(_with_args(HAL, mfma32.format("bf16") + "s_endpgm")) == "bf16"
    assert matmul_dtype(_with_args(HAL, mfma32.format("f16") + "s_endpgm")) == "f16"
    i8 = "v_mfma_i32_{} v[0:3], v[4:7], v[8:11], v[0:3]\n"
    assert matmul_dtype(_with_args(HAL, i8.format("16x16x64_i8") + "s_endpgm")) == "i8"
    assert matmul_dtype(_with_args(HAL, i8.format("32x32x32_i8").replace("v[0:3]", "v[0:15]")
                                   + "s_endpgm")) == "i8"                # pingpong, 4wave
    # gfx942's 16x16x32 FP8 MFMAs: the formats are the mnemonic's (A's first)
    fp8_16 = "v_mfma_f32_16x16x32_{} v[0:3], v[4:5], v[6:7], v[0:3]\n"
    assert matmul_dtype(_with_args(HAL, fp8_16.format("fp8_fp8") + "s_endpgm")) == "fp8"
    assert matmul_dtype(_with_args(HAL, fp8_16.format("bf8_bf8") + "s_endpgm")) == "fp8e5m2"
    with pytest.raises(EmuError, match="FP8 E4M3 and FP8 E5M2 matmuls"):
        matmul_dtype(_with_args(HAL, fp8_16.format("bf8_fp8") + "s_endpgm"))
    fp8_32 = "v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[4:11], v[12:19], v[0:15] cbsz:{} blgp:{}\n"
    assert matmul_dtype(_with_args(HAL, fp8_32.format(0, 0) + "s_endpgm")) == "fp8"
    assert matmul_dtype(_with_args(HAL, fp8_32.format(1, 1) + "s_endpgm")) == "fp8e5m2"
    with pytest.raises(EmuError, match=r"'v_mfma_f32_32x32x2_f32 [^']*' multiplies elements the "
                                       r"emulator's reference does not encode \(it runs i8"):
        matmul_dtype(_with_args(HAL, "v_mfma_f32_32x32x2_f32 v[0:15], v4, v5, v[0:15]\n"
                                     "s_endpgm"))


def test_the_sizes_the_descriptors_imply():
    p = Matmul(256, 512, 128, "bf16")
    assert _sizes_of(dict(enumerate(p.binding_bytes())), "bf16") == p
    assert _sizes_of({0: 100, 1: 200}, "bf16") is None          # C's span unknown
    assert _sizes_of({0: 6, 1: 10, 2: 4}, "bf16") is None        # no integer sizes


def test_spread_includes_the_first_and_the_last():
    assert spread(1024, 4) == [0, 341, 682, 1023]
    assert spread(3, 3) == [0, 1, 2] and spread(5, 1) == [0] and spread(4, None) == [0, 1, 2, 3]
    with pytest.raises(GridError, match="5 workgroups asked for, the grid has 4"):
        spread(4, 5)


def test_a_grid_is_not_guessed_from_a_workgroup_that_writes_nothing():
    with pytest.raises(EmuError, match="the grid is found from the tile of C workgroup 0 "
                                       "writes, and it wrote nothing"):
        emulate_matmul(_with_args(HAL), Matmul(16, 16, 32, "bf16"), count=1)
    with pytest.raises(EmuError, match=r"a grid of 300 workgroups \(300\) does not split the "
                                       r"16 x 16 C into equal tiles"):
        emulate_matmul(_with_args(HAL), Matmul(16, 16, 32, "bf16"), grid=(300,))
    # a 1-D grid that does not divide C: the tile workgroup 0 writes says it is wrong
    with pytest.raises(EmuError, match=r"not the first of tiles that cover the 16 x 16 C in a "
                                       r"grid of 3"):
        emulate_matmul(_with_args(HAL), Matmul(16, 16, 32, "bf16"), grid=(3,))


def test_a_2d_grid_of_cut_tiles_needs_workgroup_0_to_write_the_first():
    """A 2-D grid need not split C evenly (its last tiles cut by the edges), so the tile is
    the one workgroup 0 writes: a kernel whose workgroup 0 writes nothing is refused."""
    with pytest.raises(EmuError, match=r"workgroup 0 wrote 0 elements of C, not the first of "
                                       r"tiles that cover the 16 x 16 C in a grid of 2 x 3"):
        emulate_matmul(_with_args(HAL), Matmul(16, 16, 32, "bf16"), grid=(2, 3))


#: every lane of workgroup 0 stores -1, the poison's word, to C[lane] (the HAL's C pointer)
STORE_MINUS_ONE = """
    s_load_dwordx2 s[4:5], s[0:1], 0x10
    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32_e32 v2, 2, v0
    v_mov_b32_e32 v1, -1
    global_store_dword v2, v1, s[4:5]
    s_endpgm"""


def test_which_elements_were_stored_comes_from_the_stores_not_the_values():
    """A store of the poison's word counts as written (the comparison's C marks only the
    elements no store wrote, UNSTORED), and the run's tile is found from it."""
    from pipeline_mlir.emu.iree import UNSTORED, matmul_c

    k = _with_args(HAL, STORE_MINUS_ONE)
    c = matmul_c(k, Matmul(16, 16, 32, "bf16"), [0])
    assert (c[:4] == 0xFFFFFFFF).all() and (c[4:] == UNSTORED).all()
    run = emulate_matmul(k, Matmul(16, 16, 32, "bf16"), count=1)
    # wrong already (random A and B make no -1): no grid is learnt from it, its values fail
    assert (run.grid, run.written, run.first_bad) == (0, 64, (0, 0)) and not run.exact


#: workgroup w of a 1-D grid stores -1 to the 4 x 16 tile ``TILE_OF`` of a 16 x 16 C (one
#: element per lane): tile w, or with ``s_lshl_b32 s6, s2, 8`` replaced, tiles 1 and 2 swapped
TILE_STORE = """
    s_load_dwordx2 s[4:5], s[0:1], 0x10
    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32_e32 v2, 2, v0
    {tile}
    v_add_u32_e32 v2, s6, v2
    v_mov_b32_e32 v1, -1
    global_store_dword v2, v1, s[4:5]
    s_endpgm"""
OWN_TILE = "s_lshl_b32 s6, s2, 8"
SWAPPED_TILE = """s_and_b32 s6, s2, 1
    s_lshl_b32 s6, s6, 1
    s_lshr_b32 s7, s2, 1
    s_or_b32 s6, s6, s7
    s_lshl_b32 s6, s6, 8"""


@pytest.mark.parametrize("tile,wrong", [(OWN_TILE, None), (SWAPPED_TILE, ("1", "2"))])
def test_each_workgroup_must_store_its_own_inferred_tile(tile, wrong):
    """A run whose tiles are inferred (from workgroup 0's and the grid order) holds each
    workgroup to its own: two workgroups that swap their tiles store the whole footprint
    (the coverage check alone passes them), and are named."""
    from pipeline_mlir.emu.coverage import check_owners
    from pipeline_mlir.emu.iree import Launch

    k = _with_args(HAL, TILE_STORE.format(tile=tile))
    launch = Launch(k, Matmul(16, 16, 32, "bf16"), "eager", 0, 0)
    launch.run([0, 1, 2, 3])
    tiles = [(4 * w, 0, 4, 16) for w in range(4)]
    assert launch.stored().all()
    if wrong is None:
        check_owners(launch.glob, "C", (16, 16), [0, 1, 2, 3], tiles, k.name)
        return
    with pytest.raises(EmuError, match=rf"kernel snippet: the tile of workgroup {wrong[0]} "
                                       rf"\(rows 4..7, columns 0..15 of C, .*\) holds stores "
                                       rf"of workgroup {wrong[1]}: each workgroup must store "
                                       rf"its own tile"):
        check_owners(launch.glob, "C", (16, 16), [0, 1, 2, 3], tiles, k.name)


#: :data:`TILE_STORE` with workgroup 0 taking a branch the others do not
BRANCHED_TILE_STORE = TILE_STORE.replace("    {tile}", """    s_cmp_eq_u32 s2, 0
    s_cbranch_scc1 own
    s_nop 0
own:
    {tile}""")


def test_a_batch_that_branches_apart_runs_again_once_per_way():
    """Workgroups of a lockstep batch that take a branch apart run again as one batch per
    way they went (workgroup 0 alone, then the others together), not one by one, and still
    store their own tiles; the probe of workgroup 0 runs in the run's first batch when the
    grid is given, and a wrong value of its tile makes the run of it alone, wrong, whatever
    the other workgroups stored (no tile learnt)."""
    from pipeline_mlir.emu.coverage import check_owners
    from pipeline_mlir.emu.iree import Launch

    k = _with_args(HAL, BRANCHED_TILE_STORE.format(tile=OWN_TILE))
    launch = Launch(k, Matmul(16, 16, 32, "bf16"), "eager", 0, 0)
    launch.run([0, 1, 2, 3])
    assert sorted(launch.glob.race.runs.values()) == [("0",), ("0", "1", "2", "3"),
                                                      ("1", "2", "3")]
    assert launch.stored().all()
    check_owners(launch.glob, "C", (16, 16), [0, 1, 2, 3],
                 [(4 * w, 0, 4, 16) for w in range(4)], k.name)
    run = emulate_matmul(k, Matmul(16, 16, 32, "bf16"), (4,), workgroups=[2, 3])
    assert (run.workgroups, run.grid, run.written, run.first_bad) == (1, 0, 64, (0, 0))


#: each lane adds 1 to its element of workgroup w's tile (a load, an add, a store), then
#: the workgroups go apart at a branch (w < 2 or not), add 1 again, go apart at another
#: (w == 0 or 2, or not), and end
TWICE_APART = """
    s_load_dwordx2 s[4:5], s[0:1], 0x10
    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32_e32 v2, 2, v0
    s_lshl_b32 s6, s2, 8
    v_add_u32_e32 v2, s6, v2
    global_load_dword v3, v2, s[4:5]
    s_waitcnt vmcnt(0)
    v_add_u32_e32 v3, 1, v3
    global_store_dword v2, v3, s[4:5]
    s_waitcnt vmcnt(0)
    s_cmp_lt_u32 s2, 2
    s_cbranch_scc1 low
    s_nop 0
low:
    global_load_dword v3, v2, s[4:5]
    s_waitcnt vmcnt(0)
    v_add_u32_e32 v3, 1, v3
    global_store_dword v2, v3, s[4:5]
    s_waitcnt vmcnt(0)
    s_and_b32 s7, s2, 1
    s_cmp_eq_u32 s7, 0
    s_cbranch_scc1 even
    s_nop 0
even:
    s_endpgm"""


#: before the first branch of :data:`TWICE_APART`, two dword stores to one word in flight
#: (poison + 1, then + 2) and a byte store into it (16 at its byte 1), all before one wait
OVERLAPPED = TWICE_APART.replace("""    global_store_dword v2, v3, s[4:5]
    s_waitcnt vmcnt(0)
    s_cmp_lt_u32""", """    global_store_dword v2, v3, s[4:5]
    v_add_u32_e32 v4, 1, v3
    global_store_dword v2, v4, s[4:5]
    s_mov_b32 s8, s4
    s_mov_b32 s9, s5
    s_mov_b32 s10, 1024
    s_mov_b32 s11, 0
    v_mov_b32_e32 v5, 16
    buffer_store_byte v5, v2, s[8:11], 0 offen offset:1
    s_waitcnt vmcnt(0)
    s_cmp_lt_u32""", 1)


def test_a_batch_run_again_per_way_starts_from_the_memory_it_started_with():
    """A batch whose workgroups go apart is run again per way (split again where a way goes
    apart later: (0, 1) and (2, 3), then each alone) from the memory the batch started
    with: what the stopped run stored before the branch is undone (its undo log), else the
    runs again read it and add 1 twice, three or four times (C's poison -1 plus 2 is 1).
    With overlapping stores in flight (:data:`OVERLAPPED`) each byte gets back what it held
    before the batch's first store to it: 0x1001 + 1 = 4098 (more without the undo)."""
    from pipeline_mlir.emu.iree import Launch

    for text, want, mode in ((TWICE_APART, 1, "eager"), (OVERLAPPED, 4098, "random")):
        k = _with_args(HAL, text)
        launch = Launch(k, Matmul(16, 16, 32, "bf16"), mode, 0, 0)
        launch.run([0, 1, 2, 3])
        assert sorted(launch.glob.race.runs.values()) == [
            ("0",), ("0", "1"), ("0", "1", "2", "3"), ("1",), ("2",), ("2", "3"), ("3",)]
        assert (launch.C() == want).all() and launch.stored().all(), (text, launch.C())
        assert launch.glob.undo is None


def test_workgroup_0_of_a_known_2d_grid_runs_once():
    """A kernel reading no y workgroup id on a known 2-D grid (IREE's forall of one workgroup
    along M, whose id LLVM folds away: M = 50 in a 64-row tile) runs workgroup 0 once, named
    as the grid names it, ``(0, 0)``: run also as ``0`` it stored C twice, a global race."""
    k = _with_args(HAL, STORE_MINUS_ONE)
    run = emulate_matmul(k, Matmul(16, 16, 32, "bf16"), grid=(1, 1))
    assert run.written == 64 and not run.exact


def test_a_problems_inputs_outlast_small_problems_run_between(monkeypatch):
    """``iree_data.problem_data`` keeps inputs by bytes, not by count: a large problem's
    survive the small ones run between two of its runs, and the oldest go once the bytes are spent."""
    from collections import OrderedDict

    from pipeline_mlir.emu import iree_data

    def size(n):              # A and B int8, and their bf16 codes
        return 2 * n * n + 2 * 2 * n * n

    monkeypatch.setattr(iree_data, "_DATA", OrderedDict())
    monkeypatch.setattr(iree_data, "DATA_BYTES", 2 * size(64) + 3 * size(16))
    big = iree_data.problem_data(64, 64, 64, "bf16", True, 0)
    assert all((a == b).all() if hasattr(a, "shape") else a == b
               for a, b in zip(big, iree_data.new_data(64, 64, 64, "bf16", True, 0)))
    for seed in (1, 2, 3):
        iree_data.problem_data(16, 16, 16, "bf16", True, seed)
    assert iree_data.problem_data(64, 64, 64, "bf16", True, 0) is big
    other = iree_data.problem_data(64, 64, 64, "bf16", True, 1)
    assert iree_data.problem_data(64, 64, 64, "bf16", True, 0) is big      # most recently used: kept
    iree_data.problem_data(64, 64, 64, "bf16", True, 2)                      # over: the oldest go
    assert list(iree_data._DATA) == [(64, 64, 64, "bf16", True, 0), (64, 64, 64, "bf16", True, 2)]
    assert iree_data.problem_data(64, 64, 64, "bf16", True, 1) is not other
