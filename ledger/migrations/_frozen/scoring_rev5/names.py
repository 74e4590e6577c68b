# A frozen copy of scoring/names.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Players' names: when two spellings are one person, and which names are refused.

Two spellings are one name when they agree after Unicode NFKC (fullwidth letters, the Kelvin
sign and other compatibility forms become the plain ones), case folding and collapsing spaces:

>>> canonical("  Ａｎｎａ   Li ") == canonical("anna li") == "anna li"
True
>>> canonical("\\u212aim") == canonical("KIM")
True
>>> canonical("İlkay") == canonical("Ilkay")  # a dotted capital İ is another letter
False

Names that would show one thing and be another are refused: control characters, invisible
format characters (zero-width spaces and joiners, direction overrides), line separators, and
every code point Unicode says a renderer may show nothing for (Default_Ignorable_Code_Point:
the Hangul fillers, the combining grapheme joiner, variation selectors, tags), with the
braille blank, which shows nothing either. "Anna" and "Anna" with a Hangul filler after it
would otherwise sit at one table as two people, and be told apart by nobody.

>>> check("张伟", "seating[0]")  # no error
>>> check("Bob\\u202e", "seating[1]")
Traceback (most recent call last):
...
scoring.errors.ScoringError: 'Bob\\u202e' holds invisible or control characters: type the name again
>>> check("Bo\\u3164", "seating[1]")  # a Hangul filler after it
Traceback (most recent call last):
...
scoring.errors.ScoringError: 'Bo\\u3164' holds invisible or control characters: type the name again
"""

from __future__ import annotations

import unicodedata

import regex

from .errors import ScoringError

# Unicode categories: control, format (zero-width, direction marks and overrides), surrogate,
# private use, line and paragraph separators.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
# Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt), as the regex
# module keeps it with its Unicode data: what shows as nothing, whatever its category (U+3164
# HANGUL FILLER is a letter, U+034F COMBINING GRAPHEME JOINER and the variation selectors are
# marks). Python's unicodedata has no such property. U+2800 BRAILLE PATTERN BLANK is not in
# it (it is a braille cell, a symbol) but renders as a blank all the same, so it is refused
# with them.
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\u2800]")


def canonical(name: str) -> str:
    """The form two spellings of one name share (NFKC, case-folded, single spaces)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(unicodedata.normalize("NFKC", folded).split())


def tidy(name: str) -> str:
    """The name as it is shown: as typed, with the spaces at its ends and runs of spaces
    inside collapsed.

    >>> tidy("  Anna   Li ")
    'Anna Li'
    """
    return " ".join(name.split())


def check(name: str, path: str, limit: int | None = None) -> None:
    """Raise ScoringError (at ``path``) if ``name``, tidied, cannot be a player's name;
    ``limit``: an app's longest name, if it has one."""
    if not name:
        raise ScoringError("a player's name cannot be empty", path)
    hidden = any(unicodedata.category(char) in _HIDDEN for char in name)
    if hidden or _INVISIBLE.search(name):
        raise ScoringError(
            "{name} holds invisible or control characters: type the name again",
            path,
            name=repr(name),
        )
    if limit is not None and len(name) > limit:
        raise ScoringError(
            "{name} is too long: at most {limit} characters", path, name=repr(name), limit=limit
        )
