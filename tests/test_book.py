"""The campaign book (`pbem book`, issue 22): the book of every example campaign (a page per step,
every link resolves, every step's map, html5lib parses every page without an error); the full
book with the games' real maps for Battle for Germany (examples/bfg-historical) and BlitzWAR (a
campaign in progress cut from examples/blitzwar-1939); what a campaign in progress hides; the
folder rules (--replace, never the archive); the same bytes twice; verification by replay once
the key is published; and a real headless browser (chromium) pressing the arrow keys.

The maps are the slow part (BlitzWAR's is 1 MB of SVG a step, most of it drawn once): the structure test of every
example draws a small stand-in map per step, the real maps are drawn for two books, once per session."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.book import MARKER, SHARED, build_book, share_runs
from pbem.core.campaign import Campaign

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.parent.name for p in ROOT.glob("examples/*/campaign.yaml"))
HREF = re.compile(r'(?:href|value)="([^"#]*\.html)?(?:#([^"]*))?"')
ID = re.compile(r'\sid="([^"]+)"')


def stand_in_map(state, report):
    """A small map that says which step it is the map of (the real ones are tested in test_map.py)."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" class="stand-in" data-step="{state["step"]}"><title>step {state["step"]}</title></svg>'


def tree_digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


SHARED_REF = re.compile(r'[ ]*<g data-shared="([\d -]+)"></g>')


def _numbers(ref: str) -> list[int]:
    """The parts a placeholder names: numbers, and first-last for a row of them."""
    out: list[int] = []
    for tok in ref.split():
        a, _, b = tok.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def shared_parts(book: Path) -> list[str]:
    """The parts the maps of a book share (map-shared.js), [] if none."""
    js = book / SHARED
    if not js.is_file():
        return []
    text = js.read_text("utf-8")
    return json.loads("[" + text.split("var shared = [", 1)[1].split("\n  ];", 1)[0] + "]")


def put_back(text: str, shared: list[str]) -> str:
    """A page (or an SVG) with its shared parts put back, as the page's script does."""
    while SHARED_REF.search(text):
        text = SHARED_REF.sub(lambda m: "\n".join(shared[n] for n in _numbers(m.group(1))), text)
    return text


def check_book(book: Path, campaign: Path, *, real_maps: bool) -> dict[str, str]:
    """A page per archived step, index.html, links and anchors that resolve, a map on every step
    page, no parse error; returns the pages' texts, their maps' shared parts put back."""
    steps = [int(d.name) for d in Campaign(campaign).step_dirs()]
    raw = {p.name: p.read_text("utf-8") for p in book.glob("*.html")}
    for name, text in raw.items():
        parser = html5lib.HTMLParser(strict=False)
        parser.parse(text)
        assert not parser.errors, (name, parser.errors[:5])
    shared = shared_parts(book)
    pages = {name: put_back(text, shared) for name, text in raw.items()}
    assert set(pages) == {"index.html"} | {f"step-{n:03d}.html" for n in steps}
    assert (book / MARKER).is_file()
    ids = {name: set(ID.findall(text)) for name, text in pages.items()}
    for name, text in pages.items():
        for target, anchor in HREF.findall(text):
            if not target and not anchor:
                continue
            target = unquote(target) or name
            assert not urlsplit(target).scheme, (name, target)     # nothing from the network
            assert target in pages, (name, target)
            assert not anchor or anchor in ids[target], (name, target, anchor)
    for n in steps:
        page = pages[f"step-{n:03d}.html"]
        assert page.count("<svg") >= 1, n
        if not real_maps:
            assert f'data-step="{n}"' in page, n     # the map of this step, not another's
    # every combat of the timeline links to its step
    for n in steps:
        for k in re.findall(rf'href="step-{n:03d}\.html#(combat-\d+)"', pages["index.html"]):
            assert f'id="{k}"' in pages[f"step-{n:03d}.html"]
    return pages


