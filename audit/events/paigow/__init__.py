"""Pai Gow Tiles event payloads (PA ch. 621a, NJ 19:47-10, California)."""
