"""What runs while a game is played, written once for every way of running it.

The compiled closures, the generated code and the state all call these: the errors the
rules can run into (errors.py), numbers and their bounds (numbers.py), moving one card and
the words of a move (cards.py), a decision's options told apart (options.py), the random
numbers (randoms.py), how a seat is named (seats.py), the place in the rules an
instruction stands for (places.py) and the file's named invariants checked (truths.py).

A leaf: nothing here imports the compiler (`engine.compile`) or the state
(`engine.state`), so both can import it (tests/engine/test_import_graph.py)."""
