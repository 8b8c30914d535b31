"""Core: a star re-export only."""

from .mod import *  # noqa: F403
