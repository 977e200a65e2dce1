"""BlitzWAR from the command line while only its data side exists: it is listed, its data is
checked, and starting a campaign is refused cleanly without writing anything."""
from __future__ import annotations

from click.testing import CliRunner

from pbem.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_scenarios_lists_blitzwar():
    r = run("scenarios")
    assert r.exit_code == 0 and "blitzwar-1939" in r.output and "bfg-historical" in r.output


def test_data_check_blitzwar():
    r = run("data", "check", "--scenario", "blitzwar-1939")
    assert r.exit_code == 0, r.output
    assert "provisional: land combat 1-1 die 1 = 1/0" in r.output
    assert "land combat 4-1 die 1 = 0/1" not in r.output
    assert "0 error(s): data set complete and consistent" in r.output


def test_new_campaign_refused_until_playable(tmp_path):
    r = run("new", tmp_path / "c", "--scenario", "blitzwar-1939", "--id", "c1", "--player", "axis=A", "--player", "allies=B",
            "--player", "ussr=C")
    assert r.exit_code == 64 and "GAME-NOT-PLAYABLE" in r.output
    assert not (tmp_path / "c").exists()
