pkg = "not a package"
