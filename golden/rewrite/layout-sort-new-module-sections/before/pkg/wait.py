import math
import random

from pkg import state


class Base:
    pass


class Jitter(Base):
    def f(self) -> float:
        return math.floor(random.random()) + state.SCALE
