"""Settings for the domino ledger. Every variable is listed in deploy/env.example."""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from ledger.web.env import (
    envbool,
    envchoice,
    envint,
    envlist,
    envnetworks,
    envzone,
    local_secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR / "var"))

DEBUG = envbool("DEBUG", False)
if os.environ.get("DATABASE_URL") and not os.environ.get("SECRET_KEY"):
    # Several app servers share one database and must sign with the same key.
    raise ImproperlyConfigured("SECRET_KEY must be set when DATABASE_URL is (deploy/env.example)")
SECRET_KEY = os.environ.get("SECRET_KEY") or local_secret_key(DATA_DIR)
# The embedded setup is reached by phones at whatever address the machine has on the Wi-Fi.
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["*"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

# Behind HTTPS (an event server, deploy/): secure cookies, HSTS, redirects. The embedded
# setup on a home Wi-Fi speaks plain HTTP, so these are off unless HTTPS is set.
HTTPS = envbool("HTTPS", False)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # set by deploy/nginx
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"  # table links carry their token: never leak it
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# A phone's session holds whose phone it is, the groups it belongs to and what it organises:
# kept a year from when it last changed, not Django's two weeks, after which a group that meets
# every other week would find every phone asking again whose it is.
SESSION_COOKIE_AGE = 365 * 24 * 3600
# Nothing inline and nothing from elsewhere: scripts and styles are our own static files (htmx's
# injected indicator style is turned off in base.html), so injected markup cannot run or restyle.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],  # Swagger UI's icons
        "manifest-src": [SELF],  # ledger/web/pwa.py
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI from our own static files, no CDN
    "ledger",
]

MIDDLEWARE = [
    # Around everything: what a request stored is noted until its answer is made, so that an
    # outage after the commit (a read back, a session saved) says so (views.server_error).
    "ledger.web.views.StoredMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "ledger.tables.middleware.LivePollMiddleware",  # the live poll's 204, before everything below
    "csp.middleware.CSPMiddleware",  # not for a bodiless 204: it has nothing to police
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "ledger.web.middleware.GuessLimitMiddleware",
]

# The API (ledger/api/): JSON only; organiser accounts authenticate with a token, players
# with a table's join token in the path.
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.TokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["ledger.api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "ledger.api.errors.exception_handler",
    "URL_FORMAT_OVERRIDE": None,  # the Accept header chooses JSON or CSV, not ?format=
    "DEFAULT_THROTTLE_RATES": {
        "writes": os.environ.get("API_WRITE_RATE", "120/min"),  # per account, else per address
        "codes": os.environ.get("API_CODE_RATE", "600/min"),  # per address
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Domino ledger API",
    "DESCRIPTION": (
        "Scoring and table ledgers for Chinese domino games. Errors are always "
        '`{"error": "...", "path": "..."}`. See docs/api.md in the repository.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    # No badge from swagger.io's online validator: it would send it the schema's address. No
    # deep links: Swagger UI puts each one, a link, inside its operation's button, and a
    # control inside a control is lost to screen readers (axe-core's nested-interactive).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "validatorUrl": None},
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "DirectionEnum": ["ccw", "cw"],
        "SpecialsEnum": ["pass", "head_seven", "tail_eight", "head_six", "tail_seven", "suanzhang"],
    },
}

# What one request may ask of a worker: POST /api/v1/score scores at most this many hands (an
# evening is about a hundred), and a body is at most 1 MB; a table keeps at most this many hands.
MOST_HANDS_PER_REQUEST = envint("MOST_HANDS_PER_REQUEST", 2_000)
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
MOST_HANDS_PER_TABLE = envint("MOST_HANDS_PER_TABLE", 5_000)

# A live poll that waited longer than this (ms) before a worker took it is shed: 503 with
# Retry-After, which the page honours (ledger/web/middleware.py). 0: never.
SHED_POLLS_AFTER_MS = envint("SHED_POLLS_AFTER_MS", 1000)
# The live pages' designed waits (how often a page polls, how soon it asks again after a busy
# server's Retry-After or a broken stream, how long a refused stream waits), in percent of their
# design: 100 in use. The browser tests run them at 25 rather than sleep through a 10 s poll.
LIVE_WAITS_PERCENT = envint("LIVE_WAITS_PERCENT", 100, least=1)
# Wrong links of any kind (pages, API, streams) one address may try in 10 minutes
# (ledger/web/middleware.py).
GUESS_LIMIT = envint("GUESS_LIMIT", 30)
# The streams one server process holds, and those one client address holds in it; past either,
# the next is refused (503, 429) and its page polls (ledger/web/push.py, docs/operations.md).
STREAMS_PER_PROCESS = envint("STREAMS_PER_PROCESS", 10_000, least=0)
STREAMS_PER_ADDRESS = envint("STREAMS_PER_ADDRESS", 1_000, least=0)
# Sign-in attempts (the admin's, the API's auth/token/) one address may make in 10 minutes.
LOGIN_LIMIT = envint("LOGIN_LIMIT", 10)
# Proxies whose X-Forwarded-For is believed (ledger/web/limits.py): nginx's address. Default: none,
# so a client's address is the one it connected from, whatever headers it sends.
TRUSTED_PROXIES = envnetworks("TRUSTED_PROXIES")

# The cache of the tables' live parts (ledger/tables/live.py): each process's own memory, or
# Redis with CACHE_URL, which every worker and server then shares. In the database (Django's
# database cache) each part cost eleven round trips and a count of the table's rows, more than
# rendering it again (docs/benchmarks.md). The limits count in a table of their own
# (ledger/web/limits.py).
_cache_url = os.environ.get("CACHE_URL", "")
CACHES: dict[str, dict[str, Any]]
if not _cache_url:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            # Django's 300 would drop the live parts of a hall with a few hundred tables.
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    }
elif _cache_url.startswith(("redis://", "rediss://", "unix://")):
    if find_spec("redis") is None:
        raise ImproperlyConfigured("CACHE_URL names Redis: install its client, pip install redis")
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _cache_url,
        }
    }
