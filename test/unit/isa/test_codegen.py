"""gfx950 code generation (pipeline_mlir/codegen.py): LLVM IR -> asm / object -> .hsaco."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline_mlir.isa import codegen
from pipeline_mlir.isa.codegen import CodegenError, apply_skew_shims, compile_llvm_ir, link_hsaco
from pipeline_mlir.errors import PipelineError

KERNEL = Path(__file__).parents[1] / "inputs" / "mfma_kernel.mlir"

ET_REL, ET_DYN, EM_AMDGPU = 1, 3, 224
ELFOSABI_AMDGPU_HSA = 64
EF_AMDGPU_MACH_GFX950 = 0x4F


def elf_header(data: bytes) -> dict:
    """The fields of an ELF64 little-endian header we check (no pyelftools)."""
    ident, e_type, e_machine, _version, _entry, _phoff, _shoff, e_flags = struct.unpack_from(
        "<16sHHIQQQI", data, 0)
    return {"magic": ident[:4], "class": ident[4], "data": ident[5], "osabi": ident[7],
            "abi_version": ident[8], "type": e_type, "machine": e_machine, "flags": e_flags}


@pytest.fixture(scope="module")
def kernel_ll() -> str:
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.passes.registry import module_to_llvm_ir

    with new_context():
        return module_to_llvm_ir(ir.Module.parseFile(str(KERNEL)))


@pytest.fixture(scope="module")
def compiled(kernel_ll):
    """(asm, obj) of the test kernel from one worker run."""
    return compile_llvm_ir(kernel_ll, kind="both")


# ---- assembly -------------------------------------------------------------------------------

def test_asm_has_the_kernel(compiled):
    asm, _ = compiled
    assert '.amdgcn_target "amdgcn-amd-amdhsa--gfx950"' in asm
    for needle in ["global_load_lds_dwordx4", "s_waitcnt vmcnt(0)", "s_barrier",
                   "ds_read_b128", "s_waitcnt lgkmcnt(0)", "s_setprio 1", "s_setprio 0",
                   "v_mfma_f32_16x16x32_bf16", "; sched_barrier mask(0x00000000)",
                   "; sched_group_barrier mask(0x00000100) size(2) SyncID(0)",
                   "; sched_group_barrier mask(0x00000008) size(1) SyncID(0)",
                   "s_cbranch_scc1",                              # the K-loop stays a loop
                   "; Kernel info:", "; Occupancy:",
                   ".amdhsa_group_segment_fixed_size 8192",
                   ".max_flat_workgroup_size: 256", ".uniform_work_group_size: 1"]:
        assert needle in asm, needle


def test_asm_keeps_the_fenced_order(compiled):
    """Inside the loop the waits, barrier, reads, priority and MFMA stay as written."""
    asm, _ = compiled
    loop = asm[asm.index("; =>This Inner Loop Header"):asm.index("s_cbranch_scc1")]
    wanted = ["global_load_lds_dwordx4", "global_load_lds_dwordx4", "s_waitcnt vmcnt(0)",
              "s_barrier", "ds_read_b128", "ds_read_b128", "s_waitcnt lgkmcnt(0)", "s_setprio 1",
              "v_mfma_f32_16x16x32_bf16", "s_setprio 0", "s_barrier"]
    pattern = "|".join(re.escape(w) for w in sorted(set(wanted), key=len, reverse=True))
    assert re.findall(pattern, loop) == wanted


def test_both_is_one_build_of_the_asm_and_the_object(kernel_ll, compiled):
    """``both`` optimizes once and forks for the two code generations: the same assembly
    and object bytes as the ``asm`` and ``obj`` jobs."""
    asm, obj = compiled
    assert asm == compile_llvm_ir(kernel_ll, kind="asm")
    assert obj == compile_llvm_ir(kernel_ll, kind="obj")


def test_asm_only(kernel_ll, compiled):
    asm = compile_llvm_ir(kernel_ll, kind="asm", opt=2)
    assert isinstance(asm, str) and "v_mfma_f32_16x16x32_bf16" in asm


# ---- object and .hsaco ----------------------------------------------------------------------

HEADER_TESTED = """define void @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %j, %b ]
  %c = icmp ult i32 %i, %n
  br i1 %c, label %b, label %x
b:
  %j = add i32 %i, 1
  br label %h
