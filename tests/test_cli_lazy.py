"""A command line loads only the module of its command (pbem.cli.app.COMMAND_MODULES; issue 35:
`pbem show` on a first run within twice `pbem --help`); `pbem --help` lists every command."""
import subprocess
import sys

from click.testing import CliRunner

from pbem.cli import app, main


def test_the_list_names_each_command_where_it_is_defined():
    app.load_commands()
    assert sorted(main.commands) == sorted(app.COMMAND_MODULES)
    for name, cmd in main.commands.items():
        assert cmd.callback.__module__ == app.COMMAND_MODULES[name] or isinstance(cmd, type(main)), name
        if isinstance(cmd, type(main)):    # a group: its commands come from the same module
            assert {c.callback.__module__ for c in cmd.commands.values()} == {app.COMMAND_MODULES[name]}, name


def _loaded(args):
    code = (f"import sys\nfrom pbem.cli import main\ntry:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('pbem.cli.', 'pbem.judge'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return eval(out.strip().splitlines()[-1])


def test_a_command_loads_its_own_module_only():
    loaded = _loaded(["show", "--help"])
    assert "pbem.cli.views" in loaded
    assert not {"pbem.cli.campaign", "pbem.cli.trust", "pbem.cli.verify", "pbem.judge.command"} & set(loaded)


def test_help_and_an_unknown_command_see_every_command():
    assert set(app.COMMAND_MODULES.values()) <= set(_loaded(["--help"]))
    assert set(app.COMMAND_MODULES.values()) <= set(_loaded(["sho"]))
    r = CliRunner().invoke(main, ["sho"])
    assert r.exit_code == 64 and "No such command 'sho'." in r.output
    # click's own suggestion, from the commands it knows (click 8.1.0, the lower bound, makes none)
    assert "Did you mean" not in r.output or "Did you mean 'show'?" in r.output
    listing = CliRunner().invoke(main, ["--help"]).output
    assert all(f"  {name} " in listing for name in app.COMMAND_MODULES)
