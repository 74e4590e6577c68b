"""CSV downloads in the API: the body is CSV, errors are JSON as everywhere else."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.throttles import CodeThrottle


class CsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> Any:
        return data


class Download(APIView):
    throttle_classes = [CodeThrottle]
    renderer_classes = [CsvRenderer, JSONRenderer]

    def handle_exception(self, exc: Exception) -> Response:
        # Errors are JSON, as everywhere else in the API, whatever the client accepts.
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)
