# A frozen copy of scoring/text.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""English text that an app shows and translates: marked here, translated there.

The engine speaks English and imports no translation library. ``N_`` marks a string so that
xgettext collects it (run it with ``--keyword=N_``, as ``--keyword=ScoringError`` and
``--keyword=Phrase`` collect the engine's messages); at run time it gives the string back
unchanged, and the app that shows it passes it through its own ``gettext``.

>>> N_("Stake")
'Stake'
"""

from __future__ import annotations


def N_(text: str) -> str:
    """Mark ``text`` for translation; return it unchanged."""
    return text


class Phrase(str):
    """Words inside a message that are translated on their own: the reason in "Bob cannot have
    9 tiles here (each player holds 8 tiles)", or the set of tiles a game plays with. It reads as
    its English text; ``template`` and ``params`` let an app translate it first, then fill it
    in, as it does with the message around it.

    >>> why = Phrase("each player holds {count} tiles", count=8)
    >>> why, why.template, why.params
    ('each player holds 8 tiles', 'each player holds {count} tiles', {'count': 8})
    """

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, **params: object) -> Phrase:
        phrase = super().__new__(cls, template.format(**params) if params else template)
        phrase.template = template
        phrase.params = params
        return phrase
