import pytest

from ledger.events import services
from tests.events.test_events import TWELVE
from tests.tables.conftest import ce_deng  # noqa: F401 - a fixture shared with the web tests


@pytest.fixture
def event(db):
    event = services.event_create(
        name="Club night", game="jie-long", options={"stake": 1}, rounds=3, seed="club"
    )
    for name in TWELVE:
        services.entry_add(event=event, name=name, organiser=True)
    return event
