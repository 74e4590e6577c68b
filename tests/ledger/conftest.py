from tests.tables.conftest import ce_deng  # noqa: F401 - a fixture shared with the table tests
