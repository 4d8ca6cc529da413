"""Verification: observed facts judged against their table's rules, as findings."""
