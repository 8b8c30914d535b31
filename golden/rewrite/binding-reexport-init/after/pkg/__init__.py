from .newmod import func
from .mod import other
