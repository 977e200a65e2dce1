"""The ``pbem`` command line, one module per group of commands (the entry point stays
``pbem.cli:main``). A command's module is imported when the command is run (or listed by
``pbem --help``), heavy modules inside the commands, so that every command starts fast.

- :mod:`.app`: the group itself (exit codes, --data, --debug);
- :mod:`.common`: printing, the user's own files, the next commands;
- :mod:`.gamehelp`: help texts built from the games' declarations;
- :mod:`.campaign`: ``new``, ``scenarios``, ``adjudicate``;
- :mod:`.orders`: ``orders template``, ``validate``, ``seal``;
- :mod:`.views`: ``show``, ``map``, ``data check``;
- :mod:`.verify`: ``replay``, ``head``, ``dice verify``;
- :mod:`.trust`: ``chain``, ``key``, ``sign``;
- :mod:`.mailing`: ``mail``;
- :mod:`.book`: ``book``;
- :mod:`.roles`: ``player replace``.
"""
from __future__ import annotations

from .app import main

# Each command's module is imported when the command line names it (app.COMMAND_MODULES:
# `pbem show` loads views only), every one for `pbem --help`.

__all__ = ["main"]
