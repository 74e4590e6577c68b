"""What every domain's admin shares (ledger/tables/admin.py, ledger/events/admin.py,
ledger/groups/admin.py, ledger/players/admin.py): lists shown read only, and deletions that go
through the domain's service, which keeps a table, group or tournament with money."""

from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib import admin, messages
from django.contrib.admin import actions
from django.contrib.admin.utils import unquote
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy

from ledger.kept import Kept

__all__ = ["KeepsMoney", "ModelAdmin", "ReadOnly", "TabularInline"]

if TYPE_CHECKING:
    from django.contrib.admin import ModelAdmin, TabularInline
else:
    # django-stubs makes the admin's classes generic in their model; Django's own take no
    # subscript, so at runtime ModelAdmin[Player] is just ModelAdmin.
    class ModelAdmin(admin.ModelAdmin):
        __class_getitem__ = classmethod(lambda cls, model: cls)

    class TabularInline(admin.TabularInline):
        __class_getitem__ = classmethod(lambda cls, models: cls)


Shown = TypeVar("Shown", bound=Model)


class ReadOnly(ModelAdmin[Shown]):
    """Shown, never added, changed or deleted here: what changes them is a service."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Shown | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Shown | None = None) -> bool:
        return False


Deleted = TypeVar("Deleted", bound=Model)


class KeepsMoney(ModelAdmin[Deleted]):
    """Deleted through its domain's service, which keeps one with money (hands, payments): a
    deletion asked for here is refused with a message saying so, on the object's page or the
    list, never a 500 (the models PROTECT those rows, which Django's delete pages would
    otherwise list one by one)."""

    def why_kept(self, obj: Deleted) -> str | None:
        raise NotImplementedError

    def delete(self, obj: Deleted) -> None:
        raise NotImplementedError

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not (refused := self.why_kept(obj)):
            try:
                return super().delete_view(request, object_id, extra_context)
            except Kept as kept:  # hands recorded since the page was shown
                refused = kept.message
        self.message_user(request, refused, messages.ERROR)
        return redirect(f"admin:ledger_{self.opts.model_name}_change", object_id)

    def delete_model(self, request: HttpRequest, obj: Deleted) -> None:
        self.delete(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Deleted]) -> None:
        for obj in queryset:
            self.delete(obj)

    @admin.action(
        permissions=["delete"], description=gettext_lazy("Delete selected %(verbose_name_plural)s")
    )
    def delete_selected(
        self, request: HttpRequest, queryset: QuerySet[Deleted]
    ) -> HttpResponse | None:
        """Django's own action, once none of those selected is kept."""
        refused = [message for obj in queryset if (message := self.why_kept(obj))]
        for message in refused:
            self.message_user(request, message, messages.ERROR)
        if refused:
            return None
        try:
            return actions.delete_selected(self, request, queryset)
        except Kept as kept:
            self.message_user(request, kept.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    actions = ["delete_selected"]
