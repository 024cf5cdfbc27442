"""The package runs one way: a module imports only from its own stage or an earlier one.

lang -> engine -> agents -> (analysis | play | integrations) -> web -> cli. Stages that sit side
by side (analysis, play, integrations) do not import each other either. Every import
counts, also one inside a function, since a late import is still a dependency.
"""

import ast
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rulesdsl"

# Stage of each top-level part of the package; side-by-side stages share a number.
# `rulesdsl` itself (__init__) is the public API: lang and engine behind one door, so
# agents and later stages may use it, and lang and engine may not.
STAGES = {"_version": 0, "data": 0, "cache": 0, "lang": 1, "engine": 2, "__init__": 2.5, "agents": 3,
          "analysis": 4, "play": 4, "integrations": 4, "web": 4.5, "cli": 5, "__main__": 6}


def part_of(module: str) -> str:
    """'rulesdsl.lang.check' -> 'lang'; 'rulesdsl' -> '__init__'."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(path: Path, root: Path):
    """(line, imported module) for every import of the package in the file."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    package = parts[:-1]                # the package a relative import starts from
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "rulesdsl":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] != "rulesdsl":
                continue
            if module == "rulesdsl":    # from rulesdsl import x: x is the part
                for alias in node.names:
                    yield node.lineno, f"rulesdsl.{alias.name}"
            else:
                yield node.lineno, module


def backward_imports(package: Path = PACKAGE):
    wrong = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent)
        mine = part_of(".".join(rel.with_suffix("").parts))
        for line, module in imports_of(path, package.parent):
            theirs = part_of(module)
            if theirs not in STAGES:
                theirs = "__init__"
            if theirs != mine and STAGES[theirs] >= STAGES[mine]:
                wrong.append(f"{rel}:{line}: {mine} imports {module} ({theirs})")
    return wrong


def test_every_part_of_the_package_has_a_stage():
    parts = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
             if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))}
    assert parts <= set(STAGES), f"give these a stage in STAGES: {parts - set(STAGES)}"


def test_no_module_imports_a_later_stage():
    assert backward_imports() == []


def planted(tmp_path, where: str, code: str) -> Path:
    """A copy of the package with one more module in it."""
    copy = tmp_path / "rulesdsl"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / where).write_text(code, encoding="utf-8")
    return copy


def test_the_check_catches_a_late_import_inside_a_function(tmp_path):
    copy = planted(tmp_path, "lang/planted.py", "def f():\n    from rulesdsl.play import runner\n")
    assert backward_imports(copy) == ["rulesdsl/lang/planted.py:2: lang imports rulesdsl.play (play)"]


def test_the_check_catches_a_relative_import_between_side_by_side_stages(tmp_path):
    copy = planted(tmp_path, "play/planted.py", "from ..analysis import simulate\n")
    assert backward_imports(copy) == ["rulesdsl/play/planted.py:1: play imports "
                                      "rulesdsl.analysis (analysis)"]


def test_the_check_catches_an_engine_module_using_the_top_level_api(tmp_path):
    copy = planted(tmp_path, "engine/planted.py", "from rulesdsl import load\n")
    assert backward_imports(copy) == ["rulesdsl/engine/planted.py:1: engine imports "
                                      "rulesdsl.load (__init__)"]
