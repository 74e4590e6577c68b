"""The docs say the body limit the code keeps (issue 45, item 5d: docs/api.md said 2.5 MB,
Django's default, where settings.py keeps 1 MB)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.conf import settings
from rest_framework.test import APIClient

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _said(path: str, pattern: str) -> list[float]:
    return [float(size) for size in re.findall(pattern, (DOCS / path).read_text())]


def test_the_docs_say_the_body_limit_the_settings_keep():
    megabytes = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 2**20
    assert _said("api.md", r"a body over ([\d.]+) MB") == [megabytes]
    assert _said("operations.md", r"a request body is\s+at\s+most ([\d.]+) MB") == [megabytes]


def test_a_body_at_the_limit_said_is_taken_and_one_byte_more_is_413(db):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = json.dumps({"game": "jie-long", "seating": ["Anna", "Bob"], "first": "Anna"})
    at_limit = body[:-1] + " " * (limit - len(body)) + "}"
    api = APIClient()

    taken = api.post("/api/v1/sessions/", at_limit, content_type="application/json")
    over = api.post("/api/v1/sessions/", at_limit + " ", content_type="application/json")

    assert taken.status_code == 201
    assert over.status_code == 413
