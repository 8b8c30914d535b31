from .impl import Thing, run as go

__all__ = ["Thing", "go"]
