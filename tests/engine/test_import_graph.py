"""No import cycles between the modules of rulesdsl.

Every `import` counts, at module level or inside a function (an import moved into a
function to dodge a cycle is still a knot: the two modules cannot be understood or built
apart). Imports under `if TYPE_CHECKING:` do not run and do not count. The one exception is
a package's `__init__` importing from its own modules to re-export their names: importing
`rulesdsl.engine.compile.program` runs `rulesdsl/engine/compile/__init__.py` first, which
imports `program` back, and that is how packages work, not a knot."""

from __future__ import annotations

import ast
from pathlib import Path

import rulesdsl

ROOT = Path(rulesdsl.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict:
    """module name -> (its file, is it a package's __init__)."""
    return {module_name(p): (p, p.name == "__init__.py") for p in sorted(ROOT.rglob("*.py"))}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every Import/ImportFrom that runs, anywhere in the tree."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _absolute(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def re_exported(package: str, name: str, modules: dict) -> str:
    """The module of `package` that a name the package re-exports comes from (its
    `__init__` imports it from one of its own modules), else the package itself."""
    path, is_package = modules[package]
    if not is_package:
        return package
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and any(
                (a.asname or a.name) == name for a in node.names):
            source = _absolute(node, package, True)
            if source.startswith(package + ".") and source in modules:
                return source
    return package


def imported(name: str, path: Path, is_package: bool, modules: dict) -> set:
    """The rulesdsl modules `name` imports: `from a.b import c` is a.b.c where that is a
    module, the module a.b re-exports c from where a.b's `__init__` does, else a.b."""
    out = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            base = _absolute(node, name, is_package)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else
                       re_exported(base, a.name, modules) if base in modules else base
                       for a in node.names]
        for t in targets:
            out.update(_loaded_with(t, name))
    return {t for t in out if t in modules and t != name}


def _loaded_with(target: str, importer: str) -> list:
    """What importing `target` runs: its packages' `__init__`s first, then itself; not the
    importer's own packages, which are running already (a module importing its own package
    for a re-exported name is how packages work)."""
    parts = target.split(".")
    mine = importer.split(".")
    out = []
    for k in range(1, len(parts) + 1):
        if parts[:k] != mine[:k] or k == len(parts):
            out.append(".".join(parts[:k]))
    return out


def import_graph() -> dict:
    modules = all_modules()
    return {name: imported(name, path, is_package, modules)
            for name, (path, is_package) in modules.items()}


def cycles(graph: dict) -> list:
    """The strongly connected components with more than one module (Tarjan's)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def describe(component: list, graph: dict) -> str:
    inside = set(component)
    return "\n".join(f"  {a} -> {b}" for a in component for b in sorted(graph[a] & inside))


# Knots found when this test was written, outside the engine; each is to be untied, and
# then taken off this list (the second test below fails while a listed knot is gone).
KNOWN = {
    # errors reads a source file through safefile, with limits' file size; limits and
    # safefile raise errors; limits reads the syntax tree (ast) whose nodes raise errors
    frozenset({"rulesdsl.lang.errors", "rulesdsl.lang.limits", "rulesdsl.lang.safefile",
               "rulesdsl.lang.ast", "rulesdsl.lang.ast.declarations",
               "rulesdsl.lang.ast.expressions", "rulesdsl.lang.ast.reading",
               "rulesdsl.lang.ast.statements", "rulesdsl.lang.ast.types"}),
    # a string's `{...}` holes are parsed by the parser built on the transformer
    frozenset({"rulesdsl.lang.syntax.base", "rulesdsl.lang.syntax.build",
               "rulesdsl.lang.syntax.declarations", "rulesdsl.lang.syntax.expressions",
               "rulesdsl.lang.syntax.parsing", "rulesdsl.lang.syntax.statements"}),
    # the agents' registry (agents/__init__) parses seat specs with seats.py, which reads it
    frozenset({"rulesdsl.agents", "rulesdsl.agents.seats"}),
    # the terminal runner asks for hints, and hint.py reads the runner's prompts
    frozenset({"rulesdsl.play.hint", "rulesdsl.play.runner", "rulesdsl.play.runner.asking"}),
}


def test_no_import_cycles():
    graph = import_graph()
    new = [c for c in cycles(graph) if frozenset(c) not in KNOWN]
    assert not new, "import cycles (module -> module it imports):\n" + "\n\n".join(
        describe(c, graph) for c in new)


def test_every_known_knot_is_still_there():
    found = {frozenset(c) for c in cycles(import_graph())}
    untied = [sorted(k) for k in KNOWN if k not in found]
    assert not untied, f"untied (or changed): take these off KNOWN: {untied}"


def test_the_check_sees_a_cycle_through_a_function_level_import(tmp_path):
    # the kind of knot this guards against: one import at the top, one inside a function
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert cycles(graph) == [["a", "b"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from rulesdsl.engine import state\n"
                   "from typing import TYPE_CHECKING\n"
                   "if TYPE_CHECKING:\n    from rulesdsl.engine import game\n")
    found = imported("m", src, False, all_modules())
    assert "rulesdsl.engine.state" in found and "rulesdsl.engine.game" not in found


def test_the_runtime_is_a_leaf():
    # the compiler, the generated code and the state all call engine/runtime: it imports
    # none of them
    graph = import_graph()
    runtime = {m for m in graph if m.startswith("rulesdsl.engine.runtime")}
    assert runtime
    reached = {m: sorted(t for t in graph[m] if t.startswith(
        ("rulesdsl.engine.compile", "rulesdsl.engine.state"))) for m in runtime}
    assert not any(reached.values()), reached


def test_the_code_generator_never_reads_its_own_text_back():
    # the compiler and its back ends build generated code from their own structures (jumps,
    # paddings, a definition's Python tree, the compiled code's functions): no module of
    # theirs imports a regular expression or a tokenizer to read what they wrote
    readers = {"re", "tokenize"}
    found = {}
    for name, (path, _) in all_modules().items():
        if name.startswith(("rulesdsl.engine.compile", "rulesdsl.engine.ir")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            used = {a.name for node in _imports(tree) if isinstance(node, ast.Import)
                    for a in node.names} | {node.module for node in _imports(tree)
                                            if isinstance(node, ast.ImportFrom)}
            if used & readers:
                found[name] = sorted(used & readers)
    assert not found, found
