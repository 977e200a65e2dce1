"""The documentation: a short README that links every page, and the site that mkdocs builds from
docs/ (mkdocs.yml) without a warning: a broken link or anchor, or a page left out of the
navigation, fails the build (--strict). No issue numbers in the user's pages."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# the pages a user reads; the developer guide may tell history by issue number
USER_PAGES = ["index.md", "install.md", "game-master.md", "player.md", "dice-and-audit.md", "judge.md",
              "scenarios.md", "component-data.md", "blitzwar.md", "blitzwar-rules.md", "rule-index.md"]


def _nav_pages(nav: list) -> list[str]:
    out = []
    for item in nav:
        for value in (item.values() if isinstance(item, dict) else [item]):
            out += _nav_pages(value) if isinstance(value, list) else [value]
    return out


def test_mkdocs_builds_the_site_strictly(tmp_path):
    pytest.importorskip("mkdocs")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "WARNING" not in r.stderr, r.stderr
    for page in USER_PAGES + ["development.md"]:
        built = tmp_path / "site" / ("index.html" if page == "index.md" else page[:-3] + "/index.html")
        assert built.is_file(), page


def test_every_page_is_in_the_navigation_and_linked_from_the_readme():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    pages = sorted(p.name for p in DOCS.glob("*.md"))
    assert sorted(_nav_pages(config["nav"])) == pages
    assert sorted(USER_PAGES + ["development.md"]) == pages
    readme = (ROOT / "README.md").read_text("utf-8")
    for page in pages:
        if page != "index.md":
            assert f"](docs/{page})" in readme, page


def test_the_readme_is_read_in_five_minutes():
    """The two one-line commands open it; then what pbem is, install, a campaign, the benchmark's
    last figures, where to read on."""
    readme = (ROOT / "README.md").read_text("utf-8")
    assert len(readme.splitlines()) <= 130
    blocks = re.findall(r"```sh\n(.*?)```", readme, re.S)
    assert blocks[0].strip().endswith("pbem replay examples/bfg-historical --reports")
    assert "pytest" in blocks[1] and len(blocks[1].strip()) <= 160
    assert "\n" not in blocks[0].strip() and "\n" not in blocks[1].strip()
    headings = re.findall(r"^## (.*)$", readme, re.M)
    assert headings == ["What pbem is", "Install", "A campaign in ten commands", "Speed", "Read on"]
    campaign = blocks[3]
    assert len(re.findall(r"^pbem ", campaign, re.M)) == 10


@pytest.mark.parametrize("page", ["README.md"] + [f"docs/{p}" for p in USER_PAGES])
def test_no_issue_numbers_in_user_documentation(page):
    text = (ROOT / page).read_text("utf-8")
    assert re.findall(r"\bissues? \d+", text, re.I) == []


def test_no_generated_site_is_committed():
    assert "/site/" in (ROOT / ".gitignore").read_text("utf-8").splitlines()
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run([git, "ls-files", "site"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert tracked.stdout == ""
