"""Where the shipped data (``rules/``, ``scenarios/``, ``schemas/``) lives: the lowest layer,
read by the schemas (:mod:`pbem.core.schema`) and by the component data (:mod:`pbem.core.data`)
alike, so neither has to import the other for it."""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]
_SHIPPED_IN_PACKAGE = _PACKAGE / "data"  # a wheel: setup.py copies the data folders here
_REPOSITORY = _PACKAGE.parent  # a source checkout or an editable install


def data_root() -> Path:
    """The folder holding the shipped ``rules/``, ``scenarios/`` and ``schemas/``: inside the
    package (``pbem/data``) when installed from a wheel, else the repository root (source
    checkout, editable install), whose top-level folders are the single source of both."""
    if (_SHIPPED_IN_PACKAGE / "schemas").is_dir():
        return _SHIPPED_IN_PACKAGE
    return _REPOSITORY
