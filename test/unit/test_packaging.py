"""The licence and the source distribution.

The project is under Apache-2.0 WITH LLVM-exception, as LLVM and MLIR; the package metadata
says so as PEP 639 does (an SPDX expression and the licence file).  The sdist is built here
in process, with no network, from a copy of the working tree, and must carry what it takes to
run the tests and the documented commands, not only the package.
"""

from __future__ import annotations

import shutil
import tarfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LICENSE = "Apache-2.0 WITH LLVM-exception"
#: what an sdist must hold besides the package, as paths inside it
NEEDED = ("LICENSE", "README.md", "pyproject.toml", "constraints.txt", ".ci/run",
          "pipeline_mlir/tools/pipeline_opt.py", "test/unit/conftest.py", "test/lit/lit.cfg.py",
          "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir", "examples/natural_kernel.py",
          "benchmarks/bench_reference.py", "benchmarks/reference_figures.json",
          "docs/cli.md", "docs/figures.py")
#: what a working copy has that is no part of the source
NOT_SOURCE = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
              ".hypothesis", "*.hsaco")


def test_the_licence_is_apache_2_with_the_llvm_exception():
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "---- LLVM Exceptions to the Apache 2.0 License ----" in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == LICENSE
    assert project["license-files"] == ["LICENSE"]


def _setuptools_reads_pep639() -> bool:
    import setuptools
    return int(setuptools.__version__.split(".")[0]) >= 77


@pytest.mark.skipif(not _setuptools_reads_pep639(),
                    reason="this setuptools cannot read the PEP 639 licence fields (it needs "
                           ">= 77, as pyproject.toml's build-system says)")
def test_the_sdist_carries_the_tests_examples_benchmarks_and_docs(tmp_path, monkeypatch):
    from setuptools import build_meta

    src, dist = tmp_path / "src", tmp_path / "dist"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*NOT_SOURCE), symlinks=True)
    dist.mkdir()
    monkeypatch.chdir(src)
    name = build_meta.build_sdist(str(dist))
    with tarfile.open(dist / name) as tar:
        top = name.removesuffix(".tar.gz")
        members = {m.name.removeprefix(top + "/") for m in tar.getmembers()}
        info = tar.extractfile(f"{top}/PKG-INFO").read().decode()
    missing = [p for p in NEEDED if p not in members]
    assert not missing, f"the sdist lacks {missing}"
    assert f"License-Expression: {LICENSE}" in info and "License-File: LICENSE" in info
    assert not [m for m in members if "__pycache__" in m or m.endswith(".pyc")]
