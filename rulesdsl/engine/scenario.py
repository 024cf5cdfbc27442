"""Scenarios: put named cards into named zones and set variables, after setup and before
the first decision. Cards are moved, never created; every name is checked first, so a bad
scenario leaves nothing half done."""

from __future__ import annotations

import json
from pathlib import Path

from rulesdsl.engine.state import State, _key_value
from rulesdsl.lang.limits import read_text
from rulesdsl.lang.safefile import shown_path
from rulesdsl.lang.errors import RulesError, did_you_mean


def _fail(msg: str, hints=()) -> RulesError:
    return RulesError("S002", f"scenario: {msg}", None, hints)


def read_scenario(scenario) -> dict:
    if isinstance(scenario, dict):
        return scenario
    path = Path(str(scenario))
    shown = shown_path(path)
    try:
        text = read_text(path, "S002", "scenario")
    except OSError as e:
        raise _fail(f"cannot read {shown}: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise _fail(f"{shown} is not valid JSON: {e}") from None
    except RecursionError:
        raise _fail(f"{shown} nests lists or objects too deeply") from None
    if not isinstance(data, dict):
        raise _fail(f"{shown} must hold a JSON object with 'zones' and/or 'vars'")
    return data


def _named_once(resolved: list, names, what: str) -> None:
    """S002 when two spellings name one zone or variable ('trick' and 'trick ', hand[P1]
    and hand[0], full-width digits): one would silently undo the other."""
    first: dict = {}
    for key, name in resolved:
        if key in first:
            shown = names[key] if names is not None else str(name).strip()
            raise _fail(f"the {what} {shown} is named twice, as {first[key]!r} and {name!r}",
                        [f"name each {what} once"])
        first[key] = name


def apply_scenario(st: State, scenario) -> None:
    data = read_scenario(scenario)
    unknown = set(data) - {"zones", "vars", "displaced_to", "pieces"}
    if unknown:
        raise _fail(f"unknown key(s) {', '.join(sorted(unknown))}",
                    ["a scenario has 'zones', 'vars' and optionally 'pieces' and "
                     "'displaced_to'"])
    prog = st.prog
    zones_spec = data.get("zones", {}) or {}
    if not isinstance(zones_spec, dict):
        raise _fail("'zones' must map zone names to lists of card labels")
    # plan every move before doing any
    by_label: dict[str, list] = {}
    for c, lab in enumerate(prog.card_label):
        by_label.setdefault(lab, []).append(c)
    targets = []
    for name, labels in zones_spec.items():
        zi = _zone(st, name)
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise _fail(f"zone {name} must be given a list of card labels")
        targets.append((zi, labels))
    _named_once([(zi, name) for (zi, _), name in zip(targets, zones_spec)], prog.zone_names,
                "zone")
    target_set = {zi for zi, _ in targets}
    claimed: set = set()
    plan = []
    for zi, labels in targets:
        cards = []
        for lab in labels:
            cands = by_label.get(lab)
            if cands is None:
                raise _fail(f"no card is labelled '{lab}'",
                            did_you_mean(lab, by_label) or ["labels are as shown in the game"])
            # prefer a copy already in this zone, then one outside every listed zone
            free = [c for c in cands if c not in claimed]
            if not free:
                raise _fail(f"there are only {len(cands)} cards labelled '{lab}'; the scenario "
                            "asks for more")
            pick = next((c for c in free if st.loc[c] == zi), None)
            if pick is None:
                pick = next((c for c in free if st.loc[c] not in target_set), free[0])
            claimed.add(pick)
            cards.append(pick)
        plan.append((zi, cards))
    displaced_to = data.get("displaced_to")
    if displaced_to is not None:
        home = _zone(st, displaced_to)
    displaced = []
    for zi, cards in plan:
        keep = set(cards)
        displaced += [c for c in st.zones[zi] if c not in keep]
    for c in displaced:  # checked before anything moves: nothing is left half done
        if c not in claimed:
            dest = home if displaced_to is not None else prog.initial_zone[c]
            if dest in target_set:
                raise _fail(f"a card displaced from {prog.zone_names[st.loc[c]]} would go back "
                            "into a listed zone",
                            ["name 'displaced_to': a zone not in the scenario"])
    # variables, also checked before anything changes
    sets = []
    vars_spec = data.get("vars", {}) or {}
    if not isinstance(vars_spec, dict):
        raise _fail("'vars' must map variable names to values")
    for name, value in vars_spec.items():
        sets.append(_var_assignment(st, name, value))
    _named_once([(index, name) for (index, _), name in zip(sets, vars_spec)], None, "variable")
    piece_sets = _piece_sets(st, data.get("pieces"))
    # now act
    for _, cards in plan:
        for c in cards:
            st.zones[st.loc[c]].remove(c)
            st.loc[c] = -1
    for c in displaced:
        if st.loc[c] == -1:
            continue
        st.zones[st.loc[c]].remove(c)
        dest = home if displaced_to is not None else prog.initial_zone[c]
        if dest in target_set:
            raise _fail(f"a card displaced from {prog.zone_names[st.loc[c]]} would go back into "
                        f"a listed zone", ["name 'displaced_to': a zone not in the scenario"])
        st.zones[dest].append(c)
        st.loc[c] = dest
    for zi, cards in plan:
        st.zones[zi][:] = []
        for c in cards:
            st.zones[zi].append(c)
            st.loc[c] = zi
        if prog.zone_unordered[zi]:
            st.zones[zi].sort()
    for i, v in sets:
        st.vars[i] = v
    for zi, base, kinds, v in piece_sets:  # after the moves: the pieces now in the zone
        for c in st.zones[zi]:
            if kinds[prog.card_kind[c]]:
                st.vars[base + c] = v
    st.pending = None
    st._events.append(("text", "a scenario set up this position"))


def _piece_sets(st: State, spec) -> list:
    """"pieces": {"square[c3]": {"rank": "king"}}: the changing fields of every piece in a
    zone, once the zones are laid out: (zone, field's base, kinds that have it, value)."""
    if not spec:
        return []
    if not isinstance(spec, dict):
        raise _fail("'pieces' must map zone names to {field: value}")
    pieces = st.prog.pieces
    model = getattr(st.game, "model", None)
    out = []
    for name, fields in spec.items():
        zi = _zone(st, name)
        if not isinstance(fields, dict):
            raise _fail(f"pieces of {name} must be given as {{field: value}}")
        for field, value in fields.items():
            if pieces is None or field not in pieces.base:
                raise _fail(f"no piece has a changing field '{field}'",
                            did_you_mean(str(field), list(pieces.base) if pieces else []))
            assert model is not None  # a game with pieces has the model that declared them
            kinds = [field in model.kinds[k].changing for k in st.prog.kind_names]
            out.append((zi, pieces.base[field], kinds,
                        _value(st, pieces.types[field], value, f"{name}: {field}")))
    return out


def _value(st: State, t: str, value, name: str):
    """A scenario's value of type t, as the state holds it."""
    prog = st.prog
    if value is None:
        return None
    if t == "int" and not isinstance(value, bool) and isinstance(value, int) and \
            -2 ** 53 <= value <= 2 ** 53:
        return value
    if t == "bool" and isinstance(value, bool):
        return value
    if t == "player" or t in prog.enums:
        try:
            k = _key_value(prog, t, value, name)
        except RulesError as e:
            raise _fail(e.message, e.hints) from None
        if 0 <= k < (prog.nplayers if t == "player" else len(prog.enums[t])):
            return k
    raise _fail(f"{name} cannot be {value!r}", [f"it is {'a number' if t == 'int' else t}"])


def _zone(st: State, name) -> int:
    try:
        return st._zone_index(name)
    except RulesError as e:
        raise _fail(e.message, e.hints) from None


def _var_assignment(st: State, name: str, value):
    try:
        lay, i = st._var_index(name)
    except RulesError as e:
        raise _fail(e.message, e.hints) from None
    prog = st.prog
    t = lay.type
    if value is None:
        return i, None
    if t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(f"{name} is a number, not {value!r}")
        if not -2 ** 53 <= value <= 2 ** 53:
            raise _fail(f"{name}: {value} is outside the numbers a game can hold (R030)")
        return i, value
    if t == "bool":
        if not isinstance(value, bool):
            raise _fail(f"{name} is true or false, not {value!r}")
        return i, value
    if t == "player":
        try:
            k = _key_value(prog, "player", value, name)
        except RulesError as e:
            raise _fail(e.message, e.hints) from None
        if not 0 <= k < prog.nplayers:
            raise _fail(f"{name}: there is no seat {value!r}")
        return i, k
    if t in prog.enums:
        try:
            k = _key_value(prog, t, value, name)
        except RulesError as e:
            raise _fail(e.message, e.hints) from None
        if not 0 <= k < len(prog.enums[t]):
            raise _fail(f"{name}: {value!r} is not a value of {t}")
        return i, k
    if t == "card":
        if value in prog.card_label:
            return i, prog.card_label.index(value)
        raise _fail(f"no card is labelled {value!r}")
    raise _fail(f"{name} cannot be set by a scenario")
