"""Table links are passwords: a token in a log file opens that table's score entry to whoever
reads the log. Every log line the app writes has them replaced, so a hit on a dead link (Django
logs each 404 with its path), a refused CSRF check or the development server's request log
names the table-link page without the token."""

import logging
import re

# A table link's path: /table/<token>/ (the token is URL-safe base64; a typed one may be anything
# up to the next slash, space or quote).
TABLE_LINK = re.compile(r"/table/[^/\s\"'?#]+")
REDACTED = "/table/[token removed]"


def redact(text: str) -> str:
    return TABLE_LINK.sub(REDACTED, text)


class RedactTableTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/table/" in message:
            record.msg = redact(message)
            record.args = None
        return True
