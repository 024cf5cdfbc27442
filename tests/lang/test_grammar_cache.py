"""The parser's tables are kept between runs (lang/syntax/grammar.py): a damaged or stale
file is rebuilt, and RULESDSL_CACHE=off keeps nothing."""

from __future__ import annotations

from rulesdsl.lang.syntax.grammar import build_parser, cache_file

SOURCE = 'game "Cached"\nplayers 2\nflow main\nphase main { win seat(0) }\n'


def test_the_tables_go_to_the_cache_folder_and_are_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path / "cache"))
    path = cache_file()
    assert path is not None and path.startswith(str(tmp_path))
    build_parser(path).parse(SOURCE, start="start")
    tables = tmp_path / "cache" / "grammar.lark-tables"
    assert tables.stat().st_size > 1000
    made = tables.stat().st_mtime_ns
    build_parser(path).parse(SOURCE, start="start")  # read back, not written again
    assert tables.stat().st_mtime_ns == made


def test_a_damaged_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path))
    path = cache_file()
    (tmp_path / "grammar.lark-tables").write_bytes(b"not tables at all\n\x00\x01")
    tree = build_parser(path).parse(SOURCE, start="start")
    assert tree is not None
    assert (tmp_path / "grammar.lark-tables").read_bytes() != b"not tables at all\n\x00\x01"


def test_no_cache_where_it_is_off_or_cannot_be_written(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", "off")
    assert cache_file() is None
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("RULESDSL_CACHE", str(blocker / "inside"))
    assert cache_file() is None
