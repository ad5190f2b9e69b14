"""pipeline-mlir: software pipelining of gfx950 (MI355X) matmul K-loops.

Layers, lowest first; each imports only the layers listed before it:

* ``errors``, ``options`` - the error classes and the typed option system
* ``schedule/`` - the scheduling framework, plain Python with no MLIR import: data model,
  configuration, targets, dependency edges and graph, schedulers, blocks and waits,
  phases, the schedule compiler and the debug format
* ``schedules/`` - the ping-pong, 4-wave and single-buffer schedules, their geometry, and
  the registry of named pipelines (``NAME{key=value ...}`` specs)
* ``kernel/`` - the kernel plan, the complete GEMM kernel generator, the host launch
  contract and the numpy reference
* ``isa/`` - waitcnt encoding, assembly and code-object readers, codegen and link, the
  resource report and the ISA check
* ``sim/`` - the functional and timing simulators

The MLIR side sits on top: ``pipeline_mlir.dialect`` (the ``sched`` dialect, IR reading
and writing, the concrete form, ``rocdl`` building), ``pipeline_mlir.passes`` (one pass
per module, ``registry`` names the pipelines' pass lists) and ``pipeline_mlir.tools``
(the ``pipeline-opt`` driver and the simulator's command line).
"""

__version__ = "0.1.0"
