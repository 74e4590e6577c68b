"""Every link between the README and the pages in docs/ leads somewhere: the file exists, and a
#fragment names one of its headings (as GitHub makes their anchors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lowercase, punctuation dropped, spaces to
    hyphens, a repeated one numbered."""
    found: set[str] = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if heading := re.match(r"#{1,6} (.+)", line):
            slug = re.sub(r"[^\w\- ]", "", heading[1].strip().lower()).replace(" ", "-")
            anchor, n = slug, 0
            while anchor in found:
                n += 1
                anchor = f"{slug}-{n}"
            found.add(anchor)
    return found


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [a or b for a, b in LINK.findall(text) if not (a or b).startswith(("http", "mailto:"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_of_the_page_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    for link in links(page):
        path, _, fragment = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), f"{page.name}: {link}"
        if fragment and target.suffix == ".md":
            assert fragment in anchors(target), f"{page.name}: {link}"


def test_the_readme_leads_with_the_players_path_and_stays_short() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.index("## Two commands") < readme.index("## At the table")
    assert "make test" in readme and "make run" in readme
    assert len(readme.splitlines()) < 250
