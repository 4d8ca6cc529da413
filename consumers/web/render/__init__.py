"""Pure SVG pictures of the games' pieces, for the console: Pai Gow tiles and playing cards."""
