"""The site's address in links that leave it: every mail's links are made here, from
SITE_URL (config/settings.py). Mail is sent by Celery workers too, which have no request
to take a host from, so the address is a setting: `make run` sets it from HOST and PORT
(config/runsite.py), production names its public address (README.md, "Configuration")."""
from django.conf import settings


def absolute(path):
    """`path` (as reverse() gives it, from the site's root) as a link that opens from a mail."""
    return settings.SITE_URL + path
