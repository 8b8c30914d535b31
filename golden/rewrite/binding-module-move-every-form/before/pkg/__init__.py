from pkg.mod import func

__all__ = ["func"]
