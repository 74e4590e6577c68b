"""makemessages that also collects the scoring engine's text for translation.

The engine stays free of Django: its messages are the first argument of ``ScoringError``, and
the text it gives an app to show (game options, how results are entered) is marked with
``scoring.text.N_``, and the words inside a message are ``scoring.text.Phrase``; xgettext is
told to read all three as translatable strings.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=ScoringError",
        "--keyword=N_",
        "--keyword=Phrase",
    ]
