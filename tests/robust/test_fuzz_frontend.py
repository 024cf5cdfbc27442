"""Front-end fuzzing: whatever the bytes of a rules file, parse and check end in success or
a RulesError whose span lies inside the file, within a second; never a crash, never a hang.

(a) random sequences of the grammar's own terminals; (b) mutations of every bundled game
and example; (c) generated well-formed small games, checked and then played.
Examples per strategy: RULESDSL_FUZZ_EXAMPLES (see _fuzz.py).
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from _fuzz import BUNDLED, ROOT, check_outcome, fuzz_settings, span_inside
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.syntax import parser


# ------------------------------------------------------------------ (a) token sequences
def _terminal_samples() -> list[str]:
    out = []
    for t in parser().terminals:
        kind = type(t.pattern).__name__
        if kind == "PatternStr":
            out.append(t.pattern.value)
        elif t.name in ("ASSIGN_OP", "COMP_OP", "MUL_OP"):
            out.extend(re.findall(r"[^()?:|\\]+", t.pattern.value.replace("\\", "")))
    return sorted(set(s for s in out if s))


TERMINALS = _terminal_samples()
NAMES = ["main", "hand", "stock", "card", "p", "q", "c", "x", "Colour", "red", "score",
         "players", "size", "top", "seat", "next", "int", "bool", "_a1"]
INTS = ["0", "1", "2", "10", "1_000", "99999999999999999999999", "007"]
STRINGS = ['"Game"', '""', '"{p} plays"', '"{"', '"{}"', '"a\\"b"', '"{1 +}"', '"\\n"']
TOKEN = st.one_of(st.sampled_from(TERMINALS), st.sampled_from(NAMES),
                  st.sampled_from(INTS), st.sampled_from(STRINGS),
                  st.sampled_from(["#c\n", "\n", "\t"]))
SEPARATOR = st.sampled_from([" ", "\n", "  ", ""])


def _write(tmp: Path, data: bytes, name: str = "fuzz.rules") -> Path:
    path = tmp / name
    path.write_bytes(data)
    return path


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    # a file that extends another finds it next to itself
    for f in BUNDLED:
        shutil.copy(f, d / f.name)
    for f in BUNDLED:  # warm up: the parser is built once, modules are imported
        check_outcome(d / f.name, limit=60)
    return d


@fuzz_settings(600)
@given(tokens=st.lists(st.tuples(TOKEN, SEPARATOR), max_size=60), header=st.booleans())
def test_token_sequences(tmp, tokens, header):
    text = "".join(t + s for t, s in tokens)
    if header:
        text = 'game "T"\nplayers 2\nflow main\n' + text
    check_outcome(_write(tmp, text.encode("utf-8")))


# ------------------------------------------------------------------ (b) mutations
SOURCES = {f.name: f.read_bytes() for f in BUNDLED}


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(SOURCES)))
    data = SOURCES[name]
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["delete", "duplicate", "swap", "cut", "insert", "bytes",
                                    "replace"]))
        lines = data.split(b"\n")
        if how in ("delete", "duplicate", "swap") and len(lines) > 1:
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if how == "delete":
                del lines[i:i + draw(st.integers(1, 5))]
            elif how == "duplicate":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif how == "cut":
            data = data[:draw(st.integers(0, len(data)))]
        elif how == "insert":
            at = draw(st.integers(0, len(data)))
            extra = draw(st.text(st.sampled_from('{}()[]",.:=<>+-*/%#\\\t\n xyz019_éλ\x00'),
                                 min_size=1, max_size=4)).encode("utf-8")
            data = data[:at] + extra + data[at:]
        elif how == "bytes":
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\x80\x80", b"\xed\xa0\x80",
                                                     b"\xef\xbb\xbf"])) + data[at:]
        else:  # replace a word by another word of the file or a keyword
            words = re.findall(rb"[A-Za-z_][A-Za-z0-9_]*", data)
            if words:
                w = draw(st.sampled_from(sorted(set(words))))
                r = draw(st.sampled_from(sorted(set(words)) + [t.encode() for t in TERMINALS]))
                data = data.replace(w, r, draw(st.integers(1, 3)))
    return name, data


@fuzz_settings(40)
@given(case=mutated())
def test_mutated_bundled_files(tmp, case):
    name, data = case
    # written under the original name: a file that extends another still finds it
    sub = Path(tempfile.mkdtemp(dir=tmp))
    for f in BUNDLED:
        if f.name != name:
            shutil.copy(f, sub / f.name)
    check_outcome(_write(sub, data, name))
    shutil.rmtree(sub)


def test_every_bundled_file_checks_within_a_second(tmp):
    for f in BUNDLED:
        result = check_outcome(tmp / f.name)
        assert not isinstance(result, RulesError), str(result)


# ------------------------------------------------------------------ (c) generated games
CONDITIONS = ["true", "c.value > {k}", "c.value <= {k}", "c.colour == {col}",
              "c.colour != {col}", "size(table) < {k2}", "c.value % 2 == 0"]
ENDS = ["size(stock) == 0", "any(q in players where size(hand[q]) == 0)",
        "any(q in players where points[q] >= {goal})", "size(table) >= {k2}", "false"]


@st.composite
def small_game(draw):
    colours = ["red", "blue", "green", "gold"][:draw(st.integers(1, 4))]
    top = draw(st.integers(1, 9))
    copies = draw(st.integers(1, 3))
    lo = draw(st.integers(2, 4))
    hi = lo + draw(st.integers(0, 2))
    special = draw(st.booleans())
    cards = copies * len(colours) * top + special
    deal = draw(st.integers(0, min(6, cards // hi)))  # more is E611 (tests/lang/check)
    hand_vis = draw(st.sampled_from(["private", "public", "hidden"]))
    hand_order = draw(st.sampled_from(["", " unordered"]))
    table_vis = draw(st.sampled_from(["public", "hidden", "private"]))
    fill = dict(k=draw(st.integers(0, top)), k2=draw(st.integers(1, 12)),
                col=draw(st.sampled_from(colours)), goal=draw(st.integers(1, 40)))
    cond = draw(st.sampled_from(CONDITIONS)).format(**fill)
    end = draw(st.sampled_from(ENDS)).format(**fill)
    draw_on_pass = draw(st.booleans())
    table_per = " per player" if table_vis == "private" else ""
    table = "table[p]" if table_per else "table"
    cond = cond.replace("size(table)", f"size({table})")
    # the `until` of turns runs before the first turn too, when p is still none
    end = end.replace("size(table)", "size(table[seat(0)])" if table_per else "size(table)")
    lines = [
        'game "Generated"',
        f"players {lo}..{hi}" if hi > lo else f"players {lo}",
        f"enum Colour {{ {', '.join(colours)} }}",
        'kind card { colour: Colour  value: int  label "{colour} {value}" }',
    ]
    if special:
        lines.append('kind joker: card { label "joker" '
                     'on play by p { set points[p] += 5 } }')
    lines += [
        f"deck stock {{ {copies} x card(Colour, 1..{top})" + (" joker(red, 0)" if special else "")
        + " }",
        "zone stock hidden",
        f"zone hand per player {hand_vis}{hand_order}",
        f"zone table{table_per} {table_vis}",
        "var points: int per player = 0 public",
        "score(p: player) = points[p]",
        "setup {", "  shuffle stock", f"  deal {deal} from stock to hand", "}",
        "flow main",
        "phase main {",
        f"  turns p from seat(0) until {end} {{",
        "    ask p \"Which card does {p} lay on the table?\" {",
    ]
    if special:
        lines.append(f"      c in hand[p] where c is joker {{ play c by p to {table} }}")
        lines.append(f"      c in hand[p] where c is not joker and ({cond}) {{")
    else:
        lines.append(f"      c in hand[p] where {cond} {{")
    lines += [
        f"        move c to {table}",
        "        set points[p] += c.value",
        "      }",
        '      "pass" {' + (" if size(stock) > 0 { move top(stock) to hand[p] }"
                            if draw_on_pass else "") + " }",
        "    }",
        "  }",
        "  let best = max(points[q] for q in players)",
        "  win [q in players where points[q] == best]",
        "}",
    ]
    return "\n".join(lines) + "\n", lo, hi


@fuzz_settings(40)
@given(case=small_game(), seed=st.integers(0, 2 ** 32), choices=st.randoms(use_true_random=False))
def test_generated_games_check_and_play(tmp, case, seed, choices):
    import rulesdsl
    text, lo, hi = case
    path = _write(tmp, text.encode("utf-8"), "generated.rules")
    result = check_outcome(path)
    assert not isinstance(result, RulesError), f"{result}\n{text}"
    game = rulesdsl.load(path)
    assert not game.warnings, [str(w) for w in game.warnings]
    sources = {str(path): text}
    players = choices.randint(lo, hi)
    try:
        state = game.new_game(players=players, seed=seed)
    except RulesError as e:  # a deal larger than the deck
        assert e.code == "R022", str(e)
        span_inside(e, sources)
        return
    ncards = len(state.prog.card_label)
    for _ in range(50):
        if state.is_over:
            assert set(state.winners) <= set(range(players))
            break
        actions = state.legal_actions()
        assert actions and len({a.label for a in actions}) == len(actions)
        t0 = time.process_time()
        try:
            state.apply(choices.choice(actions))
        except RulesError as e:
            span_inside(e, sources)
            assert e.code.startswith("R"), str(e)
            break
        assert time.process_time() - t0 < 1.0
        assert sorted(c for z in state.zones for c in z) == list(range(ncards))
        rulesdsl.restore(game, state.to_json())
