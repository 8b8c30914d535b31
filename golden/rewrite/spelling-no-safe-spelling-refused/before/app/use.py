import pkg.mod

lib = None
print(pkg.mod.X)
