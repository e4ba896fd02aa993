"""The package's shape: stage folders that import only the stages below them, and nothing below the CLI
that prints or exits. Read from the source with `ast`; tested on a package made to break it."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "printkit"
# each stage may import its own layer and the layers below it (docs/architecture.md)
LAYERS = {"errors": 0, "geometry": 0, "content": 1, "rules": 2, "draw": 3, "write": 4, "layout": 5,
          "build": 6, "proof": 6, "changes": 6, "incremental": 6, "outputs": 6, "staging": 6, "printers": 6, "starter": 6, "cli": 7, "cli_main": 7, "__main__": 7, "__init__": 0}
TOP = {"cli", "cli_main", "__main__"}  # the only modules that print or exit


def stage(parts: tuple[str, ...]) -> str:
    """The stage of a module path inside the package: its folder, or its own name at the top."""
    return parts[0].removesuffix(".py")


def imports(file: Path, package: Path) -> list[tuple[tuple[str, ...], int]]:
    """(target module path inside the package, line) of each relative import of a module."""
    own = file.relative_to(package).with_suffix("").parts
    out = []
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = own[: len(own) - node.level]
            target = base + tuple(node.module.split(".")) if node.module else base
            names = [(target + (alias.name,)) for alias in node.names] if not node.module else [target]
            out += [(t if t else ("__init__",), node.lineno) for t in names]
    return out


def backwards_imports(package: Path) -> list[str]:
    """Every import of a later stage, as `module:line imports target`."""
    found = []
    for file in sorted(package.rglob("*.py")):
        own = file.relative_to(package).parts
        for target, line in imports(file, package):
            if target == ("__init__",) or target[0] == "__version__":
                continue
            if LAYERS.get(stage(target), 99) > LAYERS.get(stage(own), 99):
                found.append(f"{'/'.join(own)}:{line} imports {'.'.join(target)}")
    return found


def private_imports(package: Path) -> list[str]:
    """Imports of another stage's modules: a stage offers what others use through its __init__ only."""
    found = []
    for file in sorted(package.rglob("*.py")):
        own = file.relative_to(package).with_suffix("").parts
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level and node.module:
                target = own[: len(own) - node.level] + tuple(node.module.split("."))
                if target[0] != own[0] and (package / target[0]).is_dir() and len(target) > 1:
                    found.append(f"{'/'.join(file.relative_to(package).parts)}:{node.lineno} imports {'.'.join(target)}")
    return found


def prints_or_exits(package: Path) -> list[str]:
    """Calls of print() or sys.exit(), and raising SystemExit, outside the CLI modules."""
    found = []
    for file in sorted(package.rglob("*.py")):
        if file.parent == package and file.stem in TOP or file.parent == package / "cli":
            continue  # the CLI (its package's modules too) is where printing and exiting belong
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            call = node.func if isinstance(node, ast.Call) else None
            if (isinstance(call, ast.Name) and call.id in ("print", "exit", "quit")
                    or isinstance(call, ast.Attribute) and call.attr == "exit"
                    and isinstance(call.value, ast.Name) and call.value.id == "sys"
                    or isinstance(node, ast.Raise) and "SystemExit" in ast.unparse(node)):
                found.append(f"{file.relative_to(package)}:{node.lineno}")
    return found


def test_every_stage_imports_only_the_stages_below_it():
    assert backwards_imports(PACKAGE) == []


def test_stages_use_each_other_only_through_their_init():
    assert private_imports(PACKAGE) == []


def test_nothing_below_the_cli_prints_or_exits():
    assert prints_or_exits(PACKAGE) == []


def test_no_folder_holds_more_than_ten_modules_and_none_is_long():
    for folder in [PACKAGE] + [p for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file()]:
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        assert len(modules) <= 10, folder.name
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 420}
    assert long == {}


def test_the_checks_find_a_backwards_import_and_a_print(tmp_path):
    package = tmp_path / "pkg"
    for folder in ("content", "layout"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "layout" / "pages.py").write_text("X = 1\n")
    (package / "content" / "model.py").write_text("from ..layout.pages import X\n\n\ndef f():\n    print(X)\n")
    assert backwards_imports(package) == ["content/model.py:1 imports layout.pages"]
    assert private_imports(package) == ["content/model.py:1 imports layout.pages"]
    assert prints_or_exits(package) == ["content/model.py:5"]
