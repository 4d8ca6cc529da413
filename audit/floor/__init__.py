"""The floor: every game's verifier, the accounts and the equipment screens over one stream.

Above both verification and accounting, which it combines.
"""
