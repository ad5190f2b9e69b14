"""gfx950 emulator: executes the linked code object (or its assembly) instruction by
instruction, with asynchronous memory, and reports what the kernel did wrong.

Layers, bottom-up (each module imports only modules below it): ``opcodes`` (opcode
tables), ``decode`` (machine code -> :class:`Instr`, LLVM's text), ``operands`` (compiled
steps, operand readers, register writes), ``semantics`` / ``memops`` / ``mfma`` (what ALU
and control, memory and matrix instructions do), ``program`` (an instruction -> its step),
``codeobj`` (kernels and their launch state from code objects), ``asmtext`` (the same from
assembly), ``inputs`` (either), ``machine`` (waves, memory, waits, barriers, races),
``gemm`` (a GEMM launch against the numpy reference), ``iree`` (IREE kernels' launch).
Only ``pipeline_mlir.tools`` (and the tests) import this package.
"""
