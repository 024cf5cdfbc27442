"""The parser's tables are kept between runs (lang/syntax/grammar.py, tables.py) as JSON
data: a damaged or stale file is rebuilt, a planted one runs nothing, a file or folder
that is not the user's own is refused with a warning, and RULESDSL_CACHE=off keeps
nothing."""

from __future__ import annotations

import os
import pickle
import warnings
from pathlib import Path

import pytest

from rulesdsl import cache
from rulesdsl.lang.fmt import source as fmt_source
from rulesdsl.lang.syntax.grammar import build_parser, cache_file

SOURCE = 'game "Cached"\nplayers 2\nflow main\nphase main { win seat(0) }\n'
ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "examples").glob("*.rules"))


@pytest.fixture(autouse=True)
def _warn_afresh(monkeypatch):
    monkeypatch.setattr(cache, "_warned", set(), raising=False)  # each test sees its own warnings


def test_the_tables_go_to_the_cache_folder_and_are_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path / "cache"))
    path = cache_file()
    assert path is not None and path.startswith(str(tmp_path))
    build_parser(path).parse(SOURCE, start="start")
    tables = tmp_path / "cache" / "grammar-tables.json"
    assert tables.stat().st_size > 1000
    assert tables.read_bytes().startswith(b"{")  # JSON: data, not a pickle
    made = tables.stat().st_mtime_ns
    build_parser(path).parse(SOURCE, start="start")  # read back, not written again
    assert tables.stat().st_mtime_ns == made


def test_tables_read_back_parse_every_bundled_file_as_built_ones_do(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path))
    fresh = build_parser(None)
    build_parser(cache_file())  # writes the tables
    loaded = build_parser(cache_file())
    assert loaded is not fresh and type(loaded.parser).__name__ == type(fresh.parser).__name__
    for path in BUNDLED:
        text = path.read_text(encoding="utf-8")
        assert loaded.parse(text, start="start") == fresh.parse(text, start="start"), path
    assert loaded.parse("1 + size(hand[p])", start="expr") == \
        fresh.parse("1 + size(hand[p])", start="expr")


def test_the_formatter_reads_its_tables_back_alike(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path))
    text = (ROOT / "games" / "ivanhoe.rules").read_text(encoding="utf-8")
    results = []
    for _ in range(2):  # built and written, then read back
        fmt_source._parser.cache_clear()
        results.append(fmt_source.format_source(text))
    fmt_source._parser.cache_clear()
    assert (tmp_path / "fmt-grammar-tables.json").is_file()
    assert results[0] == results[1]


def test_a_damaged_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path))
    path = cache_file()
    (tmp_path / "grammar-tables.json").write_bytes(b"not tables at all\n\x00\x01")
    tree = build_parser(path).parse(SOURCE, start="start")
    assert tree is not None
    assert (tmp_path / "grammar-tables.json").read_bytes() != b"not tables at all\n\x00\x01"


class _Plant:
    """A pickle that, unpickled, makes the marker file."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_a_planted_pickle_runs_nothing(tmp_path, monkeypatch):
    """Where Lark's pickle used to be (a line for the hash, then pickles Lark loaded before
    it compared the hash), and where the tables are now: neither is unpickled."""
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path))
    marker = tmp_path / "MARKER"
    planted = b"0" * 64 + b"\n" + pickle.dumps(_Plant(marker))
    for name in ("grammar.lark-tables", "grammar-tables.json"):
        (tmp_path / name).write_bytes(planted)
    assert build_parser(cache_file()).parse(SOURCE, start="start") is not None
    assert not marker.exists()


def test_tables_others_may_write_are_refused_with_a_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path))
    build_parser(cache_file())
    tables = tmp_path / "grammar-tables.json"
    tables.chmod(0o666)
    with pytest.warns(RuntimeWarning, match="grammar-tables.json.*others may write to it"):
        assert build_parser(cache_file()).parse(SOURCE, start="start") is not None
    assert tables.stat().st_mode & 0o077 == 0  # written again, the user's alone


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777])
def test_a_cache_folder_others_may_write_is_not_used(tmp_path, monkeypatch, mode):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(mode)
    monkeypatch.setenv("RULESDSL_CACHE", str(shared))
    with pytest.warns(RuntimeWarning) as caught:
        assert cache_file() is None
        assert cache.cache_folder("native") is None
    said = [str(w.message) for w in caught]
    assert len(said) == 1 and str(shared) in said[0] and "chmod 700" in said[0], said
    assert build_parser(cache_file()).parse(SOURCE, start="start") is not None
    assert list(shared.iterdir()) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_cache_of_another_user_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path / "theirs"))
    build_parser(cache_file())
    tables = tmp_path / "theirs" / "grammar-tables.json"
    os.chown(tables, 65534, 65534)
    with pytest.warns(RuntimeWarning, match="belongs to user 65534"):
        build_parser(cache_file())
    assert tables.stat().st_uid == 0  # replaced by the user's own
    os.chown(tmp_path / "theirs", 65534, 65534)
    with pytest.warns(RuntimeWarning, match="theirs.*belongs to user 65534"):
        assert cache_file() is None


def test_folders_made_for_the_cache_are_the_users_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", str(tmp_path / "a" / "b" / "cache"))
    old = os.umask(0o022)
    try:
        folder = cache.cache_folder("native", "x")
    finally:
        os.umask(old)
    assert folder == str(tmp_path / "a" / "b" / "cache" / "native" / "x")
    for part in ("a", "a/b", "a/b/cache", "a/b/cache/native", "a/b/cache/native/x"):
        assert (tmp_path / part).stat().st_mode & 0o777 == 0o700, part


def test_a_world_writable_folder_above_the_cache_is_refused(tmp_path, monkeypatch):
    above = tmp_path / "open"
    above.mkdir()
    above.chmod(0o777)  # anyone could rename the cache folder and put their own there
    monkeypatch.setenv("RULESDSL_CACHE", str(above / "cache"))
    with pytest.warns(RuntimeWarning, match="anyone may rename"):
        assert cache_file() is None


def test_no_cache_where_it_is_off_or_cannot_be_written(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_CACHE", "off")
    assert cache_file() is None
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("RULESDSL_CACHE", str(blocker / "inside"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache_file() is None
