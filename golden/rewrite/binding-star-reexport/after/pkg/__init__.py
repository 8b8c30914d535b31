from .recipes import *
from .partitioning import partitionby as partitionby

from .extra import *

from functools import partial
