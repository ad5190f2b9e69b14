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
