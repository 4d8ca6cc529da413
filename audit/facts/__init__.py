"""The fact stream's own rules, free of any database: sequencing, the hash chain, receipts."""
