"""21 Baccarat verification (PA ch. 681a): finding kinds, a round view, checks, a stream verifier.

The entry point is :class:`~audit.verification.baccarat21.verify.StreamVerifier`,
fed one stored fact at a time for the tables whose ``table_opened`` names
``game="baccarat21"``.
"""
