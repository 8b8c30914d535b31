from .recipes import *
from .partitioning import partitionby

from .extra import *

from functools import partial
