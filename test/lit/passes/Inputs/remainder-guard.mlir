// Loops the kernel runs as written (sched.remainder) after the pipelined code.
func.func @fp8_32x32x64(%a: vector<32xf8E4M3FN>, %b: vector<32xf8E4M3FN>, %c: vector<16xf32>,
                        %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    %d = amdgpu.mfma 32x32x64 %a * %b + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  } {sched.remainder}
  vector.store %r, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// FP4 on both sides: 8 passes, 12 wait states, which LLVM counts itself
func.func @fp4_32x32x64(%a: vector<32xf4E2M1FN>, %c: vector<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    %d = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf4E2M1FN>, vector<32xf4E2M1FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  } {sched.remainder}
  vector.store %r, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// an unmarked loop: guarded all the same (the guard follows from the IR, not the mark;
// the pipelined loop is materialized by the pass, its guard after the epilogue:
// lowering/materialize.py)
func.func @unmarked(%a: vector<32xf8E4M3FN>, %b: vector<32xf8E4M3FN>, %c: vector<16xf32>,
                    %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    %d = amdgpu.mfma 32x32x64 %a * %b + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  }
  vector.store %r, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}
