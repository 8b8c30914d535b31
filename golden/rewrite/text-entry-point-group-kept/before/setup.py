from setuptools import setup

setup(entry_points={"pkg.plugins": ["foo = pkg.plugins.foo:Foo"]})
