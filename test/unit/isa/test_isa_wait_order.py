"""The ISA check's order rule (pipeline_mlir/isa/wait_order.py) and what it guards against.

The shipped kernels keep every counted wait's cut at a fence.  The assembly of before (no
order fences) is caught, by the rule and by the comparison with the plan; the failure LLVM
22's ``llc`` produced from that IR (one B fragment read issued among the A reads, in the
same region) is caught by the rule, and the emulator finds the race it causes.
"""

from __future__ import annotations

import pytest

from kernel_builds import KERNEL_SPECS, build
from pipeline_mlir.emu.errors import Finding as EmuFinding
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.check import check_kernel_asm
from pipeline_mlir.isa.skeleton import Token, merge_waits
from pipeline_mlir.isa.wait_order import MEMORY_CLASSES, orders_memory, unpinned_waits
from pipeline_mlir.schedule.fences import ORDER_FENCE_MASK

ORDER_FENCE_LINE = f"; sched_barrier mask(0x{ORDER_FENCE_MASK:08X})"


def check(key: str, asm: str):
    return check_kernel_asm(parse_asm(asm).function(), build(key).plan)


def kinds(res, kind: str) -> list[tuple]:
    return sorted(f.entries for f in res.findings if f.kind == kind)


@pytest.mark.parametrize("key", sorted(KERNEL_SPECS))
def test_the_shipped_kernels_pin_every_counted_wait(key):
    asm = build(key).asm
    # the FP8 ping-pong default (frags_ahead=across) has no counted wait whose cut a block
    # fence does not already keep: it needs no order fence; the others do
    assert (ORDER_FENCE_LINE in asm) == (key != "pingpong-fp8")
    res = check(key, asm)
    assert kinds(res, "wait-unpinned") == [] and kinds(res, "fence-missing") == []


def _without_order_fences(asm: str) -> str:
    return "\n".join(ln for ln in asm.split("\n") if ln.strip() != ORDER_FENCE_LINE)


@pytest.mark.parametrize("key, waits", [
    ("pingpong-bf16", [("KRN[38]",), ("KRN[3]",)]),
    ("pingpong-fp8-none", [("KRN[38]",), ("KRN[3]",)]),
    # frags_ahead=within moved the second B read out of KRN[38]'s load block; LLVM happens
    # to keep the remaining cut before it (KRN[39] now) in order
    ("pingpong-fp8-within", [("KRN[3]",)]),
    # KRN[1] and KRN[17]'s cuts lie in the prologue, behind the zero-trip fence's vmcnt(0),
    # which the path into the loop skips
    ("4wave-bf16", [("KRN[17]", "KRN[18]"), ("KRN[1]", "KRN[2]"), ("PRO[11]",), ("PRO[8]",)]),
])
def test_the_assembly_of_before_is_caught(key, waits):
    """Without the order fences (the IR of before), in the order llvmlite happened to keep."""
    res = check(key, _without_order_fences(build(key).asm))
    assert kinds(res, "wait-unpinned") == waits
    assert all(f.phase in ("loop", "prologue") and "no fence keeps LLVM" in f.message
               for f in res.findings if f.kind == "wait-unpinned")
    assert len(kinds(res, "fence-missing")) == len(
        [ln for ln in build(key).asm.split("\n") if ln.strip() == ORDER_FENCE_LINE])


def _llvm_order(asm: str) -> str:
    """What LLVM 22's llc made of the IR of before: in the second half of the ping-pong
    loop, the first of KRN[35]'s four B reads issued after KRN[36]'s eight A reads (and no
    order fence)."""
    lines = asm.split("\n")
    loop = range(next(i for i, ln in enumerate(lines) if "Inner Loop Header" in ln), len(lines))
    fences = [i for i in loop if lines[i].strip() == ORDER_FENCE_LINE]
    k = fences[1]
    b_reads = [i for i in range(k - 8, k) if "ds_read_b128" in lines[i]][-4:]
    a_reads = [i for i in range(k, k + 12) if "ds_read_b128" in lines[i]][:8]
    assert len(b_reads) == 4 and len(a_reads) == 8
    moved = lines[b_reads[0]]
    out = lines[:a_reads[-1] + 1] + [moved] + lines[a_reads[-1] + 1:]
    del out[k]                 # the order fence
    del out[b_reads[0]]        # the read, now after the A reads
    return "\n".join(out)


