"""pipeline-mlir: software pipelining of gfx950 (MI355X) matmul K-loops.

The core (this package's top-level modules) is plain Python with no MLIR import:

* ``types``, ``config``, ``geometry``, ``targets`` - data model, configuration, MI355X targets
* ``body``, ``edges``, ``graph``, ``schedulers`` - body transforms, dependency edges, ordering
* ``program``, ``program_builder``, ``phases``, ``compiler`` - blocks, waits, verification, phases
* ``schedules`` - the ping-pong, 4-wave and single-buffer schedules
* ``debug`` - the reference debug format and JSON

``pipeline_mlir.dialect``, ``pipeline_mlir.passes`` and ``pipeline_mlir.tools`` hold the MLIR
face and the ``pipeline-opt`` driver.
"""

__version__ = "0.1.0"
