"""The app's URLs and error handlers, plus one view that fails: for the 500 tests."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from ledger.urls import handler400, handler404, handler500, urlpatterns

__all__ = ["handler400", "handler404", "handler500", "urlpatterns"]


def fail(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


urlpatterns = [path("api/v1/fail/", fail), path("fail/", fail), *urlpatterns]
