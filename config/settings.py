"""Settings, read from the environment.

Every deployment difference is an environment variable (see README.md):
DATABASE_URL, REDIS_URL, SECRET_KEY, DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS,
MOVE_TIME_LIMIT, EMAIL_HOST and its friends. With none of them set the site
runs on embedded defaults: a SQLite file under var/ and a private Redis that
`manage.py runsite` (or the test suite) starts on a unix socket.
"""
import ipaddress
import os
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# pytest (and `manage.py test`) get a fixed key and their own throwaway resources.
TESTING = "pytest" in sys.modules or sys.argv[1:2] == ["test"]


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=()):
    value = os.environ.get(name, "")
    return [item.strip() for item in value.split(",") if item.strip()] or list(default)


DEBUG = env_bool("DEBUG")

_DEV_SECRET_KEY = "dev-only-insecure-key-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or ""
if not SECRET_KEY:
    if DEBUG or TESTING:
        SECRET_KEY = _DEV_SECRET_KEY
    else:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
elif SECRET_KEY == _DEV_SECRET_KEY and not (DEBUG or TESTING):
    raise ImproperlyConfigured("The development SECRET_KEY is refused when DEBUG is off.")

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if (DEBUG or TESTING) else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "channels",
    "django_htmx",
    "games",
    "accounts",
    "lobby",
    "social",
    "chat",
]

MIDDLEWARE = [
    "config.middleware.ContentLengthMiddleware",  # first: every answer, refusals too, says its length
    "config.middleware.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "infra.client_address.UntrustedProxyMiddleware",  # logs a proxy missing from TRUSTED_PROXIES
    "config.middleware.FormEncodingMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "social.languages.RememberLanguageMiddleware",  # the language of a person's mail
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # answers a refused sign-in (accounts.views.sign_in_refused)
    "config.error_pages.SiteErrorPagesMiddleware",  # the site's 404 and 500 pages with DEBUG on too
    "config.body_limit.BodyTooLargeMiddleware",  # answers a body config.body_limit refused
    "infra.write_waits.WritesBusyMiddleware",  # last: answers a write the database kept waiting
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.site",
            ],
        },
    },
]

FORM_RENDERER = "config.forms.SiteFormRenderer"

# Database: DATABASE_URL, or a SQLite file with WAL and IMMEDIATE transactions so
# concurrent writers (web, worker) wait for each other instead of failing.
# Connections are kept (DATABASE_CONN_MAX_AGE seconds, checked before reuse): daphne
# serves requests from a fixed pool of REQUEST_THREADS threads (config.request_threads),
# each holding one connection, so a process holds about REQUEST_THREADS + 6 of them.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "600")),
        conn_health_checks=True,
    )
}
REQUEST_THREADS = int(os.environ.get("REQUEST_THREADS", "4"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file, not memory: tests start daphne and Celery processes that share it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"reversi-test-{os.getpid()}.sqlite3")
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes checks every authentication (our sign-in page and the admin's) first.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Redis: channel layer, Celery broker and results. Without REDIS_URL the project
# uses a private Redis on a unix socket that its launcher starts (config.embedded_redis).
EMBEDDED_REDIS = not os.environ.get("REDIS_URL")
if EMBEDDED_REDIS:
    REDIS_URL = "unix://" + str(
        Path(tempfile.gettempdir()) / f"reversi-redis-{os.getpid()}" / "redis.sock"
    )
else:
    REDIS_URL = os.environ["REDIS_URL"]


def celery_redis_url(url):
    """Celery (kombu) spells a unix socket `redis+socket://`; redis-py spells it `unix://`."""
    if url.startswith("unix://"):
        return "redis+socket://" + url[len("unix://"):]
    return url


# The channel layer: channels-redis' Redis pub/sub layer sends a group message once to
# each process with pages in the group, and carried spectators and moves better than
# its default layer (benchmarks/README.md, "Spectators"); config.channel_layer
# makes it meet a Redis outage as the default layer does (tests/site/test_faults.py).
# CHANNEL_LAYER=core: the default layer, which queues a copy of each push per page in Redis.
CHANNEL_LAYER = os.environ.get("CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER == "pubsub":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.PubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30}]},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # Raised from the defaults (100): over capacity, group messages are
                # silently dropped and the pool refuses connections under load.
                # redis-py 8 times reads out after 5 s by default, exactly the length of
                # channels-redis' blocking receive: idle websockets then crash.
                "hosts": [{"address": REDIS_URL, "max_connections": 1000, "socket_timeout": 30}],
                # Messages a process has not taken yet, per process (its pages share one
                # inbox): 1000 holds seconds of pushes at the saturation of
                # benchmarks/roundtrip.py, where "never arrived" stays 0
                # (benchmarks/README.md, "A move at an online table").
                "capacity": 1000,
                # A push older than this is dropped unread: by then the page has
                # reconnected and got the whole state anyway.
                "expiry": 30,
                # A socket that never said goodbye (its daphne was killed) leaves its group
                # after this long. It must outlast any page left open: a game or lobby tab
                # open for longer stops getting pushes until it reconnects.
                "group_expiry": 86400,
            },
        }
    }

