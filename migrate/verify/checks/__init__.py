"""One static check per module; each is `check(ctx: VerifyContext) -> CheckResult`."""