else:
    raise ImproperlyConfigured(f"CACHE_URL must be unset or redis://..., not {_cache_url!r}")

# Errors with their tracebacks, and warnings, go to stderr, where gunicorn and systemd's journal
# keep them; with DEBUG off, Django alone would log a 500 nowhere (its console handler needs
# DEBUG, and no ADMINS are mailed).
LOG_LEVEL = envchoice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name} {process}: {message}", "style": "{"}
    },
    # Past capacity, each shed poll's 503 is counted, not logged (ledger.web.shedding).
    "filters": {
        "not_shed": {"()": "ledger.web.shedding.NotShed"},
        "client_mistake": {"()": "ledger.web.logs.ClientMistake"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        }
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        "django.request": {"filters": ["not_shed"]},
        # A client's mistake, answered 400 or 413: a WARNING, not the ERROR Django says.
        **{
            f"django.security.{mistake}": {"filters": ["client_mistake"]}
            for mistake in (
                "DisallowedHost",
                "RequestDataTooBig",
                "TooManyFieldsSent",
                "TooManyFilesSent",
            )
        },
    },
}

ROOT_URLCONF = "ledger.urls"
WSGI_APPLICATION = "ledger.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "ledger.web.shedding.live_waits",
            ],
        },
    },
]

# PostgreSQL (psycopg 3) when DATABASE_URL is set, e.g. postgres://user:pass@host:5432/ledger;
# otherwise the embedded SQLite file, in WAL mode so that reads never wait for a save.
# Mapping, not dict: dj_database_url's answer is a TypedDict, which a dict[str, Any] is not.
DATABASES: dict[str, Mapping[str, Any]]
if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"],
            # Keep connections open and check them before use: opening one per request costs
            # more than most requests' own work, and a restarted server must not break requests.
            conn_max_age=envint("CONN_MAX_AGE", 600),
            conn_health_checks=True,
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "ledger.sqlite3",
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,  # seconds a save waits for another phone's save to finish
            },
            # Tests use a file too: an in-memory database fails concurrent writers at once
            # instead of letting them wait, which is not how the app runs.
            "TEST": {"NAME": DATA_DIR / "test-ledger.sqlite3"},
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文"), ("zh-hant", "繁體中文"), ("ko", "한국어")]
LOCALE_PATHS = [BASE_DIR / "ledger" / "locale"]
# The clock a table's time is read and shown on when no phone said which (a tournament's
# tables, a script's clock time without an offset): where the games are played.
TIME_ZONE = envzone("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