def test_llvms_order_is_caught_by_the_rule_and_races_in_the_emulator():
    key = "pingpong-bf16"
    asm = _llvm_order(build(key).asm)
    res = check(key, asm)
    assert ("KRN[38]",) in kinds(res, "wait-unpinned")
    # the comparison with the plan counts instructions per gap: only the fence is missing
    # (the moved read also changes what the MFMAs' own waits must count: frag-wait-*, and
    # an MFMA reads a fragment it leaves in flight: wait-short; and the moved read in
    # flight at the barrier after the wait whose bytes the other waves' DMAs overwrite:
    # lds-race, the emulator's race below)
    assert {f.kind for f in res.findings} - {"frag-wait-strong", "frag-wait-weak"} == {
        "wait-unpinned", "fence-missing", "wait-short", "lds-race"}
    gemm = build(key).kernel
    g = gemm.geometry
    # (with per-fragment waits the moved read is first caught as used before its wait)
    with pytest.raises(EmuFinding, match=r"lds-race: .*buffer_load_dwordx4 .* lds'.* races "
                                         r"the read by wave \d+ at .*ds_read_b128|"
                                         r"pending-register: .*ds_read_b128"):
        emulate_gemm(load_kernel(asm), gemm, g.BM, g.BN, 4 * g.BK, "late")
    # the shipped order, the same way, is exact and race-free: test_isa_reg_waits.py's
    # mutation test runs it as its baseline


# ---- the rule on token streams ----------------------------------------------------------------

def _ds(line):
    return Token("ds_read", "ds_read_b128", lines=(line,))


def _fence(mask, line):
    return Token("sched_barrier", value=mask, lines=(line,))


def _wait(lgkm, line):
    return Token("wait", lgkm=lgkm, lines=(line,))


def test_which_fences_order_memory():
    assert orders_memory(_fence(0, 1)) and orders_memory(_fence(ORDER_FENCE_MASK, 1))
    assert not orders_memory(_fence(0x100, 1))       # ds_read may cross it
    assert not orders_memory(Token("barrier"))
    assert not ORDER_FENCE_MASK & MEMORY_CLASSES


def test_the_rule_on_a_token_stream():
    loop = [_ds(1), _ds(2), _wait(1, 3), _ds(4), _fence(ORDER_FENCE_MASK, 5), _ds(6),
            _wait(1, 7)]
    (u,) = unpinned_waits({"loop": loop}, {"loop": {2, 6}})
    assert (u.phase, u.index, u.counter, u.count) == ("loop", 2, "lgkmcnt", 1)
    assert (u.done.lines, u.first.lines) == ((1,), (2,))
    assert "lgkmcnt(1) completes ds_read_b128 (line 1) but not ds_read_b128 (line 2)" in \
        u.message()
    # a wait LLVM added (not the schedule's) is not checked
    assert unpinned_waits({"loop": loop}, {"loop": {6}}) == []
    # the cut at the loop's head (the previous iteration's read, a block away) is pinned;
    # one inside the previous iteration is not
    assert unpinned_waits({"loop": [_ds(1), _wait(1, 2)]}, {"loop": {1}}) == []
    (u,) = unpinned_waits({"loop": [_wait(1, 1), _ds(2), _ds(3)]}, {"loop": {0}})
    assert (u.done.lines, u.first.lines) == ((2,), (3,))
    # an earlier wait of the schedule's that completes everything ends the walk
    done = [_ds(1), _wait(0, 2), _ds(3), _wait(1, 4)]
    assert unpinned_waits({"loop": done}, {"loop": {1, 3}}) == []


