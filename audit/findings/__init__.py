"""Findings: what every judge reports, below both verification and accounting, which share it."""
