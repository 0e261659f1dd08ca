"""Routes of the notifications app, under /api/v1/."""

from django.urls import URLPattern, URLResolver, path

from notifications import apis

urlpatterns: list[URLPattern | URLResolver] = [
    path("notifications/read/", apis.NotificationReadApi.as_view(), name="notifications-read"),
    path("webhooks/", apis.WebhookListApi.as_view(), name="webhooks"),
    path("webhooks/<int:webhook_id>/", apis.WebhookDetailApi.as_view(), name="webhook"),
    path(
        "webhooks/<int:webhook_id>/enable/",
        apis.WebhookEnableApi.as_view(),
        name="webhook-enable",
    ),
    path(
        "webhooks/<int:webhook_id>/deliveries/",
        apis.WebhookDeliveriesApi.as_view(),
        name="webhook-deliveries",
    ),
    path("push/key/", apis.PushKeyApi.as_view(), name="push-key"),
    path("push/kinds/", apis.PushKindsApi.as_view(), name="push-kinds"),
    path("push/subscriptions/", apis.PushSubscriptionListApi.as_view(), name="push-subscriptions"),
    path(
        "push/subscriptions/<int:subscription_id>/",
        apis.PushSubscriptionDetailApi.as_view(),
        name="push-subscription",
    ),
]
