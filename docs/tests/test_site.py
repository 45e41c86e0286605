"""The built site read in a real browser (headless Chromium through Selenium): ``make docs-test``.

Each page of ``docs/_build/html`` (or ``$SCRATCHLEARN_SITE``) is served from 127.0.0.1 and
loaded in Chromium. A page passes when
- the browser logged no console error;
- every image on it loads and decodes (a fresh ``Image`` of the same source, so images that
  the page loads lazily are checked too);
- every formula is typeset: each ``span.math`` / ``div.math`` that Sphinx emits holds a MathJax
  container, and no ``\\(`` or ``\\[`` is left in the text outside code;
- it requested nothing outside the site (Chromium's network log: only the local server,
  ``data:`` and ``blob:`` URLs).
Internal links are checked on the files themselves: every relative ``href`` / ``src`` names a
file of the site, and every ``#fragment`` an ``id`` in it. The search page must find "ridge"
and "SMO".

Chromium and ChromeDriver are Debian's packages (``chromium``, ``chromium-driver``); the
Makefile target installs them. No browser is downloaded at run time.
"""

from __future__ import annotations

import functools
import html.parser
import http.server
import os
import shutil
import tempfile
import threading
import urllib.parse
from pathlib import Path

import pytest

SITE = Path(os.environ.get("SCRATCHLEARN_SITE", Path(__file__).parents[1] / "_build" / "html"))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

if not (SITE / "index.html").exists():
    pytest.exit(f"no built site in {SITE}: run `make docs` first", returncode=2)


def _pages() -> list[str]:
    """Every HTML page of the site, relative to its root (the viewcode sources included)."""
    return sorted(
        str(p.relative_to(SITE))
        for p in SITE.rglob("*.html")
        if "_static" not in p.parts and "_sources" not in p.parts
    )


PAGES = _pages()


# -- the local server and the browser ---------------------------------------------------------
class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test reports; the server stays silent
        pass


@pytest.fixture(scope="session")
def server():
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="scratchlearn-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # Headless as root in a closed network: no sandbox, no GPU, and none of Chromium's own
    # background connections (they would be refused and logged).
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1280,900",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _load(browser, url):
    """Open ``url``, wait for MathJax to finish typesetting (when the page has it), and return
    (console errors, URLs requested) of this page load."""
    browser.get_log("browser")
    browser.get_log("performance")
    browser.get(url)
    browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const wait = () => {
          if (document.readyState !== "complete") return setTimeout(wait, 20);
          if (window.MathJax && MathJax.startup && MathJax.startup.promise)
            MathJax.startup.promise.then(() => done(true), () => done(false));
          else done(true);
        };
        wait();
        """
    )
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    import json

    requested = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requested.append(message["params"]["request"]["url"])
    return errors, requested


_IMAGES_JS = """
const done = arguments[arguments.length - 1];
const sources = [...new Set([...document.images].map(im => im.currentSrc || im.src))];
Promise.all(sources.map(src => new Promise(resolve => {
  const probe = new Image();
  probe.onload = () => resolve(probe.naturalWidth > 0 ? null : src);
  probe.onerror = () => resolve(src);
  probe.src = src;
}))).then(bad => done([sources.length, bad.filter(x => x)]));
"""

_MATH_JS = """
const spans = [...document.querySelectorAll("span.math, div.math")];
const raw = spans.filter(el => !el.querySelector("mjx-container")).map(el => el.textContent);
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const left = [];
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (node.parentElement.closest("pre, code, script, style, textarea, mjx-container")) continue;
  if (/\\\\\\(|\\\\\\[/.test(node.textContent)) left.push(node.textContent.trim().slice(0, 80));
}
return [spans.length, raw.slice(0, 5), left.slice(0, 5)];
"""


@pytest.mark.parametrize("page", PAGES)
def test_page_loads_clean(browser, server, page):
    url = urllib.parse.urljoin(server, page)
    errors, requested = _load(browser, url)
    assert not errors, f"console errors on {page}: {errors}"
    outside = [
        u for u in requested if not u.startswith((server, "data:", "blob:", "about:", "chrome"))
    ]
    assert not outside, f"{page} requested outside the site: {outside}"
    n_images, broken = browser.execute_async_script(_IMAGES_JS)
    assert not broken, f"images that do not load on {page}: {broken}"
    n_math, untypeset, raw_tex = browser.execute_script(_MATH_JS)
    assert not untypeset, f"formulas left untypeset on {page}: {untypeset}"
    assert not raw_tex, f"raw TeX left in the text of {page}: {raw_tex}"


@pytest.mark.parametrize("query, expected", [("ridge", "Ridge"), ("SMO", "SVC")])
def test_search_finds(browser, server, query, expected):
    browser.get(urllib.parse.urljoin(server, f"search.html?q={query}"))
    titles = browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const start = Date.now();
        const poll = () => {
          const items = [...document.querySelectorAll("#search-results li, ul.search li")];
          const status = document.querySelector(
            "#search-results .search-summary, p.search-summary");
          if (items.length || (status && /did not match/.test(status.textContent)) ||
              Date.now() - start > 20000) return done(items.map(li => li.textContent));
          setTimeout(poll, 100);
        };
        poll();
        """
    )
    assert titles, f"the search page found nothing for {query!r}"
    assert any(expected in t for t in titles), f"{expected} not among the hits for {query!r}"


# -- links, read from the files ----------------------------------------------------------------
class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "name" in attrs:
            self.ids.add(attrs["name"])
        for key in ("href", "src"):
            value = attrs.get(key)
            if value and tag in ("a", "img", "script", "link", "iframe", "source"):
                self.links.append(value)


@functools.cache
def _parsed(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return parser


def test_internal_links_resolve():
    broken = []
    for page in PAGES:
        path = SITE / page
        for link in _parsed(path).links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:")):
                continue
            target = (path.parent / urllib.parse.unquote(parts.path)).resolve()
            if not parts.path:
                target = path
            elif target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{page}: {link}")
                continue
            fragment = urllib.parse.unquote(parts.fragment)
            if fragment and target.suffix == ".html" and fragment not in _parsed(target).ids:
                broken.append(f"{page}: {link} (no id {fragment!r})")
    assert not broken, f"{len(broken)} broken internal links:\n" + "\n".join(broken[:40])


def test_the_site_has_its_parts():
    """The user guide's chapters, the API pages and the gallery are all there."""
    chapters = [p for p in PAGES if p.startswith("user_guide/") and p != "user_guide/index.html"]
    api = [p for p in PAGES if p.startswith("api/generated/")]
    gallery = [p for p in PAGES if p.startswith("auto_examples/plot_")]
    print(f"\nsite: {len(chapters)} chapters, {len(api)} API pages, {len(gallery)} examples")
    assert len(chapters) >= 11 and len(api) >= 200 and len(gallery) >= 17
