"""`simulate --report`: one self-contained HTML page, opened in a real headless browser
(Debian's chromium) as a person would, and the screenshot checked for every plot."""

from __future__ import annotations

import base64
import io
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
    # as a person sees it in a 1200-pixel window: the histogram's bars span the page's
    # width (its plot was 480 pixels wide once), not a corner of it
    assert width_of(shown, PLOT_COLOURS["length histogram"]) > 700


def width_of(image, colour, tolerance=12) -> int:
    """From the leftmost to the rightmost pixel of `colour`, in pixels."""
    import numpy

    pixels = numpy.asarray(image, dtype=numpy.int16)
    close = numpy.abs(pixels - numpy.array(colour, dtype=numpy.int16)) <= tolerance
    columns = numpy.nonzero(close.all(axis=2).any(axis=0))[0]
    return int(columns.max() - columns.min()) if len(columns) else 0


# ------------------------------------------------ the plots as a person reads them


@pytest.fixture(scope="module")
def figures(report):
    """Every figure of the report page for the run above, as matplotlib built it (caught
    just before it became a PNG), and the PNGs' sizes in pixels."""
    import matplotlib

    from rulesdsl.analysis import report as report_module
    from rulesdsl.analysis.simulate import simulate

    result = simulate("triumvirat", games=12, seed=3, compare=[{"games_to_win": 1}])
    caught = []
    to_png = report_module._png

    def catch(fig):
        fig.canvas.draw()
        caught.append(_describe(fig, matplotlib))
        return to_png(fig)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(report_module, "_png", catch)
        page = report_module.render(result)
    sizes = [Image.open(io.BytesIO(base64.b64decode(data))).size
             for data in re.findall(r'src="data:image/png;base64,([^"]+)"', page)]
    return caught, sizes


def _describe(fig, matplotlib) -> list:
    """Per axes: its labels, the boxes of its data (bars, points, error bars) on the
    screen, its legend's box, and how many error bars it draws."""
    from matplotlib.container import ErrorbarContainer
    from matplotlib.transforms import Bbox

    renderer = fig.canvas.get_renderer()
    out = []
    for ax in fig.axes:
        data = [p.get_window_extent(renderer) for p in ax.patches]
        data += [line.get_window_extent(renderer) for line in ax.lines]
        errors = 0
        for c in ax.containers:
            if isinstance(c, ErrorbarContainer):
                _, _, collections = c.lines
                for col in collections:
                    for segment in col.get_segments():
                        errors += 1
                        data.append(Bbox(ax.transData.transform(segment)))
        legend = ax.get_legend()
        out.append({"xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
                    "bars": len(ax.patches), "errors": errors, "data": data,
                    "ticks": [t.get_text() for t in ax.get_yticklabels()],
                    "legend": legend.get_window_extent(renderer) if legend else None})
    return out


def test_plots_are_as_wide_as_the_page(figures):
    _, sizes = figures
    assert len(sizes) == 4
    assert all(width >= 900 for width, _ in sizes), sizes


def test_no_legend_covers_data(figures):
    for fig in figures[0]:
        for ax in fig:
            if ax["legend"] is not None:
                assert not any(ax["legend"].overlaps(box) for box in ax["data"]), ax


def test_the_comparison_has_error_bars_and_plots_the_length(figures):
    compare = figures[0][-1]
    wins = [ax for ax in compare if "win rate" in ax["ylabel"]]
    assert wins and wins[0]["errors"] == 2 * 2   # 2 seats, as given and games_to_win=1
    lengths = [ax for ax in compare if "actions per game" in ax["xlabel"]]
    assert lengths and lengths[0]["errors"] == 1 and lengths[0]["ticks"] == ["games_to_win=1"]


def test_flat_option_counts_are_not_a_wall_of_equal_bars(figures, report):
    # every card of Triumvirat is played about as often as every other: 28 labels
    (options,) = figures[0][2]
    assert options["bars"] <= 12 and len(options["ticks"]) <= 12
    assert "won" in options["xlabel"] and options["errors"] > 0
    _, height = figures[1][2]
    assert height < 600
    assert "about as often as the others" in report.read_text(encoding="utf-8")
