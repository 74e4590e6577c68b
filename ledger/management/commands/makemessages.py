"""makemessages that also collects the scoring engine's messages for translation.

The engine stays free of Django: its messages are the first argument of ``ScoringError``,
which xgettext is told to read as a translatable string.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ScoringError"]
