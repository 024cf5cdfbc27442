"""`simulate --report`: one self-contained HTML page, opened in a real headless browser
(Debian's chromium) as a person would, and the screenshot checked for every plot."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from rulesdsl import cli

pytest.importorskip("matplotlib")
Image = pytest.importorskip("PIL.Image")

# The bar colours of the report's plots (report.py) and the first colour of matplotlib's
# cycle, which the comparison's second set of bars takes.
PLOT_COLOURS = {"win rates": (0x4C, 0x72, 0xB0), "length histogram": (0x55, 0xA8, 0x68),
                "option usage": (0x81, 0x72, 0xB2), "comparison": (0xFF, 0x7F, 0x0E)}


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing; .ci/run installs it (apt-get install chromium)")
        pytest.skip("no chromium here (apt-get install chromium)")
    return found


def screenshot(page, png, tmp_path):
    command = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync",
               f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png}",
               "--window-size=1200,3000", page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert png.exists(), done.stderr[-2000:]
    return Image.open(png).convert("RGB")


def near(image, colour, tolerance=12) -> int:
    """How many pixels are within `tolerance` of `colour` in each channel."""
    import numpy

    pixels = numpy.asarray(image, dtype=numpy.int16)
    close = numpy.abs(pixels - numpy.array(colour, dtype=numpy.int16)) <= tolerance
    return int(close.all(axis=2).sum())


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "balance.html"
    code = cli.main(["simulate", "triumvirat", "--games", "12", "--seed", "3", "--workers",
                     "1", "--compare", "games_to_win=1", "--report", str(path)])
    assert code == 0
    return path


def test_the_page_is_self_contained(report):
    page = report.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert len(re.findall(r'<img alt="plot" src="data:image/png;base64,', page)) == 4
    assert not re.search(r'(src|href)\s*=\s*["\']?(https?:|//)', page)   # no network
    for heading in ("Who wins", "How long", "Decisions", "Options", "Comparison"):
        assert f"<h2>{heading}" in page
    assert "95% interval" in page and "games_to_win=1" in page


def test_a_headless_browser_shows_every_plot(report, tmp_path):
    shown = screenshot(report, tmp_path / "page.png", tmp_path)
    # the same page without its images: the plots' colours must come from the images
    bare = tmp_path / "bare.html"
    bare.write_text(re.sub(r"<img [^>]*>", "", report.read_text(encoding="utf-8")),
                    encoding="utf-8")
    blank = screenshot(bare, tmp_path / "bare.png", tmp_path)
    for plot, colour in PLOT_COLOURS.items():
        with_images, without = near(shown, colour), near(blank, colour)
        assert with_images > 2000 and without == 0, (plot, with_images, without)
