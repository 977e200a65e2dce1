"""pbem.core.lazyclass.dataclass gives the class dataclasses.dataclass gives, made when first
used (issue 35): instances, fields, equality, hashing, freezing, copies, pickles, subclasses."""
from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any, Generic, TypeVar

import pytest

from pbem.core import lazyclass
from pbem.core.errors import Issue, Severity

T = TypeVar("T")


def _pair(**kw: Any) -> tuple[type, type]:
    def make(deco: Any) -> type:
        @deco(**kw)
        class C(Generic[T]):
            """A class."""
            a: int
            b: str = "x"
            c: list[int] = dataclasses.field(default_factory=list)

            def total(self) -> int:
                return self.a + len(self.c)
        return C
    return make(dataclasses.dataclass), make(lazyclass.dataclass)


@pytest.mark.parametrize("kw", [{}, {"frozen": True}, {"eq": False}, {"order": True}, {"unsafe_hash": True}])
def test_the_same_class_as_dataclasses_makes(kw):
    std, lazy = _pair(**kw)
    assert lazy in lazyclass._PENDING
    s, z = std(1, c=[2]), lazy(1, c=[2])
    assert lazy not in lazyclass._PENDING and "__setstate__" not in lazy.__dict__
    assert dataclasses.is_dataclass(z) and dataclasses.is_dataclass(lazy)
    assert [(f.name, f.default, f.default_factory) for f in dataclasses.fields(z)] == \
        [(f.name, f.default, f.default_factory) for f in dataclasses.fields(s)]
    assert repr(z).replace("lazy", "std") == repr(s).replace("lazy", "std") or repr(z).split("(", 1)[1] == repr(s).split("(", 1)[1]
    assert (z == lazy(1, c=[2])) == (s == std(1, c=[2]))
    assert z.total() == s.total() == 2
    assert (lazy.__hash__ is None) == (std.__hash__ is None)
    if kw.get("frozen"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            z.a = 2
    def hashed(obj: Any) -> Any:
        try:
            return hash(obj) == hash(copy.copy(obj))
        except TypeError as e:
            return str(e)
    assert hashed(z) == hashed(s)
    assert dataclasses.replace(z, a=5).a == 5
    assert copy.deepcopy(z) == z or not kw.get("eq", True)
    with pytest.raises(TypeError):
        lazy()


def test_a_copy_or_a_subclass_made_first_sees_the_dataclass():
    _, lazy = _pair()
    blank = lazy.__new__(lazy)              # as copy and pickle make an instance
    blank.__setstate__({"a": 1, "b": "x", "c": []})
    assert dataclasses.is_dataclass(lazy) and "__setstate__" not in lazy.__dict__
    assert blank == lazy(1) and repr(blank).endswith("(a=1, b='x', c=[])")
    _, base = _pair(frozen=True)

    @dataclasses.dataclass(frozen=True)
    class Sub(base):        # type: ignore[valid-type,misc]
        d: int = 0
    assert [f.name for f in dataclasses.fields(Sub)] == ["a", "b", "c", "d"]
    assert Sub(1, d=2).total() == 1 and base(1) != Sub(1)


def test_pbem_issues_are_the_dataclass_they_were():
    i = Issue("X-Y", "a problem", line=3)
    assert i == Issue("X-Y", "a problem", line=3) and hash(i) == hash(Issue("X-Y", "a problem", line=3))
    assert i.severity is Severity.ERROR and i.is_error
    assert pickle.loads(pickle.dumps(i)) == i and copy.copy(i) == i
    assert dataclasses.replace(i, line=4).line == 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        i.line = 5      # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(Issue)][:3] == ["code", "message", "severity"]
