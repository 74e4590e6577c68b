"""gunicorn for the ledger: `gunicorn -c deploy/gunicorn.conf.py ledger.wsgi`.

One sync worker per core (measured on two cores: more workers, or threads, lengthened the
hall's tail); the app keeps no state in its processes, so more servers can share one
PostgreSQL. docs/benchmarks.md has the figures.

Only ever behind nginx, which reads each request whole before passing it on: a sync worker is
held by a slow client for as long as it sends (docs/operations.md, "Slow clients"). Without
nginx, `manage.py serve` (uvicorn's workers) is the server.
"""

import gc
import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count()))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
timeout = 30
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then. The app is loaded once in the master and forked, so a new
# worker is ready at once: loading Django in each new worker stalled the whole hall every few
# seconds under load.
preload_app = True
max_requests = 50000
max_requests_jitter = 5000
control_socket_disable = True  # gunicorn 23+ would otherwise write ~/.gunicorn/
# Off unless asked for: nginx already logs every request, and a line per poll from 2,400
# phones costs the workers CPU they need in a full hall.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
forwarded_allow_ips = "127.0.0.1"


def when_ready(server):
    """The app is loaded in the master (preload_app); before the workers fork, move its objects
    out of the garbage collector's reach. Else each worker's full collections walk all of
    Django again, a stall felt by every phone waiting behind that worker."""
    gc.freeze()
