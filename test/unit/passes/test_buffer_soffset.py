"""sched-buffer-soffset on IREE's kernels.

IREE's bf16 ``A x B^T`` matmul (test/data/iree, at the prefetch point and in its late
form), pipelined with ``--pipeline=4wave``: its copies' offsets are signed floor divisions
and remainders of differences in which the wave's part cancels, the workgroup's tile and
the K column added on top.  The pass splits every copy's offset it proves within its
buffer's rows (the range check is then the same whether or not it counts soffset), so the
assembly's main loop has no vector instruction for the addresses (no ``v_add`` for the K
column, no ``v_readfirstlane`` for the LDS address).  That the kernels still
compute C exactly is checked on the emulator (test/unit/tools/test_iree_emulate.py and
test_iree_configurations.py); the rules one by one are in the lit test
(test/lit/passes/sched-buffer-soffset.mlir).

Every rewrite is also checked lane by lane (``pipeline_mlir.analysis.buffer_copies``, on the
per-lane evaluator): on the shipped kernels, both IREE inputs and the lit inputs, each
rewritten copy's ``voffset + soffset`` is, in every thread of two workgroups and every
iteration, the offset the copy read before.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from build_cache import share_code_objects
from kernel_builds import KERNEL_SPECS
from pipeline_mlir.analysis.buffer_copies import BUFFER_LOAD_LDS, compare_copy_offsets, copy_ops
from pipeline_mlir.dialect.bindings import ir, new_context, passmanager
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.passes import registry
from pipeline_mlir.analysis.ir_facts import block_size
from pipeline_mlir.passes.buffer_soffset import BufferSoffset
from pipeline_mlir.tools.pipeline_opt import main

DATA = Path(__file__).parents[2] / "data" / "iree"
#: a buffer->LDS copy in gfx950 assembly: its VGPR offset and its scalar offset
COPY = re.compile(r"^\s*buffer_load_dwordx4 (\S+), s\[\d+:\d+\], (\S+) offen lds", re.M)


@pytest.fixture(scope="module", params=["prefetch", "late"])
def asm(request, tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("soffset") / f"{request.param}.s"
    src = DATA / f"matmul_bf16_abt_4096.{request.param}.mlir"
    with share_code_objects(emits=("asm",)):   # built once per run (test_iree_round_trip too)
        assert main(["--pipeline=4wave", str(src), "--emit=asm", "-o", str(out)]) == 0
    return out.read_text()


def test_every_copy_has_a_scalar_offset(asm):
    """All 32 copies (two K steps merged per K tile: merge_k=auto) get a scalar offset: the
    pass proves each within its buffer's rows whichever reading of the range check holds.
    The copies of the K tile ahead need the loop counter's last value (124 K steps of 32,
    not the guard's 127: sched-buffer-soffset-range.mlir and
    test/unit/analysis/test_int_strides.py have the rule); before it, six kept voffset."""
    copies = COPY.findall(asm)
    # 16 before the loop, 16 in it: two K tiles, each two K steps merged (merge_k=auto)
    assert len(copies) == 32
    assert all(re.fullmatch(r"s\d+", s) for _, s in copies), copies


def test_the_main_loop_computes_no_address_in_vector_instructions(asm):
    """With every copy's K column in soffset, the main loop has no vector instruction at
    all: no vector add for an address, no ``v_readfirstlane`` for an LDS address (it had
    14 with six unproven copies), no compare (the report's ``VALU 0``)."""
    loop = [i for b in parse_asm(asm).function().main_loop() for i in b.instrs]
    assert sum(1 for i in loop if i.mnemonic == "buffer_load_dwordx4") == 16
    valu = [i.mnemonic for i in loop if i.kind == "valu"]
    assert valu == [], valu


# ---- every rewritten copy reads what it read: the per-lane evaluator's check ----------------

LIT = Path(__file__).parents[2] / "lit" / "passes"
#: lit inputs whose rewritten copies read beyond 2^32 bytes for the sample values: the input
#: breaks the pass's stated assumption on purpose (the offsets still agree modulo 2^32)
BEYOND_4GIB = {"zext_of_negative"}


def _llvm_funcs(module) -> dict:
    """Every ``llvm.func`` of ``module`` (inside a ``gpu.module`` too), by name."""
    found = {}

    def visit(op):
        if op.name == "llvm.func":
            found[ir.StringAttr(op.attributes["sym_name"]).value] = op
        return ir.WalkResult.ADVANCE
    module.operation.walk(visit)
    return found


def _check_rewrite(text: str) -> dict:
    """Parse ``text`` (LLVM dialect) twice, run sched-buffer-soffset on one copy and compare
    every kernel's copies before and after, thread by thread: {function: CopyCheck}."""
    with new_context():
        before, after = ir.Module.parse(text), ir.Module.parse(text)
        pm = passmanager.PassManager("builtin.module")
        pm.add(BufferSoffset(), name=BufferSoffset.name, argument=BufferSoffset.name)
        pm.run(after.operation)
        new = _llvm_funcs(after)
        return {name: compare_copy_offsets(func, new[name], block_size(func))
                for name, func in _llvm_funcs(before).items()
                if block_size(func) is not None}


def _before_soffset(spec: str, source: Path | None) -> str:
    """The kernel of ``--pipeline=SPEC [source]`` in the LLVM dialect, just before
    sched-buffer-soffset."""
    with share_code_objects(emits=("mlir",), own_kernels=True):     # once per run
        lowered = compile(CompileOptions(schedule=spec, input=source and str(source),
                                         emit="mlir")).checked_output()
    with new_context():
        module = ir.Module.parse(lowered)
        pm = passmanager.PassManager("builtin.module")
        steps = registry.llvm_step()
        keep = registry.add_elements(pm, steps[:[n for n, _ in steps].index(BufferSoffset.name)])
        pm.run(module.operation)
        del keep            # (the pass objects alive while pm ran)
        return str(module)


#: shipped kernels whose copies another shipped kernel's stand for: the 4-wave FP8 128x128
#: kernel is the 64x64 one but for its numbers (its schedule; its LLVM dialect before this
#: pass, numbers and names masked, but for the loop's arity and the MFMA interleave's group
#: barriers), its copies the same 16-byte DMAs to LDS.  (Not the 256x256 one: its LLVM
#: dialect holds remainders, ``llvm.urem``, the 64x64's does not.)  The ping-pong BF16
#: kernel's copies are the ping-pong FP8 one's: 24 rewritten 16-byte DMAs to LDS, K tiles
#: 128 bytes wide, the LLVM dialect before the pass of the same integer operations (add,
#: mul, or, xor, udiv, urem); the FP8 kernel's item checks them at two thirds of the cost.
LONG_KERNELS = {"4wave-fp8-128": "the 64x64 kernel's copies take the same path: "
                "test_every_rewritten_copy_reads_the_same_bytes_in_every_lane[4wave-fp8-64]",
                "pingpong-bf16": "the ping-pong FP8 kernel's copies take the same path: "
                "test_every_rewritten_copy_reads_the_same_bytes_in_every_lane[pingpong-fp8]"}


@pytest.mark.parametrize("spec, source", [
    *(pytest.param(spec, None, id=key, marks=pytest.mark.long(LONG_KERNELS[key]))
      if key in LONG_KERNELS else pytest.param(spec, None, id=key)
      for key, spec in KERNEL_SPECS.items()),
    *(pytest.param("4wave", DATA / f"matmul_bf16_abt_4096.{form}.mlir", id=f"iree-{form}")
      for form in ("prefetch", "late")),
])
def test_every_rewritten_copy_reads_the_same_bytes_in_every_lane(spec, source):
    """The kernels run (loops to their trip count, both warp groups of the ping-pong
    kernel) for two workgroups; every copy the pass rewrote reads, in every thread, the
    byte it read before: voffset + soffset is the old offset."""
    (check,) = _check_rewrite(_before_soffset(spec, source)).values()
    assert check.rewritten and check.reached == check.rewritten
    assert check.problems == [] and check.outside == []


@pytest.mark.parametrize("name, rewrites", [("sched-buffer-soffset.mlir", 20),
                                            ("sched-buffer-soffset-nsw.mlir", 1),
                                            ("sched-buffer-soffset-range.mlir", 3)])
def test_the_lit_kernels_rewritten_copies_read_the_same_bytes(name, rewrites):
    """The same on the pass's lit inputs (each a whole kernel), the cases it must leave
    alone included (nothing rewritten there, nothing to compare)."""
    checks = {}
    for chunk in (LIT / name).read_text().split("// -----"):
        checks.update(_check_rewrite(chunk))
    assert sum(len(c.rewritten) for c in checks.values()) >= rewrites
    for fn, check in checks.items():
        assert check.reached == check.rewritten and check.problems == [], fn
        assert bool(check.outside) == (fn in BEYOND_4GIB), (fn, check.outside)


def test_a_wrong_split_is_caught():
    """Not vacuous: a rewritten copy whose soffset is replaced by its voffset reads other
    bytes, and the check names the copy and a thread."""
    text = (LIT / "sched-buffer-soffset.mlir").read_text().split("// -----")[0]
    with new_context():
        before, after = ir.Module.parse(text), ir.Module.parse(text)
        pm = passmanager.PassManager("builtin.module")
        pm.add(BufferSoffset(), name=BufferSoffset.name, argument=BufferSoffset.name)
        pm.run(after.operation)
        old, new = _llvm_funcs(before)["k_loop"], _llvm_funcs(after)["k_loop"]
        (op,) = [o for o in copy_ops(new) if o.name == BUFFER_LOAD_LDS]
        op.operands[4] = op.operands[3]
        check = compare_copy_offsets(old, new, block_size(old))
    assert check.problems and check.problems[0].startswith("workgroup 0, copy #0: thread ")
