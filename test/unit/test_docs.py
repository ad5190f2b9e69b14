"""The documents (README.md, docs/*.md, benchmarks/README.md) stay true to the tree.

* Every ``pipeline-opt`` command they show in a shell block runs as written (exit 0, no
  error on stderr).  The commands name files the reader would have: ``kernel.mlir`` (the
  example natural kernel), ``prefetch.mlir`` (an IREE dispatch), ``k.s`` (its assembly),
  ``dump.txt`` (a schedule dump), ``kernel.s`` / ``kernel.hsaco`` (the assembly and code
  object of the command's own spec), ``in.mlir`` (an empty module), ``launch.toml`` (the
  example launch description); each is made here the way
  the documents say, in a scratch directory, and the command runs there unchanged.
* A shell block holding a ``while read`` loop runs whole in ``bash``, ``pipeline-opt`` being
  this tree's, and its loop must run once per line it reads (a ``pipeline-opt`` that read its
  standard input would eat the loop's lines).
* Every Python block runs as written, in the same scratch directory.
* The README's test command is what ``.ci/run`` runs, and the README stays a front door.
* Every link between the documents and every repository path they name exists.
* Every page of docs/ the code, tests, benchmarks and examples name exists, and so does the
  section they name with it (an anchor, or a quoted title).
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from build_cache import cached, share_code_objects
from script_loader import load_script, run_script
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).resolve().parents[2]


def _figures():
    """``docs/figures.py`` (a script, not a package module), loaded once."""
    return load_script(ROOT / "docs" / "figures.py", "doc_figures", keep=True)


FIGURES = _figures()
DOCS = FIGURES.documents()
SHELL = ("```sh", "```bash", "```console")


def _name(doc: Path) -> str:
    return doc.relative_to(ROOT).as_posix()


def prose_and_blocks(doc: Path):
    """``(line number, line, fence)`` of every line: ``fence`` is the opening line of the
    code block the line is in (None outside blocks; fence lines themselves are skipped)."""
    fence = None
    for n, line in enumerate(doc.read_text().splitlines(), 1):
        if line.startswith("```"):
            fence = None if fence is not None else line.strip()
            continue
        yield n, line, fence


def shown_commands() -> list[tuple[str, str]]:
    """``(where, command)`` of each pipeline-opt line in a shell block (not the synopsis
    lines with ``[...]`` or ``|`` alternatives), trailing comments removed."""
    out = []
    for doc in DOCS:
        for n, line, fence in prose_and_blocks(doc):
            text = line.split("  #")[0].strip()
            if fence in SHELL and text.startswith("pipeline-opt ") and "[" not in text \
                    and " | " not in text:
                out.append((f"{_name(doc)}:{n}", text))
    return out


COMMANDS = shown_commands()


def distinct_commands(commands: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(where, command)`` once per distinct command, ``where`` its first place and the
    others after it (``README.md:131, docs/emulator.md:18``): a command shown in two
    documents runs once, in one item (two items of one command would both ask the run's
    build cache for it at once, the second worker idle while the first runs it)."""
    places: dict[str, list[str]] = {}
    for where, command in commands:
        places.setdefault(command, []).append(where)
    return [(", ".join(ws), command) for command, ws in places.items()]


SHOWN = distinct_commands(COMMANDS)


def shown_blocks(fences: tuple[str, ...], keep) -> list[tuple[str, str]]:
    """``(where, text)`` of each code block opened by one of ``fences`` whose text ``keep``
    accepts."""
    out = []
    for doc in DOCS:
        blocks: dict[int, list[str]] = {}
        previous = None
        for n, line, fence in prose_and_blocks(doc):
            if fence in fences:
                if previous is None or previous[1] != fence or n != previous[0] + 1:
                    blocks[n] = []
                blocks[max(blocks)].append(line)
                previous = (n, fence)
            else:
                previous = None
        out += [(f"{_name(doc)}:{start}", "\n".join(lines) + "\n")
                for start, lines in blocks.items() if keep("\n".join(lines))]
    return out


LOOPS = shown_blocks(SHELL, lambda text: re.search(r"^while read\b", text, re.MULTILINE))
PYTHON = shown_blocks(("```python",), lambda text: True)


def test_the_documents_show_commands():
    where = {w.split(":")[0] for w, _ in COMMANDS}
    assert len(COMMANDS) >= 30, COMMANDS
    for doc in ("README.md", "docs/kernels.md", "docs/iree-kernels.md", "docs/simulator.md",
                "docs/emulator.md", "docs/tuning.md", "docs/dialect.md"):
        assert doc in where, f"{doc} shows no pipeline-opt command"


