"""pipeline-mlir: software pipelining of gfx950 (MI355X) matmul K-loops.

Layers, lowest first; each imports only its own layer and the layers listed before it, and no
set of modules imports itself in a circle (``test/unit/test_layers.py``):

* ``errors``, ``options`` - the error classes and the typed option system
* ``target/`` - what the tree knows about the chip (gfx950): counters, LDS, MFMAs, occupancy
* ``schedule/`` - the scheduling framework, plain Python with no MLIR import: data model,
  configuration, cost models, dependency edges and graph, schedulers, blocks and waits,
  phases, the schedule compiler and the debug format
* ``schedules/`` - the ping-pong, 4-wave and single-buffer schedules (with their tuner
  knobs), their geometry, and the registry of named pipelines (``NAME{key=value ...}``)
* ``kernel/`` - the kernel plan, the complete GEMM kernels and their MLIR text, the LDS
  layout, the host launch contract and the numpy reference
* ``isa/`` - waitcnt encoding, assembly and code-object readers, the LLVM worker, codegen and
  link, the resource report and the ISA check
* ``sim/`` - the functional and timing simulators, hazard repair, the tuner's search
* ``emu/`` - the gfx950 emulator

The MLIR side sits on top: ``dialect/`` (the ``sched`` dialect, IR reading and writing),
``analysis/`` (integer forms and ranges, uniformity, the per-lane evaluator, LDS accesses),
``frontend/`` (natural and tagged K-loops, the tag check, IREE dispatches), ``lowering/``
(the pipelined kernel materialised, ``rocdl`` building), ``passes/`` (one pass per module),
``driver/`` (the compile API, :func:`pipeline_mlir.driver.compile`) and ``tools/`` (the
``pipeline-opt`` command line: argv in, text out).
"""

__version__ = "0.1.0"
