"""A client's mistake is not the server's (issue 45, item 5c): a body over the limit, a Host the
site does not serve, are logged as WARNINGs, never as ERRORs, which say a bug."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import Client

from tests.tables.conftest import form_post


def _said(caplog) -> list[tuple[str, str]]:
    return [(record.name, record.levelname) for record in caplog.records]


@pytest.mark.parametrize("host", ["evil.example", "ledger.example.org.evil.example", "a b"])
def test_a_host_the_site_does_not_serve_is_a_warning(db, caplog, settings, host):
    settings.ALLOWED_HOSTS = ["ledger.example.org"]
    response = Client().get("/", HTTP_HOST=host)

    assert response.status_code == 400
    assert ("django.security.DisallowedHost", "WARNING") in _said(caplog)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], _said(caplog)


def test_a_form_over_the_size_limit_is_a_warning(ce_deng, caplog, settings):
    padding = "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = Client().post(f"/t/{ce_deng.token}/hands/", form_post(1, padding=padding))

    assert response.status_code == 413
    assert ("django.security.RequestDataTooBig", "WARNING") in _said(caplog)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], _said(caplog)


def test_an_api_body_over_the_size_limit_is_a_warning(db, caplog, settings):
    body = json.dumps({"game": "jie-long", "padding": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE})
    response = Client().post("/api/v1/sessions/", body, content_type="application/json")

    assert response.status_code == 413
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], _said(caplog)
