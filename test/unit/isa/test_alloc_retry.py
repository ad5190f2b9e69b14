"""The LLVM step's second build of a module that reserves AGPRs and spills
(``isa/alloc_retry.py``, ``codegen.compile_llvm_ir``): built again in the allocator's other
order of local live ranges, the build that spills less kept; a module that does not spill,
one without AGPRs and an explicit ``options=`` caller built once.

The decision is checked with the worker stubbed (``worker.run`` answering each job with
assembly whose kernel metadata spills what the test says for the job's options); the
worker's own two builds and the spill counts of an object on a small module LLVM spills."""

from __future__ import annotations

import json

import pytest

from pipeline_mlir.isa import alloc_retry, codegen, worker
from pipeline_mlir.isa.codegen import KEEP_VECTOR_PHIS, REVERSE_LOCAL, compile_llvm_ir

AGPRS = '"amdgpu-agpr-alloc"="256"'
K_OUTER = '"amdgpu-agpr-alloc"="256" "sched-k-outer-mfmas"="true"'


def _module(attrs: str) -> str:
    return f"define void @f() #0 {{\n  ret void\n}}\nattributes #0 = {{ {attrs} }}\n"


def _asm(spills: tuple[int, int], reversed_local: bool) -> str:
    """Assembly as the worker answers, its kernel metadata spilling ``spills``; the order
    named in a comment, so the kept build can be told apart."""
    return (f"; order {'reversed' if reversed_local else 'default'}\n\t.amdgpu_metadata\n"
            f"---\namdhsa.kernels:\n  - .name: f\n    .sgpr_spill_count: {spills[1]}\n"
            f"    .vgpr_spill_count: {spills[0]}\n...\n\t.end_amdgpu_metadata\n")


@pytest.fixture
def stub(monkeypatch):
    """``worker.run`` answering each job from ``stub.spills`` by whether its options reverse
    the order; the jobs' options kept in ``stub.jobs``."""
    class Stub:
        spills = {False: (0, 0), True: (0, 0)}
        jobs: list = []

    def run(_module, payload, **_kw):
        job = json.loads(payload)
        Stub.jobs.append(job["options"])
        rev = REVERSE_LOCAL in job["options"]
        return worker.Exit(0, [_asm(Stub.spills[rev], rev).encode()], "")

    Stub.jobs = []
    monkeypatch.setattr(worker, "run", run)
    return Stub


@pytest.mark.parametrize("attrs, default, reversed_, kept, second", [
    (AGPRS, (22, 0), (0, 0), "reversed", "second"),       # E5M2 A x B 512x640x768's
    (AGPRS, (18, 0), (54, 0), "default", "first"),        # fp8 A x B 384x384x896's
    (AGPRS, (5, 0), (5, 0), "default", "first"),          # a tie: the first
    (AGPRS, (4, 0), (3, 9), "reversed", "second"),        # VGPRs first, then SGPRs
    (AGPRS, (0, 3), (0, 1), "reversed", "second"),        # SGPRs alone spilled
    (K_OUTER, (2, 0), (4, 0), "default", "second"),       # a K-outer module: reversed first
    (K_OUTER, (6, 0), (4, 0), "reversed", "first"),
])
def test_a_spilling_agpr_module_is_built_again_and_the_lesser_kept(stub, attrs, default,
                                                                   reversed_, kept, second):
    stub.spills = {False: default, True: reversed_}
    said: list[str] = []
    asm = compile_llvm_ir(_module(attrs), kind="asm", said=said)
    assert asm.startswith(f"; order {kept}\n")
    first_reversed = attrs == K_OUTER
    assert stub.jobs == [[KEEP_VECTOR_PHIS] + [REVERSE_LOCAL] * first_reversed,
                         [KEEP_VECTOR_PHIS] + [REVERSE_LOCAL] * (not first_reversed)]
    first, again = (reversed_, default) if first_reversed else (default, reversed_)
    assert said == [alloc_retry.retry_note(first, again, first_reversed, REVERSE_LOCAL,
                                           second == "second")]
    assert said[0].startswith(f"built twice: {first[0]} VGPR")
    assert said[0].endswith(f"kept the {second} build (the {kept} order)")


