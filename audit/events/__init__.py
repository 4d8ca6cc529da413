"""The event catalogue: every observed table action as an immutable pydantic dataclass."""
