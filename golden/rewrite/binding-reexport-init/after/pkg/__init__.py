from .mod import other
from .newmod import func