@pytest.fixture(scope="session")
def bfg_book(tmp_path_factory):
    """examples/bfg-historical with its real maps, the key kept secret (no --revealed)."""
    out = tmp_path_factory.mktemp("books") / "bfg"
    r = CliRunner().invoke(main, ["book", str(ROOT / "examples" / "bfg-historical"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture(scope="session")
def in_progress(tmp_path_factory) -> Path:
    """examples/blitzwar-1939 cut after step 2: the Allied and Axis orders of turn 1's diplomacy
    phase are received, the USSR's are awaited: the phase has not run."""
    camp = tmp_path_factory.mktemp("camps") / "bw-progress"
    src = ROOT / "examples" / "blitzwar-1939"
    (camp / "steps").mkdir(parents=True)
    for name in ("campaign.yaml", "schemas", "private"):
        (shutil.copytree if (src / name).is_dir() else shutil.copy)(src / name, camp / name)
    for n in ("000", "001", "002"):
        shutil.copytree(src / "steps" / n, camp / "steps" / n)
    return camp


@pytest.fixture(scope="session")
def blitzwar_book(in_progress, tmp_path_factory):
    out = tmp_path_factory.mktemp("books") / "bw"
    build_book(in_progress, out)
    return out


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_book_of_every_example(example, tmp_path):
    campaign = ROOT / "examples" / example
    before = tree_digest(campaign)
    res = build_book(campaign, tmp_path / "book", draw=stand_in_map)
    pages = check_book(tmp_path / "book", campaign, real_maps=False)
    assert res.pages == len(pages)
    assert tree_digest(campaign) == before            # the archive is only read
    index = pages["index.html"]
    for role in Campaign(campaign).manifest["players"]:
        assert role in index.lower()


def test_bfg_historical_real_maps_rolls_and_how_to_verify(bfg_book):
    pages = check_book(bfg_book, ROOT / "examples" / "bfg-historical", real_maps=True)
    step1 = pages["step-001.html"]
    # the map with the step's marks and hover details, the report as archived, each roll
    assert step1.count("<title>") > 50
    report = (ROOT / "examples" / "bfg-historical" / "steps" / "001" / "report.txt").read_text("utf-8")
    assert "attack 1 on 2525 Warsaw" in report and "attack 1 on 2525 Warsaw" in step1
    assert 'id="roll-1"' in step1 and "bfg/demo/t01/soviet.combat/c1-2525/d6" in step1
    assert "pbem dice verify bfg/demo/t01/soviet.combat/c1-2525/d6 --key-hex KEY --game bfg --campaign-id demo --step t01/soviet.combat" in step1
    # the command the page gives recomputes the logged die once the key is published
    cmd = re.search(r"<code>pbem dice verify (bfg/demo/t01/soviet\.combat/c1-2525/d6 [^<]*)</code>", step1).group(1)
    key_hex = (ROOT / "examples" / "bfg-historical" / "private" / "dice.key").read_text().strip()
    r = CliRunner().invoke(main, ["dice", "verify", *cmd.replace("KEY", key_hex).split()])
    assert r.exit_code == 0 and r.output.strip().endswith("c1-2525/d6 = 5"), r.output
    # made without the key: nothing says verified, the page says how once it is published; the
    # example publishes its key (private/dice.key): the book does not call it secret (issue 33)
    assert "This book was made without the dice key" in step1 and "Verified by replay" not in pages["index.html"]
    assert "game master's secret" not in step1 + pages["index.html"]
    # each step's line counts what happened in it, and lists only the answers first given in it
    assert " combats" in pages["index.html"] and "units eliminated" in pages["index.html"]
    answered = re.findall(r"answered: ([^<]*)", pages["index.html"])
    items = [a for line in answered for a in line.split("; ")]
    assert items and len(items) == len(set(items)), answered
    key = (ROOT / "examples" / "bfg-historical" / "private" / "dice.key").read_text().strip()
    assert all(key not in text for text in pages.values())
    # the timeline links every combat to its step; navigation on every page
    assert 'href="step-001.html#combat-1"' in pages["index.html"]
    assert 'id="nav-next"' in step1 and 'id="nav-prev"' in step1 and 'id="nav-turn"' in step1
    assert 'id="nav-prev"' not in pages["step-000.html"] and 'id="nav-next"' not in pages["step-014.html"]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in step1


def test_the_shared_parts_put_back_give_each_map_as_drawn():
    """The book writes each part of the maps found on two pages or more once (issue 33: a
    megabyte of SVG a page): put back, each page's map is the SVG the game drew, byte for byte."""
    from pbem.core.mapdraw import draw_state
    camp = Campaign(ROOT / "examples" / "bfg-historical")
    dirs = camp.step_dirs()[:3]
    svgs = [draw_state(*_state_and_report(camp, d)) for d in dirs]
    pages, script = share_runs(svgs)
    shared = json.loads("[" + script.split("var shared = [", 1)[1].split("\n  ];", 1)[0] + "]")
    assert sum(map(len, pages)) * 3 < sum(map(len, svgs))
    assert [put_back(p, shared) for p in pages] == svgs
    assert share_runs(svgs) == (pages, script)                  # the same bytes again
    assert share_runs(["<svg>\n<title>one</title>\n</svg>"]) == (["<svg>\n<title>one</title>\n</svg>"], "")
    odd = ["<svg>\n <g>\n" + " <path d='" + "1" * 80 + "'/>\n"] * 2            # a group left open: kept as is
    pages, script = share_runs(odd)
    assert [put_back(p, json.loads("[" + script.split("var shared = [", 1)[1].split("\n  ];", 1)[0] + "]"))
            for p in pages] == odd


def test_a_blitzwar_book_writes_the_maps_base_once(in_progress, blitzwar_book):
    """BlitzWAR gives its maps as parts (draw_map_parts, issue 33): the map's unchanging base is
    drawn once and written once, into map-shared.js, each page holding only placeholders for
    it; every shared part is whole SVG elements; put back, each page's map is, byte for byte,
    the SVG the game draws of the step afresh."""
    import xml.etree.ElementTree as ET

    from pbem.blitzwar import draw_base
    from pbem.core.book import inline_svg
    from pbem.core.mapdraw import draw_state
    shared = shared_parts(blitzwar_book)
    for part in shared:
        ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{part}</g>')
    borders = [p for p in shared if 'class="borders"' in p]
    assert len(borders) == 1 and len(borders[0]) > 100_000
    camp = Campaign(in_progress)
    draw_base._MEMOS.clear()
    for d in camp.step_dirs():
        raw = (blitzwar_book / f"step-{d.name}.html").read_text("utf-8")
        assert 'class="borders"' not in raw and len(raw) < 200_000
        # a row of parts (the zones unchanged since the step before) is named first-last
        assert re.search(r'<g data-shared="[\d ]*\d+-\d+[\d -]*"></g>', raw), d.name
        page = put_back(raw, shared)
        svg = inline_svg(draw_state(*_state_and_report(camp, d)))
        assert svg in page, d.name


def _state_and_report(camp, d):
    import json as _json

    from pbem.core.campaign import load_state_file
    state, _ = load_state_file(camp.state_path(d))
    rep = d / "report.json"
    return state, (_json.loads(rep.read_text("utf-8")) if rep.is_file() else None)


def test_a_campaign_in_progress_shows_nothing_a_player_may_not_see(in_progress, blitzwar_book):
    pages = check_book(blitzwar_book, in_progress, real_maps=True)
    assert "blitzwar-map" in pages["step-002.html"]
    for n in ("001", "002"):
        (orders,) = (in_progress / "steps" / n).glob("orders-*.yaml")
        secret = orders.read_text("utf-8")
        moves = [ln for ln in secret.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        page = pages[f"step-{n}.html"]
        assert orders.name in page and "shown once its phase is carried out" in page
        assert "open:" not in page and all(ln not in page for ln in moves if len(ln.strip()) > 12 and "player" not in ln)
    assert "awaiting orders from the ussr player" in pages["index.html"]
    key = (in_progress / "private" / "dice.key").read_text().strip()
    assert all(key not in text for text in pages.values())
    assert not any("opening" in text for text in pages.values())   # the GM's private/ is never read


def test_the_same_archive_gives_the_same_bytes(tmp_path):
    campaign = ROOT / "examples" / "bfg-chain-decisions"
    build_book(campaign, tmp_path / "a", draw=stand_in_map)
    build_book(campaign, tmp_path / "b", draw=stand_in_map)
    assert tree_digest(tmp_path / "a") == tree_digest(tmp_path / "b")


def test_rebuilding_needs_replace_and_never_touches_the_archive(tmp_path, in_progress):
    runner = CliRunner()
    out = tmp_path / "book"
    assert runner.invoke(main, ["book", str(in_progress), "-o", str(out)]).exit_code == 0
    before = tree_digest(in_progress)
    r = runner.invoke(main, ["book", str(in_progress), "-o", str(out)])
    assert r.exit_code == 74 and "--replace" in r.output
    (out / "step-001.html").write_text("edited by hand")
    r = runner.invoke(main, ["book", str(in_progress), "-o", str(out), "--replace"])
    assert r.exit_code == 0, r.output
    assert (out / "step-001.html").read_text().startswith("<!DOCTYPE html>")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes")
    r = runner.invoke(main, ["book", str(in_progress), "-o", str(mine), "--replace"])
    assert r.exit_code == 74 and "BOOK-NOT-A-BOOK" in r.output and (mine / "notes.txt").read_text() == "my notes"
    for inside in (in_progress, in_progress / "steps" / "book", in_progress.parent):
        r = runner.invoke(main, ["book", str(in_progress), "-o", str(inside), "--replace"])
        assert r.exit_code == 64 and "BOOK-IN-ARCHIVE" in r.output, inside
    assert tree_digest(in_progress) == before


def test_after_the_reveal_each_step_says_it_was_verified_by_replay(tmp_path):
    campaign = ROOT / "examples" / "bfg-historical"
    build_book(campaign, tmp_path / "book", revealed=True, draw=stand_in_map)
    index = (tmp_path / "book" / "index.html").read_text("utf-8")
    assert "Verified by replay" in index and "14 step(s)" in index
    for n in range(1, 15):
        assert "Verified by replay: this step" in (tmp_path / "book" / f"step-{n:03d}.html").read_text("utf-8")
    assert "private/" not in index        # the GM's own files are no business of the book's readers


def typed_map(state, report):
    """A stand-in map that depends on every value of the state and report and on its type (an int
    and its string give two maps): two books with these maps are the same only if every step was
    drawn from the same data."""
    digest = hashlib.sha256(repr((state, report)).encode("utf-8")).hexdigest()
    return f'<svg xmlns="http://www.w3.org/2000/svg" data-step="{state["step"]}" data-of="{digest}"></svg>'


@pytest.mark.parametrize("example", ["blitzwar-1939", "blitzwar-chain-signed", "bfg-chain-decisions"])
def test_the_states_the_replay_made_give_the_book_the_files_give(example, tmp_path, monkeypatch):
    """Issue 33: the book takes the states its replay made again and found byte-identical, and
    reads none of their files (parsing 123 states was a third of the book's time). They are the
    files' content to the type of every scalar: the book, and each state handed to the map
    drawer, are the same byte for byte as when every state file is read (key or hash chain, either
    game, a phase waiting for decisions)."""
    import pbem.core.book as book
    campaign = ROOT / "examples" / example
    read: list[Path] = []
    real = book.replayed_state
    monkeypatch.setattr(book, "replayed_state", lambda p: read.append(p) or real(p))
    build_book(campaign, tmp_path / "made", revealed=True, draw=typed_map)
    assert read == []                                  # no state file of a replayed step read again
    build_book(campaign, tmp_path / "files", revealed=True, draw=typed_map, share_states=False)
    assert len(read) == len(Campaign(campaign).step_dirs()) - 1
    made, files = tree_digest(tmp_path / "made"), tree_digest(tmp_path / "files")
    assert made == files and sum(n.startswith("step-") for n in made) == len(read) + 1
    assert "Verified by replay: this step" in (tmp_path / "made" / f"step-{len(read):03d}.html").read_text("utf-8")


# ----------------------------------------------------------------------------- a real browser
def _browser():
    """A headless chromium driven by selenium, or None with the reason."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        return None, ("no chromium and chromedriver on this machine (Debian: apt-get install chromium "
                      "chromium-driver, as .ci/run does)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service(driver), options=opts), ""


def test_a_browser_steps_through_the_book_with_the_arrow_keys(bfg_book, tmp_path, capsys):
    browser, why = _browser()
    if browser is None:
        pytest.skip(why)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    def page_after(key: str) -> str:
        old = browser.current_url
        browser.find_element(By.TAG_NAME, "body").send_keys(key)
        WebDriverWait(browser, 10).until(lambda b: b.current_url != old)
        return Path(urlsplit(browser.current_url).path).name

    try:
        browser.get((bfg_book / "step-001.html").as_uri())
        assert "Step 1" in browser.find_element(By.TAG_NAME, "h1").text
        assert page_after(Keys.ARROW_RIGHT) == "step-002.html"
        assert page_after(Keys.ARROW_RIGHT) == "step-003.html"
        assert page_after(Keys.ARROW_LEFT) == "step-002.html"
        assert page_after(Keys.END) == "step-014.html"
        assert page_after(Keys.HOME) == "step-000.html"
        browser.get((bfg_book / "step-002.html").as_uri())
        assert "Step 2" in browser.find_element(By.TAG_NAME, "h1").text
        # the map is drawn (inline SVG with hover titles) and the jump to a turn works
        svg = browser.find_element(By.CSS_SELECTOR, "#map svg")
        assert svg.size["width"] > 300 and svg.size["height"] > 300
        # the parts every page shares (map-shared.js) are put back by the page's script
        assert (bfg_book / SHARED).is_file()
        assert browser.execute_script("return document.querySelectorAll('#map g[data-shared]').length") == 0
        assert browser.execute_script("return document.querySelectorAll('#map svg title').length") > 50
        shot = tmp_path / "book-step-002.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
        with capsys.disabled():      # printed even when pytest captures the output: a person looks at it
            print(f"\nscreenshot of the book's step 2 in chromium: {shot}")
        browser.set_window_size(390, 844)       # a phone
        browser.get((bfg_book / "index.html").as_uri())
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400, width              # no sideways scrolling at phone width
        phone = tmp_path / "book-index-phone.png"
        browser.save_screenshot(str(phone))
        with capsys.disabled():
            print(f"\nscreenshot of the book's index at phone width: {phone}")
        from selenium.webdriver.support.ui import Select
        old = browser.current_url
        Select(browser.find_element(By.ID, "nav-turn")).select_by_visible_text("turn 2")
        WebDriverWait(browser, 10).until(lambda b: b.current_url != old)
        assert Path(urlsplit(browser.current_url).path).name == "step-009.html"
    finally:
        browser.quit()


def test_a_browser_puts_back_the_base_of_a_blitzwar_map(blitzwar_book):
    """The BlitzWAR book's pages hold placeholders for the map's base (map-shared.js): in a real
    browser every one is filled, every zone and counter of the position is there."""
    browser, why = _browser()
    if browser is None:
        pytest.skip(why)
    from selenium.webdriver.common.by import By
    page = put_back((blitzwar_book / "step-002.html").read_text("utf-8"), shared_parts(blitzwar_book))
    try:
        browser.get((blitzwar_book / "step-002.html").as_uri())
        svg = browser.find_element(By.CSS_SELECTOR, "#map svg")
        assert svg.size["width"] > 300 and svg.size["height"] > 300
        assert browser.execute_script("return document.querySelectorAll('#map g[data-shared]').length") == 0
        for cls in ("zone", "counter", "zone-name", "border", "sea-zone", "panel-block"):
            n = browser.execute_script(f"return document.querySelectorAll('#map svg .{cls}').length")
            assert n > 0 and n == len(re.findall(rf'class="{cls}[ "]', page)), cls
        # the clip of the map window holds the zones and the counters, as drawn
        assert browser.execute_script("return document.querySelector('#map svg g.map g.zones g.zone') !== null")
        assert browser.execute_script("return document.querySelector('#map svg g.map g.stacks .counter') !== null")
    finally:
        browser.quit()


def test_a_failed_replay_is_said_in_the_book_and_exits_4(in_progress, tmp_path):
    camp = tmp_path / "camp"
    shutil.copytree(in_progress, camp)
    report = camp / "steps" / "002" / "report.txt"
    report.write_text(report.read_text("utf-8") + "a line added by hand\n", "utf-8")
    r = CliRunner().invoke(main, ["book", str(camp), "-o", str(tmp_path / "book"), "--revealed"],
                           catch_exceptions=False)
    assert r.exit_code == 4, r.output
    index = (tmp_path / "book" / "index.html").read_text("utf-8")
    assert "Replay failed after 1 identical step(s)" in index
    assert "Verified by replay: this step" in (tmp_path / "book" / "step-001.html").read_text("utf-8")
    assert "Not verified: the replay stopped before this step" in (tmp_path / "book" / "step-002.html").read_text("utf-8")


def test_the_progress_bar_is_on_a_terminal_only(monkeypatch):
    """Issue 33: book, adjudicate --mail and map --png said nothing for seconds. rich's bar goes
    to standard error when it is a terminal, and nothing at all otherwise (pipes, tests)."""
    import io
    import sys

    from pbem.core.progress import progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    with progress(2, "drawing the maps") as advance:
        advance()
        advance(what="writing")
    assert quiet.getvalue() == ""
    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    with progress(2, "drawing the maps") as advance:
        advance()
        advance(what="writing")
    assert "drawing the maps" in tty.getvalue() or "writing" in tty.getvalue()
