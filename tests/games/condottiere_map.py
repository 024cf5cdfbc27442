"""The Condottiere map of docs/rulings.md, written out independently of the rules files, for the
tests of both editions: the 17 regions, the 34 borders and connected groups."""

REGIONS = ["Torino", "Milano", "Venezia", "Genova", "Mantova", "Ferrara", "Parma", "Modena",
           "Bologna", "Lucca", "Firenze", "Siena", "Urbino", "Ancona", "Spoleto", "Roma",
           "Napoli"]
BORDERS = """Torino-Genova Torino-Milano Genova-Milano Genova-Parma Milano-Parma Milano-Modena
Milano-Mantova Milano-Venezia Venezia-Mantova Venezia-Ferrara Mantova-Modena Mantova-Ferrara
Modena-Parma Modena-Ferrara Modena-Bologna Modena-Firenze Modena-Lucca Parma-Lucca
Lucca-Firenze Ferrara-Bologna Bologna-Firenze Bologna-Urbino Firenze-Siena Firenze-Urbino
Firenze-Spoleto Firenze-Roma Siena-Roma Urbino-Spoleto Urbino-Ancona Ancona-Spoleto
Ancona-Napoli Spoleto-Roma Spoleto-Napoli Roma-Napoli""".split()

ADJACENT = {r: set() for r in REGIONS}
for _b in BORDERS:
    _a, _c = _b.split("-")
    ADJACENT[_a].add(_c)
    ADJACENT[_c].add(_a)


def largest_group(regions) -> int:
    """The size of the largest connected group among `regions`."""
    regions, best, seen = set(regions), 0, set()
    for start in regions:
        if start in seen:
            continue
        size, todo = 0, [start]
        seen.add(start)
        while todo:
            x = todo.pop()
            size += 1
            for y in ADJACENT[x] & regions - seen:
                seen.add(y)
                todo.append(y)
        best = max(best, size)
    return best


def realm(state, seat) -> list:
    """The regions `seat` controls, read through the public API."""
    return [r for r in REGIONS if state.var(f"owner[{r}]") == seat]


def check_hidden(state, seat, players, stock="stock"):
    """The view of `seat` shows its own hand, only counts of the others' hands and of the
    draw pile, and no card dealt or drawn into another hand."""
    view = state.view(seat)
    for p in range(players):
        hand = view["zones"][f"hand[P{p + 1}]"]
        if p == seat:
            assert hand == state.zone(f"hand[P{p + 1}]")
        else:
            assert hand == {"count": len(state.zone(f"hand[P{p + 1}]"))}
    assert view["zones"][stock] == {"count": len(state.zone(stock))}
    # a move between zones this seat cannot see shows how many cards, not which
    def seen(zone):
        return zone.startswith("line[") or zone == "discard" or zone.endswith(f"[P{seat + 1}]")
    for line in view["log"]:
        head, _, what = line.partition(": ")
        src, arrow, dst = head.partition(" -> ")
        if arrow and not seen(src) and not seen(dst):
            assert what.endswith("card") or what.endswith("cards"), line
