"""Dataclasses made when first used (issue 35: the start of a command).

``dataclasses.dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__`` (and, when
frozen, ``__hash__``, ``__setattr__``, ``__delattr__``) as source text and compiles it: 2 to 4.5
million instructions a class, when its module is imported. A command imports many classes it
never makes an instance of (`pbem show` makes no order file, no issue, no phase run): about 30
million instructions of a first `pbem show`.

:func:`dataclass` here takes the same arguments and gives the very same class, made by
``dataclasses.dataclass`` itself, only later: when the first instance is made (or, for a class
that has none yet, a subclass is defined), before anything else happens to it. Until then the
class holds two stand-ins, its ``__new__`` and ``__init_subclass__``, which make it and step
aside. So an instance, the class's fields, ``dataclasses.replace``/``fields``/``asdict`` of an
instance, equality and hashing are all the standard dataclass's; only ``dataclasses.fields``
or ``is_dataclass`` asked of the class itself before any instance exists would differ (pbem
asks neither). A class that defines one of those three itself, or asks for
``slots``, is made at once.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    try:
        from typing import dataclass_transform
    except ImportError:     # Python 3.10: only type checkers read it
        def dataclass_transform(**_: Any) -> Any:
            return lambda f: f

__all__ = ["dataclass", "field"]

field = dataclasses.field

_T = TypeVar("_T", bound=type)

#: the arguments of the classes not made yet
_PENDING: dict[type, dict[str, Any]] = {}


_STAND_INS = ("__init__", "__setstate__", "__init_subclass__")


def _make(cls: type) -> None:
    """Make the dataclass ``cls`` (its bases first), once."""
    kw = _PENDING.pop(cls, None)
    if kw is None:
        return
    for base in reversed(cls.__mro__[1:]):
        if base in _PENDING:
            _make(base)
    for name in _STAND_INS:
        delattr(cls, name)          # the stand-ins step aside
    dataclasses.dataclass(cls, **kw)


def _lazy(cls: Any, kw: dict[str, Any]) -> Any:
    if kw.get("slots") or any(name in cls.__dict__ for name in _STAND_INS):
        return dataclasses.dataclass(cls, **kw)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        _make(cls)
        type(self).__init__(self, *args, **kwargs)   # the one the dataclass wrote

    def __setstate__(self: Any, state: Any) -> None:
        # an instance made without __init__ (pickle, copy): the class is made, then the
        # state set as pickle and copy do by default
        _make(cls)
        if hasattr(self, "__setstate__"):
            self.__setstate__(state)
        else:
            self.__dict__.update(state)

    def __init_subclass__(sub: Any, /, **kwargs: Any) -> None:
        _make(cls)              # a subclass that is a dataclass finds this one's fields
        super(cls, sub).__init_subclass__(**kwargs)

    cls.__init__ = __init__
    cls.__setstate__ = __setstate__
    cls.__init_subclass__ = classmethod(__init_subclass__)
    _PENDING[cls] = kw
    return cls


@overload
def dataclass(cls: _T, /) -> _T: ...
@overload
def dataclass(*, init: bool = True, repr: bool = True, eq: bool = True, order: bool = False,
              unsafe_hash: bool = False, frozen: bool = False, kw_only: bool = False) -> Any: ...


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def dataclass(cls: Any = None, /, **kw: Any) -> Any:
    """``dataclasses.dataclass``, made when the class is first used (see the module)."""
    if cls is None:
        return lambda c: _lazy(c, kw)
    return _lazy(cls, kw)
