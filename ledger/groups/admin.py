"""A group in the admin: one with money (hands at its tables, payments) is kept; a payment
is read only, voided through the service, never edited or deleted."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ledger.groups import services as group_services
from ledger.groups.models import Group, Payment, PaymentVoid
from ledger.web.admin import KeepsMoney, ReadOnly


@admin.register(Group)
class GroupAdmin(KeepsMoney[Group]):
    list_display = ["name", "game", "created"]
    list_filter = ["game"]
    readonly_fields = ["token", "organiser_token"]
    search_fields = ["name"]

    def why_kept(self, obj: Group) -> str | None:
        return group_services.why_group_kept(obj)

    def delete(self, obj: Group) -> None:
        group_services.group_delete(group=obj)


@admin.register(Payment)
class PaymentAdmin(ReadOnly[Payment]):
    """Read only: a payment is recorded once from the group's page or the API, and voided
    there or with the action here (groups.services.payment_void, which keeps it on record and
    adds a row that says who voided it, when and why), never edited or deleted."""

    list_display = ["__str__", "group", "created", "voided"]
    list_filter = [("void", admin.EmptyFieldListFilter)]
    list_select_related = ["group", "payer", "payee", "void"]
    actions = ["void_selected"]

    def has_void_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("ledger.change_payment")

    @admin.action(permissions=["void"], description=gettext_lazy("Void selected payments"))
    def void_selected(self, request: HttpRequest, queryset: QuerySet[Payment]) -> None:
        for payment in queryset.order_by("pk"):
            try:
                group_services.payment_void(
                    payment=payment,
                    device=f"admin: {request.user.get_username()}"[:40],
                    reason=_("voided in the admin"),
                )
            except group_services.Refused as refused:
                message = _("Payment #{pk}: {reason}").format(pk=payment.pk, reason=refused)
                self.message_user(request, message, messages.ERROR)
            else:
                self.message_user(request, _("Payment #{pk} voided.").format(pk=payment.pk))


@admin.register(PaymentVoid)
class PaymentVoidAdmin(ReadOnly[PaymentVoid]):
    """Who voided a payment, when and why: written by groups.services.payment_void only."""

    list_display = ["payment", "device", "reason", "at"]
    list_select_related = ["payment__payer", "payment__payee"]
