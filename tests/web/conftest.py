"""A real `rulesdsl serve` on loopback and Debian's chromium driven by Playwright.

Under CI=1 (.ci/run installs chromium and the test extra installs playwright) a missing
browser or library fails the tests instead of skipping them."""

from __future__ import annotations

import shutil

import pytest

from _web import CHROMIUM_ARGS, Server, missing, needs


@pytest.fixture
def server(tmp_path):
    needs("uvicorn")
    needs("starlette")
    srv = Server(tmp_path / "games.sqlite").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        missing("chromium (apt-get install chromium)")
    needs("playwright")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield b
        b.close()


