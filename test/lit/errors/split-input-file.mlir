// RUN: not pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-verify,sched-annotate)' 2>&1 >/dev/null | FileCheck %s
// RUN: not pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-verify,sched-annotate)' 2>/dev/null | FileCheck %s --check-prefix=OUT
// RUN: rm -f %t.out
// RUN: not pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-verify,sched-annotate)' -o %t.out
// RUN: not ls %t.out
// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-verify)' --split-input-file --verify-diagnostics

// With --split-input-file every chunk is processed on its own: a bad chunk
// does not stop the others, each error carries its line in the whole file
// (with the source line and a caret), and the exit status is 1 if any chunk
// failed. As with mlir-opt, stdout gets every chunk's output with `// -----`
// between them (a failed chunk's is empty); a file given with -o is not
// written at all.

// CHECK:      split-input-file.mlir:46:24: error: expected ':' followed by operation type
// CHECK-NEXT: {{^}}}) {schedule = "4wave"}{{$}}
// CHECK-NEXT: {{^                       \^$}}
// CHECK-NEXT: split-input-file.mlir:53:3: error: sched-verify: 'sched.mma' op attribute 'stage' must be >= 0, got -1
// CHECK-NEXT: {{^  "sched.mma"\(\) \{stage = -1, subtile = 0\} : \(\) -> \(\)$}}
// CHECK-NEXT: {{^  \^$}}
// CHECK-NOT: error

// OUT:      module {
// OUT-NEXT:   "sched.pipeline"() ({
// OUT-NEXT:     "sched.mma"() {{{.*}}stage = 0 : i64, subtile = 0 : i64{{.*}}}
// OUT-NEXT:   }) {schedule = "4wave", state = "annotated"} : () -> ()
// OUT-NEXT: }
// OUT-NEXT: // -----
// OUT-NEXT: // -----
// OUT-NEXT: // -----
// OUT-NEXT: module {
// OUT-NEXT:   "sched.pipeline"() ({
// OUT-NEXT:     "sched.mma"() {{{.*}}stage = 1 : i64, subtile = 1 : i64{{.*}}}
// OUT-NEXT:   }) {schedule = "4wave", state = "annotated"} : () -> ()
// OUT-NEXT: }
// OUT-NOT:  {{.}}

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"}
// expected-error @-1 {{expected ':' followed by operation type}}

// -----

"sched.pipeline"() ({
  // expected-error @+1 {{'sched.mma' op attribute 'stage' must be >= 0, got -1}}
  "sched.mma"() {stage = -1, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

"sched.pipeline"() ({
  "sched.mma"() {stage = 1, subtile = 1} : () -> ()
}) {schedule = "4wave"} : () -> ()
