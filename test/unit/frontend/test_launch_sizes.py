"""pipeline_mlir/frontend/launch_sizes.py: a dispatch whose bindings are sized at launch.

IREE's 4096^3 dispatch with M known only at launch (``test/data/iree/dynamic.py``: A and C
of ``?x4096``, the size from two push constants as IREE passes an index, the workgroup
loop over ``ceildiv(M, 128)``) is read at the sizes of a launch: the push constants that
give them, the shapes and the grid.  Every refusal is at the op, saying why.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.dispatch import matmul_dispatch

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import dynamic as D  # noqa: E402

PREFETCH = (ROOT / "test" / "data" / "iree" / "matmul_bf16_abt_4096.prefetch.mlir").read_text()
TEXT = D.dynamic_m(PREFETCH, 256)


def dispatch(text: str, sizes):
    with new_context() as ctx:
        return matmul_dispatch(ir.Module.parse(text, ctx), sizes)


def refusal(text: str, sizes) -> str:
    with new_context() as ctx:
        with pytest.raises(IRError) as e:
            matmul_dispatch(ir.Module.parse(text, ctx), sizes)
        return f"{e.value.op.location}: {e.value}"


@pytest.mark.parametrize("m,constants,tiles", [
    (400, (400, 0), 4), (128, (128, 0), 1), (16, (16, 0), 1),
    ((1 << 32) + 128, (128, 1), (1 << 25) + 1)])
def test_sizes_push_constants_and_grid_of_a_launch(m, constants, tiles):
    d = dispatch(TEXT, (m, 4096, 256))
    assert (d.M, d.N, d.K, d.constants, d.grid) == (m, 4096, 256, constants, (32, tiles))
    assert [b.shape for b in d.bindings] == [(m, 256), (4096, 256), (m, 4096)]


def test_static_dispatch_is_unchanged_by_sizes():
    d = dispatch(PREFETCH, (4096, 4096, 4096))
    assert (d.M, d.constants, d.grid) == (4096, (), (32, 32))


ASSUME = "%dyn_m_i<umin = 0, umax = 9007199254740991>"


@pytest.mark.parametrize("text,sizes,message", [
    (TEXT, None, "binding A (memref<?x256xbf16, #hal.descriptor_type<storage_buffer>>) is "
                 "sized at launch: the launch's M, N and K must be given"),
    (TEXT.replace(ASSUME, "%dyn_m_i<umin = 0, umax = 9007199254740991, udiv = 128>"),
     (400, 4096, 256), "the launch makes operand #0 400, and the kernel was compiled assuming "
                       "udiv = 128"),
    (TEXT.replace(ASSUME, "%dyn_m_i<umin = 512, umax = 9007199254740991>"), (400, 4096, 256),
     "assuming umin = 512"),
    (TEXT.replace("%dyn_m_o = arith.ori %dyn_m_l, %dyn_m_s : i64",
                  "%dyn_m_o = arith.muli %dyn_m_l, %dyn_m_s : i64"), (400, 4096, 256),
     "a binding's size is computed by it, and the emulator finds push constants only "
     "for sizes IREE passes"),
    (TEXT.replace("ordinal(1) : i32\n", "ordinal(2) : i32\n"
                  "          %dyn_x = hal.interface.constant.load layout(#pipeline_layout) "
                  "ordinal(1) : i32\n").replace("constants = 2", "constants = 3"),
     (400, 4096, 256), "push constant #1 sizes no binding"),
    (TEXT, (-16, 4096, 256), "a size of -16"),
], ids=["no sizes", "udiv", "umin", "muli", "unused constant", "negative"])
def test_refusals_name_the_op_and_why(text, sizes, message):
    got = refusal(text, sizes)
    assert message in got and 'loc("-":' in got, got


EXTSI = TEXT.replace("%dyn_m_l = arith.extui", "%dyn_m_l = arith.extsi")


def test_a_sign_extended_word_passes_sizes_below_its_sign_bit():
    """The casts a launch value passes through are one table (``ir_facts.
    LAUNCH_PASS_THROUGH``, also ``launch_stride``'s): a sign-extended low word takes sizes
    below 2^31, and refuses one whose word would arrive negative."""
    d = dispatch(EXTSI, (400, 4096, 256))
    assert (d.M, d.constants) == (400, (400, 0))
    got = refusal(EXTSI, ((1 << 31) + 128, 4096, 256))
    assert "'arith.extsi' op" in got and "a size of 2147483776 does not pass through it " \
        "unchanged (a signed 32-bit value)" in got, got


#: IREE's padded bf16 ``A x B^T`` (K = 256) with M known only at launch plus a bias of N,
#: both forms (``generate.py``'s ``PADDED_LIT_INPUTS``)
BIAS = ROOT / "test" / "lit" / "passes" / "Inputs" / "iree-bf16-abt-padded-m-bias"
#: (form, the bias read, its index): made one element off (``xori 1``) in workgroup 5 only
BIAS_READS = {
    "prefetch": ("%98 = vector.transfer_read %expand_shape_12[%36, %26]", "%26", "%arg1"),
    "late": ("%197 = vector.load %12[%196]", "%196", "%arg0"),
}


def _off_in_5(text: str, form: str) -> str:
    read, index, wid = BIAS_READS[form]
    assert text.count(read) == 1, read
    indent = "\n" + " " * 12
    return text.replace(read, indent.join([
        "%off_c5 = arith.constant 5 : index", "%off_c1 = arith.constant 1 : index",
        f"%off_is = arith.cmpi eq, {wid}, %off_c5 : index",
        f"%off_x = arith.xori {index}, %off_c1 : index",
        f"%off = arith.select %off_is, %off_x, {index} : index",
        read.replace(index + "]", "%off]")]), 1)


@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_a_bias_read_is_tied_to_c_over_the_grid_launched(form):
    """A kernel sized at launch reading a bias: its read tied to C's tiles over the grid
    the launch gives (M = 129: 2 x 32 workgroups; the late form at M = 1: 32 of its
    workgroup loop, one iteration each; before, refused as 'the grid has no bound' and at that
    loop), the push constants bound; one element off in workgroup 5 only (which
    ``--emulate-workgroups=2`` does not run) is refused at the read, naming it."""
    text = BIAS.with_suffix(f".{form}.mlir").read_text()
    sizes = (129, 4096, 256) if form == "prefetch" else (1, 4096, 256)    # (half the cost)
    d = dispatch(text, sizes)
    assert (d.grid, d.expect) == ((32, 2) if form == "prefetch" else (32,), "A @ B.T + bias")
    message = refusal(_off_in_5(text, form), sizes)
    assert "it reads element 641, 641 from the grid's first workgroup's, where the column " \
        "of the tile of C it writes moved by 640" in message, message
    assert "in workgroup [5, 0]" in message or "in workgroup [5]" in message, message


def test_a_workgroup_loop_of_more_than_one_tile_a_workgroup_is_refused_at_the_tie():
    """The late form's read sits in IREE's linearised workgroup loop, each workgroup bound
    to its one iteration; an id bounded to 16 (at M = 1 the grid 16 workgroups, the loop's
    32 tiles: two a workgroup, the second of which a tie at its first does not see) is
    refused at the loop."""
    text = BIAS.with_suffix(".late.mlir").read_text().replace(
        "hal.interface.workgroup.id[0] upper_bound 2147483647",
        "hal.interface.workgroup.id[0] upper_bound 16", 1)
    message = refusal(text, (1, 4096, 256))
    assert "'scf.for' op at line 169:11: a workgroup loop whose bound 32 is above the " \
        "workgroup count 16 (a workgroup runs more than one tile)" in message, message
