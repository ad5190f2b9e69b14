"""The step to LLVM (passes/registry.py's LLVM step, its three passes, passes/translate.py):
gpu.module -> LLVM dialect -> LLVM IR text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import build_context, ensure_gpu_target, ir, passmanager
from pipeline_mlir.passes import rocdl_to_llvm_intrinsics as to_llvm
from pipeline_mlir.passes.extract_device_module import ExtractDeviceModule
from pipeline_mlir.passes.registry import (TO_LLVM_PASSES, add_to_llvm, module_to_llvm_ir,
                                           run_to_llvm)
from pipeline_mlir.passes.rocdl_to_llvm_intrinsics import RocdlToLLVMIntrinsics, decode_rocdl_enum
from pipeline_mlir.passes.translate import ToLLVMError, translate_to_llvm_ir

EXTRACT_PASS, INTRINSICS_PASS = ExtractDeviceModule.name, RocdlToLLVMIntrinsics.name

INPUTS = Path(__file__).parents[1] / "inputs"
KERNEL = INPUTS / "mfma_kernel.mlir"


@pytest.fixture
def ctx():
    with build_context() as c:     # (a finished test's: a new one loads every dialect)
        yield c


def parse_file(path: Path):
    return ir.Module.parseFile(str(path))


def parse_variant(tmp_path: Path, source: Path, old: str, new: str, name: str | None = None):
    """Parse ``source`` with one textual change, from a file so locations name it."""
    text = source.read_text()
    assert old in text, old
    out = tmp_path / (name or source.name)
    out.write_text(text.replace(old, new, 1))
    return parse_file(out), out


def all_ops(module) -> list:
    found = []
    module.operation.walk(lambda o: found.append(o) or ir.WalkResult.ADVANCE)
    return found


def intrinsic_pm(*names: str):
    """A PassManager with only the named Python passes of TO_LLVM_PASSES."""
    pm = passmanager.PassManager("builtin.module")
    for name, entry in TO_LLVM_PASSES:
        if name in names:
            pm.add(entry, name=name, argument=name)
    return pm


def kernel_func(module):
    funcs = [o for o in module.body.operations if o.operation.name == "llvm.func"
             and "amdgpu_kernelcc" in str(o.operation.attributes["CConv"])]
    assert len(funcs) == 1
    return funcs[0].operation


def line_of(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if needle in ln)


# ---- lowering -------------------------------------------------------------------------------

def test_pass_list_order_and_names():
    assert [n for n, _ in TO_LLVM_PASSES] == [
        "sched-check-divisors", "sched-stage-copies", "sched-unit-masks", "sched-cancel-deltas",
        "iree-codegen-tail", "sched-unmask-loads",
        "sched-fold-mask-guards",
        "sched-word-masks",
        "sched-gpu-kernel", "sched-check-device-input",
        "sched-xdl-guard", "lower-affine", "sched-order-copies",
        "convert-scf-to-cf", "iree-convert-to-rocdl", "canonicalize", "cse",
        "reconcile-unrealized-casts", "sched-buffer-soffset", INTRINSICS_PASS, EXTRACT_PASS]
    assert INTRINSICS_PASS == "sched-rocdl-to-llvm-intrinsics"
    for name, entry in TO_LLVM_PASSES:
        assert isinstance(entry, str) or (callable(entry) and entry.name == name)


def test_lowering_gives_only_llvm_ops(ctx):
    m = parse_file(KERNEL)
    run_to_llvm(m)
    names = {o.name for o in all_ops(m)}
    assert names - {"builtin.module"}
    assert all(n == "builtin.module" or n.startswith("llvm.") for n in names), sorted(names)
    assert "llvm.call_intrinsic" in names
    assert ir.StringAttr(m.operation.attributes["llvm.target_triple"]).value == "amdgcn-amd-amdhsa"
    assert "gpu.container_module" not in m.operation.attributes


def test_gpu_func_attributes_after_iree_convert_to_rocdl(ctx, tmp_path):
    """What of the gpu.func reaches the llvm.func (the extraction pass relies on it)."""
    m, _ = parse_variant(tmp_path, KERNEL, "known_block_size = array<i32: 256, 1, 1>",
                         "known_block_size = array<i32: 256, 1, 1>, rocdl.waves_per_eu = 3 : i32")
    ensure_gpu_target("gfx950")
    pm = passmanager.PassManager("builtin.module")
    for _, entry in TO_LLVM_PASSES:
        if isinstance(entry, str):
            pm.add(entry)
    pm.run(m.operation)
    (gm,) = [o.operation for o in m.body.operations if o.operation.name == "gpu.module"]
    (f,) = [o.operation for o in gm.regions[0].blocks[0].operations
            if o.operation.name == "llvm.func"]
    attrs = {k: str(f.attributes[k]) for k in f.attributes if "." in k}
    assert attrs == {"gpu.kernel": "unit", "rocdl.kernel": "unit",
                     "gpu.known_block_size": "array<i32: 256, 1, 1>",
                     "rocdl.reqd_work_group_size": "array<i32: 256, 1, 1>",
                     "rocdl.waves_per_eu": "3 : i32"}
    assert str(f.attributes["CConv"]) == "#llvm.cconv<ccc>"     # not a kernel ABI yet
    rocdl_ops = {o.name for o in all_ops(m) if o.name.startswith("rocdl.")}
    assert rocdl_ops == {"rocdl.workitem.id.x", "rocdl.load.to.lds", "rocdl.s.waitcnt",
                         "rocdl.s.barrier", "rocdl.sched.barrier", "rocdl.s.setprio",
                         "rocdl.mfma.f32.16x16x32.bf16", "rocdl.sched.group.barrier"}


def test_kernel_abi_attributes(ctx):
    m = parse_file(KERNEL)
    run_to_llvm(m)
    f = kernel_func(m)
    assert str(f.attributes["CConv"]) == "#llvm.cconv<amdgpu_kernelcc>"
    assert str(f.attributes["passthrough"]) == (
        '[["amdgpu-flat-work-group-size", "256,256"], ["uniform-work-group-size", "true"]]')
    assert list(ir.DenseI32ArrayAttr(f.attributes["reqd_work_group_size"])) == [256, 1, 1]
    leftover = [k for k in f.attributes if k.startswith(("rocdl.", "gpu."))]
    assert leftover == []
    # the LDS attributions became addrspace(3) globals next to the kernel
    globals_ = [o.operation for o in m.body.operations if o.operation.name == "llvm.mlir.global"]
    assert len(globals_) == 2


def test_add_to_llvm_on_a_users_pass_manager(ctx):
    m = parse_file(KERNEL)
    pm = passmanager.PassManager("builtin.module")
    pm.add("canonicalize")                       # the user's own passes around ours
    add_to_llvm(pm, "gfx950")
    pm.run(m.operation)
    assert all(o.name == "builtin.module" or o.name.startswith("llvm.") for o in all_ops(m))
    assert "define amdgpu_kernel void @mfma_kloop" in translate_to_llvm_ir(m)


def test_unknown_chip_is_an_error_not_a_crash(ctx):
    pm = passmanager.PassManager("builtin.module")
    with pytest.raises(ToLLVMError, match="unknown GPU chip 'gfx9999'"):
        add_to_llvm(pm, "gfx9999")          # iree-convert-to-rocdl would segfault on it


def test_the_chip_cannot_change_in_a_process(ctx):
    ensure_gpu_target("gfx950")
    with pytest.raises(ToLLVMError, match="already set to gfx950"):
        add_to_llvm(passmanager.PassManager("builtin.module"), "gfx942")


def test_waves_per_eu_becomes_a_passthrough(ctx, tmp_path):
    m, _ = parse_variant(tmp_path, KERNEL, "known_block_size = array<i32: 256, 1, 1>",
                         "known_block_size = array<i32: 256, 1, 1>, rocdl.waves_per_eu = 2 : i32")
    ll = module_to_llvm_ir(m)
    assert re.search(r'attributes #0 = \{ "amdgpu-flat-work-group-size"="256,256" '
                     r'"amdgpu-waves-per-eu"="2" "uniform-work-group-size"="true" \}', ll), ll


def test_multi_dimensional_block_size(ctx):
    m = parse_file(INPUTS / "buffer_kernel.mlir")           # known_block_size = 128x2x1
    ll = module_to_llvm_ir(m)
    assert '"amdgpu-flat-work-group-size"="256,256"' in ll
    assert "!{i32 128, i32 2, i32 1}" in ll
    # make.buffer.rsrc got an i64 record count (LLVM 22's signature); mbcnt kept its res_attrs
    # (the record count is a constant here, so the zext is folded into "i64 16384")
    assert "@llvm.amdgcn.make.buffer.rsrc.p8.p1.i64(ptr addrspace(1) %1, i16 0, i64 16384," in ll
    assert "@llvm.amdgcn.make.buffer.rsrc.p7.p1.i64(ptr addrspace(1) %1, i16 0, i64 16384," in ll
    assert re.search(r"call noundef range\(i32 0, 32\) i32 @llvm\.amdgcn\.mbcnt\.lo", ll)
    assert "call void @llvm.amdgcn.sched.barrier(i32 2)" in ll          # allow = valu


def test_missing_known_block_size_is_a_located_error(ctx, tmp_path):
    m, path = parse_variant(tmp_path, KERNEL, "kernel attributes {known_block_size = "
                            "array<i32: 256, 1, 1>}", "kernel")
    with pytest.raises(ToLLVMError) as err:
        run_to_llvm(m)
    msg = str(err.value)
    line = line_of(path, "gpu.func @mfma_kloop")
    assert f"{path}:{line}:" in msg
    assert "kernel 'mfma_kloop' has no known_block_size" in msg
    assert EXTRACT_PASS in msg


def test_missing_known_block_size_through_a_pass_manager(ctx, tmp_path):
    m, path = parse_variant(tmp_path, KERNEL, "kernel attributes {known_block_size = "
                            "array<i32: 256, 1, 1>}", "kernel")
    pm = passmanager.PassManager("builtin.module")
    add_to_llvm(pm)
    with pytest.raises(ir.MLIRError) as err:
        pm.run(m.operation)
    (diag,) = err.value.error_diagnostics
    assert "mfma_kloop" in diag.message and "known_block_size" in diag.message
    assert f":{line_of(path, 'gpu.func @mfma_kloop')}:" in str(diag.location)


# ---- sched-rocdl-to-llvm-intrinsics ---------------------------------------------------------

@pytest.mark.parametrize("text,value", [
    ("#rocdl.sched_group_mask<none>", 0),
    ("#rocdl.sched_group_mask<non_mem_non_sideeffect>", 0x1),
    ("#rocdl.sched_group_mask<valu>", 0x2),
    ("#rocdl.sched_group_mask<salu>", 0x4),
    ("#rocdl.sched_group_mask<mfma_wmma>", 0x8),
    ("#rocdl.sched_group_mask<all_vmem>", 0x10),
    ("#rocdl.sched_group_mask<vmem_read>", 0x20),
    ("#rocdl.sched_group_mask<vmem_write>", 0x40),
    ("#rocdl.sched_group_mask<all_ds>", 0x80),
    ("#rocdl.sched_group_mask<ds_read>", 0x100),
    ("#rocdl.sched_group_mask<ds_write>", 0x200),
    ("#rocdl.sched_group_mask<transcendental>", 0x400),
    ("#rocdl.sched_group_mask<ldsdma>", 0x800),
    ("#rocdl.sched_group_mask<all>", 0xFFF),
    ("#rocdl.sched_group_mask<ds_read|mfma_wmma|vmem_read>", 0x128),
    ("#rocdl.mfma_perm_b<none>", 0),
    ("#rocdl.mfma_perm_b<bcast_first_32>", 1),
    ("#rocdl.mfma_perm_b<rotate_16_right>", 3),
    ("#rocdl.mfma_perm_b<bcast_fourth_16>", 7),
])
def test_enum_decoding(ctx, text, value):
    assert decode_rocdl_enum(ir.Attribute.parse(text)) == value


def test_enum_decoding_of_other_attributes(ctx):
    assert decode_rocdl_enum(ir.Attribute.parse("3 : i32")) is None
    with pytest.raises(ValueError, match="bogus"):
        decode_rocdl_enum("#rocdl.sched_group_mask<ds_read|bogus>")


def test_all_twelve_mask_bits_print_as_all(ctx):
    bits = [k for k, v in to_llvm.SCHED_GROUP_MASK_BITS.items() if v and k != "all"]
    attr = ir.Attribute.parse(f"#rocdl.sched_group_mask<{'|'.join(bits)}>")
    assert str(attr) == "#rocdl.sched_group_mask<all>"


def test_immediates_become_typed_constants(ctx):
    m = parse_file(KERNEL)
    run_to_llvm(m)
    text = str(m)
    assert 'llvm.call_intrinsic "llvm.amdgcn.s.setprio"(%' in text
    assert re.search(r"llvm\.mlir\.constant\(1 : i16\) : i16", text)      # setprio is i16
    assert re.search(r"llvm\.mlir\.constant\(3952 : i32\) : i32", text)    # vmcnt(0)
    assert re.search(r"llvm\.mlir\.constant\(49279 : i32\) : i32", text)   # lgkmcnt(0)
    assert "rocdl." not in text


def test_every_supported_rocdl_op_compiles(ctx):
    """Each table entry through translation and llvmlite (LLVM 22) for gfx950."""
    from pipeline_mlir.isa import codegen

    m = parse_file(INPUTS / "rocdl_ops.mlir")
    present = {o.name for o in all_ops(m) if o.name.startswith("rocdl.")}
    assert set(to_llvm.SUPPORTED_ROCDL_OPS) <= present
    intrinsic_pm(INTRINSICS_PASS, EXTRACT_PASS).run(m.operation)
    ll = translate_to_llvm_ir(m)
    for name in to_llvm.SUPPORTED_ROCDL_OPS:
        intrinsic = "llvm.amdgcn." + name[len("rocdl."):].replace("ds_bpermute", "ds.bpermute")
        assert re.search(rf"call [^\n]*@{re.escape(intrinsic)}[.(]", ll), intrinsic
    assert "call range(i32 0, 256) i32 @llvm.amdgcn.workitem.id.x()" in ll
    assert "call noundef i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)" in ll
    assert "@llvm.amdgcn.sched.barrier(i32 136)" in ll                      # mfma_wmma|all_ds
    # operands and immediates interleave: a, b, c, cbsz, blgp, opselA, scaleA, opselB, scaleB
    assert re.search(r"@llvm\.amdgcn\.mfma\.scale\.f32\.16x16x128\.f8f6f4[.\w]*\(<8 x i32> %\w+, "
                     r"<8 x i32> %\w+, <4 x float> %\w+, i32 0, i32 1, i32 0, i32 0, i32 0, "
                     r"i32 0\)", ll)
    asm = codegen.compile_llvm_ir(ll)
    for needle in ["global_load_lds_dword", "buffer_load_dword", "buffer_store_dword",
                   "offen lds", "ds_bpermute_b32", "v_readlane_b32", "s_barrier",
                   "; wave barrier", "; sched_barrier mask(0x00000088)", "s_setprio 2",
                   "s_sleep 1", "; iglp_opt mask(0x00000000)", "blgp:1",
                   "v_mfma_f32_16x16x32_bf16", "v_mfma_f32_16x16x32_fp8_fp8",
                   "v_smfmac_f32_16x16x64_bf16", "ds_read_b64_tr_b16", "ds_read_b64_tr_b8",
                   # mfma.scale with zero scales: the plain f8f6f4 MFMA, A e4m3 (cbsz 0), B e5m2
                   "v_mfma_f32_16x16x128_f8f6f4",
                   "v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32 v", "v_cvt_sr_fp8_f32",
                   "v_cvt_sr_bf8_f32",
                   "; sched_group_barrier mask(0x00000100) size(1) SyncID(0)",
                   "; sched_group_barrier mask(0x00000008) size(2) SyncID(0)"]:
        assert needle in asm, needle


def _llvm_func_module(body: str, attrs: str = "rocdl.kernel, gpu.known_block_size = "
                                               "array<i32: 64, 1, 1>") -> str:
    return (f"module {{\n  llvm.func @k() attributes {{{attrs}}} {{\n{body}\n"
            f"    llvm.return\n  }}\n}}\n")


def test_unknown_rocdl_op_is_a_located_error(ctx, tmp_path):
    src = tmp_path / "unknown.mlir"
    src.write_text(_llvm_func_module("    rocdl.s.barrier\n    rocdl.s.wait.loadcnt 0"))
    m = parse_file(src)
    with pytest.raises(ir.MLIRError) as err:
        intrinsic_pm(INTRINSICS_PASS).run(m.operation)
    (diag,) = err.value.error_diagnostics
    assert "'rocdl.s.wait.loadcnt' op has no rewrite to an LLVM intrinsic" in diag.message
    assert INTRINSICS_PASS in diag.message
    assert str(diag.location) == f'loc("{src}":4:5)'
    # nothing was rewritten
    assert "rocdl.s.barrier" in {o.name for o in all_ops(m)}


def test_one_op_lowered_to_several_is_one_error(ctx, tmp_path):
    """An op converted to several (``arith.truncf`` of a vector to 8-bit floats: one
    ``rocdl.cvt.pk.fp8.f32`` per lane pair, all at the truncf's location) that the pass
    cannot rewrite is one error at that location, not one per piece; another location
    is its own error."""
    src = tmp_path / "pieces.mlir"
    same = 'loc("kernel.mlir":7:9)'
    src.write_text(_llvm_func_module(f"    rocdl.s.wait.loadcnt 0 {same}\n"
                                     f"    rocdl.s.wait.loadcnt 0 {same}\n"
                                     f"    rocdl.s.wait.loadcnt 0"))
    with pytest.raises(ir.MLIRError) as err:
        intrinsic_pm(INTRINSICS_PASS).run(parse_file(src).operation)
    assert sorted(str(d.location) for d in err.value.error_diagnostics) == \
        sorted([same, f'loc("{src}":5:5)'])


def test_attribute_that_would_be_lost_is_an_error(ctx, tmp_path):
    src = tmp_path / "tbaa.mlir"
    src.write_text(
        "#root = #llvm.tbaa_root<id = \"r\">\n"
        "#scalar = #llvm.tbaa_type_desc<id = \"s\", members = {<#root, 0>}>\n"
        "#tag = #llvm.tbaa_tag<base_type = #scalar, access_type = #scalar, offset = 0>\n"
        + _llvm_func_module(
            "    %c0 = llvm.mlir.constant(0 : i32) : i32\n"
            "    %p = llvm.mlir.zero : !llvm.ptr<8>\n"
            "    %v = rocdl.raw.ptr.buffer.load %p, %c0, %c0, 0 <tbaa = [#tag]> : i32"))
    m = parse_file(src)
    with pytest.raises(ir.MLIRError) as err:
        intrinsic_pm(INTRINSICS_PASS).run(m.operation)
    (diag,) = err.value.error_diagnostics
    assert "attribute 'tbaa' has no equivalent on llvm.call_intrinsic" in diag.message


def test_the_pass_is_usable_alone_with_a_text_pipeline(ctx):
    m = ir.Module.parse(_llvm_func_module("    rocdl.sched.group.barrier ds_read, 2, 1"))
    pm = passmanager.PassManager.parse("builtin.module(canonicalize)")
    pm.add(to_llvm.RocdlToLLVMIntrinsics(), name=INTRINSICS_PASS, argument=INTRINSICS_PASS)
    pm.run(m.operation)
    assert 'llvm.call_intrinsic "llvm.amdgcn.sched.group.barrier"' in str(m)


# ---- sched-extract-device-module ------------------------------------------------------------

def test_extraction_runs_twice(ctx):
    m = parse_file(KERNEL)
    run_to_llvm(m)
    before = str(m)
    intrinsic_pm(INTRINSICS_PASS, EXTRACT_PASS).run(m.operation)
    assert str(m) == before


def test_extraction_refuses_to_drop_host_code(ctx, tmp_path):
    m, path = parse_variant(tmp_path, KERNEL, "  gpu.module @kernels {",
                            "  func.func @host() { return }\n  gpu.module @kernels {")
    with pytest.raises(ToLLVMError) as err:
        run_to_llvm(m)
    # caught before iree-convert-to-rocdl, which would lower the host function as device code
    assert "'func.func' op outside the gpu.module: only device code can be compiled" in str(
        err.value)
    assert f"{path}:{line_of(path, 'func.func @host')}:" in str(err.value)


def test_func_func_inside_the_gpu_module_is_refused(ctx, tmp_path):
    """iree-convert-to-rocdl drops memref arguments of a func.func and crashes on one that
    returns a value: refuse it, located, before it runs."""
    src = tmp_path / "f.mlir"
    src.write_text("gpu.module @device {\n  func.func @f(%a: i32) -> i32 {\n"
                   "    return %a : i32\n  }\n}\n")
    m = parse_file(src)
    with pytest.raises(ToLLVMError) as err:
        run_to_llvm(m)
    assert f"{src}:2:3: error: sched-check-device-input: 'func.func' op in the gpu.module" in str(
        err.value)


def test_empty_module_has_nothing_to_compile(ctx, tmp_path):
    src = tmp_path / "e.mlir"
    src.write_text("module {\n}\n")
    with pytest.raises(ToLLVMError) as err:
        run_to_llvm(parse_file(src))
    assert "nothing to compile for the GPU: no 'gpu.module' (the module is empty)" in str(
        err.value)


def test_extraction_refuses_ops_left_unlowered(ctx, tmp_path):
    """iree-convert-to-rocdl leaves ops it cannot convert for the chip without an error."""
    src = tmp_path / "left.mlir"
    src.write_text("module attributes {gpu.container_module} {\n  gpu.module @g {\n"
                   "    llvm.func @k() attributes {rocdl.kernel, gpu.known_block_size = "
                   "array<i32: 64, 1, 1>} {\n"
                   "      amdgpu.sched_barrier allow = none\n      llvm.return\n    }\n  }\n}\n")
    m = parse_file(src)
    with pytest.raises(ir.MLIRError) as err:
        intrinsic_pm(EXTRACT_PASS).run(m.operation)
    (diag,) = err.value.error_diagnostics
    assert "'amdgpu.sched_barrier' op was not lowered to the LLVM dialect" in diag.message
    assert str(diag.location) == f'loc("{src}":4:7)'


def test_extraction_refuses_two_gpu_modules(ctx):
    m = ir.Module.parse("module attributes {gpu.container_module} {\n"
                        "  gpu.module @a {}\n  gpu.module @b {}\n}")
    with pytest.raises(ir.MLIRError, match="only one 'gpu.module'"):
        intrinsic_pm(EXTRACT_PASS).run(m.operation)


def test_extraction_refuses_unknown_function_attributes(ctx):
    m = ir.Module.parse(_llvm_func_module("", "rocdl.kernel, gpu.known_block_size = "
                                              "array<i32: 64, 1, 1>, rocdl.mystery = 1 : i32"))
    with pytest.raises(ir.MLIRError, match="'rocdl.mystery' has no LLVM equivalent"):
        intrinsic_pm(EXTRACT_PASS).run(m.operation)


def test_extraction_checks_block_size_limits(ctx):
    m = ir.Module.parse(_llvm_func_module("", "rocdl.kernel, gpu.known_block_size = "
                                              "array<i32: 64, 32, 1>"))
    with pytest.raises(ir.MLIRError, match="2048 threads exceeds the gfx9 limit of 1024"):
        intrinsic_pm(EXTRACT_PASS).run(m.operation)


# ---- translate guard ------------------------------------------------------------------------

def test_translate_guard_rejects_unlowered_ops(ctx):
    m = parse_file(KERNEL)          # still gpu/scf/amdgpu ops: translating would segfault
    with pytest.raises(ToLLVMError) as err:
        translate_to_llvm_ir(m)
    msg = str(err.value)
    assert f"{KERNEL}:{line_of(KERNEL, 'gpu.module @kernels')}:" in msg
    assert "'gpu.module' op cannot be translated to LLVM IR" in msg


def test_translate_guard_rejects_a_leftover_rocdl_op(ctx, tmp_path):
    src = tmp_path / "rocdl_left.mlir"
    src.write_text(_llvm_func_module("    rocdl.s.barrier"))
    m = parse_file(src)
    with pytest.raises(ToLLVMError, match=rf"{re.escape(str(src))}:3:5: 'rocdl.s.barrier' op"):
        translate_to_llvm_ir(m)


def test_translate_guard_rejects_a_kernel_returning_a_value(ctx):
    m = ir.Module.parse("module {\n  llvm.func amdgpu_kernelcc @k() -> i32 {\n"
                        "    %0 = llvm.mlir.constant(0 : i32) : i32\n"
                        "    llvm.return %0 : i32\n  }\n}")
    with pytest.raises(ToLLVMError, match="kernel 'k' must return void"):
        translate_to_llvm_ir(m)


def test_translate(ctx):
    ll = module_to_llvm_ir(parse_file(KERNEL))
    assert 'target triple = "amdgcn-amd-amdhsa"' in ll
    assert re.search(r"define amdgpu_kernel void @mfma_kloop\(.*\) #0 !reqd_work_group_size", ll)
    assert '"amdgpu-flat-work-group-size"="256,256"' in ll
    assert '"uniform-work-group-size"="true"' in ll
    assert "@__wg_mfma_kloop_0 = internal addrspace(3) global [2048 x bfloat]" in ll
    for call in ["call void @llvm.amdgcn.s.waitcnt(i32 3952)",
                 "call void @llvm.amdgcn.s.waitcnt(i32 49279)",
                 "call void @llvm.amdgcn.s.barrier()",
                 "call void @llvm.amdgcn.sched.barrier(i32 0)",
                 "call void @llvm.amdgcn.s.setprio(i16 1)",
                 "call void @llvm.amdgcn.sched.group.barrier(i32 256, i32 2, i32 0)",
                 "call void @llvm.amdgcn.sched.group.barrier(i32 8, i32 1, i32 0)",
                 "call void @llvm.amdgcn.load.to.lds.p1(",
                 "call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16("]:
        assert call in ll, call
    # the order of the hand-placed control ops is kept
    seq = re.findall(r"@llvm\.amdgcn\.(s\.waitcnt|s\.barrier|sched\.barrier|s\.setprio|mfma)", ll)
    assert seq[:9] == ["sched.barrier", "s.waitcnt", "sched.barrier", "s.barrier",
                       "sched.barrier", "s.waitcnt", "sched.barrier", "s.setprio", "mfma"]


def test_isolated_translation_turns_a_crash_into_an_error(ctx, tmp_path):
    """A translation failure the guard cannot foresee segfaults in-process; isolated, it is
    a located ToLLVMError."""
    src = tmp_path / "bad_intrinsic.mlir"
    src.write_text(_llvm_func_module(
        "    %0 = llvm.mlir.constant(1 : i32) : i32\n"
        "    llvm.call_intrinsic \"llvm.amdgcn.s.setprio\"(%0) : (i32) -> ()"))
    with pytest.raises(ToLLVMError) as err:
        translate_to_llvm_ir(parse_file(src), isolated=True)
    assert str(err.value).splitlines()[0] == (
        f'{src}:4:5: error: intrinsic call operand #0 has type i32 but '
        f'"llvm.amdgcn.s.setprio" expects i16')


def test_isolated_translation_matches_in_process(ctx):
    m = run_to_llvm(parse_file(KERNEL))
    assert translate_to_llvm_ir(m, isolated=True) == translate_to_llvm_ir(m)
