"""The game in its own words: the question of a decision, the log as a player reads it
(a worded move masked for who may not see it), the declared `show` values, and the rules
text with `help NAME`."""

from __future__ import annotations

import textwrap

import rulesdsl
from rulesdsl.play.rulestext import explain, rules_text

MARKET = textwrap.dedent('''
    game "Market"
    players 2
    enum Fruit { apple "Malus", pear }
    kind crate {
      fruit: Fruit
      worth: int
      label "{fruit} {worth}"
    }
    deck stock { crate(Fruit, [1, 2, 3]) }
    zone stock hidden
    zone hand per player private unordered
    zone vault per player private
    zone stall public
    var sold: int per player = 0
    var turn_no: int = 0
    define wealth(p: player) = sum(c.worth for c in vault[p])
    define on_stall = size(stall)
    setup { deal all from stock to hand }
    flow market
    phase market {
      turns p from seat(0) until size(hand[seat(1)]) == 0 {
        set turn_no += 1
        ask p "{p}, turn {turn_no}: which crate do you hide or sell?" {
          "hide {c}" for c in hand[p] {
            move c to vault[p] as "{p} hides {c} in the vault"
          }
          "sell {c}" for c in hand[p] {
            move c to stall as "{p} sells {c}"
            set sold[p] += 1
          }
        }
      }
    }
    about "A test market." "Hide crates to be rich."
    title vault "the vault"
    title sold "crates sold"
    text crate "A crate of fruit worth its number."
    text apple "Apples keep."
    internal turn_no
    show wealth "wealth" private
    show on_stall "crates on the stall"
''')


def market(tmp_path):
    path = tmp_path / "market.rules"
    path.write_text(MARKET)
    return rulesdsl.load(str(path))


def test_the_question_names_the_player_and_the_turn(tmp_path):
    s = market(tmp_path).new_game(players=2, seed=1)
    assert s.question() == "P1, turn 1: which crate do you hide or sell?"
    s.apply(s.legal_actions()[0])
    assert s.question() == "P2, turn 2: which crate do you hide or sell?"


def test_a_worded_move_is_masked_for_who_cannot_see_it(tmp_path):
    s = market(tmp_path).new_game(players=2, seed=1)
    hide = next(a for a in s.legal_actions() if a.label.startswith("hide "))
    crate = hide.label[len("hide "):]
    s.apply(hide)
    assert f"P1 hides {crate} in the vault" in s.story(0)
    assert "P1 hides a card in the vault" in s.story(1)
    assert not any(crate in line for line in s.story(1))
    sell = next(a for a in s.legal_actions() if a.label.startswith("sell "))
    s.apply(sell)
    said = f"P2 sells {sell.label[len('sell '):]}"
    assert said in s.story(0) and said in s.story(1)
    # the raw log the API has always given is unchanged
    assert any("->" in line for line in s.view(0)["log"])


def test_shown_values_keep_their_visibility(tmp_path):
    s = market(tmp_path).new_game(players=2, seed=1)
    hide = next(a for a in s.legal_actions() if a.label.startswith("hide "))
    s.apply(hide)
    mine = dict(s.shown(0))
    assert set(mine["wealth"]) == {0}                 # private: only the owner's
    assert int(mine["wealth"][0]) == sum(int(x.split()[1]) for x in s.zone("vault", 0))
    assert mine["crates on the stall"] == {None: "0"}
    assert set(dict(s.shown(1))["wealth"]) == {1}


def test_describe_carries_titles_internal_and_enum_titles(tmp_path):
    info = market(tmp_path).new_game(players=2, seed=1).describe()
    assert info["titles"]["vault"] == "the vault"
    assert info["internal"] == ["turn_no"]
    assert info["enum_titles"] == {"Fruit": {"apple": "Malus"}}


def test_rules_text_and_help(tmp_path):
    game = market(tmp_path)
    text = "\n".join(rules_text(game, 2))
    assert "A test market." in text and "Hide crates to be rich." in text
    assert "A crate of fruit worth its number." in text
    assert "the vault" in text and "turn_no" not in text
    one = "\n".join(explain(game, 2, "apple 2"))
    assert "apple 2: a crate card" in one and "Apples keep." in one and "Malus" in one
    assert "nothing called" in "\n".join(explain(game, 2, "banana"))


def test_a_bundled_game_lays_influence_face_down_in_words():
    game = rulesdsl.load("triumvirat")
    s = game.new_game(players=2, seed=3)
    for _ in range(400):
        if s.is_over or (s.question() or "").endswith("lay an influence card face down?"):
            break
        s.apply(s.legal_actions()[0])
    seat = s.to_move
    card = s.legal_actions()[0]
    s.apply(card)
    other = 1 - seat
    assert f"P{seat + 1} lays {card.label} face down as influence" in s.story(seat)
    assert f"P{seat + 1} lays a card face down as influence" in s.story(other)
