-- Run once, when the PostgreSQL volume is first initialised: the second store that the
-- `split` profile's ingest-west feeds from partitions 6-11 of the same topic.
CREATE DATABASE tablewatch_west OWNER tablewatch;
