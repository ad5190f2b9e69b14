"""Fixtures of the IREE configuration tests (``test_iree_configurations.py`` and its topic
files ``test_iree_config_*.py``), shared here rather than repeated in each.

* ``generated``: (config, form) -> the path of IREE's kernel of an
  ``iree_configs.CONFIGS`` entry, generated once per run (``iree_configs.generator``).  A
  module of this directory with a ``generated`` fixture of its own (the 8-wave and
  epilogue tests) uses its own.
* ``shared_code_objects``: a kernel built (``--emit=hsaco``) and emulated (``--emulate``,
  each mode) is compiled once per run (``build_cache.share_code_objects``); the
  configuration modules ask for it with ``pytestmark``.
"""

from __future__ import annotations

import pytest

from build_cache import share_code_objects
from iree_configs import generator


@pytest.fixture
def generated(tmp_path_factory):
    """(config, form) -> the path of IREE's kernel, generated once per run."""
    return generator(tmp_path_factory)


@pytest.fixture
def shared_code_objects():
    """Code objects shared between the items of a module that asks for it."""
    with share_code_objects():
        yield
