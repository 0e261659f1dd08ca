"""Root URL configuration."""

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from unoservice import metrics, ops, webclient
from unoservice.throttling import signin_limited, throttled

urlpatterns: list[URLPattern | URLResolver] = [
    # The admin's login form is throttled like the token endpoint: staff may give decks and seeds.
    # Per address, and its failures per username with the token endpoint's.
    path("admin/login/", throttled("admin_login")(signin_limited(admin.site.login))),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/v1/", include("service.urls")),
    path("api/v1/", include("players.urls")),
    path("api/v1/", include("notifications.urls")),
    # Operations: no token, not part of the API schema.
    path("healthz", ops.healthz, name="healthz"),
    path("readyz", ops.readyz, name="readyz"),
    path("metrics", metrics.metrics_view, name="metrics"),
    # The web client (web/): page, service worker, manifest; assets under /app/ (WhiteNoise).
    path("", webclient.index, name="webclient"),
    path("sw.js", webclient.service_worker, name="webclient-sw"),
    path("manifest.webmanifest", webclient.manifest, name="webclient-manifest"),
]

# Django's own error pages answer with the API's error body ({"code", "detail"}) instead of HTML.
handler400 = "unoservice.errors.bad_request"
handler403 = "unoservice.errors.permission_denied"
handler404 = "unoservice.errors.not_found"
handler500 = "unoservice.errors.server_error"