#: the builds the documents' commands share with the run's other builds (the pipelined
#: IREE dispatch, ``-o pipelined.mlir``, with test_iree_emulate.py's and the round trip's;
#: ``--pipeline=pingpong --emit=report`` with the behaviour snapshot's case)
SHARED_EMITS = ("hsaco", "asm", "mlir", "report")


def _scratch_files() -> dict[str, bytes]:
    """The files the documents' commands name, made once per run (the run's build cache:
    each test copies them into a scratch directory of its own, so the tests spread over
    pytest-xdist's workers)."""
    def build() -> dict[str, bytes]:
        with tempfile.TemporaryDirectory() as made:
            d = Path(made)
            shutil.copy(ROOT / "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir",
                        d / "prefetch.mlir")
            (d / "in.mlir").write_text("")
            shutil.copy(ROOT / "examples/launch/gemm_4wave_bf16.toml", d / "launch.toml")
            # as the documents make it (``python examples/natural_kernel.py > kernel.mlir``),
            # run in this process: no Python start and imports of its own
            code, kernel, err = run_script(ROOT / "examples/natural_kernel.py", [])
            assert code == 0, err
            (d / "kernel.mlir").write_text(kernel)
            with share_code_objects(emits=SHARED_EMITS, own_kernels=True):
                # k.s is also what docs/iree-kernels.md's command builds: compiled once
                assert main(["--pipeline=pingpong", "-o", str(d / "dump.txt")]) == 0
                assert main(["--pipeline=4wave", str(d / "prefetch.mlir"), "--emit=asm",
                             "-o", str(d / "k.s")]) == 0
            return {f.name: f.read_bytes() for f in d.iterdir()}
    return cached("docs-scratch", str(ROOT), build)


@contextlib.contextmanager
def _filled(d: Path):
    """``d`` holding the files the commands name; the code objects, assemblies and
    pipelined MLIR they build (the kernels of their specs, ``--tune``'s candidates) compiled
    once per run (``build_cache.share_code_objects``)."""
    for name, data in _scratch_files().items():
        (d / name).write_bytes(data)
    with share_code_objects(emits=SHARED_EMITS, own_kernels=True):
        yield d


@pytest.fixture
def scratch(tmp_path):
    """A directory of its own for a test, :func:`_filled`."""
    with _filled(tmp_path):
        yield tmp_path


def _captured(argv: list[str]) -> tuple[int, str, str]:
    """(exit code, standard output, standard error) of ``pipeline-opt argv`` run here."""
    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="") for _ in "oe")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    out.flush()
    err.flush()
    return code, *(s.buffer.getvalue().decode(errors="replace") for s in (out, err))


def run_shown(command: str) -> tuple[int, str, str]:
    """(exit code, standard output, standard error) of a shown ``pipeline-opt`` command run
    in a scratch directory of its own holding the files the commands name, the kernels
    of its spec built first where it names ``kernel.s`` / ``kernel.hsaco``: once per run
    (the run's build cache), so a command shown in two documents, or shown and printing a
    figure, runs once (a command's output does not depend on where it is shown)."""
    def build() -> tuple[int, str, str]:
        argv = shlex.split(command)[1:]
        spec = next((a for a in argv if a.startswith("--pipeline=")), None)
        with tempfile.TemporaryDirectory() as made, _filled(Path(made)) as d:
            for name, emit in (("kernel.s", "asm"), ("kernel.hsaco", "hsaco")):
                if name in argv and spec is not None:  # the kernel of the command's own spec
                    assert main([spec, f"--emit={emit}", "-o", str(d / name)]) == 0
            with contextlib.chdir(d):
                return _captured(argv)
    return cached("docs-command", (str(ROOT), command), build)


def run_figure(command: str) -> tuple[int, str, str]:
    """(exit code, standard output, standard error) of a figure's command (``pipeline-opt``
    or ``python SCRIPT``) run in this process from the repository root, where
    ``docs/figures.py`` runs it (in a child process); the kernels it builds through
    ``pipeline_mlir.driver.api.compile`` shared with the run's other builds
    (``build_cache.share_code_objects``: a benchmark's kernels, ``--tune``'s candidates),
    once per run."""
    def build() -> tuple[int, str, str]:
        words = shlex.split(command)
        with share_code_objects(emits=SHARED_EMITS, own_kernels=True), contextlib.chdir(ROOT):
            if words[0] == "pipeline-opt":
                return _captured(words[1:])
            assert words[0] == "python", command
            return run_script(ROOT / words[1], words[2:])
    return cached("docs-figure", (str(ROOT), command), build)


