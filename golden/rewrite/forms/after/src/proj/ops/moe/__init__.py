from .router import route

__all__ = ["route"]
