"""Runs cut inside by C's edge whose 4-byte pieces are more copies than a load's ``vmcnt``
holds: IREE's default build of bf16 ``A^T x B`` 2950x356x487 (frontend/copy_widths.py's
``channel_width``, frontend/layout.py's ``_cut_plan``).

A is K x M with M = 2950 = 368 x 8 + 6: the last run of 8 elements of each row of the edge
tile is masked to its first 6 (cut_runs.py), a size that cuts no 4-byte piece, so the
kernel's copies of A (one wave, a 128x128 K x M tile, 32 runs of 8 per lane) become 4-byte
pieces: 128 copies of 2 elements per lane, 64 per subtile, one more than ``vmcnt`` holds
(refused before as ``option 'vm_per_load_a' is out of range ... got 64``).  The front end's
own copies of A now move whole runs of 16 bytes in pieces whose ends are the cut (6 and 2
elements: 12 and 4 bytes), 32 per subtile; both forms give one schedule, exact on the
first and the last workgroup (the long tier).  Mutant: the widened runs copied whole, with
no piece ending at the cut, is refused by the proof over the grid; without the widening,
the 64 copies per subtile are refused at A's first copy, saying so.
"""

from __future__ import annotations

import re

import pytest

from form_files import G, OPTIONS, emulated_options, form_files
from pipeline_mlir.frontend import layout
from pipeline_mlir.tools.pipeline_opt import main

ADOPT = "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"
#: the kernel's masked read of A's run of 8 (IREE's default build: 32 per lane and K step)
A_READ = re.compile(r"vector\.create_mask %\w+, %\w+ : vector<1x8xi1>")


@pytest.fixture(scope="module")
def forms(tmp_path_factory) -> dict:
    """Both forms of IREE's kernel, as files ({form: path})."""
    source = G.matmul_source("bf16", 2950, 356, 487, transpose_a=True, transpose_b=False)
    out = form_files(tmp_path_factory.mktemp("cut_run_widths"), source,
                     ("--iree-llvmgpu-prefetch-num-stages=2",))
    assert len(A_READ.findall(out["prefetch"].read_text())) >= 32, \
        "IREE's kernel changed shape"
    return out


def test_wide_pieces_of_a_cut_run(forms, capsys):
    assert main([str(forms["prefetch"]), ADOPT]) == 0, capsys.readouterr().err[-2000:]
    options = set(OPTIONS.findall(capsys.readouterr().out))
    assert len(options) == 1 and "vm_per_load_a = 32" in next(iter(options)), options


def _emulated_options(path, capsys) -> set:
    return emulated_options(path, capsys, "(2072 elements), 2 of 552 workgroups")


@pytest.mark.long(
    "test_wide_pieces_of_a_cut_run checks the widened pieces at the prefetch point; "
    "test_cut_runs.py's test_a_moving_odd_cut_in_whole_run_pieces_both_forms_exact runs "
    "whole-run pieces whose ends are the cut from both forms, exact")
def test_wide_pieces_of_a_cut_run_both_forms_one_schedule_exact(forms, capsys):
    emulated = _emulated_options(forms["prefetch"], capsys)
    assert len(emulated) == 1 and "vm_per_load_a = 32" in next(iter(emulated)), emulated
    assert _emulated_options(forms["late"], capsys) == emulated


def test_wide_runs_copied_whole_are_refused(forms, capsys, monkeypatch):
    # the runs widened to 16 bytes, but no piece ends at the cut: the piece holding it is
    # kept only where wholly inside the row, so its elements inside read zeros
    monkeypatch.setattr(layout, "_cuts", lambda plan, table, base: set())
    assert main([str(forms["prefetch"]), ADOPT]) == 1
    err = capsys.readouterr().err
    assert "channel A's copies keep a mask in their address; the front end's own copies" in \
        err and "from the kernel's copies and zero from the front end's" in err, err[-2000:]


def test_a_channel_over_vmcnt_is_refused_at_its_copy(forms, capsys, monkeypatch):
    """Without the widening (``copy_widths.over_vmcnt`` false, as before it), A's 64 copies
    per subtile are refused at A's first copy, saying what the count is, not as an option
    the pipeline was never given; an asked ``vm_per_load_a`` stays the option's refusal.
    (``layout._cut_plan`` reads the widening from ``channel_width``: no cut of its own.)"""
    from pipeline_mlir.frontend import copy_widths

    monkeypatch.setattr(copy_widths, "over_vmcnt", lambda *args: False)
    assert main([str(forms["prefetch"]), ADOPT]) == 1
    err = capsys.readouterr().err
    assert re.search(r"prefetch\.mlir:\d+:\d+: error: sched-adopt-loop: '[\w.]+' op: channel "
                     r"A's copies take 64 global load instructions per subtile, more than "
                     r"the 63 that vmcnt counts", err), err[-2000:]
    assert "'scf.for' op" not in err, err[-2000:]
    asked = ADOPT.replace("schedule=4wave", "schedule=4wave vm_per_load_a=64")
    assert main([str(forms["prefetch"]), asked]) == 1
    err = capsys.readouterr().err
    assert "option 'vm_per_load_a' is out of range" in err, err[-2000:]
