"""IREE's late form of ``C +=`` built with 4 prefetch stages reads C's initial values by
staging the workgroup's whole tile of C in each thread's private memory, row by row, and
reading back its own elements (``frontend/private_rows.py`` forwards each element to a
read of C).  Where the tile passes C's last row (bf16 ``C += A x B``, B ``K x N``,
41x163x520: 41 rows of a 64-row tile) the rows are read at constant indices and the 23
past C's last are stored as the pad; the forwarding took neither, so the late form kept
its 32 KiB of private memory a thread (a 64x128 tile), which LLVM spilled (48460 bytes of scratch a lane,
5005 VGPRs spilled, 1 wave per SIMD), while the prefetch point's kernel had none; at K =
1630 the two forms got different schedules (the merge for time declined on the spills,
finding 68 of docs/iree-audits.md).  Now forwarded: one schedule from both forms, no
scratch, exact."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from iree_configs import G, each_form_built
from test_iree_emulate import needs_iree
from test_iree_reroll import _forms_agree_exact

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import epilogues as E  # noqa: E402

pytestmark = pytest.mark.usefixtures("shared_code_objects")


@needs_iree
def test_a_c_tile_past_cs_last_row_is_forwarded_in_the_late_form(tmp_path, capsys):
    forms = G.forms(E.epilogue_source("accumulate", "bf16", m=41, n=163, k=520, b_kxn=True),
                    ("--iree-llvmgpu-prefetch-num-stages=4",))
    assert re.search(r"memref\.alloca\(\) : memref<64x\d+xf32, #gpu\.address_space<private>>",
                     forms["late"]), "IREE's late form no longer stages C privately"
    # the late form's build keeps --emit=report's text; the build below and --emulate read it
    (_form, _path, built), = each_form_built(tmp_path, {"late": forms["late"]}, ("report",))
    _forms_agree_exact(tmp_path, forms, capsys, "late")
    assert "scratch               0 bytes per lane" in built.stages["report"], \
        built.stages["report"]



#: a grid of one workgroup, where IREE folds C's masks to constants (the forty-first
#: sweep's draws, finding 117 of docs/iree-audits.md): (m, n, k, B K x N, stages), the form
#: that staged C, and what IREE folded there
FOLDED = {
    # the late form: each of the 64 rows of C's 64x64 tile masked by the arith.constant of
    # 56 true lanes (LLVM's code generation of the buffer did not finish in 120 s)
    "64x56x352": ((64, 56, 352, True, 3), "late",
                  r"arith\.constant dense<\[true, [^\]]*false\]> : vector<64xi1>"),
    # the prefetch point: C's 128x128 tile read from C itself, no subview, masked by
    # vector.constant_mask [128, 100] (its build did not finish in 120 s)
    "128x100x400": ((128, 100, 400, False, 2), "prefetch",
                    r"vector\.constant_mask \[128, 100\] : vector<128x128xi1>"),
}


@needs_iree
@pytest.mark.long("an IREE build and an emulation each: test_private_rows.py's folded "
                  "masks cover the rewrite")
@pytest.mark.parametrize("name", FOLDED)
def test_a_c_tile_of_one_workgroup_is_forwarded(tmp_path, capsys, name):
    """bf16 ``C += A x B`` (B ``K x N``) 64x56x352 and ``C += A x B^T`` 128x100x400: the
    forwarding took neither folded form, so the form kept C's tile in private memory, 16
    and 64 KiB a thread.  Now forwarded: one schedule from both forms, the late form
    exact, no scratch in the form that staged C."""
    (m, n, k, kxn, stages), form, folded = FOLDED[name]
    forms = G.forms(E.epilogue_source("accumulate", "bf16", m=m, n=n, k=k, b_kxn=kxn),
                    (f"--iree-llvmgpu-prefetch-num-stages={stages}",))
    assert re.search(folded, forms[form]), "IREE no longer folds C's mask so"
    (_form, _path, built), = each_form_built(tmp_path, {form: forms[form]}, ("report",))
    _forms_agree_exact(tmp_path, forms, capsys, "late")
    assert "scratch               0 bytes per lane" in built.stages["report"], \
        built.stages["report"]
