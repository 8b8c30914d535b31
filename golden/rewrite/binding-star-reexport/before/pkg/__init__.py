from .recipes import *

from .extra import *

from functools import partial
