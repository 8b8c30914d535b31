import math
import random

from pkg import state
from pkg.wait import Base


class Jitter(Base):
    def f(self) -> float:
        return math.floor(random.random()) + state.SCALE
