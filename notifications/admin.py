from django.contrib import admin

from notifications.models import Notification, PushSubscription, Webhook, WebhookDelivery


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "kind", "game", "at", "read", "dispatched")
    list_filter = ("kind", "read", "dispatched")
    raw_id_fields = ("player", "game")


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "url", "failing_since", "disabled_at")
    exclude = ("secret",)
    raw_id_fields = ("player",)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ("id", "webhook", "notification", "attempt", "at", "status", "response_code")
    list_filter = ("status",)
    raw_id_fields = ("webhook", "notification")


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "created_at")
    raw_id_fields = ("player",)
