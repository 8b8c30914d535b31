import pkg


def check():
    assert pkg.F() == pkg.func() == pkg.late() == "func" and pkg.helper() == "helper"
    # the package's namespace ends without the submodule names, before and after
    assert not {"mod", "newmod", "gone"} & set(vars(pkg))
