"""Three records on the replay path are plain classes (engine/plain.py), not dataclasses (making a
dataclass at import is a cost every one-shot replay pays). They must behave as the dataclasses
they replaced: the same constructor, defaults, repr, equality and unhashability."""

from __future__ import annotations

from dataclasses import dataclass, make_dataclass
from typing import Any

import pytest

from hexwar.journal import JournalContents
from hexwar.match import ReplayReport
from hexwar.scenarios.loader import _Ctx

CASES = [
    (JournalContents, [("header", Any), ("records", Any), ("last_link", Any), ("size", Any),
                       ("damage", Any, None), ("skipped", Any, ()), ("kept_as", Any, None)],
     ({"type": "header"}, [{"type": "order", "seq": 0}], b"\x01" * 16, 123)),
    (ReplayReport, [("game", Any), ("header", Any), ("orders", Any), ("ruleset_changed", Any),
                    ("end", Any, None)],
     ("a game", {"format": 1}, 715, False)),
    (_Ctx, [("path", Any), ("text", Any), ("problems", Any)], ("x.toml", "text", ["p"])),
]


def _as_dataclass(cls, fields):
    from dataclasses import field
    spec = [(f[0], f[1]) if len(f) == 2 else (f[0], f[1], field(default=f[2])) for f in fields]
    return dataclass(make_dataclass(cls.__name__, spec))


@pytest.mark.parametrize("cls,fields,args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_a_plain_record_behaves_as_the_dataclass_it_replaced(cls, fields, args):
    ref = _as_dataclass(cls, fields)
    names = [f[0] for f in fields]
    full = (*args, "end-value") if len(args) < len(names) else args
    for given in (args, full):
        mine, theirs = cls(*given), ref(*given)
        assert [getattr(mine, n) for n in names] == [getattr(theirs, n) for n in names]
        assert repr(mine) == repr(theirs)
        assert mine == cls(*given) and not (mine != cls(*given))
        kw = dict(zip(names, given))
        assert cls(**kw) == mine
    other = list(args)
    other[-1] = "something else"
    assert cls(*args) != cls(*other)
    assert cls(*args).__eq__(ref(*args)) is NotImplemented
    with pytest.raises(TypeError):
        hash(cls(*args))
    if len(args) < len(names):
        with pytest.raises(TypeError):
            cls(*args, *["one"] * (len(names) - len(args)), "too many")
    with pytest.raises(TypeError):
        cls(*args[:-1])
