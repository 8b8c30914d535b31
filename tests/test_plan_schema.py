"""plan.schema.json agrees with the loader: on every plan in plans/ and on crafted cases."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from helpers import PLANS
from ruamel.yaml import YAML

from migrate.plan import parse_plan

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "migrate/plan/plan.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def schema_ok(text: str) -> bool:
    return VALIDATOR.is_valid(YAML(typ="safe").load(text))


def loader_ok(text: str) -> bool:
    _, errors = parse_plan(text, "plan.yaml")
    return not errors


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


PLAN_FILES = sorted(PLANS.glob("*.yaml")) + sorted(PLANS.glob("*.yml"))


@pytest.mark.parametrize("plan", PLAN_FILES, ids=lambda p: p.name)
def test_every_plan_in_plans_dir_agrees(plan):
    """A plan the loader accepts validates; one with structural errors does not."""
    text = plan.read_text(encoding="utf-8")
    if loader_ok(text):
        errors = [e.message for e in VALIDATOR.iter_errors(YAML(typ="safe").load(text))]
        assert errors == []
    else:
        assert not schema_ok(text)


def test_plans_dir_holds_plans():
    assert PLAN_FILES, "plans/ has no plan to check"


VALID = {
    "minimal": "version: 1\n",
    "empty lists": "version: 1\nmoves:\nsplits:\ndelete:\nkeep_prose:\nroots:\n",
    "every key": """\
version: 1
roots: [python, .]
moves:
  - {from: sglang.jit_kernel, to: sglang.kernels.ops.misc}
  - {from: sglang.jit_kernel.norm, to: sglang.kernels.ops.layernorm.norm}
  - {from: "sglang.jit_kernel.utils:load_jit", to: sglang.kernels.jit.loader}
  - {from: python/sglang/jit_kernel/csrc/, to: python/sglang/kernels/jit/csrc/}
op_ids:
  - {from: jit.rmsnorm, to: layernorm.rmsnorm}
splits:
  - file: test/registered/kernels/test_norm.py
    into:
      - {path: test/registered/kernels/ops/layernorm/test_rms.py, take: [test_rms*]}
      - {path: test/registered/kernels/ops/layernorm/test_norm.py, take: [rest]}
groups:
  add: [misc]
  remove: [legacy]
  rename: [{from: layernorm, to: normalization}]
delete: [sglang.jit_kernel]
keep_prose: [CHANGELOG.md, "docs/history/**"]
""",
    "groups remove only": "version: 1\ngroups:\n  remove: [x]\n",
}

INVALID = {
    "unknown top key": "version: 1\nopids: []\n",
    "unknown move key": "version: 1\nmoves:\n  - {from: a.b, to: c.d, with: x}\n",
    "no version": "moves: []\n",
    "version 2": "version: 2\n",
    "missing to": "version: 1\nmoves:\n  - {from: a.b}\n",
    "path to dotted": "version: 1\nmoves:\n  - {from: a/b.py, to: a.b}\n",
    "dotted to path": "version: 1\nmoves:\n  - {from: a.b, to: a/b}\n",
    "symbol target": "version: 1\nmoves:\n  - {from: a.b, to: 'c:d'}\n",
    "absolute path": "version: 1\nmoves:\n  - {from: /etc/x, to: a/x}\n",
    "leaves repo": "version: 1\nmoves:\n  - {from: a/x, to: ../x}\n",
    "bad dotted": "version: 1\nmoves:\n  - {from: a-b.c, to: d.e}\n",
    "bad op id": "version: 1\nop_ids:\n  - {from: rmsnorm, to: layernorm.rmsnorm}\n",
    "split without take": "version: 1\nsplits:\n  - file: t.py\n    into:\n      - path: a.py\n",
    "split no outputs": "version: 1\nsplits:\n  - file: t.py\n    into: []\n",
    "bad group": "version: 1\ngroups:\n  add: [Norm-2]\n",
    "groups unknown key": "version: 1\ngroups:\n  retire: [x]\n",
    "bad removed group": "version: 1\ngroups:\n  remove: [Norm]\n",
    "rename without to": "version: 1\ngroups:\n  rename: [{from: layernorm}]\n",
    "rename bad name": "version: 1\ngroups:\n  rename: [{from: a, to: B.c}]\n",
    "rename unknown key": "version: 1\ngroups:\n  rename: [{from: a, to: b, as: c}]\n",
    "delete a path": "version: 1\ndelete: [python/sglang/jit_kernel]\n",
    "root leaves repo": "version: 1\nroots: [../python]\n",
    "moves not a list": "version: 1\nmoves: {from: a.b, to: c.d}\n",
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_cases_agree(name):
    assert loader_ok(VALID[name])
    assert schema_ok(VALID[name])


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_cases_agree(name):
    assert not loader_ok(INVALID[name]), "the loader accepts it: fix the case"
    assert not schema_ok(INVALID[name])


def test_schema_rejects_unknown_keys_everywhere():
    for text in (
        INVALID["unknown top key"],
        INVALID["unknown move key"],
        INVALID["groups unknown key"],
    ):
        errors = list(VALIDATOR.iter_errors(YAML(typ="safe").load(text)))
        assert errors and any(
            "additional" in e.message.lower() or e.validator == "oneOf" for e in errors
        )


def test_schema_top_keys_match_the_loader():
    from migrate.plan.load import TOP_KEYS

    assert set(SCHEMA["properties"]) == TOP_KEYS
