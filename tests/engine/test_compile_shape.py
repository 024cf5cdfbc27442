"""The compiler is a set of objects that own their state, not one object cut along file
boundaries: no class in engine/compile is made of the package's other classes as mixins,
and none grows past 40 methods."""

import ast
from pathlib import Path

import rulesdsl.engine.compile as package

MOST_METHODS = 40
ROOT = Path(package.__file__).parent


def _classes():
    """(module file, class node) of every class the package defines, at any depth."""
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                yield path.relative_to(ROOT), node


def _methods(cls: ast.ClassDef, ours: dict) -> set:
    """Its methods and those it takes from the package's classes it inherits from."""
    own = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for base in cls.bases:
        parent = ours.get(_base_name(base))
        if parent is not None and parent is not cls:
            own |= _methods(parent, ours)
    return own


def _base_name(base: ast.expr) -> str:
    """`Flow` for `Flow`, `flow.Flow` or `Generic[Flow]`'s origin; '' for anything else."""
    if isinstance(base, ast.Subscript):
        base = base.value
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def test_the_package_has_classes_to_check():
    names = {cls.name for _, cls in _classes()}
    assert {"Compiler", "Layout", "Expressions", "Flow", "Source"} <= names


def test_no_class_has_more_than_40_methods():
    ours = {cls.name: cls for _, cls in _classes()}
    counts = {f"{path}:{cls.name}": len(_methods(cls, ours)) for path, cls in _classes()}
    big = {k: n for k, n in counts.items() if n > MOST_METHODS}
    assert not big, f"split these into objects of their own: {big}"


def test_no_class_is_made_of_the_package_s_classes():
    ours = {cls.name for _, cls in _classes()}
    mixed = {f"{path}:{cls.name}": sorted(_base_name(b) for b in cls.bases
                                          if _base_name(b) in ours)
             for path, cls in _classes()}
    mixed = {k: v for k, v in mixed.items() if v}
    assert not mixed, ("pass a part what it needs (its `connect`) instead of inheriting "
                       f"from it: {mixed}")


def test_whether_python_is_generated_is_set_once_per_part():
    """`generate` is fixed where a Unit is made (unit.py), never flipped while compiling:
    a part that must not generate is another part, made so."""
    flipped = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.name == "unit.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute) and part.attr == "generate":
                        flipped.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not flipped, f"`generate` set while compiling: {flipped}"
