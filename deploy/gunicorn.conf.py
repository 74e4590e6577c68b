"""gunicorn for the ledger: `gunicorn -c deploy/gunicorn.conf.py ledger.wsgi`.

Two sync workers per core saturate a small server (threads measured no gain on two cores);
the app keeps no state in its processes, so more servers can share one PostgreSQL.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count()))
# Threads let a worker answer polls while another request waits for the disk (a commit).
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = 5000  # recycle workers now and then
max_requests_jitter = 500
control_socket_disable = True  # gunicorn 23+ would otherwise write ~/.gunicorn/
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = "127.0.0.1"
