"""makemessages that also collects the scoring engine's text for translation.

The engine stays free of Django: its messages are the first argument of ``ScoringError``, and
the text it gives an app to show (game options, how results are entered) is marked with
``scoring.text.N_``, and the words inside a message are ``scoring.text.Phrase``; xgettext is
told to read all three as translatable strings. The migrations' frozen copy of the engine
(ledger/migrations/_frozen) is left out: nobody reads its messages, and a message the engine
drops must leave the catalogs.
"""

from typing import Any

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=ScoringError",
        "--keyword=N_",
        "--keyword=Phrase",
    ]

    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*options["ignore_patterns"], "*/migrations/_frozen"]
        super().handle(*args, **options)