def test_a_wait_llvm_added_does_not_end_a_walk():
    """The schedule's ``lgkmcnt(1)`` relies on completing A (issued first) and leaving B in
    flight.  LLVM issued B first, waited for B's registers itself (``lgkmcnt(0)``, not the
    schedule's), then A: A is in flight at the schedule's wait.  LLVM's wait pins no order,
    so it must not end the walk (it used to: nothing found); behind a fence, or with the
    wait the schedule's own, the cut is pinned."""
    swapped = [_ds(1), _wait(0, 2), _ds(3), _wait(1, 4)]
    (u,) = unpinned_waits({"loop": swapped}, {"loop": {3}})
    assert (u.index, u.count, u.done.lines, u.first.lines) == (3, 1, (1,), (3,))
    fenced = [_ds(1), _wait(0, 2), _fence(ORDER_FENCE_MASK, 3), _ds(4), _wait(1, 5)]
    assert unpinned_waits({"loop": fenced}, {"loop": {4}}) == []
    # LLVM's lgkmcnt(1) after two more reads: A's cut (3 reads back) still needs a fence
    deeper = [_ds(1), _ds(2), _wait(1, 3), _ds(4), _ds(5), _wait(3, 6)]
    (u,) = unpinned_waits({"loop": deeper}, {"loop": {5}})
    assert (u.done.lines, u.first.lines) == ((1,), (2,))
    assert unpinned_waits({"loop": deeper}, {"loop": {2, 5}}) != []     # its own cut
    # LLVM's lgkmcnt(0) after both reads (for an MFMA's operands between them and the
    # schedule's wait) leaves nothing in flight: whatever the order, nothing is relied on
    drained = [_ds(1), _ds(2), _wait(0, 3), _wait(1, 4)]
    assert unpinned_waits({"loop": drained}, {"loop": {3}}) == []
    # a wait of the other counter LLVM added is no wait of this one: the walk goes on
    other = [_ds(1), Token("wait", vm=0, lines=(2,)), _ds(3), _wait(1, 4)]
    (u,) = unpinned_waits({"loop": other}, {"loop": {3}})
    assert (u.done.lines, u.first.lines) == ((1,), (3,))


def test_an_overflow_guard_is_not_walked():
    """A schedule wait marked an overflow guard in its counter relies on no order; in the
    other counter, or unmarked, it is walked."""
    loop = [_ds(1), _ds(2), _wait(1, 3), _ds(4)]
    assert unpinned_waits({"loop": loop}, {"loop": {2}}, {"loop": {2: {"lgkmcnt"}}}) == []
    for guards in ({}, {"loop": {2: {"vmcnt"}}}, {"loop": {1: {"lgkmcnt"}}}):
        (u,) = unpinned_waits({"loop": loop}, {"loop": {2}}, guards)
        assert (u.index, u.done.lines, u.first.lines) == (2, (1,), (2,))


def test_a_lowered_wait_is_walked_with_its_derived_count():
    """A wait the schedule lowered below its derived count (``Token.derived``) is walked
    with the derived count: its cut pinned, nothing found; unpinned, found (an overflow
    guard would not be walked at all); a count above the derived one walks its own."""
    loop = [_ds(1), _ds(2), _ds(3), _wait(1, 4)]
    derived = {"loop": {3: (("lgkmcnt", 2),)}}
    (u,) = unpinned_waits({"loop": loop}, {"loop": {3}}, None, derived)
    assert (u.count, u.done.lines, u.first.lines) == (2, (1,), (2,))
    fenced = loop[:1] + [Token("sched_barrier", value=0, lines=(9,))] + loop[1:]
    assert unpinned_waits({"loop": fenced}, {"loop": {4}}, None,
                          {"loop": {4: (("lgkmcnt", 2),)}}) == []
    # the lowered count's own cut (inside what the derived count leaves) needs no fence
    assert unpinned_waits({"loop": fenced}, {"loop": {4}}) != []
    # an earlier lowered wait ends a walk only as far as its derived count completes
    later = [_ds(1), _wait(0, 2), _ds(3), _ds(4), _wait(1, 5), _ds(6), _wait(2, 7)]
    # (the schedule's waits all three; the one at index 4 has a cut of its own, unpinned)
    assert [u for u in unpinned_waits({"loop": later}, {"loop": {1, 4, 6}})
            if u.index == 6] == []
    (u,) = [u for u in unpinned_waits({"loop": later}, {"loop": {1, 4, 6}}, None,
                                      {"loop": {4: (("lgkmcnt", 2),)}}) if u.index == 6]
    assert (u.index, u.done.lines, u.first.lines) == (6, (3,), (4,))


