"""The page's colours (ledger.css), light and dark as the phone is set: text at WCAG AA or
better, and in dark at least the contrast it has in light; the chart's lines colour-blind-safe
and at 3:1 on the page (issue 11). axe-core checks the pages themselves in the browser
(tests/browser/test_accessibility.py); these check the palettes, the chart's too, which axe
does not measure."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

CSS = Path(finders.find("ledger/ledger.css")).read_text()
OKABE_ITO = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442"}
TEXT = 4.5  # WCAG AA for text of normal size
GRAPHIC = 3  # WCAG AA for the parts of a graphic that carry meaning
AAA = 7
# Each text colour on what it is drawn on.
TEXT_ON = [
    ("fg", "bg"),
    ("muted", "bg"),
    ("accent", "bg"),  # links, and secondary buttons' words
    ("plus", "bg"),
    ("minus", "bg"),
    ("on-accent", "accent"),  # the words of a button, or of a ticked chip
    ("fg", "chosen"),  # a tile picked in the tile picker
]


def colours(block: str) -> dict[str, str]:
    found = re.findall(r"--([\w-]+): #([0-9a-f]{6}|[0-9a-f]{3});", block)
    return {name: "#" + (v if len(v) == 6 else "".join(c * 2 for c in v)) for name, v in found}


def palette(scheme: str) -> dict[str, str]:
    """The colours ``scheme`` draws with: the dark scheme overrides some of the light's."""
    light = colours(re.search(r"^:root \{([^}]*)\}", CSS, re.MULTILINE)[1])
    if scheme == "light":
        return light
    dark = re.search(
        r"@media screen and \(prefers-color-scheme: dark\) \{\s*:root \{([^}]*)\}", CSS
    )
    return light | colours(dark[1])


def luminance(colour: str) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_dark_scheme_is_dark_and_the_light_one_light():
    light, dark = palette("light"), palette("dark")

    assert luminance(light["bg"]) > 0.9 and luminance(light["fg"]) < 0.01
    assert luminance(dark["bg"]) < 0.01 and luminance(dark["fg"]) > 0.8


@pytest.mark.parametrize(("text", "on"), TEXT_ON)
def test_text_is_at_aa_in_either_scheme_and_in_dark_as_clear_as_in_light(text, on):
    light, dark = palette("light"), palette("dark")
    in_light = contrast(light[text], light[on])
    in_dark = contrast(dark[text], dark[on])

    assert in_light >= TEXT, f"--{text} on --{on}, light: {in_light:.2f}:1"
    # The same contrast: as high as in light, or else at AAA's 7:1 already.
    assert in_dark >= min(in_light, AAA), f"--{text} on --{on}, dark: {in_dark:.2f}:1"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_charts_lines_are_colour_blind_safe_and_stand_out_from_the_page(scheme):
    colours = palette(scheme)
    lines = [colours[f"series-{n}"] for n in range(4)]

    assert len(set(lines)) == 4
    assert set(lines) <= OKABE_ITO
    for line in lines:  # WCAG 1.4.11: the parts of a graphic at 3:1 on the page
        assert contrast(line, colours["bg"]) >= GRAPHIC, f"{line} on {colours['bg']}"
