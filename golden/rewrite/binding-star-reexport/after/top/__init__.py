from .mid import *