@pytest.mark.parametrize("kind", ["obj", "both"])
def test_an_object_build_is_judged_by_its_note(stub, monkeypatch, kind):
    """An object alone is judged by its metadata note (``codeobject.read_metadata``, here
    stubbed on the stub's bytes); ``both`` by the assembly."""
    from pipeline_mlir.isa import codeobject

    def run(_module, payload, **_kw):
        job = json.loads(payload)
        stub.jobs.append(job["options"])
        text = _asm(stub.spills[REVERSE_LOCAL in job["options"]],
                    REVERSE_LOCAL in job["options"]).encode()
        return worker.Exit(0, [text, text] if job["kind"] == "both" else [text], "")

    def metadata(data: bytes):
        v, s = alloc_retry.spills_of("asm", data.decode())
        return {"amdhsa.kernels": [{".vgpr_spill_count": v, ".sgpr_spill_count": s}]}

    monkeypatch.setattr(worker, "run", run)
    monkeypatch.setattr(codeobject, "read_metadata", metadata)
    stub.spills = {False: (7, 0), True: (1, 0)}
    out = compile_llvm_ir(_module(AGPRS), kind=kind)
    obj = out if kind == "obj" else out[1]
    assert obj.startswith(b"; order reversed\n") and len(stub.jobs) == 2


@pytest.mark.parametrize("attrs, spills, options", [
    (AGPRS, (0, 0), None),                  # does not spill: never built twice
    (K_OUTER, (0, 0), None),
    ('"amdgpu-agpr-alloc"="0"', (9, 0), None),      # reserves no AGPRs
    ("", (9, 1), None),
    (AGPRS, (9, 0), (KEEP_VECTOR_PHIS,)),          # options asked: exactly those, once
    (AGPRS, (9, 0), ()),
    (K_OUTER, (9, 0), (KEEP_VECTOR_PHIS, REVERSE_LOCAL)),
])
def test_built_once(stub, attrs, spills, options):
    stub.spills = {False: spills, True: (0, 0)}
    said: list[str] = []
    compile_llvm_ir(_module(attrs), kind="asm", options=options, said=said)
    asked = codegen.llvm_options(_module(attrs)) if options is None else options
    assert stub.jobs == [list(asked)] and said == []


def _spilling_module(agprs: int) -> str:
    """A kernel LLVM spills 2 VGPRs of (48 values live in 24 VGPRs)."""
    n = 48
    loads = "\n".join(f"  %p{i} = getelementptr float, ptr addrspace(1) %a, i32 {i}\n"
                      f"  %v{i} = load volatile float, ptr addrspace(1) %p{i}" for i in range(n))
    stores = "\n".join(f"  store volatile float %v{i}, ptr addrspace(1) %p{n - 1 - i}"
                       for i in range(n))
    return (f"define amdgpu_kernel void @k(ptr addrspace(1) %a) #0 {{\n{loads}\n{stores}\n"
            f"  ret void\n}}\nattributes #0 = {{ \"amdgpu-num-vgpr\"=\"24\" "
            f"\"amdgpu-agpr-alloc\"=\"{agprs}\" }}\n")


def test_llvm_builds_a_spilling_module_twice(monkeypatch):
    """With LLVM: the module spills 2 VGPRs in either order (a tie: the first kept), read
    alike from the assembly and from the object's note; reserving no AGPRs, it is built
    once."""
    jobs = []
    real = worker.run

    def counting(module, payload, **kw):
        jobs.append(json.loads(payload)["options"])
        return real(module, payload, **kw)

    monkeypatch.setattr(worker, "run", counting)
    said: list[str] = []
    asm, obj = compile_llvm_ir(_spilling_module(8), kind="both", said=said)
    assert alloc_retry.spills_of("asm", asm) == alloc_retry.spills_of("obj", obj) == (2, 0)
    assert jobs == [[KEEP_VECTOR_PHIS], [KEEP_VECTOR_PHIS, REVERSE_LOCAL]]
    assert said and said[0].endswith("kept the first build (the default order)")
    jobs.clear()
    assert alloc_retry.spills_of("obj", compile_llvm_ir(_spilling_module(0), kind="obj")) \
        == (2, 0)
    assert jobs == [[]]


def test_a_second_build_that_fails_keeps_the_first(stub, monkeypatch):
    """LLVM failing in the other order (its allocator can run out of registers where the
    first order spilled) costs the kernel nothing: the first build is kept, and said."""
    def run(_module, payload, **_kw):
        job = json.loads(payload)
        stub.jobs.append(job["options"])
        if REVERSE_LOCAL in job["options"]:
            return worker.Exit(1, [], "LLVM ERROR: ran out of registers during register "
                                      "allocation in function 'f'\n")
        return worker.Exit(0, [_asm((6, 0), False).encode()], "")

    monkeypatch.setattr(worker, "run", run)
    said: list[str] = []
    asm = compile_llvm_ir(_module(AGPRS), kind="asm", said=said)
    assert asm.startswith("; order default\n") and len(stub.jobs) == 2
    assert said == [alloc_retry.failed_note((6, 0), False, REVERSE_LOCAL,
                                            "LLVM ERROR: ran out of registers during register "
                                            "allocation in function 'f'")]
    assert said[0].endswith("which failed (LLVM ERROR: ran out of registers during register "
                            "allocation in function 'f'); kept the first build")