def test_a_command_shown_twice_is_one_item():
    shown = [("a.md:1", "pipeline-opt x"), ("b.md:2", "pipeline-opt y"),
             ("c.md:3", "pipeline-opt x")]
    assert distinct_commands(shown) == [("a.md:1, c.md:3", "pipeline-opt x"),
                                        ("b.md:2", "pipeline-opt y")]
    assert len(SHOWN) == len({c for _, c in COMMANDS})


@pytest.mark.parametrize("where, command", SHOWN, ids=[w.split(",")[0] for w, _ in SHOWN])
def test_a_shown_command_runs_as_written(where, command):
    code, _, err = run_shown(command)
    assert code == 0, f"{where}: {command}\n{err}"
    assert re.search(r"\berror\b", err) is None, err


def test_the_documents_show_loops_and_python():
    assert [w.split(":")[0] for w, _ in LOOPS] == ["docs/cli.md"], LOOPS
    assert {"docs/architecture.md", "docs/dialect.md"} <= {w.split(":")[0] for w, _ in PYTHON}


@pytest.mark.parametrize("where, script", LOOPS, ids=[w for w, _ in LOOPS])
def test_a_shown_shell_loop_runs_as_written(scratch, where, script):
    """The loop runs in bash with this tree's pipeline-opt (a shell function running the
    module), once per line of the file it reads."""
    shell = shutil.which("bash")
    if shell is None:
        pytest.skip("no bash")
    tool = f'pipeline-opt() {{ "{sys.executable}" -m pipeline_mlir.tools.pipeline_opt "$@"; }}\n'
    proc = subprocess.run([shell, "-e", "-o", "pipefail", "-c", tool + script], cwd=scratch,
                          env=FIGURES.tree_env(), capture_output=True, text=True, timeout=600,
                          check=False)
    assert proc.returncode == 0, f"{where}:\n{script}\n{proc.stderr}"
    assert re.search(r"\berror\b", proc.stderr) is None, proc.stderr
    read = re.search(r"\bdone < (\S+)$", script, re.MULTILINE).group(1)
    lines = (scratch / read).read_text().splitlines()
    assert len(lines) > 1 and proc.stdout.count("PROLOGUE (") == len(lines), proc.stdout


@pytest.mark.parametrize("where, code", PYTHON, ids=[w for w, _ in PYTHON])
def test_a_shown_python_block_runs_as_written(scratch, monkeypatch, capsys, where, code):
    monkeypatch.chdir(scratch)
    exec(compile(code, where, "exec"), {"__name__": "__doc_example__"})  # noqa: S102
    out, _ = capsys.readouterr()
    assert out, f"{where}: the example prints nothing"


def readme_command(what: str) -> str:
    """The README's one-line set-up command that ends by running ``what``."""
    found = [line for _, line, fence in prose_and_blocks(ROOT / "README.md")
             if fence in SHELL and line.startswith("python3.11 -m venv") and line.endswith(what)]
    assert len(found) == 1, found
    return found[0]


def test_ci_runs_exactly_the_readmes_test_command():
    test = readme_command("-m pytest -n auto --dist loadgroup")
    script = [line for line in (ROOT / ".ci/run").read_text().splitlines()
              if line and not line.startswith("#") and not line.startswith(("set ", "cd "))]
    assert script == [test]


def test_the_readme_runs_the_main_job_after_installing():
    assert "pipeline-opt --pipeline=" in readme_command("--emit=schedule")


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 300, len(lines)


def test_the_readme_links_every_page():
    text = (ROOT / "README.md").read_text()
    pages = [d for d in DOCS if d.name != "README.md" or d.parent != ROOT]
    missing = [_name(d) for d in pages if f"]({_name(d)})" not in text]
    assert not missing, f"README.md links no {missing}"


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation but ``-`` and ``_``
    dropped, spaces as ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def headings(doc: Path) -> list[str]:
    """The text of each heading of ``doc`` (outside code blocks)."""
    return [line.lstrip("#").strip() for _, line, fence in prose_and_blocks(doc)
            if fence is None and line.startswith("#")]


def anchors(doc: Path) -> set[str]:
    return {slug(h) for h in headings(doc)}


LINK = re.compile(r"\]\(([^)\s]+)\)")
#: a repository path in backticks: a top-level directory of the tree, then more
PATH = re.compile(r"`((?:pipeline_mlir|test|examples|benchmarks|docs|\.ci)/[\w./-]*)`")


