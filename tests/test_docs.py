"""The docs stay true to the repository: every file they point at exists, the codes line
of design.md says what each letter is, and the README says how long the tests take."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md",
                                               ROOT / "tests" / "robust" / "README.md"]
# a path of the repository written in backquotes: `tests/lang/test_fmt.py`, `editors/nvim`
PATH = re.compile(r"`((?:tests|rulesdsl|docs|editors|benchmarks|games|examples|grammar|"
                  r"\.ci|\.githooks)/[A-Za-z0-9_./*-]*)`")


def paths_named(doc: Path) -> list:
    return [(n, m) for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
            for m in PATH.findall(line)]


def test_every_path_the_docs_name_exists():
    missing = [f"{doc.relative_to(ROOT)}:{n}: {path}" for doc in DOCS
               for n, path in paths_named(doc)
               if not list(ROOT.glob(path.rstrip("/")))]
    assert missing == []


def test_design_md_calls_each_code_letter_what_it_is():
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    start = design.index("\nCodes: ")
    paragraph = " ".join(design[start:design.index("\n\n", start)].split())
    assert "C (checker)" not in paragraph
    assert "C (the command line" in paragraph and "rulesdsl/lang/codes.py" in paragraph


def test_the_readme_says_how_long_the_tests_take():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"about \d+ minutes on \d+ cores", readme)


def test_the_tutorial_steps_are_numbered_in_order():
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    steps = [int(n) for n in re.findall(r"^## Step (\d+):", text, re.M)]
    assert steps == list(range(1, len(steps) + 1))
