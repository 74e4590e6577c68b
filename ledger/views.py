from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ledger import selectors


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "ledger/home.html", {"games": selectors.game_list()})
