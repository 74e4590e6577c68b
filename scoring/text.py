"""English text that an app shows and translates: marked here, translated there.

The engine speaks English and imports no translation library. ``N_`` marks a string so that
xgettext collects it (run it with ``--keyword=N_``, as ``--keyword=ScoringError`` collects the
engine's messages); at run time it gives the string back unchanged, and the app that shows it
passes it through its own ``gettext``.

>>> N_("Stake")
'Stake'
"""

from __future__ import annotations


def N_(text: str) -> str:
    """Mark ``text`` for translation; return it unchanged."""
    return text
