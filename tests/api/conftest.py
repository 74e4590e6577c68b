from tests.tables.conftest import ce_deng  # noqa: F401 - a fixture shared with the web tests

# One test's requests must not throttle the next: tests/conftest.py clears the counts.
