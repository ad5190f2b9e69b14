"""``sched-check-device-input``: the module must be one ``gpu.module`` (the device code).

The first pass of the LLVM step (``registry.TO_LLVM_PASSES``).  The module must hold
exactly one ``gpu.module`` and nothing else, or be LLVM-only already (a second run of
the step).  ``iree-convert-to-rocdl`` would otherwise lower host code as device code, or
crash on it (a ``func.func`` returning a value segfaults it).  Inside the
``gpu.module`` only :data:`DEVICE_OPS` (and LLVM ops) may appear.
"""

from __future__ import annotations

from pipeline_mlir.passes._common import ModulePass, OpError, as_operation

#: what iree-convert-to-rocdl lowers correctly inside a gpu.module (a func.func there is
#: dropped, or crashes it)
DEVICE_OPS = ("gpu.func", "memref.global")


class CheckDeviceInput(ModulePass):
    """Before lowering: the module must hold exactly one ``gpu.module`` and nothing else
    (or be LLVM-only already).  ``iree-convert-to-rocdl`` would otherwise lower host code
    as device code, or crash on it (a ``func.func`` returning a value segfaults)."""

    name = "sched-check-device-input"
    summary = "check that the module is one gpu.module (the device code to compile)"

    def run(self, module) -> list[OpError]:
        top = [as_operation(o) for o in module.regions[0].blocks[0].operations]
        gpu_modules = [o for o in top if o.name == "gpu.module"]
        if not gpu_modules:
            if top and all(o.name.startswith("llvm.") for o in top):
                return []  # already lowered
            what = (f"found '{top[0].name}'" if top else "the module is empty")
            where = top[0] if top else module
            return [OpError(where, f"nothing to compile for the GPU: no 'gpu.module' ({what}); "
                                    f"--emit=llvm|asm|obj|hsaco need a gpu.module kernel")]
        errors = []
        if len(gpu_modules) > 1:
            errors.append(OpError(gpu_modules[1], "only one 'gpu.module' per input can be "
                                                   "compiled"))
        for o in top:
            if o.name != "gpu.module":
                errors.append(OpError(o, f"'{o.name}' op outside the gpu.module: only device "
                                          f"code can be compiled (move it into the gpu.module "
                                          f"or remove it)"))
        for gm in gpu_modules:
            for inner in gm.regions[0].blocks[0].operations:
                inner = as_operation(inner)
                if inner.name not in DEVICE_OPS and not inner.name.startswith("llvm."):
                    errors.append(OpError(inner, f"'{inner.name}' op in the gpu.module: the "
                                                  f"LLVM step lowers {', '.join(DEVICE_OPS)} "
                                                  f"only (write functions as gpu.func)"))
        return errors
