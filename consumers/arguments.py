"""Command-line values more than one command takes, each read the same way everywhere."""

from __future__ import annotations

import argparse
from datetime import date

from consumers.errors import ConfigError


def parse_gaming_day(text: str | None) -> str | None:
    """Return ``--gaming-day`` as an ISO date, or None if not given; one line if mistyped."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise ConfigError(f"--gaming-day is not a date (YYYY-MM-DD): {text!r}") from None


def confidence_level(text: str) -> float:
    """Return ``--confidence`` as a number strictly between 0 and 1, or say what it is not."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1: {text!r}")
    return value