CELERY_BROKER_URL = celery_redis_url(REDIS_URL)
CELERY_RESULT_BACKEND = celery_redis_url(REDIS_URL)
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies is redelivered
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis going away never ends a worker: it reconnects every 2 s at most, forever
# (config.broker.Consumer), and sweeps overdue games as soon as it is back.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "config.broker:Consumer"
# Tasks under way when the connection drops are redelivered (acks_late); stop them
# rather than run them twice. Every move task is guarded by its ply anyway.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A message a dead worker held comes back after this long: far longer than any
    # task waits or runs (a computer move waits COMPUTER_PACE, time-outs queue no
    # message at all), so a message is never delivered twice while its worker lives.
    "visibility_timeout": 300,
    "socket_connect_timeout": 5,
    "queue_order_strategy": "priority",
}
CELERY_RESULT_EXPIRES = 3600
# Nothing waits for a move task's result. Keeping them would also make every
# apply_async subscribe to the result store first, which fails (and once failed,
# asks for a restart) while Redis is away; only lobby.announce keeps its result.
CELERY_TASK_IGNORE_RESULT = True
# Four queues, so that a flood of computer games never delays a time-out or a table
# (README.md, "Queues"): every worker without -Q consumes all of them, always asking
# Redis in this order (queue_order_strategy "priority": BRPOP takes the first
# non-empty list, where kombu's default round robin would rotate them), and
# `make run` / the Procfile add a worker of its own for the first two, at full CPU
# priority, while the worker of every queue runs niced (config.runsite).
CELERY_TASK_QUEUES = {name: {} for name in ("timeouts", "tables", "visitors", "analysis")}
CELERY_TASK_DEFAULT_QUEUE = "tables"
CELERY_TASK_ROUTES = {
    "games.timeout_move": {"queue": "timeouts"},
    "games.sweep_overdue": {"queue": "timeouts"},  # it queues the time-outs the clocks missed
    "games.credit_downtime": {"queue": "timeouts"},  # the time-outs wait for it (games.downtime)
    "games.table_move": {"queue": "tables"},  # the computer's seat, or a leaver's, at a table
    "lobby.announce": {"queue": "tables"},
    "games.computer_move": {"queue": "visitors"},  # games against the computer
    "games.analyse_game": {"queue": "analysis"},
    "social.lapse_challenges": {"queue": "tables"},
    "social.mail_notification": {"queue": "tables"},
}
CELERY_BEAT_SCHEDULE = {
    # The safety net behind every computer-move task (time-outs have each worker's
    # clock, games.deadlines, and the sweep queues them too).
    "sweep-overdue-games": {"task": "games.sweep_overdue", "schedule": 10.0},
    # Challenges nobody answered in time lapse (social.challenges).
    "lapse-challenges": {"task": "social.lapse_challenges", "schedule": 30.0},
    # Open lobby pages: each table's age, and abandoned tables off the list (lobby.host_presence).
    "refresh-lobby": {"task": "lobby.refresh_lobby", "schedule": 60.0},
}
CELERY_IMPORTS = ("lobby.announcements", "social.tasks")

# Sessions survive restarts (guests' games belong to their session).
SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:  # fast hashing keeps sign-in heavy tests quick
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365  # the language a visitor chose outlives the browser session
TIME_ZONE = "UTC"
USE_I18N = True
FORMAT_MODULE_PATH = "config.formats"  # unambiguous dates in the page's language, drawn on the server
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"  # collectstatic writes here in production
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or TESTING
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG or TESTING

# Password-reset mail: printed to the console unless a mail server is configured
# (EMAIL_HOST, and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS as needed).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
if os.environ.get("EMAIL_FILE_PATH"):  # with EMAIL_BACKEND=django.core.mail.backends.filebased.EmailBackend
    EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587" if env_bool("EMAIL_USE_TLS", True) else "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "reversi@localhost")
# The site's address in every mail's links (infra/site_url.py), e.g. https://reversi.example.
# `make run` sets it from HOST and PORT; unset, development links to make run's default
# address and production to the first allowed host over HTTPS.
SITE_URL = (os.environ.get("SITE_URL") or ("http://127.0.0.1:8000" if DEBUG or TESTING
                                           else f"https://{(ALLOWED_HOSTS or ['localhost'])[0]}")).rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured("SITE_URL must start with http:// or https://, e.g. https://reversi.example.")

# Production hardening whenever DEBUG is off (behind a TLS-terminating proxy).
if not DEBUG and not TESTING:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # A load balancer checks health over plain HTTP: a redirect would read as a failure.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "3600"))
    # Off unless the operator knows every subdomain serves HTTPS (and, for preload,
    # sets SECURE_HSTS_SECONDS to a year): both are hard to take back.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# Seconds a player has for a move before the computer moves for them (docs/rules.md §11).
