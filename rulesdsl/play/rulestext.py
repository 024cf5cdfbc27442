"""The rules as a player reads them: the game's `about`, what each card does (`text`),
the places and values on the table (`title`), the options and the flow, laid out from the
checked model. `rules_text` serves the runner's `rules` and `rulesdsl rules GAME`;
`explain` serves `help NAME` / `? NAME` for one card, kind or name.

Nothing here knows any game: every word comes from the rules file.
"""

from __future__ import annotations

import textwrap
from typing import Optional


def _present(game):
    return getattr(game.model, "present", None)


def title(game, name: str) -> str:
    p = _present(game)
    return p.titles.get(name, name.replace("_", " ")) if p else name.replace("_", " ")


def enum_title(game, enum: str, value: str) -> str:
    """An enum value with its declared title: "red (the Reds)"; the value alone without one."""
    e = game.model.enums.get(enum)
    decl = getattr(e, "decl", None)
    for item in getattr(decl, "items", ()) or ():
        if getattr(item, "name", None) == value and getattr(item, "title", ""):
            return f"{value} ({item.title})"
    return value


def wrap(text: str, width: int, indent: str = "  ", first: Optional[str] = None) -> list:
    """Text broken at spaces only (never inside a word), under an indent."""
    first = indent if first is None else first
    return textwrap.wrap(text, width=max(20, width), initial_indent=first,
                         subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False) or [first.rstrip()]


def _cards_by_kind(game, players: int) -> dict:
    """kind -> {label: copies}, in deck order."""
    try:
        prog = game.program(players)
    except Exception:
        return {}
    per: dict = {}
    for c, label in enumerate(prog.card_label):
        kind = prog.kind_names[prog.card_kind[c]]
        per.setdefault(kind, {}).setdefault(label, 0)
        per[kind][label] += 1
    return per


def rules_text(game, players: int, width: int = 88, options: Optional[dict] = None) -> list:
    """The whole rules text, as lines: the summary, the cards, the table, options, flow."""
    m = game.model
    p = _present(game)
    texts = p.texts if p else {}
    n = f"{m.min_players}" + (f" to {m.max_players}" if m.max_players != m.min_players else "")
    together = ", playing together: all win or lose as one" \
        if getattr(m, "cooperative", False) else ""
    lines = [f"{game.name} ({n} players{together})", ""]
    if p and p.about:
        for line in p.about:             # one paragraph a string
            lines += wrap(line, width, "  ")
            lines.append("")
    else:
        lines.append("  (the rules file has no `about` summary)")
        lines.append("")
    # the cards: each kind with its text and how many there are
    per_kind = _cards_by_kind(game, players)
    if per_kind:
        total = sum(sum(v.values()) for v in per_kind.values())
        lines.append(f"The cards ({total}):")
        for kind, labels in per_kind.items():
            items = [f"{lab} x{k}" if k > 1 else lab for lab, k in labels.items()]
            shown = ", ".join(items[:10]) + (f", ... ({len(items)} different)"
                                             if len(items) > 10 else "")
            head = f"  {title(game, kind)}: "
            text = " ".join(_kind_texts(game, kind))
            lines += wrap(f"{text} [{shown}]" if text else shown, width, "      ", head)
        lines.append("")
    # enums and boards whose values say something
    for name, e in m.enums.items():
        said = [v for v in e.values if v in texts]
        titled = [v for v in e.values if enum_title(game, name, v) != v]
        if not (said or titled or name in texts):
            continue
        lines.append(f"{title(game, name)}:")
        if name in texts:
            lines += wrap(" ".join(texts[name]), width, "  ")
        for v in e.values:
            if v in texts or v in titled:
                head = f"  {enum_title(game, name, v)}" + (": " if v in texts else "")
                lines += wrap(" ".join(texts.get(v, [])), width, "      ", head)
        lines.append("")
    # the table: zones and the values a player looks at
    lines.append("On the table:")
    for name, z in m.zones.items():
        who = {"public": "everyone sees it", "private": "only its owner sees it",
               "hidden": "nobody sees it",
               "others": "everyone but its owner sees it"}.get(z.visibility, z.visibility)
        per = " (one per player)" if "player" in z.dims else \
            "".join(f" (one per {d})" for d in z.dims)
        head = f"  {title(game, name)}{per}, {who}"
        lines += wrap(" ".join(texts.get(name, [])), width, "      ", head + (
            ": " if name in texts else ""))
    internal = p.internal if p else set()
    for name in m.vars:
        if name in internal or (p and name not in p.titles and name not in texts):
            continue
        head = f"  {title(game, name)}"
        lines += wrap(" ".join(texts.get(name, [])), width, "      ", head + (
            ": " if name in texts else ""))
    for show in (p.shows if p else ()):
        head = f"  {show.title}" + (" (each player's)" if show.per_player else
                                    f" (on {title(game, show.board)})" if show.board else "")
        lines += wrap(" ".join(texts.get(show.name, [])), width, "      ",
                      head + (": " if show.name in texts else ""))
    lines.append("")
    if m.options:
        lines.append("Options (rulesdsl play GAME --option NAME=VALUE):")
        for name, o in m.options.items():
            value = (options if options is not None else game.options).get(name)
            value = str(value).lower() if isinstance(value, bool) else value
            doc = f": {o.doc}" if getattr(o, "doc", "") else ""
            lines += wrap(f"{name} = {value}{doc}", width, "      ", "  ")
        lines.append("")
    phases = [n for n in m.phases if n in texts or (p and n in p.titles)]
    if phases:
        lines.append("The flow:")
        for name in phases:
            head = f"  {title(game, name)}" + (": " if name in texts else "")
            lines += wrap(" ".join(texts.get(name, [])), width, "      ", head)
        lines.append("")
    lines.append("At a prompt: help NAME (or ? NAME) explains one card or word.")
    return lines


