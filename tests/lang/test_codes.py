"""The error-code registry (rulesdsl/lang/codes.py) is the one table of codes: every code
the package raises is in it, once, within a documented family; every code the docs name
is in it; and the docs' table of families is the registry's."""

from __future__ import annotations

import re
from pathlib import Path

from rulesdsl.lang import codes

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"""["']([EWRCAS]\d{3})["']""")      # a code as a string literal
MENTION = re.compile(r"\b([EWRCAS]\d{3})\b")


def codes_in_source(package: Path) -> dict:
    """code -> the first file:line of the package that writes it as a string."""
    found: dict = {}
    for path in sorted(package.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd") or path.name == "codes.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for code in CODE.findall(line):
                found.setdefault(code, f"{path.relative_to(package.parent)}:{n}")
    return found


def codes_in_docs(root: Path) -> dict:
    """code -> the first doc:line that names it (a range's two ends included)."""
    found: dict = {}
    docs = sorted((root / "docs").glob("*.md")) + [root / "README.md",
                                                   root / "tests" / "robust" / "README.md"]
    for path in docs:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for code in MENTION.findall(line):
                found.setdefault(code, f"{path.relative_to(root)}:{n}")
    return found


def test_every_code_the_package_raises_is_in_the_registry():
    missing = {c: where for c, where in codes_in_source(ROOT / "rulesdsl").items()
               if c not in codes.CODES}
    assert missing == {}


def test_every_code_in_the_registry_is_raised_somewhere():
    used = codes_in_source(ROOT / "rulesdsl")
    assert [c for c in codes.CODES if c not in used] == []


def test_every_code_the_docs_name_is_in_the_registry():
    missing = {c: where for c, where in codes_in_docs(ROOT).items() if c not in codes.CODES}
    assert missing == {}


def test_no_code_is_listed_twice_and_each_lies_in_one_family():
    assert codes.listed_twice() == []
    for code in codes.CODES:
        holding = [f.span for f in codes.FAMILIES if f.holds(code)]
        assert len(holding) == 1, (code, holding)
    for family in codes.FAMILIES:       # a range's ends are real codes
        assert family.first in codes.CODES and family.last in codes.CODES, family.span


def test_the_codes_once_outside_every_range_have_a_documented_family():
    assert codes.family_of("E001").span == "E001"      # a rules file that cannot be read
    assert codes.family_of("E699").span == "E699"      # a bug in the checker
    assert "E900" not in codes_in_source(ROOT / "rulesdsl")   # now R019, its meaning


def test_the_docs_table_is_the_registrys():
    language = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = language[language.index("## Error codes"):]
    table = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    assert table == codes.docs_table()


def test_the_checks_see_a_planted_code(tmp_path):
    package = tmp_path / "rulesdsl"
    package.mkdir()
    (package / "new.py").write_text('raise RulesError("E950", "a new error")\n',
                                    encoding="utf-8")
    assert codes_in_source(package) == {"E950": "rulesdsl/new.py:1"}
    assert "E950" not in codes.CODES


def test_an_error_knows_what_its_code_means():
    from rulesdsl.lang.errors import RulesError
    assert RulesError("R019", "P1 must decide").meaning == "a decision with no legal option"
    assert RulesError("R123", "a test's own code").meaning is None


def test_check_json_gives_each_codes_meaning(tmp_path, capsys):
    import json

    from rulesdsl import cli
    bad = tmp_path / "bad.rules"
    bad.write_text('game "Bad"\nplayers 2\nzone pile public\nphase main {\n'
                   '  move top(pile) to piel\n}\nflow main\n', encoding="utf-8")
    assert cli.main(["check", "--format", "json", str(bad), str(tmp_path / "none.rules")]) == 1
    found = {d["code"]: d["meaning"] for d in json.loads(capsys.readouterr().out)}
    assert found == {"E200": "an unknown name",
                     "C001": "a game or file that cannot be read or written"}
