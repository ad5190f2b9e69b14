"""``kernel_ir.mfma_variant``: what an ``amdgpu.mfma`` does besides one block's
``D = C + A x B`` (the partition refuses such an MFMA at the op; ``half_k`` does not halve
it)."""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.frontend.kernel_ir import mfma_variant

FUNC = """func.func @f(%a: vector<8xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf32>)
    -> vector<4xf32> {
  %r = amdgpu.mfma 16x16x32 %a * %b + %c MODS : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>,
      vector<4xf32>
  return %r : vector<4xf32>
}"""


#: the modifiers an MFMA is written with -> what mfma_variant says of it
CASES = {"": None, "blgp(none)": None,
         "cbsz(1)": "broadcasts its operands (cbsz = 1)",
         "abid(1) cbsz(1)": "broadcasts its operands (cbsz = 1)",
         "blgp(bcast_first_32)": "permutes its B operand (blgp)"}


def test_the_variant_is_named():
    with new_context() as ctx:           # (one context: a dialect load per item is slow)
        for mods, want in CASES.items():
            module = ir.Module.parse(FUNC.replace("MODS", mods), ctx)
            op = module.body.operations[0].regions[0].blocks[0].operations[0]
            assert op.name == "amdgpu.mfma" and mfma_variant(op) == want, mods
