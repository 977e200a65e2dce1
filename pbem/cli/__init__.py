"""The ``pbem`` command line, one module per group of commands (the entry point stays
``pbem.cli:main``). Heavy modules are imported inside the commands so that ``pbem --help``
starts fast.

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

from ..judge import command as _judge  # noqa: F401  (`pbem judge`, issue 34: pbem/judge/)
from . import book, campaign, mailing, orders, roles, trust, verify, views  # noqa: F401  (they add their commands to main)
from .app import _set_short_help, main

_set_short_help(main)

__all__ = ["main"]
