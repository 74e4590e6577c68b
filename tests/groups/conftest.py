from tests.ledger.verifying import tables  # noqa: F401 - ledger_verify's tests' database
