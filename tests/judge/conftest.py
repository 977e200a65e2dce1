import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judgekit import Game


@pytest.fixture(autouse=True)
def _no_map_pictures(monkeypatch):
    """The map pictures take most of a step's mail time; the judge's tests look at the rest
    (tests/test_mail.py covers the pictures)."""
    import pbem.bfg as g
    import pbem.blitzwar as bw
    monkeypatch.setattr(g.GAME, "draw_map", None)
    monkeypatch.setattr(bw.GAME, "draw_map", None)


@pytest.fixture
def game(tmp_path) -> Game:
    return Game(tmp_path)
