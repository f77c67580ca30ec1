"""The venue laptop's address on the local network, and the address links and QR codes use.

Finding the address only reads this machine's interfaces (``hostname -I``, else the addresses
the host name resolves to); nothing is sent to any other host.
"""

from __future__ import annotations

import ipaddress
import shutil
import socket
import subprocess
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _private_ipv4(text: str) -> ipaddress.IPv4Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if (
        address.version != 4
        or address.is_loopback
        or address.is_link_local
        or not address.is_private
    ):
        return None
    return address  # type: ignore[return-value]


def pick_lan_address(candidates: list[str]) -> str | None:
    """The address phones on the venue's Wi-Fi most likely reach: a private IPv4 address,
    home-router ranges (192.168.x.x) first, then 10.x.x.x, then 172.16-31.x.x; loopback,
    link-local (169.254.x.x, no network yet) and public addresses never."""
    found = [a for a in (_private_ipv4(c) for c in candidates) if a is not None]
    if not found:
        return None

    def rank(address: ipaddress.IPv4Address) -> tuple[int, int]:
        text = str(address)
        group = 0 if text.startswith("192.168.") else 1 if text.startswith("10.") else 2
        return group, candidates.index(text)

    return str(min(found, key=rank))


def interface_addresses() -> list[str]:
    """This machine's own addresses, read locally."""
    hostname_cmd = shutil.which("hostname")
    if hostname_cmd:
        try:
            out = subprocess.run(  # noqa: S603 (a fixed command, no user input)
                [hostname_cmd, "-I"], capture_output=True, text=True, timeout=2, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        if out.split():
            return out.split()
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def detect_lan_address() -> str | None:
    return pick_lan_address(interface_addresses())


def is_loopback_host(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class LinkAddress:
    """Where the app's links and QR codes point, and whether phones can open them."""

    base_url: str  # ends with "/"
    links_loopback: bool  # the links point at this laptop only: no phone can open them
    viewed_on_loopback: bool  # the organiser opened this page as 127.0.0.1 / localhost
    phone_url: str  # the address phones should open ("" when the laptop has no network)


def link_address(request) -> LinkAddress:
    """The base of every link and QR code: DJANGO_BASE_URL when set (venue mode fills it in
    with the detected address), else the address this page was opened at."""
    configured = getattr(settings, "BASE_URL", "")
    base = configured or request.build_absolute_uri("/")
    base = base.rstrip("/") + "/"
    links_loopback = is_loopback_host(urlsplit(base).hostname or "")
    viewed_on_loopback = is_loopback_host(urlsplit("//" + request.get_host()).hostname or "")
    if not links_loopback:
        phone_url = base
    else:
        lan = detect_lan_address()
        port = urlsplit(base).port
        phone_url = f"http://{lan}{f':{port}' if port else ''}/" if lan else ""
    return LinkAddress(base, links_loopback, viewed_on_loopback, phone_url)


def wifi_qr_text(ssid: str, password: str) -> str:
    """The text of a QR code that joins a Wi-Fi network (the WIFI: format phone cameras read).
    Backslash, semicolon, comma, colon and double quote are escaped with a backslash."""

    def escape(value: str) -> str:
        return "".join("\\" + ch if ch in '\\;,:"' else ch for ch in value)

    if not password:
        return f"WIFI:T:nopass;S:{escape(ssid)};;"
    return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(password)};;"


def connected_words() -> tuple[str, str]:
    """What the phone's first page says while it reaches the app, and once it stops: the
    tent card tells scorekeepers to look for the first line. At the venue the app is the
    laptop at the desk; on a server it is the scores site."""
    place = "the scoring laptop" if settings.VENUE_MODE else "the scores site"
    return (
        f"This phone is connected to {place}.",
        f"This phone is not connected to {place}: check the Wi-Fi.",
    )
