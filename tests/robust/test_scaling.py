"""Work that grows with a file grows in step with it (issue 31): `check`, its messages and the
language server's symbols, for files of thousands of declarations.

Work is counted, not timed: the Python lines run (sys.settrace) at n and at 4n
declarations, which a linear check multiplies by about 4 and a check that scans every
declaration once per declaration by about 16. The factor allowed, 6, is generous both ways.
Files read and line tables built are counted where the work is in C (splitting a text)."""

from __future__ import annotations

import sys

import pytest

from rulesdsl.cli import main
from rulesdsl.integrations import rules_index
from rulesdsl.lang import errors
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import CheckFailed
from rulesdsl.lang.extend import load_tree

HEAD = ('game "G"\nplayers 2\nzone pile public\nsetup { }\nflow main\n'
        'phase main { win seat(0) }\n')

SHAPES = {
    # W700 for each: the file of the issue
    "unused definitions": lambda n: "".join(
        f"define d{i}(p: player) = {i}\n" for i in range(n)),
    # each `let` asked whether it hides a global name
    "lets among many globals": lambda n: "".join(
        f"define d{i}(p: player) = {i}\n" for i in range(n)) +
        "phase lets {\n" + "".join(f"  let x{i} = {i}\n" for i in range(n)) + "}\n",
    # each name looked up among every enum's values
    "enum values used": lambda n: "".join(f"enum E{i} {{ v{i} }}\n" for i in range(n)) +
        "".join(f"define r{i}(p: player) = v{i}\n" for i in range(n)),
    # each unknown name compared with every declared one for "did you mean"
    "unknown names": lambda n: "".join(
        f"define d{i}(p: player) = q{i}\n" for i in range(n)),
    # each response compared with those before it for a duplicate
    "responses": lambda n: "kind card { v: int }\n" + "".join(
        f"response r{i} to x played by p {{ log \"r\" }}\n" for i in range(n)),
    # a chain of phases calling each other, the last one asking: which phases can ask
    "phases calling phases": lambda n: "".join(
        f"phase ph{i} {{ ph{i + 1} }}\n" for i in range(n)) +
        f'phase ph{n} {{ ask seat(0) "Go?" {{ "yes" {{ log "y" }} }} }}\n',
    # each node checked against the nodes before it, each border's ends looked up
    "board nodes": lambda n: "board B { " + ", ".join(f"n{i}" for i in range(n)) +
        " borders " + ", ".join(f"n{i} - n{i + 1}" for i in range(n - 1)) + " }\n",
}


def lines_run(fn, *args) -> int:
    """How many Python lines `fn(*args)` runs, in any module."""
    count = 0

    def trace(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        fn(*args)
    finally:
        sys.settrace(previous)
    return count


def parsed(text: str):
    sources: dict = {}
    return load_tree(text, "scale.rules", sources), sources


def check_quietly(tree, sources) -> None:
    try:
        check_file_tree(tree, dict(sources))
    except CheckFailed:
        pass


def growth(work, n: int) -> float:
    return work(4 * n) / work(n)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_check_work_grows_linearly_with_declarations(shape):
    def work(n):
        tree, sources = parsed(HEAD + SHAPES[shape](n))   # parsing is not traced: Lark's
        return lines_run(check_quietly, tree, sources)     # LALR is linear and slow traced
    assert growth(work, 300) < 6


def test_language_server_symbols_grow_linearly():
    def work(n):
        text = HEAD + SHAPES["enum values used"](n)
        tree, sources = parsed(text)
        return lines_run(rules_index.symbols_of, tree, sources)
    assert growth(work, 300) < 6


def test_check_reads_and_splits_a_file_once_however_many_warnings(tmp_path, capsys,
                                                                  monkeypatch):
    path = tmp_path / "many.rules"
    path.write_text(HEAD + SHAPES["unused definitions"](500), encoding="utf-8")
    tables = []
    build = errors.LineTable.__init__

    def counted(self, text):
        tables.append(len(text))
        build(self, text)
    monkeypatch.setattr(errors.LineTable, "__init__", counted)
    errors.line_table.cache_clear()
    opened = []
    real_open = open

    def counting_open(file, *args, **kwargs):
        if str(file) == str(path):
            opened.append(file)
        return real_open(file, *args, **kwargs)
    monkeypatch.setattr("builtins.open", counting_open)
    assert main(["check", str(path)]) == 0
    err = capsys.readouterr().err
    # once to check it, once to show its lines: not once per warning
    assert len(opened) <= 2 and len(tables) <= 1, (len(opened), len(tables))
    # the first 20 warnings of a code, then one line for the rest
    assert err.count("warning[W700]") == 20
    assert f"{path}: ... and 481 more W700 warnings" in err   # 500 + zone pile


def test_json_keeps_every_warning(tmp_path, capsys):
    path = tmp_path / "many.rules"
    path.write_text(HEAD + SHAPES["unused definitions"](50), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--format", "json", str(path)]) == 0
    assert capsys.readouterr().out.count('"W700"') == 51     # and zone pile


def test_hints_stop_past_the_budget_and_come_back_under_it():
    from rulesdsl.lang import check
    tree, sources = parsed(HEAD + "define total(p: player) = totl\n")
    with pytest.raises(CheckFailed) as failed:
        check_file_tree(tree, dict(sources))
    assert failed.value.errors[0].hints == ("did you mean 'total'?",)
    few = check.HINT_BUDGET
    try:
        check.HINT_BUDGET = 0
        with pytest.raises(CheckFailed) as failed:
            check_file_tree(tree, dict(sources))
        assert failed.value.errors[0].hints == ()
    finally:
        check.HINT_BUDGET = few
