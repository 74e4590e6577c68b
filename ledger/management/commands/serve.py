"""Serve the ledger on the local network, and say which address phones open.

gunicorn with uvicorn's workers, on ledger.asgi: the pages and the tables' streams on one port
(a table of friends is far from what a worker can serve; docs/operations.md has a server for
an event, where the pages have sync workers of their own).
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser


def lan_address() -> str | None:
    """The address this machine has on its local network, if it has one.

    Connecting a UDP socket only picks a route; no packet is sent.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never reached
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


class Command(BaseCommand):
    help = (
        "Serve the ledger to phones on the same Wi-Fi (gunicorn and uvicorn on 0.0.0.0:8000, "
        "or --port; make run PORT=8080)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=2)

    def handle(self, *args: Any, port: int, workers: int, **options: Any) -> None:
        address = lan_address()
        self.stdout.write(self.style.SUCCESS("The domino ledger is running."))
        self.stdout.write(f"  On this machine:      http://localhost:{port}/")
        if address:
            self.stdout.write(f"  Phones on this Wi-Fi: http://{address}:{port}/")
        else:
            self.stdout.write("  No local network found: phones cannot reach this machine yet.")
        self.stdout.write("Stop it with Ctrl+C.")
        self.stdout.flush()
        command = [
            sys.executable, "-m", "gunicorn", "ledger.asgi",
            "--worker-class", "uvicorn_worker.UvicornWorker",
            "--bind", f"0.0.0.0:{port}",
            "--workers", str(workers),
            "--no-control-socket",
            "--access-logfile", "-",
        ]  # fmt: skip
        os.execv(sys.executable, command)