def _kind_texts(game, kind: str) -> list:
    """The texts of a kind, or of its nearest parent that has one."""
    p = _present(game)
    k = game.model.kinds.get(kind)
    for anc in (getattr(k, "ancestors", None) or [kind]):
        if p and anc in p.texts:
            return list(p.texts[anc])
    return []


def with_article(noun: str) -> str:
    """"a card", "an ox card": the article by the sound of the first letter (a
    vowel letter: "an")."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def kind_of_card(kind_title: str) -> str:
    """What a card is, said of its kind: "an action card", "a card" (a kind called card or
    "... card" is not a "card card")."""
    noun = kind_title if kind_title.split()[-1:] == ["card"] else f"{kind_title} card"
    return with_article(noun)


def explain(game, players: int, what: str, width: int = 88) -> list:
    """`help NAME`: a card (by its label), a kind, an enum value or any declared name."""
    m = game.model
    p = _present(game)
    texts = p.texts if p else {}
    want = what.strip().casefold()
    if not want:
        return []
    try:
        prog = game.program(players)
    except Exception:
        prog = None
    if prog is not None:
        labels = list(dict.fromkeys(prog.card_label))
        hits = [lab for lab in labels if lab.casefold() == want] or \
            [lab for lab in labels if lab.casefold().startswith(want)]
        if len(hits) == 1 or (hits and len({_kind_of(prog, h) for h in hits}) == 1 and
                              want not in [k.casefold() for k in m.kinds]):
            label = hits[0]
            c = prog.card_label.index(label)
            kind = prog.kind_names[prog.card_kind[c]]
            copies = prog.card_label.count(label)
            lines = [f"{label}: {kind_of_card(title(game, kind))}" + (
                f" ({copies} in the game)" if copies > 1 else "")]
            said = _kind_texts(game, kind)
            if said:
                lines += wrap(" ".join(said), width, "  ")
            for field, values in prog.fields.items():
                v = values[c]
                for enum, vals in prog.enums.items():
                    info = m.kinds.get(kind)
                    t = getattr(info, "fields", {}).get(field) if info else None
                    if t and t[0] == enum and isinstance(v, int) and 0 <= v < len(vals):
                        name = vals[v]
                        if name in texts or enum_title(game, enum, name) != name:
                            lines += wrap(" ".join(texts.get(name, [])), width, "  ",
                                          f"  {field} {enum_title(game, enum, name)}"
                                          + (": " if name in texts else ""))
            return lines
    names = {n.casefold(): n for n in list(m.kinds) + list(m.zones) + list(m.vars) +
             list(m.defines) + list(m.phases) + list(m.options) + list(m.enums)}
    for e in m.enums.values():
        for v in e.values:
            names.setdefault(v.casefold(), v)
    for n in texts:
        names.setdefault(n.casefold(), n)
    hit = names.get(want)
    if hit is None:
        starts = [n for k, n in names.items() if k.startswith(want)]
        hit = starts[0] if len(starts) == 1 else None
    if hit is None:
        return [f"nothing called {what.strip()!r} in this game; type rules for all of it"]
    lines = [f"{title(game, hit)}" + (f" ({hit})" if title(game, hit) != hit.replace("_", " ")
                                      else "")]
    said = texts.get(hit) or (_kind_texts(game, hit) if hit in m.kinds else [])
    lines += wrap(" ".join(said), width, "  ") if said else ["  (the rules file says no more)"]
    return lines


def print_rules(args, out=None) -> int:
    """`rulesdsl rules GAME [NAME]`: the rules text, or one card or word explained."""
    import shutil
    import sys
    import rulesdsl
    from rulesdsl.play.answers import parse_options
    out = out or sys.stdout
    options = parse_options(getattr(args, "option", None))
    game = rulesdsl.load(args.game, options=options) if options else rulesdsl.load(args.game)
    players = args.players or game.min_players
    width = min(shutil.get_terminal_size((88, 30)).columns, 100) if out.isatty() else 88
    lines = explain(game, players, args.name, width) if args.name else \
        rules_text(game, players, width)
    for line in lines:
        print(line, file=out)
    return 0


def _kind_of(prog, label: str) -> str:
    return prog.kind_names[prog.card_kind[prog.card_label.index(label)]]


__all__ = ["rules_text", "explain", "title", "enum_title", "wrap", "with_article",
           "kind_of_card"]
