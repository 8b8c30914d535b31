from pkg.base import Plugin
from pkg.mod import main


def check():
    assert main() is Plugin