x:
  ret void
}
"""


def test_a_header_tested_loop_is_found():
    """A back edge that jumps to a block ending in a conditional branch is a loop the
    pipeline left header-tested (the module is then compiled again rotated first); a
    rotated loop, a forward jump to a conditional branch, and a loop test of its own
    latch are none."""
    assert codegen.unrotated_loop(HEADER_TESTED) == "h"
    rotated = HEADER_TESTED.replace("  br i1 %c, label %b, label %x", "  br label %b").replace(
        "  br label %h\nx:", "  %d = icmp ult i32 %j, %n\n  br i1 %d, label %h, label %x\nx:")
    assert codegen.unrotated_loop(rotated) is None
    forward = HEADER_TESTED.replace("  br label %h\nx:", "  br label %x\nx:")
    assert codegen.unrotated_loop(forward) is None
    assert codegen.unrotated_loop(HEADER_TESTED.replace("define void @f", "declare void @g()\n"
                                                        "define void @f")) == "h"
    assert codegen.unrotated_loop(HEADER_TESTED.replace(             # a loop's metadata
        "  br label %h\nx:", "  br label %h, !llvm.loop !0\nx:")) == "h"
    # a diamond laid out with its join before one arm (a branch back in layout, no loop)
    assert codegen.unrotated_loop("""define void @g(i1 %p, i1 %q) {
entry:
  br i1 %p, label %a, label %m
m:
  br i1 %q, label %x, label %y
y:
  br label %x
a:
  br label %m
x:
  ret void
}
""") is None
    # the entry block unlabelled, as LLVM prints it
    assert codegen.unrotated_loop(HEADER_TESTED.replace("entry:\n", "")
                                  .replace("[ 0, %entry ]", "[ 0, %0 ]")) == "h"


def test_object_is_a_gfx950_elf(compiled):
    _, obj = compiled
    h = elf_header(obj)
    assert h["magic"] == b"\x7fELF" and h["class"] == 2 and h["data"] == 1
    assert h["osabi"] == ELFOSABI_AMDGPU_HSA
    assert (h["type"], h["machine"]) == (ET_REL, EM_AMDGPU)
    assert h["flags"] & 0xFF == EF_AMDGPU_MACH_GFX950


def test_hsaco_links(compiled):
    _, obj = compiled
    hsaco = link_hsaco(obj)
    h = elf_header(hsaco)
    assert h["magic"] == b"\x7fELF"
    assert (h["type"], h["machine"]) == (ET_DYN, EM_AMDGPU)
    assert h["flags"] & 0xFF == EF_AMDGPU_MACH_GFX950
    assert b"mfma_kloop.kd" in hsaco                      # the kernel descriptor symbol


def test_link_rejects_non_elf_input():
    with pytest.raises(CodegenError, match=r"^the object to link into a code object is not an "
                                           r"ELF object \(it starts with b'hell'\)"):
        link_hsaco(b"hello")


def test_link_failure_is_a_codegen_error():
    with pytest.raises(CodegenError) as err:
        link_hsaco(b"\x7fELF" + b"\x00" * 60)
    msg = str(err.value)
    assert "failed:" in msg and "kernel.o" in msg
    assert "pipeline-mlir-link-" not in msg               # temp directory names stripped


def test_linker_is_the_wheels_iree_lld():
    from iree.compiler.tools.binaries import find_tool

    cmd = codegen.find_linker()
    assert Path(cmd[0]).resolve() == Path(find_tool("iree-lld")).resolve()
    assert cmd[1:] == ["-flavor", "gnu"]


def test_codegen_and_linking_do_not_import_mlir():
    code = ("import sys, pipeline_mlir.isa.codegen as c; c.find_linker(); "
            "bad = [m for m in sys.modules if m.startswith(('iree.compiler.ir', "
            "'iree.compiler._mlir_libs', 'mlir', 'pipeline_mlir.dialect'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ---- failures become CodegenError ----------------------------------------------------------

WAIT_LOADCNT_LL = """\
define amdgpu_kernel void @k() {
  call void @llvm.amdgcn.s.wait.loadcnt(i16 0)
  ret void
}
declare void @llvm.amdgcn.s.wait.loadcnt(i16 immarg)
"""

WAITCNT_LL = WAIT_LOADCNT_LL.replace("s.wait.loadcnt", "s.waitcnt").replace("i16", "i32")


@pytest.mark.parametrize("kind", ["asm", "both"])
def test_llvm_abort_is_a_codegen_error(kind):
    """LLVM aborts the process on a gfx12-only intrinsic: the caller gets the message (of
    a ``both`` job too, whose two code generations abort each)."""
    with pytest.raises(CodegenError) as err:
        compile_llvm_ir(WAIT_LOADCNT_LL, kind=kind)
    msg = str(err.value)
    assert msg == "LLVM ERROR: Cannot select: intrinsic %llvm.amdgcn.s.wait.loadcnt"
    assert isinstance(err.value, PipelineError)


def test_unknown_mcpu_is_an_error():
    with pytest.raises(CodegenError, match=r"'gfx9999' is not a recognized processor"):
        compile_llvm_ir(WAITCNT_LL, mcpu="gfx9999")


def test_unknown_feature_is_an_error():
    with pytest.raises(CodegenError, match=r"'\+bogus' is not a recognized feature"):
        compile_llvm_ir(WAITCNT_LL, features="+bogus")


def test_malformed_ir_reports_the_parse_error():
    with pytest.raises(CodegenError) as err:
        compile_llvm_ir("define void @f() {\n  foo\n}\n")
    assert str(err.value) == ("LLVM IR parsing error at line 2:3: expected instruction opcode "
                              "(in 'foo')")


def test_invalid_ir_reports_the_verifier_message():
    ll = "define i32 @f() {\nentry:\n  br label %b\nb:\n  %x = add i32 %x, 1\n  ret i32 %x\n}\n"
    with pytest.raises(CodegenError, match=r"verification failed: Only PHI nodes may reference "
                                           r"their own value!; %x = add i32 %x, 1"):
        compile_llvm_ir(ll)


def test_foreign_triple_is_an_error():
    with pytest.raises(CodegenError, match="x86_64-unknown-linux-gnu"):
        compile_llvm_ir('target triple = "x86_64-unknown-linux-gnu"\n')


def test_bad_arguments():
    with pytest.raises(ValueError, match="kind"):
        compile_llvm_ir(WAITCNT_LL, kind="hsaco")
    with pytest.raises(ValueError, match="opt"):
        compile_llvm_ir(WAITCNT_LL, opt=4)


def test_failure_message_extraction():
    stderr = ("Intrinsic has incorrect argument type!\n"
              "ptr @llvm.amdgcn.make.buffer.rsrc.p7.p1.i32\n"
              "LLVM ERROR: Broken module found, compilation aborted!\n"
              "PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/\n"
              "Stack dump:\n0.\tProgram arguments: python\n #0 0x00007f in foo\n")
    assert codegen._failure_message(stderr, -6) == (
        "LLVM ERROR: Broken module found, compilation aborted! (Intrinsic has incorrect "
        "argument type!; ptr @llvm.amdgcn.make.buffer.rsrc.p7.p1.i32)")
    assert codegen._failure_message("", -11) == (
        "LLVM code generation was killed by signal 11 without a message")


# ---- LLVM 24 -> 22 skew ---------------------------------------------------------------------

def test_inexact_decimal_constants_are_written_in_hexadecimal():
    """LLVM 24 prints f32 0.1 as ``1.000000e-01``, which LLVM 22 reads only as a double:
    written as LLVM 22's hexadecimal of the float (half, bfloat likewise); exact ones, a
    double's, and decimals in names or strings stay (IREE's kernel scaled by 0.1)."""
    ll = ("  %a = fmul float %x, 1.000000e-01\n"
          "  %b = fadd float %y, -2.500000e-01\n"
          "  %c = fmul double %z, 1.000000e-01\n"
          "  %d = fpext float 3.000000e-01 to double\n"
          "  %e = fmul half %h, 1.000000e-01\n"
          "  %f = fmul bfloat %g, 1.000000e-01\n"
          "  %g.1 = select i1 %c, float %v.1, float 1.5\n"
          '!0 = !{!"float 1.1"}\n')
    out = apply_skew_shims(ll).split("\n")
    assert out[0] == "  %a = fmul float %x, 0x3FB99999A0000000"
    assert out[1] == "  %b = fadd float %y, -2.500000e-01"          # exact in f32
    assert out[2] == "  %c = fmul double %z, 1.000000e-01"
    assert out[3] == "  %d = fpext float 0x3FD3333340000000 to double"
    assert out[4] == "  %e = fmul half %h, 0xH2E66"
    assert out[5] == "  %f = fmul bfloat %g, 0xR3DCD"
    assert out[6] == "  %g.1 = select i1 %c, float %v.1, float 1.5"
    assert out[7] == '!0 = !{!"float 1.1"}'
    # that LLVM 22 reads them back as the same bits: the test below


def test_text_that_looks_like_a_float_constant_stays():
    """A quoted name, a ``c"..."`` string and a comment hold no constant: a float type
    and a literal spelled in them are kept, and name no type for the literal after them
    (they were rewritten: a kernel renamed, a string's bytes changed)."""
    lines = ['@"half +inf" = global half +inf',
             'define void @"float 0.1 -qnan f0x1"(float %x) {',
             '@s = constant [10 x i8] c"float +inf"',
             '  %y = fadd float %x, 1.000000e-01 ; float +inf 0.1',
             '  call void @"double"(i32 7, half -inf)']
    out = apply_skew_shims("\n".join(lines)).split("\n")
    assert out == ['@"half +inf" = global half 0xH7C00',
                   'define void @"float 0.1 -qnan f0x1"(float %x) {',
                   '@s = constant [10 x i8] c"float +inf"',
                   '  %y = fadd float %x, 0x3FB99999A0000000 ; float +inf 0.1',
                   '  call void @"double"(i32 7, half 0xHFC00)']


def test_make_buffer_rsrc_name_shim():
    ll = ("%r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1.i64(ptr addrspace(1) "
          "%0, i16 0, i64 16, i32 0)\n"
          "declare ptr addrspace(7) @llvm.amdgcn.make.buffer.rsrc.p7.p1.i32(ptr addrspace(1), "
          "i16, i32, i32)\n@llvm.amdgcn.make.buffer.rsrc.p8.p1.i64x = 1\n")
    out = apply_skew_shims(ll)
    assert "@llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %0" in out
    assert "@llvm.amdgcn.make.buffer.rsrc.p7.p1(ptr addrspace(1), i16" in out
    assert "@llvm.amdgcn.make.buffer.rsrc.p8.p1.i64x" in out     # only whole suffixes


def test_an_unlocated_llvm_diagnostic_keeps_one_error_word():
    """LLVM prints a function's diagnostic without a source location as ``error: <unknown>:0:0:
    MSG``: the message is LLVM's, once marked (the driver adds its own ``error:`` and the
    function's location), and the function it names is known."""
    err = CodegenError(codegen._failure_message(
        "error: <unknown>:0:0: local memory (200000) exceeds limit (163840) in function "
        "'too_much_lds'\n", 1))
    assert str(err) == ("LLVM: local memory (200000) exceeds limit (163840) in function "
                        "'too_much_lds'")
    assert err.function == "too_much_lds"
    other = CodegenError(codegen._failure_message("LLVM ERROR: Cannot select: x\n", 1))
    assert str(other) == "LLVM ERROR: Cannot select: x" and other.function is None
    unsupported = CodegenError(codegen._failure_message(
        "error: <unknown>:0:0: in function k void (ptr addrspace(1)): unsupported call\n", 1))
    assert str(unsupported).startswith("LLVM: in function k void") and \
        unsupported.function == "k"


#: (MLIR type, LLVM type, bit patterns): infinities, NaNs quiet and signalling with and
#: without a payload, denormals and a decimal the type does not hold
_SPECIAL_FLOATS = (
    ("f32", 32, (0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7FC00001, 0xFFFFFFFF,
                 0x7FA00000, 0xFF800001, 0x00000001, 0x80400000, 0x007FFFFF, 0x3DCCCCCD)),
    ("f16", 16, (0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7E01, 0x7D00, 0xFC01, 0x0001, 0x8200,
                 0x2E66)),
    ("bf16", 16, (0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7FC1, 0x7FA0, 0xFF81, 0x0001, 0x8040,
                  0x3DCD)),
    ("f64", 64, (0x7FF0000000000000, 0xFFF8000000000000, 0x7FF8000000000001,
                 0xFFF0000000000001, 0x0000000000000001, 0x3FB999999999999A)),
)


def test_special_float_constants_read_back_bit_for_bit():
    """LLVM 24 names infinities and NaNs (``+inf``, ``-qnan``, ``+nan(0x1)``,
    ``-snan(0x1)``) and writes some denormals as bits (``f0x00400000``); LLVM 22 reads none
    of these.  Shimmed, every one of them, of each floating-point type we emit, is read by
    LLVM 22 as the same bits (the data LLVM 22 emits for the globals)."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.passes.translate import translate_to_llvm_ir

    globals_, expected = [], []
    for mlir_type, width, patterns in _SPECIAL_FLOATS:
        for bits in patterns:
            globals_.append(f"llvm.mlir.global external @g{len(expected)}"
                            f"(0x{bits:X} : {mlir_type}) {{addr_space = 1 : i32}} : {mlir_type}")
            expected.append((width, bits))
    with new_context() as ctx:
        ll = translate_to_llvm_ir(ir.Module.parse("\n".join(globals_), ctx))
    assert re.search(r"[-+]qnan\b", ll) and "snan(0x" in ll and "f0x" in ll   # LLVM 24's names
    asm = compile_llvm_ir('target triple = "amdgcn-amd-amdhsa"\n' + ll, kind="asm")
    data = {"long": 32, "short": 16, "quad": 64}
    got = [(data[m.group(1)], int(m.group(2), 0)) for m in
           re.finditer(r"^\s*\.(long|short|quad)\s+(\S+)", asm, re.M)]
    assert got == expected
