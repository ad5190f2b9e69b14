"""The repository is self-contained: no tracked file cites material that does not ship with it.

Code, tests, lit tests, READMEs, benchmarks and examples state what they need in their own
words.  A citation of an outside specification section, design document, working note,
tracker issue or absolute machine path would leave a reader of a fresh clone with nothing to
follow, so such references are refused here.  ``test/data/`` holds recorded tool outputs and
reference dumps and is not checked.

The patterns are assembled from pieces so that this file does not match them itself.
"""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXCLUDED = ("test/data/",)
#: directories of a working copy that are not part of the project (only for the fallback walk)
UNTRACKED_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache"}

_SPEC = "SP" + "EC"
_ISSUE = "[Ii]ssues?"
_NOTES = "(anchors|toolchain|mlir-stack|peers|iree|gfx950-semantics)"

#: (what it is, pattern)
FORBIDDEN = [
    ("a specification section", rf"\b{_SPEC}(\.md|'s| \d| section| \()|\bthe {_SPEC}\b"),
    ("a design document", r"\b(DESIGN|USER_GUIDE)" + r"\.md\b"),
    ("a working note", r"\bshared/(notes|reference)\b|\bnotes" + rf"/\w|\b{_NOTES}" + r"\.md\b"
                       + r"|\b(anchors|toolchain) \d"),
    ("a tracker issue", rf"\({_ISSUE} #?\d|\b{_ISSUE} #?\d+ (asks|asked|wants|says|requires)\b"
                        + rf"|\b(from|of|in|see|per|by) {_ISSUE} #?\d"),
    ("an absolute path of the build machine", r"/wo" + r"rk/"),
]
PATTERN = re.compile("|".join(f"(?:{p})" for _, p in FORBIDDEN))


def tracked_files() -> list[str]:
    """The repository's tracked files (git), or every file under the root outside the
    build and environment directories when the tree is not a git checkout."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
        names = [n for n in out.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
                 if p.is_file() and not UNTRACKED_DIRS & set(p.relative_to(ROOT).parts)]
    return sorted(n for n in names if not n.startswith(EXCLUDED))


def outside_references(text: str) -> list[tuple[int, str]]:
    """(line number, matched text) of every outside reference in ``text``."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(0)) for m in PATTERN.finditer(text)]


def test_no_tracked_file_refers_to_material_outside_the_repository():
    files = tracked_files()
    assert len(files) > 50, files    # the listing itself worked
    found = []
    for name in files:
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue    # binary data, or a file deleted in the working copy
        found += [f"{name}:{line}: {hit!r}" for line, hit in outside_references(text)]
    assert not found, ("say what the cited material states instead of citing it:\n"
                       + "\n".join(found))


@pytest.mark.parametrize("text", [
    f"dependency edges ({_SPEC} 3.4)",
    f"the debug format ({_SPEC} 3.16)",
    f"see the {_SPEC} for the legend",
    f"copied from {_SPEC}.md",
    "the lowering contract (DESIGN" + ".md)",
    "see shared" + "/" + "notes" + "/" + "mlir-stack" + ".md",
    "(notes" + "/anch" + "ors.md sections 6 and 7)",
    "measured (anchors" + " 6)",
    "one issue slot (toolchain" + " 3.3)",
    "the kernels issue" + " 4 asks for",
    "numbers are from issue" + " 4",
    "the simulator (issue" + " 5)",
    "read /wo" + "rk/sha" + "red/reference",
])
def test_outside_references_are_found(text):
    assert outside_references(text)


@pytest.mark.parametrize("text", [
    "pipeline-opt --pipeline=" + _SPEC + " --emit=asm",
    "KERNEL_" + _SPEC + "S = {}",
    "issue 16 = peak rate; VMEM address issue 4 cycles per instruction",
    "the payload issues 1 load",
    "see dialect/README.md section 6",
])
def test_the_project_s_own_words_are_not_flagged(text):
    assert not outside_references(text)


def test_test_modules_have_unique_basenames():
    """pytest imports the mirrored test folders' modules by basename (no packages): two test
    files of one name stop the collection of the whole suite."""
    from collections import Counter
    from pathlib import Path

    names = Counter(p.name for p in (Path(__file__).parent).rglob("test_*.py"))
    assert [n for n, c in names.items() if c > 1] == []
