"""The ASGI entry point: pages and the tables' streams (ledger.web.push) on one server.

    gunicorn -c deploy/gunicorn.conf.py -k uvicorn_worker.UvicornWorker ledger.asgi

``manage.py serve`` (``make run``) serves everything with it; in production it serves the
streams beside the sync workers of ledger.wsgi (docs/operations.md).
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")

django_application = get_asgi_application()  # sets Django up: imported after it, not before

from ledger.web.push import streams  # noqa: E402

application = streams(django_application)

# A server of streams holds thousands open, each some hundred objects that live as long as its
# page. Python's full collection walks every live object, and ran each time their number grew by
# a quarter: in a full hall it stalled every stream, and every stream being opened, long enough
# to be most of an opening's time at p99 (docs/benchmarks.md). With these thresholds young
# objects are collected far less often, and all of them rarely: what a stream leaves when it
# ends goes with its last reference, and a cycle within minutes.
gc.set_threshold(10_000, 10, 1_000)
