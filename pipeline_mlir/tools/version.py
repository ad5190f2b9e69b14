"""``pipeline-opt --version``: the versions of the tool, its MLIR and its LLVM.

Answered without the argument parser when ``--version`` is the whole command line, and
without :mod:`importlib.metadata` (importing it costs more than starting Python): the
versions are read from the installed distributions' metadata as that module finds them.
"""

from __future__ import annotations

import os
import re
import sys

from pipeline_mlir.driver.base import CHIPS, PROG

#: the command lines that only ask for the versions (mlir-opt's one-dash spelling too)
VERSION_ONLY = (["--version"], ["-version"])


def version_text() -> str:
    """What ``--version`` prints."""
    return (f"{PROG} (pipeline-mlir {installed_version('pipeline-mlir')})\n"
            f"  target: {', '.join(CHIPS)}\n"
            f"  MLIR: iree-base-compiler {installed_version('iree-base-compiler')}\n"
            f"  LLVM code generation: llvmlite {installed_version('llvmlite')}\n")


def installed_version(dist: str) -> str | None:
    """The ``Version`` of the installed distribution ``dist`` ("not installed" if none), as
    ``importlib.metadata.version`` finds it: the first directory on :data:`sys.path` (in
    order; a directory's entries in :func:`os.listdir` order) holding a ``NAME-...dist-info``
    or ``NAME-...egg-info`` whose NAME normalises to ``dist``'s (``-``, ``_``, ``.`` runs alike,
    any case), or a ``NAME-....egg`` entry's ``EGG-INFO``; its ``METADATA`` (or ``PKG-INFO``)
    file's first ``Version:`` header.  Zip archives on the path are not searched (no
    distribution of these ships in one)."""
    normal = _normalise(dist)
    for entry in sys.path:
        root = entry or "."
        try:
            children = os.listdir(root)
        except Exception:  # as importlib.metadata: an entry that is no directory has none
            continue
        found = [c for c in children if c.lower().endswith((".dist-info", ".egg-info"))
                 and _normalise(c.lower().rpartition(".")[0].partition("-")[0]) == normal]
        base = os.path.basename(entry).lower()
        if base.endswith(".egg") and \
                base.rpartition(".")[0].partition("-")[0].replace("-", "_") == \
                dist.lower().replace("-", "_"):
            found += [c for c in children if c.lower() == "egg-info"]
        if found:
            return _version_header(os.path.join(root, found[0]))
    return "not installed"


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _version_header(info: str) -> str | None:
    """The first ``Version`` header of a distribution's metadata (None: there is none)."""
    text = ""
    for name in ("METADATA", "PKG-INFO", ""):
        try:
            with open(os.path.join(info, name) if name else info, encoding="utf-8") as f:
                text = f.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
            continue
        if text:
            break
    for line in re.split(r"\r\n|\r|\n", text):
        if not line.strip():
            break  # the end of the headers
        key, colon, value = line.partition(":")
        if colon and key.lower() == "version":
            return value.lstrip(" \t")
    return None
