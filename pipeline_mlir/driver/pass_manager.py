"""The pass manager of one compilation as ``pipeline-opt`` drives it: each pipeline element
added on its own so that ``--mlir-print-ir-before`` / ``-after`` can name a pass (MLIR's
binding has no such filter), MLIR's own dumps, timing and ``--dump-pass-pipeline`` switched
on, and the message for a ``--pass-pipeline`` element MLIR rejects.
"""

from __future__ import annotations

import re

from pipeline_mlir.driver.arguments import CompileOptions
from pipeline_mlir.driver.base import UsageError, print_stderr
from pipeline_mlir.options import suggest


def pass_name(element: str) -> str:
    """The pass (or anchor op) an element of a pass pipeline names: 'cse', 'func.func'."""
    return re.split(r"[{(\s]", element.strip(), maxsplit=1)[0]


class PrintingPM:
    """A PassManager front that adds every element on its own and prints the IR before /
    after the passes named by --mlir-print-ir-before / -after (MLIR's binding has no such
    filter)."""

    def __init__(self, pm, options: CompileOptions, keep: list) -> None:
        self.pm, self.keep = pm, keep
        self.before, self.after = options.print_ir.before, options.print_ir.after
        self.asm = options.asm_format.options()
        self.names: list[str] = []       # top-level passes added, in order
        self.nested: list[str] = []      # passes inside nested pipelines (func.func(...))

    def add(self, entry, name=None):
        if isinstance(entry, str):
            from pipeline_mlir.passes.registry import split_top

            for element in split_top(entry):
                self._around(pass_name(element), lambda e=element: self.pm.add(e))
                inner = re.search(r"\((.*)\)\s*$", element, re.S)
                if inner:
                    self.nested += [pass_name(x) for x in split_top(inner.group(1))]
            return
        self.keep.append(entry)
        self._around(name, lambda: self.pm.add(entry, name=name, argument=name))

    def _around(self, name: str, add) -> None:
        self.names.append(name)
        if name in self.before:
            self._printer("Before", name)
        add()
        if name in self.after:
            self._printer("After", name)

    def _printer(self, when: str, name: str) -> None:
        asm = self.asm

        def dump(op, pass_):
            print_stderr(f"// -----// IR Dump {when} {name} //----- //\n{op.get_asm(**asm)}")

        self.keep.append(dump)
        self.pm.add(dump, name=f"print-ir-{when.lower()}-{name}",
                    argument=f"print-ir-{when.lower()}-{name}")

    def check_requests(self) -> None:
        """A requested pass that is not in the pipeline is an error, never a silent no-op."""
        for flag, wanted in (("--mlir-print-ir-before", self.before),
                             ("--mlir-print-ir-after", self.after)):
            for name in sorted(wanted - set(self.names)):
                if name in self.nested:
                    raise UsageError(f"{flag}={name}: '{name}' runs inside a nested pipeline; "
                                     f"name the nested pipeline's anchor (e.g. func.func) or "
                                     f"use {flag}-all")
                known = list(dict.fromkeys(self.names))
                raise UsageError(f"{flag}={name}: the pipeline has no pass '{name}'"
                                 f"{suggest(name, known)} (its passes: {', '.join(known)})")


_UNREGISTERED = re.compile(r"'([^']*)' does not refer to a registered pass")


def bad_element(text: str, err: ValueError) -> str:
    """The message for a --pass-pipeline element MLIR rejected."""
    from pipeline_mlir.passes.registry import LLVM_STEP, PASSES, split_top

    unknown = _UNREGISTERED.search(str(err))
    name = unknown.group(1) if unknown else pass_name(text)
    ours = list(PASSES) + [LLVM_STEP]
    if unknown and name in ours:  # one of ours nested under an anchor: gpu.module(sched-...)
        return _nested_message(text, name, ours, split_top)
    hint = suggest(name, ours)
    if unknown:
        return (f"--pass-pipeline: unknown pass '{name}'{hint}: neither a sched pass "
                f"({', '.join(ours)}) nor a pass MLIR knows")
    detail = " ".join(str(err).split("error:")[-1].split())
    detail = re.sub(r"\s+\S*\s*\^$", "", detail)  # MLIR's echo of the element and its caret
    return f"--pass-pipeline: bad element '{text}': {detail}{hint}"


def _nested_message(text: str, name: str, ours: list[str], split_top) -> str:
    """A sched pass (``name``) nested in ``text`` (``gpu.module(...)``): where it runs and how
    to write the pipeline."""
    anchor = pass_name(text)
    inner = split_top(re.search(r"\((.*)\)\s*$", text, re.S).group(1))
    top = [x for x in inner if pass_name(x) in ours]
    rest = [x for x in inner if pass_name(x) not in ours]
    if not top:  # nested deeper: only the pass itself
        top, rest = [name], []
    example = ",".join(top + ([f"{anchor}({','.join(rest)})"] if rest else []))
    return (f"--pass-pipeline: '{text}' nests {name} under {anchor}: the sched passes run on "
            f"builtin.module (the whole module; each finds its sched.pipeline ops, loops and "
            f"kernels itself): name them at the top level, e.g. "
            f"--pass-pipeline='builtin.module({example})'")


def enable_printing(pm, options: CompileOptions, passes: int) -> None:
    """MLIR's own IR dumps (all passes, a failed pass), timing, and --dump-pass-pipeline
    (``passes``: how many the pipeline has, as mlir-opt counts them)."""
    print_ir, asm = options.print_ir, options.asm_format
    if print_ir.after_all or print_ir.before_all or print_ir.after_failure:
        # as mlir-opt: after a failure = after every pass, printed only when it failed
        pm.enable_ir_printing(print_before_all=print_ir.before_all,
                              print_after_all=print_ir.after_all or print_ir.after_failure,
                              print_after_failure=print_ir.after_failure,
                              large_elements_limit=asm.elide_elementsattrs_if_larger,
                              enable_debug_info=asm.debuginfo,
                              print_generic_op_form=asm.generic)
    if options.timing:
        pm.enable_timing()
    if options.dump_pipeline:
        print_stderr(f"Pass Manager with {passes} passes:\n{pm}\n")