MOVE_TIME_LIMIT = float(os.environ.get("MOVE_TIME_LIMIT", "60"))
# A move that left the page before the deadline may arrive this much later; one
# that arrives later still is refused and the computer moves for the player.
MOVE_TIME_GRACE = float(os.environ.get("MOVE_TIME_GRACE", "2"))
# Seconds the player to move must have been gone (no page of theirs open: games.gone)
# before their opponent may claim the win or let the computer play for them.
PLAYER_GONE_SECONDS = float(os.environ.get("PLAYER_GONE_SECONDS", "30"))

# Rows a page of the lobby shows in each section (open tables, playing now).
LOBBY_ROWS = int(os.environ.get("LOBBY_ROWS", "50"))
# Tables one person may have waiting for players at once (lobby.actions): one account
# must not fill the lobby.
WAITING_TABLES_PER_PERSON = int(os.environ.get("WAITING_TABLES_PER_PERSON", "3"))
# Accounts one client address may create a day (accounts.throttle): each one multiplies
# every per-account limit.
SIGN_UPS_PER_ADDRESS = int(os.environ.get("SIGN_UPS_PER_ADDRESS", "5"))

# Who is online, where (infra.presence): each page's socket says so every
# PRESENCE_HEARTBEAT seconds; one not heard of for PRESENCE_STALE seconds (its daphne
# was killed) no longer counts.
PRESENCE_HEARTBEAT = float(os.environ.get("PRESENCE_HEARTBEAT", "5"))
PRESENCE_STALE = float(os.environ.get("PRESENCE_STALE", str(3 * PRESENCE_HEARTBEAT)))

# Games against the computer that one visitor (account or guest session), and one
# address, may have it thinking on at once (games.thinking); a further move waits.
COMPUTER_THINKING_PER_VISITOR = int(os.environ.get("COMPUTER_THINKING_PER_VISITOR", "2"))
COMPUTER_THINKING_PER_ADDRESS = int(os.environ.get("COMPUTER_THINKING_PER_ADDRESS", "4"))

# Asks for a game's events (GET /games/<id>/events) one client address may make a
# minute of games it has no seat in (games.events_limit); its players are not limited.
GAME_EVENTS_ASKS_PER_MINUTE = int(os.environ.get("GAME_EVENTS_ASKS_PER_MINUTE", "60"))

# The largest request body taken (config.body_limit): a game record is at most 64 KB
# (games.review.records.MAX_RECORD_BYTES) and every other form far less.
MAX_REQUEST_BODY = int(os.environ.get("MAX_REQUEST_BODY", str(256 * 1024)))

# Open websockets one client address may hold on a daphne process, every route together
# (config.socket_limit): a page holds one to three (a table page: the site's, the game's
# and the table's), so this is some thirty to a hundred pages at once, enough for a
# household or an office behind one address.
WEBSOCKETS_PER_ADDRESS = int(os.environ.get("WEBSOCKETS_PER_ADDRESS", "100"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"without_traceback": {"()": "config.log_filters.WithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        # A foreign Host header: one line a request (a probe's flood is no wall of tracebacks),
        # printed once (not also by Django's own "django" logger while DEBUG is on), mailed to nobody.
        "django.security.DisallowedHost": {"filters": ["without_traceback"], "handlers": ["console"],
                                           "propagate": False},
    },
}

# Who the client is, behind a reverse proxy: X-Forwarded-For is believed only when the
# socket's peer is one of these (addresses or networks, e.g. "10.0.0.0/8,127.0.0.1").
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")
for _entry in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_entry, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_entry!r} is not an IP address or network.") from None

# Failed sign-ins (django-axes, accounts.signin_limits): each limit counts failures within
# AXES_COOLOFF_TIME of each other; past one, sign-in from there is refused for that long.
# Per address and account it slows a guesser down; per account it stops a guesser
# with many addresses, for minutes only, so a stranger cannot lock a player out for long.
SIGN_IN_LIMITS = [
    (["ip_address", "username"], 5),
    ("username", 20),
    ("ip_address", 50),
]
AXES_HANDLER = "accounts.signin_limits.SignInLimits"
AXES_LOCKOUT_PARAMETERS = "accounts.signin_limits.lockout_parameters"
AXES_FAILURE_LIMIT = 5  # what SignInLimits.get_failures counts against; the real limits are above
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # hammering a locked account does not extend its lock
AXES_RESET_ON_SUCCESS = True  # clears the address-and-account count only (SignInLimits.reset_user_attempts)
AXES_CLIENT_IP_CALLABLE = "infra.client_address.client_address"
AXES_USERNAME_CALLABLE = "accounts.signin_limits.username_of"
AXES_LOCKOUT_CALLABLE = "accounts.views.sign_in_refused"
AXES_DISABLE_ACCESS_LOG = True  # successful sign-ins are not logged with their address
