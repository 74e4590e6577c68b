"""Every link between the README and the pages in docs/ leads somewhere: the file exists, and a
#fragment names one of its headings (as GitHub makes their anchors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def without_code(text: str) -> str:
    """The page without its fenced code blocks, whose `# comments` are not headings and whose
    brackets are not links."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lowercase, punctuation dropped, spaces to
    hyphens, a repeated one numbered."""
    found: set[str] = set()
    for line in without_code(page.read_text(encoding="utf-8")).splitlines():
        if heading := re.match(r"#{1,6} (.+)", line):
            slug = re.sub(r"[^\w\- ]", "", heading[1].strip().lower()).replace(" ", "-")
            anchor, n = slug, 0
            while anchor in found:
                n += 1
                anchor = f"{slug}-{n}"
            found.add(anchor)
    return found


def links(page: Path) -> list[str]:
    text = without_code(page.read_text(encoding="utf-8"))
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
    assert len(readme.splitlines()) < 170


def test_the_anchors_follow_githubs_rule(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        '# Running an event\n## Limits\n## Limits\n## `payment: "chips"` (rev. 3)\n'
        "```sh\n# 1. Packages, a user\n```\n## Ce Deng (斜钉)\n",
        encoding="utf-8",
    )
    assert anchors(page) == {
        "running-an-event",
        "limits",
        "limits-1",
        "payment-chips-rev-3",
        "ce-deng-斜钉",
    }


def test_the_pages_checked_include_the_docs_and_the_examples() -> None:
    names = {str(page.relative_to(ROOT)) for page in PAGES}
    assert {"README.md", "docs/operations.md", "docs/examples/README.md"} <= names
