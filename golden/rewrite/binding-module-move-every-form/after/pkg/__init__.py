from pkg.sub.newmod import func

__all__ = ["func"]
