"""The typed intermediate form of the rules' expressions: lowered once from the checked
tree, then run by either back end.

    checked tree --lower.py--> nodes.py --interpret.py--> closures (st, L) -> value
                                        \\--python.py----> Python `ast` (compiled, --show)

Each node carries its type and whether its value may be none, decided from what the node
computes (arithmetic is checked, so never none; a local may be), never from generated
text. The semantics every back end shares (none checks R013, overflow R030, division by
zero R015) are engine/runtime's helpers, called, never re-written here.

The nodes are data: frozen, naming the tables they read (the program's layout), never
the compiler. A construct not lowered yet is an `Opaque` node around its checked
expression: the back ends ask the compiler for it (what remains is listed in
docs/design.md)."""
