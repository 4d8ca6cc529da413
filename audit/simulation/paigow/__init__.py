"""The Pai Gow Tiles simulator: the table, its players and bank rotation, and the round step by
step (:mod:`.round`); the careless dealer in :mod:`.careless`."""
