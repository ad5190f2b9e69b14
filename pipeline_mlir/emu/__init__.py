"""gfx950 emulator: executes the linked code object (or its assembly) instruction by
instruction, with asynchronous memory, and reports what the kernel did wrong.

Layers: ``opcodes`` (opcode tables), ``decode`` (machine code -> :class:`Instr`, LLVM's
text), ``asmtext`` (assembly -> the same records), ``codeobj`` (kernels and their launch
state), ``semantics`` (what each instruction does), ``machine`` (waves, memory, waits,
barriers, races), ``gemm`` (a GEMM launch against the numpy reference), ``cli`` (the
``--emulate`` face of ``pipeline-opt``).  Only ``pipeline_mlir.tools`` imports this
package.
"""
