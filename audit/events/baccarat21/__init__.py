"""21 Baccarat event payloads (PA ch. 681a): the shoe, the wagers, the cards and settlement."""
