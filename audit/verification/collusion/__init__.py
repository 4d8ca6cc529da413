"""Collusion screens: patterns between a dealer and a player, or between players, that no single
round shows (issue #21.2). The kinds are in :mod:`.kinds`, the tests in :mod:`.tails`, the
screens themselves in :mod:`.screens`; docs/collusion-screens.md states each one's statistic,
window and threshold."""
