"""A simulated 21 Baccarat table (PA ch. 681a): seeded shoes, players, rounds and books.

Entry points: :func:`set_up_baccarat_table` and :func:`baccarat_table_events`
(:mod:`.shift`). Every rule comes from the engine (``audit.games.baccarat21``);
the simulation only decides what people do.
"""