def test_merged_waits_walk_the_stricter_derived_count():
    lowered = Token("wait", vm=31, origin=("KRN[1]",), derived=(("vmcnt", 48),))
    lgkm = Token("wait", lgkm=0, origin=("KRN[2]",))
    assert merge_waits(lowered, lgkm).derived == (("vmcnt", 48),)
    assert merge_waits(lowered, Token("wait", vm=40)).derived == (("vmcnt", 40),)
    assert merge_waits(lowered, Token("wait", vm=20)).derived == ()
    assert merge_waits(lgkm, Token("wait", lgkm=3)).derived == ()


def test_merged_waits_are_a_guard_only_where_every_part_is():
    vm_guard = Token("wait", vm=10, origin=("KRN[1]",), guards=frozenset({"vmcnt"}))
    lgkm = Token("wait", lgkm=3, origin=("KRN[2]",))
    lgkm_guard = Token("wait", lgkm=7, origin=("KRN[3]",), guards=frozenset({"lgkmcnt"}))
    both = merge_waits(vm_guard, lgkm)
    assert (both.vm, both.lgkm, both.origin, both.parts) == (10, 3, ("KRN[1]", "KRN[2]"), 2)
    assert both.guards == {"vmcnt"}
    assert merge_waits(lgkm, lgkm_guard).guards == frozenset()
    assert merge_waits(lgkm_guard, lgkm_guard).guards == {"lgkmcnt"}


def _vm(kind, name, line):
    return Token(kind, name, lines=(line,))


def test_vector_stores_count_on_vmcnt():
    """gfx9 counts stores on vmcnt as well as loads: a ``vmcnt(1)`` after a scratch spill
    store and a DMA completes the store and leaves the DMA in flight, a cut no fence pins
    (counting loads only, the walk found no cut and passed it)."""
    store = _vm("vmem_store", "scratch_store_dword", 1)
    load = _vm("vmem_load_lds", "buffer_load_dword", 2)     # a DMA: the schedule's
    wait = Token("wait", vm=1, lines=(3,))
    (u,) = unpinned_waits({"loop": [store, load, wait]}, {"loop": {2}})
    assert (u.counter, u.done.lines, u.first.lines) == ("vmcnt", (1,), (2,))
    assert "vmcnt(1) completes scratch_store_dword (line 1) but not buffer_load_dword " \
           "(line 2)" in u.message()
    # a global store the same way; a fence between them pins the cut
    gstore = _vm("vmem_store", "global_store_dword", 1)
    assert len(unpinned_waits({"loop": [gstore, load, wait]}, {"loop": {2}})) == 1
    fenced = [store, _fence(ORDER_FENCE_MASK, 2), load, wait]
    assert unpinned_waits({"loop": fenced}, {"loop": {3}}) == []


def test_the_skeleton_keeps_vector_stores_for_the_rule():
    """A vector store is outside the schedule's comparison but a token of the skeleton."""
    from pipeline_mlir.isa.skeleton import actual_skeleton

    asm = build("4wave-bf16").asm
    actual, outside = actual_skeleton(parse_asm(asm).function())
    stores = [t for ph in actual.values() for t in ph if t.kind == "vmem_store"]
    assert stores and len(stores) == len([o for o in outside if "vector store" in o.reason])


