from unittest import mock

import proj.legacy.helpers as helpers


def test_patch_targets(monkeypatch):
    with mock.patch("proj.legacy.norm.rmsnorm"), mock.patch(
        "proj.legacy" ".act.silu"
    ):
        monkeypatch.setattr("proj.legacy.helpers.fast_gelu", lambda x: x)
    assert helpers.fast_gelu(0) == 0
    assert select_kernel("legacy.rmsnorm") is not None
