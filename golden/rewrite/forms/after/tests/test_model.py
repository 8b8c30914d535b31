from unittest import mock

import proj.legacy.helpers as helpers
import proj.ops.activation.gelu as gelu


def test_patch_targets(monkeypatch):
    with mock.patch("proj.ops.layernorm.norm.rmsnorm"), mock.patch(
        "proj.ops.activation.act.silu" ""
    ):
        monkeypatch.setattr("proj.ops.activation.gelu.fast_gelu", lambda x: x)
    assert gelu.fast_gelu(0) == 0
    assert select_kernel("layernorm.rmsnorm") is not None
