"""What a domain's service raises when asked to delete what the ledger keeps, as the admin's
shared pages (ledger.web.admin) and the API (ledger.api.errors) say it: below both, so that the
web catches it without importing a domain."""


class Kept(Exception):
    """A table, group or tournament with hands or payments is not deleted: they are the
    ledger's history, and a hand or payment is voided, never deleted. ``message`` says so in
    the reader's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