def test_every_link_between_the_documents_resolves():
    known: dict[Path, set[str]] = {}      # each page's anchors, read once (not per link)
    broken = []
    for doc in DOCS:
        for n, line, fence in prose_and_blocks(doc):
            for target in LINK.findall(line) if fence is None else ():
                if re.match(r"[a-z]+:", target):
                    continue  # a web address
                file, _, anchor = target.partition("#")
                path = (doc.parent / file).resolve() if file else doc
                if not path.exists():
                    broken.append(f"{_name(doc)}:{n}: {target} (no such file)")
                    continue
                if path not in known:
                    known[path] = anchors(path)
                if anchor and anchor not in known[path]:
                    broken.append(f"{_name(doc)}:{n}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_every_path_the_documents_name_exists():
    missing = [f"{_name(doc)}:{n}: {p}" for doc in DOCS
               for n, line, fence in prose_and_blocks(doc) if fence is None
               for p in PATH.findall(line) if not (ROOT / p).exists()]
    assert not missing, "\n".join(missing)


#: a page of docs/ named in code: ``docs/<page>.md``, then an anchor (``#...``) or a section's
#: title in double quotes after a comma (``the section`` / ``the table`` before it, if any)
MENTION = re.compile(r"docs/([\w-]+\.md)(?:#([\w-]+))?"
                     r"(?:`*, (?:the (?:section|table) )?\"([^\"\n]+)\")?")


def code_mentions() -> list[tuple[str, str, str | None, str | None]]:
    """``(where, page, anchor, title)`` of each page of docs/ the code, tests, benchmarks and
    examples name (their Python, lit and TOML files, ``.ci/run``)."""
    files = [ROOT / ".ci" / "run", *sorted(
        f for top in ("pipeline_mlir", "test", "benchmarks", "examples", "docs")
        for f in (ROOT / top).rglob("*") if f.suffix in (".py", ".mlir", ".toml"))]
    out = []
    for f in files:
        text = f.read_text(errors="replace")
        out += [(f"{_name(f)}:{text.count(chr(10), 0, m.start()) + 1}", *m.groups())
                for m in MENTION.finditer(text)
                if not re.match(r"[\w./-]", text[m.start() - 1:m.start()])]  # not a/docs/
    return out


def test_every_page_and_section_the_code_names_exists():
    """A docstring or comment that sends the reader to a page of docs/ names a page that
    exists, and the section it names (an anchor, or a quoted title: a part of a heading's
    text, backticks aside) is on that page: a section moved to another page, or renamed,
    fails here until its mentions follow it."""
    found = code_mentions()
    assert len(found) >= 50, found
    pages = {p.name: headings(p) for p in (ROOT / "docs").glob("*.md")}
    broken = []
    for where, page, anchor, title in found:
        if page not in pages:
            broken.append(f"{where}: docs/{page} (no such page)")
            continue
        if anchor and anchor not in {slug(h) for h in pages[page]}:
            broken.append(f"{where}: docs/{page}#{anchor} (no such heading)")
        if title and not any(title.lower() in h.replace("`", "").lower()
                             for h in pages[page]):
            broken.append(f"{where}: docs/{page}, \"{title}\" (no heading of the page says it)")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("heading, anchor", [
    ("## 11. Known issues", "11-known-issues"),
    ("## From `--pipeline` to the code object", "from---pipeline-to-the-code-object"),
    ("## IREE's own pipelining against the 4-wave schedule",
     "irees-own-pipelining-against-the-4-wave-schedule"),
])
def test_anchors_are_made_as_github_makes_them(heading, anchor):
    assert slug(heading.lstrip("#")) == anchor


def test_every_figure_is_shown_once_where_it_is_declared():
    shown = {}
    for doc in DOCS:
        for name in FIGURES.blocks(doc.read_text()):
            assert name not in shown, f"figure {name} in {shown.get(name)} and {_name(doc)}"
            shown[name] = _name(doc)
    assert shown == {f.name: f.doc for f in FIGURES.FIGURES.values()}


CHEAP = [name for name, f in FIGURES.FIGURES.items() if f.cheap]


@pytest.mark.parametrize("name", CHEAP)
def test_a_figure_is_what_its_command_prints_now(name):
    """The cheap figures, re-run (``python docs/figures.py NAME`` rewrites one; the others,
    the ping-pong tuning tables and the IREE table, are re-run by ``docs/figures.py``); in
    this process (:func:`run_figure`), as ``docs/figures.py`` runs them in a child."""
    figure = FIGURES.FIGURES[name]
    if figure.command in {c for _, c in COMMANDS}:
        # also shown in a shell block: what that command printed, run once for both
        # (in the test process, in a scratch directory: it names no file of the tree)
        code, out, err = run_shown(figure.command)
        assert code == 0, err
        now = figure.block(out)
    else:
        # what figures.py would run in a child (figure.render), run in this process
        code, out, err = run_figure(figure.command)
        assert code == 0, f"figure {name}: `{figure.command}` exited with {code}:\n{err}"
        now = figure.block(out)
    assert FIGURES.shown(figure) == now, \
        f"{figure.doc}: figure {name} is stale: run python docs/figures.py {name}"
