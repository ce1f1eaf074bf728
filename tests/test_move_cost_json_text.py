"""The store's JSON text (store.sqlite.dumps) and a request's fingerprint text are made by encoders
built once (store.sqlite.encoder): the text must be exactly json.dumps's with the same options for
any JSON value (what is stored and answered does not change by a byte), and what json.dumps
refuses they refuse too."""
from __future__ import annotations

import hashlib
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.store.sqlite import dumps, encoder
from companion.tables.service import Claimed, fingerprint

STORED = {"ensure_ascii": False, "separators": (",", ":"), "allow_nan": False}
CANONICAL = {"sort_keys": True, "separators": (",", ":")}

scalars = (st.none() | st.booleans() | st.integers() | st.integers(-2**200, 2**200)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text())
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(values)
def test_the_same_text_as_json_dumps(value):
    assert dumps(value) == json.dumps(value, **STORED)
    assert encoder(**CANONICAL)(value) == json.dumps(value, **CANONICAL)
    assert fingerprint("POST", "/api/tables/x/moves", value) == hashlib.sha256(
        json.dumps(["POST", "/api/tables/x/moves", value], **CANONICAL).encode()).hexdigest()


def test_odd_values_as_json_dumps_writes_them():
    odd = {1: "int key", 2.5: "float key", False: "bool key", None: "none key", "é\u2028\x00\"\\": "ü\U0001F600",
           "seat": Claimed(2, "d"), "nested": [[[]], {}, [{"a": [1.5e300, -0.0, 10**30]}]]}
    assert dumps(odd) == json.dumps(odd, **STORED)
    assert dumps("a\u2028\"é") == json.dumps("a\u2028\"é", **STORED)
    assert dumps(Claimed(3, "d")) == "3"
    assert encoder(**CANONICAL)({"b": 1, "a": ["é"]}) == json.dumps({"b": 1, "a": ["é"]}, **CANONICAL)


@pytest.mark.parametrize("value", [math.nan, [math.inf], {"a": -math.inf}])
def test_refuses_what_json_dumps_refuses(value):
    with pytest.raises(ValueError):
        json.dumps(value, **STORED)
    with pytest.raises(ValueError):
        dumps(value)


@pytest.mark.parametrize("value", [{"a": {1, 2}}, [object()], {(1, 2): 3}])
def test_refuses_what_is_not_json(value):
    with pytest.raises(TypeError):
        json.dumps(value, **STORED)
    with pytest.raises(TypeError):
        dumps(value)
