"""End to end in a real headless browser: ``fcm web`` in a subprocess, Chromium driven by Playwright.

Plays the first decisions of a 2-player game against the heuristic by clicking (the first
restaurant on the board, a reserve card, a turn-order spot), then steps a replay. Screenshots go
to ``$FCM_WEB_SCREENSHOTS`` (default: a temporary folder). Needs a Chromium: the system one
(``apt-get install chromium``) or Playwright's (``python -m playwright install chromium``);
skipped with the reason when there is none.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'fcm-magnate[web]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (dev extra)")

from fcm_agents.registry import make_agent
from fcm_apps.server import Session

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _launch(pw):
    """Chromium: the system binary if there is one, else Playwright's own download; None if neither."""
    system = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    try:
        if system:
            return pw.chromium.launch(executable_path=system, args=["--no-sandbox"])
        return pw.chromium.launch()
    except Exception as exc:  # noqa: BLE001 -- no browser installed: skip with the reason
        pytest.skip(f"no Chromium to drive: {str(exc).splitlines()[0]} (apt-get install chromium)")


@pytest.fixture
def server(tmp_path):
    session = Session(make_agent)
    session.handle({"cmd": "new", "num_players": 2, "seed": 4, "bots": {"0": "heuristic", "1": "random"}})
    record = tmp_path / "game.json"
    record.write_text(json.dumps(session.handle({"cmd": "record"})["record"]))
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "fcm_apps", "web", "--port", str(port), "--replay", str(record)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"fcm web did not start: {proc.stdout.read().decode()}") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("FCM_WEB_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_play_a_few_decisions_and_step_a_replay_in_chromium(server, shots):
    with sync_api.sync_playwright() as pw:
        browser = _launch(pw)
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server)
        page.wait_for_selector("body[data-ready='1']")
        # the server's record opened in the replay tab; play first
        page.click("#tab-play")
        # before a game: a line where the map will be, not an empty box
        assert not page.locator("#map").is_visible()
        assert page.locator("#play .map-empty").is_visible()
        page.select_option("#f-players", "2")
        page.select_option(".bot-spec[data-seat='1']", "heuristic")
        page.click("#start-button")
        page.wait_for_selector("#map .hit")
        assert page.locator("#map").is_visible() and not page.locator("#play .map-empty").is_visible()
        assert "Place your first restaurant" in page.inner_text("#decision-text")
        assert page.locator("#log li.log-line").count() == 1  # the heuristic opened before us

        # the first restaurant: hover a legal square (its entrance) with two legal orientations, rotate, click
        target = page.locator("#map .hit[data-count='2']").first
        target.hover()
        assert page.locator("#preview rect").count() == 1
        assert page.inner_text("#rotate-info").startswith("1 of 2: place a restaurant")  # fcm play's words
        page.click("#rotate")
        info = page.inner_text("#rotate-info")
        assert info.startswith("2 of 2: place a restaurant")
        page.screenshot(path=str(shots / "play-placement.png"))
        target.click(position={"x": 4, "y": 4})
        page.wait_for_selector("button[data-kind='CHOOSE_RESERVE']")
        assert page.locator("#map .restaurant").count() == 2
        assert "1 restaurant" in page.inner_text(".company.me")
        last = page.locator("#log li.log-line").last.inner_text()
        placed = re.search(r"place a restaurant at \((\d+),(\d+)\), entrance (\w+)", info)
        assert last.startswith(f"you: place a restaurant at ({placed[1]},{placed[2]}), entrance {placed[3]} on ")

        # a named choice: the $300 reserve card, then a turn-order spot (fcm play's words, places from 1st)
        assert page.locator("button[data-kind='CHOOSE_RESERVE']").all_inner_texts() == [
            "Keep the $100 reserve card", "Keep the $200 reserve card", "Keep the $300 reserve card"]
        page.click("button[data-kind='CHOOSE_RESERVE'] >> text=$300")
        page.wait_for_selector("button[data-kind='TURN_SPOT']")
        assert "reserve $300" in page.inner_text(".company.me")
        assert page.inner_text(".company.me b") == "player 0 (you)"
        assert page.locator("button[data-kind='TURN_SPOT']").first.inner_text() == "Go 1st in turn order"
        ceo = page.locator(".company.me .chip.employee[data-card='ceo']")
        assert ceo.get_attribute("title").startswith("ceo: your chain's head")  # a card's tooltip
        page.click("button[data-kind='TURN_SPOT'] >> nth=-1")
        page.wait_for_function("!document.querySelector(\"button[data-kind='TURN_SPOT']\")")
        # a hire names a card: what it does is printed under the choice (as fcm play does), not only on hover
        hire = page.locator("#actions button[data-kind='RECRUIT']").first
        hire.wait_for()
        effect = hire.locator(".effect")
        assert effect.is_visible() and effect.inner_text().strip() == hire.get_attribute("title").strip()
        assert "salary" in effect.inner_text() or "$" in effect.inner_text()
        assert page.locator("#log li.log-line").count() >= 4
        assert "Round 1" in page.inner_text("#status-line")
        page.screenshot(path=str(shots / "play.png"))

        # replay: open the server's record, step forwards and back, jump to a round
        page.click("#tab-replay")
        page.click("#replay-server")
        page.wait_for_function("document.querySelector('#rp-step').textContent.startsWith('step 0 /')")
        page.click("#rp-next")
        page.wait_for_function("document.querySelector('#rp-step').textContent.startsWith('step 1 /')")
        assert re.fullmatch(r"Step 1: player \d \(initial restaurant\): place a restaurant at .*",
                            page.inner_text("#rp-move"))
        assert page.locator("#rp-events li.log-line").count() >= 1
        assert page.locator("#rp-map .restaurant").count() == 1
        page.select_option("#rp-round", label="3")
        page.wait_for_function("document.querySelector('#rp-pending').textContent.startsWith('Round 3')")
        step = int(page.inner_text("#rp-step").split()[1])
        page.click("#rp-prev")
        page.wait_for_function(f"document.querySelector('#rp-step').textContent.startsWith('step {step - 1} /')")
        page.click("#rp-next")
        page.wait_for_function(f"document.querySelector('#rp-step').textContent.startsWith('step {step} /')")
        page.screenshot(path=str(shots / "replay.png"))
        assert not page.is_visible("#error")
        browser.close()
    assert errors == []
