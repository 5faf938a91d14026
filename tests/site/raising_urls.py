"""The site's URLs plus one view that fails, for the tests of the 500 page."""
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def fails(request):
    raise RuntimeError("a fault on purpose")


urlpatterns = [path("fails-on-purpose/", fails), *site_urlpatterns]
