import os

from . import config, pipes, setters

# We need compat itself besides its members (attrs' _make.py): the comment stays
# with the statement that binds it, wherever that statement sorts.
from ._impl import compat
from ._impl.compat import FLAG, helper


def check():
    assert os and compat.FLAG and config.RUN and FLAG and helper() == "h"
    assert pipes.pipe(1) == (1,) and setters.frozen() == "frozen"
