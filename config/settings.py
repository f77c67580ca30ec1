"""Settings for the Mexican Train tournament manager, read from the environment.

DATABASE_URL        PostgreSQL or SQLite URL; a SQLite file in the project folder when unset.
DJANGO_SECRET_KEY   required when DJANGO_DEBUG=0.
DJANGO_DEBUG        1 (default, for the venue laptop and development) or 0.
DJANGO_ALLOWED_HOSTS comma-separated; defaults to local addresses plus "*" in debug.
DJANGO_VENUE_MODE   1 lets phones log in over plain HTTP on a local network (see README).
DJANGO_TRUSTED_PROXIES how many reverse proxies stand in front of the app (default 0; see README).
DJANGO_BASE_URL     the address every table link and QR code uses, e.g. http://192.168.1.20:8000;
                    in venue mode it defaults to this laptop's detected LAN address and DJANGO_PORT.
DJANGO_AUTO_BACKUPS 1 (the default in venue mode) for backups on their own and the warnings.
DJANGO_BACKUP_DIR   where backups go (default: backups/ in the project folder).
DJANGO_BACKUP_COPY_DIR a second folder (a USB stick) each automatic backup is copied to.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DJANGO_DEBUG", True)
VENUE_MODE = env_flag("DJANGO_VENUE_MODE", False)

BASE_URL = os.environ.get("DJANGO_BASE_URL", "").strip()
if not BASE_URL and VENUE_MODE:
    from core.venue import detect_lan_address

    _lan = detect_lan_address()
    if _lan:
        BASE_URL = f"http://{_lan}:{os.environ.get('DJANGO_PORT', '8000')}"

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("Set DJANGO_SECRET_KEY when DJANGO_DEBUG=0.")
    SECRET_KEY = "insecure-development-key-only-for-the-venue-laptop-demo-x9f3k2"  # noqa: S105

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h.strip()
]
if not ALLOWED_HOSTS:
    ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"] + (["*"] if DEBUG or VENUE_MODE else [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "axes",
    "core",
    "tournaments",
    "scoring",
    "standings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # First: a body larger than its address takes is refused before anything reads it.
    "core.request_limits.RequestBodyLimitMiddleware",
    "core.security_headers.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "core.session_sweep.ExpiredSessionSweepMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before the CSRF check and everything else a login costs (core/login.py).
    "core.login.LoginThrottleMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Returns before the CSRF check's process_view, which would parse (and spool) the upload.
    "core.request_limits.UploadsNeedALoginMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# How many reverse proxies (a TLS proxy, say) stand in front of the app. With 0 the client's
# address is the connection's; with N it is the N-th address from the right of X-Forwarded-For,
# the one the outermost of our proxies saw (core/client_address.py). Set it only when that many
# proxies really are there: otherwise a client could claim any address.
TRUSTED_PROXY_COUNT = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0") or 0)

# Five wrong passwords lock that username from that address for an hour.
AXES_ENABLED = env_flag("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "core.client_address.client_address"
# What a failed login may store is bounded: the username at most as long as an account's, and a
# post made while locked out stores nothing (axes would otherwise append it to the record).
AXES_USERNAME_CALLABLE = "core.login.axes_username"
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_SENSITIVE_PARAMETERS = ["password", "csrfmiddlewaretoken"]

# Logins posted from one client address beyond this in a minute are turned away before any
# password is hashed (core/login.py); wrong passwords are still counted by axes above. The count
# is kept in files every server process shares (a per-process count would multiply the limit
# by the number of workers), in a folder of this project's own.
LOGIN_THROTTLE_ENABLED = env_flag("LOGIN_THROTTLE_ENABLED", True)
LOGIN_ATTEMPTS_PER_MINUTE = 10
# The throttles (logins per address, wrong table codes) count in the database (core/throttle.py),
# so every server process shares one count whatever runs it.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scoring.context_processors.backup_warnings",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    # Each worker keeps its connection (checked before reuse) instead of connecting, and on
    # SQLite running the pragmas below, for every request.
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=600, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["ENGINE"] = "config.sqlite_backend"  # writers queue (see its docstring)
    # Several phones save at once: WAL lets readers carry on during a write, IMMEDIATE takes
    # the write lock at BEGIN (no lock upgrade deadlocks), and a long timeout queues writers
    # instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
        ),
    }
    # Tests use a file, not memory, so live-server and concurrency tests see real locking.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("SQLITE_TEST_FILE")
        or os.path.join(tempfile.gettempdir(), f"mexican-train-test-{os.getpid()}.sqlite3")
    }

elif DATABASES["default"]["ENGINE"].startswith("django.db.backends.postgresql"):
    # One test database per test process, so two suites on one server never drop each other's.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("DJANGO_TEST_DB_NAME")
        or f"test_{DATABASES['default']['NAME']}_{os.getpid()}"
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "America/New_York")
# The money the fees are taken in, as the treasurer's page and workbook print it.
CURRENCY_SYMBOL = os.environ.get("DJANGO_CURRENCY_SYMBOL", "$")
USE_I18N = True
# Our own date format (config/formats/en): one form for dates on pages, PDFs and workbooks.
FORMAT_MODULE_PATH = ["config.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# How often each server process deletes expired sessions (core/session_sweep.py); 0: never.
# Backups on their own (scoring/backup_watch.py), at the venue where nobody else takes them.
AUTO_BACKUPS = env_flag("DJANGO_AUTO_BACKUPS", VENUE_MODE)
BACKUP_DIR = Path(os.environ.get("DJANGO_BACKUP_DIR") or BASE_DIR / "backups")
BACKUP_COPY_DIR = os.environ.get("DJANGO_BACKUP_COPY_DIR", "").strip()

SESSION_SWEEP_SECONDS = int(os.environ.get("SESSION_SWEEP_SECONDS", 60 * 60))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "organiser:home"
LOGOUT_REDIRECT_URL = "public:home"

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# Uploads (player lists, score workbooks) are small; anything bigger is refused before parsing.
UPLOAD_MAX_BYTES = int(os.environ.get("UPLOAD_MAX_BYTES", 5 * 1024 * 1024))
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

# Scripts, styles and images from this site only; no inline script, no inline style, no
# plugins, no framing, forms post only here (core/security_headers.py).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
# Responses never kept by a browser or proxy cache: the staff pages (contact details, table
# links), the login and the admin site.
NO_STORE_NAMESPACES = {"organiser", "admin"}
NO_STORE_PATHS = ["/organiser/", "/accounts/", "/admin/"]

SESSION_COOKIE_HTTPONLY = True
# A form refused for its missing or stale security cookie gets a page in the app's words.
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG and not VENUE_MODE:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Table-link tokens are taken out of every line (core/log_redaction.py).
    "filters": {"table_tokens": {"()": "core.log_redaction.RedactTableTokens"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["table_tokens"]},
        # Django's own request loggers (runserver's request lines among them) print through
        # their own handlers: the same filter goes on those too.
        "django_server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["table_tokens"],
        },
    },
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "loggers": {
        # Django's default handlers for these print unfiltered; ours replace them.
        "django": {"handlers": [], "propagate": True},
        "django.server": {"handlers": ["django_server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
