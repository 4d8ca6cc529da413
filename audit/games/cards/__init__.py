"""Playing cards, shared by every card game: the deck, its cards and their names."""
