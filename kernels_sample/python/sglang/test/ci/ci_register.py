"""CI registration calls for files under `test/registered/`.

They do nothing at runtime. CI collects them by parsing each file (`ast`): only
module-level calls by bare name, with literal arguments, count. The effective suite
is `f"{stage}-test-{runner_config}"` when `stage` is given, else `suite`.
"""

from __future__ import annotations


def _register(
    est_time: float,
    suite: str | None = None,
    nightly: bool = False,
    disabled: str | None = None,
    *,
    stage: str | None = None,
    runner_config: str | None = None,
    in_process_group: str | None = None,
) -> None:
    if suite is None and stage is None:
        raise ValueError("a CI registration needs `suite` or `stage`")
    return None


def register_cuda_ci(est_time, suite=None, nightly=False, disabled=None, *, stage=None, runner_config=None,
                     in_process_group=None):
    return _register(est_time, suite, nightly, disabled, stage=stage, runner_config=runner_config,
                     in_process_group=in_process_group)


def register_amd_ci(est_time, suite=None, nightly=False, disabled=None, *, stage=None, runner_config=None,
                    in_process_group=None):
    return _register(est_time, suite, nightly, disabled, stage=stage, runner_config=runner_config,
                     in_process_group=in_process_group)


def register_cpu_ci(est_time, suite=None, nightly=False, disabled=None, *, stage=None, runner_config=None,
                    in_process_group=None):
    return _register(est_time, suite, nightly, disabled, stage=stage, runner_config=runner_config,
                     in_process_group=in_process_group)


def register_npu_ci(est_time, suite=None, nightly=False, disabled=None, *, stage=None, runner_config=None,
                    in_process_group=None):
    return _register(est_time, suite, nightly, disabled, stage=stage, runner_config=runner_config,
                     in_process_group=in_process_group)