def _split_load_stream(first_run_before_b: bool) -> list:
    """B's 8 reads, A's 16 in two runs of 8 behind an overflow guard ``lgkmcnt(7)`` between
    memory fences, then the schedule's ``lgkmcnt(16)``, capped: the assembly's wait waits
    for no LDS read (lgkmcnt at its maximum, parsed as no count)."""
    a1, b, a2 = ([_ds(100 * g + i) for i in range(8)] for g in (1, 2, 3))
    guard = [_fence(0, 50), _wait(7, 51), _fence(0, 52)]
    head = a1 + b if first_run_before_b else b + [_fence(ORDER_FENCE_MASK, 60)] + a1
    return head + guard + a2 + [Token("wait", lines=(99,))]


def test_a_capped_wait_behind_a_run_guard_is_walked():
    """The race of the 8-wave bf16 ``A^T x B`` ping-pong kernel before the fourth audit
    (docs/iree-audits.md): LLVM issued A's first run before B's reads, so the guard
    ``lgkmcnt(7)`` left 7 of B's reads in flight, and the capped wait (derived 16, at the
    counter's maximum in the assembly) completed none.  The rule walks the capped wait with
    its derived count, through the guard (not walked on its own), and finds the cut between
    A's first run and B; with B fenced before A's first run it is pinned."""
    for racy in (True, False):
        loop = _split_load_stream(racy)
        w, g = len(loop) - 1, loop.index(next(t for t in loop if t.lgkm == 7))
        found = unpinned_waits({"loop": loop}, {"loop": {g, w}},
                               {"loop": {g: {"lgkmcnt", "vmcnt"}, w: {"vmcnt"}}},
                               {"loop": {w: (("lgkmcnt", 16),)}})
        if racy:
            (u,) = found
            assert (u.index, u.count, u.done.lines, u.first.lines) == (w, 16, (107,), (200,))
        else:
            assert found == []


def test_a_cut_between_spill_stores_no_dma_can_cross_is_pinned():
    """IREE's fp8 256x256 8-wave kernel in the late form (``pingpong``) spills: three
    scratch stores after the prologue's last fence, then the loop's six DMAs and its
    ``vmcnt(8)``, whose cut falls between two of the stores.  Whatever order LLVM gives the
    stores, the same DMAs are complete (none is between the fence and the loop's head):
    pinned (it was reported ``wait-unpinned``).  A DMA among them could cross the cut: found."""
    dma = [_vm("vmem_load_lds", "buffer_load_dwordx4", line) for line in range(10, 16)]
    # (the fence pins the back edge's cut: the previous iteration's last two DMAs)
    loop = dma[:4] + [_fence(0, 20)] + dma[4:] + [Token("wait", vm=8, lines=(16,))]

    def prologue(middle: str) -> list:
        return [_vm("vmem_load_lds", "buffer_load_dwordx4", 1), _fence(0, 2),
                _vm("vmem_store", "scratch_store_dword", 3), _vm(middle, "x", 4),
                _vm("vmem_store", "scratch_store_dword", 5)]
    assert unpinned_waits({"prologue": prologue("vmem_store"), "loop": loop},
                          {"loop": {7}}) == []
    (u,) = unpinned_waits({"prologue": prologue("vmem_load_lds"), "loop": loop},
                          {"loop": {7}})
    assert (u.counter, u.count, u.done.lines, u.first.lines) == ("vmcnt", 8, (3,), (4,))
    # the DMA on the cut's newer side, before the loop's head: found as well
    late = prologue("vmem_store")[:-1] + [_vm("vmem_load_lds", "buffer_load_dwordx4", 5)]
    (u,) = unpinned_waits({"prologue": late, "loop": loop}, {"loop": {7}})
    assert (u.done.lines, u.first.lines) == ((3,), (4,))
    # a DMA on the cut's older side, after the fence: found too (LLVM may issue it after
    # the store it now precedes; before, no test noticed this side's scan removed)
    early = prologue("vmem_store")
    early[2] = _vm("vmem_load_lds", "buffer_load_dwordx4", 3)
    (u,) = unpinned_waits({"prologue": early, "loop": loop}, {"loop": {7}})
    assert (u.done.lines, u.first.lines) == ((3,), (4,))
