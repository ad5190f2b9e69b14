"""Older MLIR text that producers pinned to an older IREE write, read as today's.

The MLIR bindings here are iree-base-compiler 3.13's.  IREE's Wave DSL (``wave-lang``
3.9) pins iree-base-compiler 3.9 and prints three constructs whose custom syntax changed
in between; :func:`upgrade` rewrites exactly those, line by line (line numbers, and the
columns where the ops start, stay those of the file, so diagnostics point into it):

* ``#iree_codegen.translation_info<pipeline = None ...>``: 3.9's "no codegen pipeline"
  (the kernel is lowered already) is 3.13's empty pass pipeline,
  ``pipeline = #iree_codegen.pass_pipeline<"">``;
* ``amdgpu.mfma ... blgp = none : ...``: the default B-lane permutation, which 3.13 no
  longer prints, is dropped; any other ``blgp = X`` there is an error (naming the line);
* ``vector.extract_strided_slice %v {offsets = [...], sizes = [...], strides = [...]}``:
  the same three lists without the braces.

Text in today's syntax, and comment lines, are returned unchanged.
"""

from __future__ import annotations

import re

from pipeline_mlir.errors import ConfigError

_NONE_PIPELINE = re.compile(r"(#iree_codegen\.translation_info<pipeline = )None\b")
_MFMA_BLGP = re.compile(r"(amdgpu\.mfma\b[^:]*?)\s+blgp\s*=\s*(\w+)(\s*:)")
_STRIDED = re.compile(r"(vector\.extract_strided_slice\s+%[\w#]+\s+)"
                      r"\{(offsets = \[[^\]]*\], sizes = \[[^\]]*\], strides = \[[^\]]*\])\}")


def upgrade(text: str, filename: str = "<input>") -> str:
    """``text`` with the older constructs of the module docstring in today's syntax."""
    if "translation_info<pipeline = None" not in text and "blgp" not in text \
            and "extract_strided_slice" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.lstrip().startswith("//"):
            continue
        line = _NONE_PIPELINE.sub(r'\1#iree_codegen.pass_pipeline<"">', line)
        m = _MFMA_BLGP.search(line)
        if m is not None:
            if m.group(2) != "none":
                raise ConfigError(f"{filename}:{i + 1}: 'amdgpu.mfma' in an older syntax with "
                                  f"blgp = {m.group(2)}: only the default (none) is read")
            line = line[:m.start()] + m.group(1) + m.group(3) + line[m.end():]
        lines[i] = _STRIDED.sub(r"\1\2", line)
    return "\n".join(lines)
