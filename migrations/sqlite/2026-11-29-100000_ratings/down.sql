DROP TABLE rating_changes;
DROP TABLE ratings;
ALTER TABLE tournaments DROP COLUMN rated;
ALTER TABLE games DROP COLUMN rating_seq;
ALTER TABLE games DROP COLUMN rating_max;
ALTER TABLE games DROP COLUMN rating_min;
ALTER TABLE games DROP COLUMN rated;
