from tests.ledger.verifying import tables  # noqa: F401 - ledger_verify's tests' database
from tests.tables.conftest import ce_deng  # noqa: F401 - a fixture shared with the table tests
