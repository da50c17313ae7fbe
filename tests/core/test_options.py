"""Rule options that are a choice among names are typed (options.py): one source for the
allowed values, and a misspelt value is a type error."""

from __future__ import annotations

import dataclasses
import json
import pickle
import typing
from pathlib import Path

import pytest

from roppyakken import options
from roppyakken import rules as rules_module
from roppyakken.errors import RulesError
from roppyakken.rules import Rules, preset
from tests.harness.support import mypy_errors


def test_every_choice_option_is_typed_by_its_literal() -> None:
    """Each field of Rules listed in CHOICES is annotated with the Literal its values come from."""
    hints = typing.get_type_hints(Rules, vars(rules_module))
    assert set(options.CHOICES) <= set(hints)
    for name, allowed in options.CHOICES.items():
        assert typing.get_origin(hints[name]) is typing.Literal, name
        assert typing.get_args(hints[name]) == allowed, name
        assert getattr(Rules(), name) in allowed


@pytest.mark.parametrize("name", sorted(options.CHOICES))
def test_a_value_outside_the_choices_is_refused(name: str) -> None:
    """The check at run time reads the same values (TOML files are not type-checked)."""
    with pytest.raises(RulesError, match=name):
        values: dict[str, typing.Any] = {name: "no-such-value"}
        Rules(**values)


def test_a_misspelt_value_is_a_type_error(tmp_path: Path) -> None:
    """``mypy --strict`` refuses a comparison with a value the option cannot have."""
    code = (
        "from roppyakken.rules import preset\n"
        "rules = preset('online')\n"
        "ok = rules.rain_off == 'ordered'\n"
        "bad = rules.rain_off == 'orderd'\n"
    )
    out = mypy_errors(tmp_path, code)
    assert out.count("error:") == 1, out
    assert "snippet.py:4:" in out and "orderd" in out
    assert preset("online").rain_off == "ordered"


def test_a_misspelt_value_is_a_type_error_where_the_yaku_read_the_options(tmp_path: Path) -> None:
    """The yaku module reads the options through a protocol and keeps ``rain_off`` in its compiled
    table: the same values are types there, so a typo is caught there too."""
    code = (
        "from roppyakken.rules import preset\n"
        "from roppyakken.yaku import LuckyOptions, YakuOptions, YakuTable\n"
        "table = YakuTable.compile(preset('online'))\n"
        "ok = table.rain_off == 'ordered'\n"
        "bad1 = table.rain_off == 'orderd'\n"
        "def f(o: YakuOptions, p: LuckyOptions) -> bool:\n"
        "    return o.seven_ribbons_willow == 'exclud' or o.rain_off == 'of' or p.hand_four == 'plays'\n"
    )
    out = mypy_errors(tmp_path, code)
    assert out.count("error:") == 4, out
    assert "snippet.py:5:" in out and out.count("snippet.py:7:") == 3


def test_a_misspelt_value_is_a_type_error_in_the_scoring_options(tmp_path: Path) -> None:
    """The engine's end of the round reads the options from the compiled ``ScoringOptions``:
    their values are the same types there."""
    code = (
        "from roppyakken.rules import preset\n"
        "from roppyakken.scoring import scoring_options\n"
        "o = scoring_options(preset('marguerite'))\n"
        "ok = o.match_kind == 'first-to' and o.table_four == 'redeal'\n"
        "bad = o.match_kind == 'frist-to' or o.hand_four == 'plays' or o.joker_wild_on_table == 'al'\n"
    )
    out = mypy_errors(tmp_path, code)
    assert out.count("error:") == 3 and out.count("snippet.py:5:") == 3, out


def test_rules_are_hashable_values() -> None:
    """Equal rules are equal and hash alike; different rules differ; pickling keeps them."""
    a, b = preset("online"), preset("online")
    assert a is not b and a == b and hash(a) == hash(b)
    assert {a: 1}[b] == 1
    changed = a.with_options({"yaku": {"cannon": 9}})
    assert changed != a and changed.yaku["cannon"] == 9 and a.yaku["cannon"] != 9
    copy = pickle.loads(pickle.dumps(changed))
    assert copy == changed and hash(copy) == hash(changed)


def test_rules_cannot_be_changed() -> None:
    """Options are read-only, the yaku and lucky-hand tables too."""
    rules = preset("classic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 300  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.yaku["cannon"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.lucky_hands.pop("hand-three")  # type: ignore[attr-defined]
    assert rules.yaku == preset("classic").yaku and "hand-three" in rules.lucky_hands
    assert json.loads(json.dumps(rules.options()))["yaku"] == dict(rules.yaku)
