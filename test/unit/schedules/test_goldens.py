"""Byte-for-byte comparison with the reference's golden debug listings (test/data/reference).

Each file is a schedule printed by the reference; its name says which:

* ``pingpong_<dtype>_l<lgkm_a>_<lgkm_b>.txt`` -- ``DeclarativeSchedule[is_fp8, lgkm_a, lgkm_b]``
  with its default config (CSP, auto waits) and the default target ``mi355x_target(4, 4, 1)``;
* ``4wave_<dtype>_<BM>x<BN>x<BK>.txt`` -- the 4-wave schedule of that kernel geometry
  with the kernel's schedule config and target.
"""

import re

import pytest
from conftest import GOLDEN_DIR

from pipeline_mlir.schedule.printing import format_schedule
from pipeline_mlir.schedule.targets import mi355x_target
from pipeline_mlir.schedules.fourwave import build_schedule as build_4wave
from pipeline_mlir.schedules.fourwave import kernel_schedule_config, kernel_target
from pipeline_mlir.schedules.geometry import DTYPES, four_wave_geometry
from pipeline_mlir.schedules.pingpong import build_schedule as build_pingpong

PINGPONG_RE = re.compile(r"^pingpong_(?P<dtype>[a-z0-9]+)_l(?P<a>\d+)_(?P<b>\d+)$")
FOURWAVE_RE = re.compile(r"^4wave_(?P<dtype>[a-z0-9]+)_(?P<bm>\d+)x(?P<bn>\d+)x(?P<bk>\d+)$")


def schedule_for(stem: str):
    """Compile the schedule a golden file name describes."""
    m = PINGPONG_RE.match(stem)
    if m:
        dtype = m["dtype"]
        assert dtype in DTYPES, f"{stem}: unknown dtype {dtype!r}"
        return build_pingpong(dtype == "fp8", int(m["a"]), int(m["b"]), None, mi355x_target(4, 4, 1))
    m = FOURWAVE_RE.match(stem)
    if m:
        g = four_wave_geometry(m["dtype"], int(m["bm"]), int(m["bn"]), int(m["bk"]))
        return build_4wave(g, kernel_schedule_config(g), kernel_target(g))
    raise AssertionError(f"golden file name {stem!r} names no known schedule "
                         f"(expected pingpong_<dtype>_l<a>_<b> or 4wave_<dtype>_<BM>x<BN>x<BK>)")


def _golden_files():
    files = sorted(GOLDEN_DIR.glob("*.txt"))
    assert len(files) >= 3, f"the reference listings are missing from {GOLDEN_DIR}"
    return [pytest.param(f, id=f.stem) for f in files]


@pytest.mark.parametrize("path", _golden_files())
def test_golden_file(path):
    expected = path.read_bytes()
    actual = format_schedule(schedule_for(path.stem)).encode()
    if actual != expected:
        # line-level diff for a readable failure
        assert actual.decode().splitlines() == expected.decode().splitlines()
    assert actual == expected


def test_golden_name_parser():
    c = schedule_for("pingpong_fp8_l8_4")
    assert c.lgkm_per_load == (8, 4)
    assert c.config.vm_per_load_a == 4 and c.config.block_sizing.max_globals == 1
    c = schedule_for("4wave_fp8_64x64x128")
    assert c.config.vm_per_load_a == 1 and c.lgkm_per_load == (2, 2)
    with pytest.raises(AssertionError, match="names no known schedule"):
        schedule_for("pingpong_bf16")
