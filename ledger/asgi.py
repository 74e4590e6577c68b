"""The ASGI entry point: pages and the tables' streams (ledger.web.push) on one server.

    gunicorn -c deploy/gunicorn.conf.py -k uvicorn_worker.UvicornWorker ledger.asgi

``manage.py serve`` (``make run``) serves everything with it; in production it serves the
streams beside the sync workers of ledger.wsgi (docs/operations.md).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")

django_application = get_asgi_application()  # sets Django up: imported after it, not before

from ledger.web.push import streams  # noqa: E402

application = streams(django_application)
