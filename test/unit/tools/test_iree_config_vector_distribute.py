"""IREE's VectorDistribute kernels (``iree_configs.VECTOR_DISTRIBUTE``): whole-tile products at
the prefetch point, register copies whose LDS stores sit in ``scf.if %true`` in the late
form, odd K steps (the remainder on the schedule's stage-0 buffers), B read one element (or
one byte) at a time and regrouped into transposing reads. Both forms give one schedule (and
one main loop), and one form's kernel is exact with memory completing in a random order the
counters allow (one form each: both give one schedule, so the same waits and barriers, and
``test_configuration`` runs the other form's code object in late mode, this one's not
again: ``iree_configs.RANDOM_FORM``, ``exact_in_random_order``; for a configuration of
``iree_forms.ONE_BUILT`` the default run takes the other form to its schedule alone). The fp8 kernels split along K are in
``test_iree_config_ksplit.py``.
"""

from __future__ import annotations

import json

import pytest

from iree_configs import G, VECTOR_DISTRIBUTE, exact_in_random_order, forms_agree
from kernel_builds import shared_build
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.tools.pipeline_opt import main
from steady_loop import assert_steady, counting_loops, main_back_edge


pytestmark = pytest.mark.usefixtures("shared_code_objects")


def _main_loop(name: str, form: str, generated) -> list:
    """The instructions of the main loop (header to back edge, ``steady_loop.main_back_edge``)
    of the code object of configuration ``name``'s ``form``: the run's build of it
    (``kernel_builds.shared_build``, which ``test_configuration`` and :func:`forms_agree` ask
    for too), decoded as the emulator decodes it."""
    hsaco = shared_build("4wave", input=str(generated(name, form))).checked_output()
    kernel = load_kernel(hsaco)
    back, header = main_back_edge(kernel)
    return kernel.instrs[header:back + 1]


def test_vector_distribute_forms_agree_and_run_in_random_order(generated, capsys):
    """IREE's VectorDistribute kernel: at the prefetch point whole-tile products (distributed
    by IREE's own passes), in the late form register copies whose LDS stores sit in
    ``scf.if %true``. Both become the same schedule and the same main loop, and one form's kernel
    is exact with memory completing in a random order the counters allow."""
    name = "bf16_abt_2048x2048x1024_vector_distribute"
    loops = [_main_loop(name, form, generated) for form in ("prefetch", "late")]
    # one main loop: the same MFMAs, memory accesses, waits, barriers and priorities in the
    # same order (the front end clones the late form's i32 K index as the prefetch point's:
    # frontend/zext_index.py), the same copies with a scalar offset and without; the ALU
    # work that computes the copies' offsets and M0 may differ (sched-buffer-soffset keeps a
    # workgroup's rows in voffset and moves the rest, which LLVM folds per form)
    kept = ("v_mfma", "buffer_load", "ds_", "s_waitcnt", "s_barrier", "s_setprio")
    main_loops = [[i.base for i in x if i.base.startswith(kept)] for x in loops]
    assert main_loops[0] == main_loops[1]
    assert main_loops[0].count("v_mfma_f32_16x16x32_bf16") == 64
    # the global->LDS copies, in order: with their offset in an SGPR or none (0)
    in_sgpr = [[", 0 offen" not in i.text for i in x if "offen lds" in i.text] for x in loops]
    assert in_sgpr[0] == in_sgpr[1] and in_sgpr[0].count(True) >= 12, in_sgpr
    exact_in_random_order(generated, name, capsys, 9, "late")


def test_vector_distribute_odd_k_steps_forms_agree_and_run_in_random_order(generated, capsys):
    """IREE's bf16 VectorDistribute kernel with 9 K steps: both forms become the same
    schedule, and one form's kernel (8 K steps pipelined, the ninth on the schedule's stage-0
    buffers) is exact with memory completing in a random order the counters allow."""
    name = "bf16_abt_2048x2048x1152_vector_distribute"
    exact_in_random_order(generated, name, capsys, 23, "prefetch")


def test_vector_distribute_a_times_b_forms_agree_and_run_in_random_order(generated, capsys):
    """IREE's VectorDistribute ``A x B`` (B read one element per ``ds_read``): both forms
    become the same schedule, a B subtile 16 transposing reads in place of 64 one-element
    reads (A's 4 reads of 16 bytes), and one form's kernel is exact with memory completing in a
    random order the counters allow."""
    name = "bf16_ab_2048x2048x1024_vector_distribute"
    schedule = forms_agree(generated, name, built="late")
    assert json.loads(schedule)["lgkm_per_load"] == [4, 16], schedule
    exact_in_random_order(generated, name, capsys, 17, "late")


def test_vector_distribute_i8_a_times_b_reads_bytes_regrouped(tmp_path, capsys):
    """IREE's VectorDistribute i8 ``A x B`` reads B one byte at a time (``vector<1xi8>``,
    16 joined by ``vector.from_elements`` per MFMA operand): the front end regroups them
    into 8-bit transposing reads as it does 16-bit ones (``frontend/element_reads.py``),
    both forms give one schedule (a B subtile 16 ``ds_read_b64_tr_b8``, issued in runs,
    where it had 128 one-byte reads and was refused), and the late form's kernel is exact
    with the steady loop run (8 K steps of 256: 3 trips, LLVM keeps the loop)."""
    forms = G.forms(G.matmul_source(dtype="i8", m=1024, n=1024, k=2048, transpose_b=False),
                    VECTOR_DISTRIBUTE)
    schedules = []
    for form, text in forms.items():
        src = tmp_path / f"{form}.mlir"
        src.write_text(text)
        if form == "late":      # the build --emulate runs below (the run's store), its
            # schedule kept on the way: the late form's front end runs once
            schedules.append(shared_build("4wave", input=str(src)).stages["schedule-json"])
            continue
        schedules.append(compile(CompileOptions(schedule="4wave", emit="schedule-json",
                                                input=str(src))).checked_output())
    assert list(forms) == ["prefetch", "late"] and schedules[0] == schedules[1]
    assert json.loads(schedules[1])["lgkm_per_load"][1] == 16, schedules[1]
    with counting_loops() as loops:
        rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-workgroups=2",
                   "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0, 2 of" in out and "i8xi8xi32" in out, out + err
    assert_steady(loops)
