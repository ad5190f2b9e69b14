"""gfx950 emulator: executes the linked code object (or its assembly) instruction by
instruction, with asynchronous memory, and reports what the kernel did wrong.

Layers, bottom-up (each module imports only modules below it): ``opcodes`` (opcode
tables), ``instr`` (the :class:`Instr` record and its operand widths), ``scaled`` (the
scaled MFMAs' 16-byte encoding and text), ``disasm`` (LLVM's text of an instruction),
``decode`` (machine code -> instructions), ``operands`` (compiled steps, operand readers,
register writes), ``racy_loads`` (loads racing another workgroup's store, left to a
taint run), ``globalrace`` (the race check of global memory), ``taint`` (the taint run's
rule: a racing load's value must reach nothing observable),
``fp8cvt`` (the f32 -> 8-bit float conversions), ``salu`` / ``valu`` (what scalar and
vector ALU instructions do),
``semantics`` / ``memops`` / ``mfma`` (ALU dispatch and control, memory and matrix
instructions), ``mfma_mx`` (the MX matrix instructions: FP4 operands, block scales),
``scratch`` (scratch instructions on the private segment), ``program`` (an instruction -> its step),
``codeobj`` (kernels and their launch state from code objects), ``asmline`` (one line of
assembly -> an instruction), ``asmtext`` (kernels from assembly), ``inputs`` (either),
``hazards`` (the wait-state rules), ``launchdims`` (a launch's workgroup shape and
work-item ids), ``machine`` (waves, memory, waits, barriers, races), ``pool`` (workgroups
spread over processes), ``gemm`` (a GEMM launch against the numpy reference), ``iree``
(IREE kernels' launch), ``expect`` (element types and check expressions), ``launchfile``
(launch descriptions read and checked), ``described`` (a kernel run as its launch
description says).
Only ``pipeline_mlir.driver`` and ``pipeline_mlir.tools`` (and the tests) import this package.
"""
