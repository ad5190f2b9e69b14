"""Every instruction of every kernel the test suite builds is decoded and implemented.

The kernels: the five shipped GEMM kernels (the generator's natural K-loop through the
front end) and the other configurations the emulator tests build, the example tagged
(concrete-form) kernel, the example natural kernel in each form the front-end tests run (gpu.func or
func.func, swizzled LDS, memref.alloc LDS and an i32 loop, f16), and IREE's matmul kernel
at its prefetch point and in its late form, pipelined by pipeline-opt.  Decoding refuses
an encoding it does not know by name; compiling a step refuses an instruction the
emulator does not implement by name: neither may happen for any of them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from kernel_builds import KERNEL_SPECS, build, pipeline_opt_hsaco
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.program import compile_instr

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "examples"))
from concrete_kernel import kernel_text as concrete_text  # noqa: E402
from natural_kernel import kernel_text  # noqa: E402
from test_kernels import OTHER_SPECS  # noqa: E402

#: the natural kernel variants of test/unit/frontend/test_natural_emu.py
NATURAL = {"default": {}, "swizzle": {"swizzle": True},
           "func-alloc-i32": {"func": "func", "lds": "alloc", "iv": "i32", "step": 2},
           "f16": {"dtype": "f16"}}
IREE = ("prefetch", "late")
OBJDUMP = shutil.which("llvm-objdump-22")
#: the per-load counts the tagged example kernel is compiled with (test_concrete.py)
CONCRETE_OPTIONS = "vm_per_load_a=1 vm_per_load_b=1 lgkm_per_load_a=1 lgkm_per_load_b=1"


def kernels() -> list[str]:
    return ([f"shipped:{k}" for k in KERNEL_SPECS] + [f"driver:{s}" for s in OTHER_SPECS] +
            ["concrete:4wave"] + [f"natural:{k}" for k in NATURAL] + [f"iree:{f}" for f in IREE])


def code_object(key: str) -> bytes:
    kind, name = key.split(":", 1)
    if kind == "shipped":
        return build(name).hsaco
    if kind == "driver":
        return pipeline_opt_hsaco(name)
    if kind == "concrete":
        return pipeline_opt_hsaco(f"4wave{{{CONCRETE_OPTIONS}}}", concrete_text(name))
    if kind == "natural":
        return pipeline_opt_hsaco("4wave", kernel_text(src="buffer", k=1024, **NATURAL[name]))
    text = (ROOT / "test" / "data" / "iree" / f"matmul_bf16_abt_4096.{name}.mlir").read_text()
    return pipeline_opt_hsaco("4wave", text)


@pytest.mark.parametrize("key", kernels())
def test_every_instruction_is_implemented(key):
    kernel = load_kernel(code_object(key))         # decodes every instruction
    at = kernel.at()
    kinds = Counter()
    for ins in kernel.instrs:
        kinds[compile_instr(ins, at).kind] += 1   # raises EmuError naming the refused one
    assert kinds["mfma"] and kinds["vmem"] and kinds["barrier"], kinds


@pytest.mark.skipif(OBJDUMP is None, reason="llvm-objdump-22 (LLVM 22) is not installed")
@pytest.mark.parametrize("key", [k for k in kernels() if not k.startswith("shipped:")])
def test_text_equals_llvm_objdump(key, tmp_path):
    # the decoder's text of each instruction is LLVM's (the shipped kernels: test_decode.py)
    path = tmp_path / "k.hsaco"
    path.write_bytes(code_object(key))
    out = subprocess.run([OBJDUMP, "-d", str(path)], capture_output=True, text=True,
                         check=True).stdout
    ref = [ln.split("//")[0].strip() for ln in out.splitlines() if ln.startswith("\t")]
    texts = [i.text for i in load_kernel(path.read_bytes()).instrs]
    assert texts == ref[:len(texts)]
    assert all(t == "s_nop 0" or t.startswith("s_code_end") for t in ref[len(texts):])
