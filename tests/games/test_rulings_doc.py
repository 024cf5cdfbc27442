"""docs/rulings.md holds every ruling the game files rely on, and nothing in the repository
points to rulings outside it."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "docs" / "rulings.md"


def test_every_game_file_names_its_section_of_docs_rulings():
    text = RULINGS.read_text()
    for path in sorted((ROOT / "games").glob("*.rules")):
        head = path.read_text().split("\ngame ")[0]
        assert "Rulings relied on (docs/rulings.md, " in head, path.name
        section = head.split("Rulings relied on (docs/rulings.md, ")[1].split(";")[0]
        section = section.split(")")[0].strip('"')
        assert f"## {section}" in text, f"{path.name}: no section '{section}'"


def test_the_face_down_ruling_is_written_down():
    text = RULINGS.read_text()
    assert "A hand thrown away goes face down" in text


def test_nothing_points_outside_the_repository():
    outside = ("RULINGS.md", "/work/shared", "shared/rules")
    for folder in ("games", "examples", "docs", "rulesdsl", "tests"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".rules", ".md", ".py") or path == Path(__file__):
                continue
            text = path.read_text(errors="replace")
            for word in outside:
                assert word not in text, f"{path.relative_to(ROOT)} mentions {word}"
