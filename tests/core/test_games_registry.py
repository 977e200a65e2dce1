"""The games' registry (pbem.core.games): `pbem --help` names the built-in games from their
declaration there, without importing them (issue 35); the declaration must say what the games
themselves say."""
import subprocess
import sys

from pbem.core import games


def test_the_declared_titles_are_the_games_own():
    assert set(games.BUILTIN_TITLES) == set(games.BUILTIN)
    for gid, title in games.BUILTIN_TITLES.items():
        assert games.game(gid).title == title


def test_game_titles_lists_every_game_in_id_order():
    titles = games.game_titles()
    assert list(titles) == games.game_ids()
    assert titles["bfg"] == "Battle for Germany" and titles["blitzwar"] == "BlitzWAR"


def test_help_imports_no_game_and_no_issue_machinery():
    code = ("import sys\nfrom pbem.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('pbem.bfg', 'pbem.blitzwar', 'pbem.core.errors', 'yaml'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
