from setuptools import setup

setup(entry_points={"pkg.plugins": ["foo = pkg.ext.foo:Foo"]})
