import os

# We need compat itself besides its members (attrs' _make.py): the comment stays
# with the statement that binds it, wherever that statement sorts.
from . import compat, config, setters
from .compat import FLAG, helper


def check():
    assert os and compat.FLAG and config.RUN and FLAG and helper() == "h"
    assert setters.pipe(1) == (1,) and setters.frozen() == "frozen"
