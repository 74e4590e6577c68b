from functools import partial

from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Domino ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Wire the live pages' streams (ledger.web.push) to the domains, in every process
        (pages, streams, commands, tests), whichever request comes first: the streams hear the
        changes the domains announce (ledger.changes), and are told what each kind of link
        opens, how its changes are read and how a table's live part is rendered; and the answers
        hear what each request stored."""
        from ledger import changes
        from ledger.events import selectors as events
        from ledger.groups import selectors as groups
        from ledger.tables import live
        from ledger.tables import selectors as tables
        from ledger.web import push, views

        push.announce_changes()
        # An outage after a request's commit is answered as stored (views.server_error).
        changes.stored.connect(views.heard_stored, dispatch_uid="ledger.web.views.heard_stored")
        push.register("t", "table", push.Tables(tables.watched, tables.revisions, live.part))
        event_marks = partial(tables.marks, "round__event")
        push.register("e", "event", push.Around(events.watched, event_marks))
        push.register("g", "group", push.Around(groups.watched, partial(tables.marks, "group")))
