"""The prize sheets and the treasurer's report drawn as a printer would (poppler's pdftoppm) and
looked at: every page has ink, nothing runs into the paper's edge, and a certificate's lines sit
in the middle of the page."""

import os
import shutil
import subprocess
from io import BytesIO

import pytest
from PIL import Image, ImageOps
from scoring_factories import client_for, fresh, staff, two_days_that_turn_round

from domain.prizes import HIGHEST_TOTAL, LOWEST_GAME, MOST_OUTS, PLACE
from tournaments.access import COMMAND_LINE
from tournaments.models import StaffRole
from tournaments.services.prizes import add_prize

pytestmark = pytest.mark.django_db

PDFTOPPM = shutil.which("pdftoppm")
DPI = 40
EDGE = 0.15  # inches of bare paper at every edge (margins are half an inch, the footer a quarter)


def pages(pdf: bytes, tmp_path) -> list[Image.Image]:
    if PDFTOPPM is None:
        if os.environ.get("CI"):  # .ci/run installs poppler-utils: CI never passes by skipping
            pytest.fail("pdftoppm is not installed")
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = tmp_path / "sheet.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        [PDFTOPPM, "-r", str(DPI), "-png", str(source), str(tmp_path / "page")],
        check=True,
        timeout=60,
    )
    return [
        Image.open(BytesIO(path.read_bytes())).convert("L")
        for path in sorted(tmp_path.glob("page*.png"))
    ]


def ink_box(page: Image.Image) -> tuple[int, int, int, int] | None:
    """The box around everything darker than light grey (the table stripes are lighter)."""
    return ImageOps.invert(page).point(lambda v: 255 if v > 60 else 0).getbbox()


def check_printed(page: Image.Image) -> tuple[int, int, int, int]:
    box = ink_box(page)
    assert box is not None, "a blank page"
    edge = int(EDGE * DPI)
    left, top, right, bottom = box
    assert left >= edge and top >= edge, box
    assert right <= page.width - edge and bottom <= page.height - edge, (box, page.size)
    return box


@pytest.fixture
def final():
    t = two_days_that_turn_round()
    for kind, place in [
        (PLACE, 1),
        (PLACE, 2),
        (PLACE, 3),
        (LOWEST_GAME, None),
        (MOST_OUTS, None),
        (HIGHEST_TOTAL, None),
    ]:
        add_prize(t, kind, place, "", by=COMMAND_LINE)
    return fresh(t)


def test_the_announcement_and_each_certificate_print_within_the_page(final, tmp_path):
    boss = client_for(staff(final, "boss", StaffRole.ORGANISER))
    announcement = pages(
        boss.get("/organiser/t/cup/prizes/announcement.pdf").content, tmp_path / "a"
    )
    assert len(announcement) == 1
    check_printed(announcement[0])
    certificates = pages(
        boss.get("/organiser/t/cup/prizes/certificates.pdf").content, tmp_path / "c"
    )
    assert len(certificates) == 6
    for page in certificates:
        check_printed(page)
        # The certificate above the footer: centred, as much paper left of its words as right
        # of them (within a few pixels), and starting well down the page.
        above_footer = page.crop((0, 0, page.width, page.height - int(0.6 * DPI)))
        left, top, right, _ = ink_box(above_footer)
        assert abs(left - (page.width - right)) <= 4, (left, right, page.width)
        assert top > page.height / 6


def test_the_treasurer_report_prints_within_the_page(final, tmp_path):
    boss = client_for(staff(final, "boss", StaffRole.ORGANISER))
    report = pages(boss.get("/organiser/t/cup/treasurer.pdf").content, tmp_path / "t")
    assert report
    for page in report:
        check_printed(page)
