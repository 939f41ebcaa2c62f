DROP TABLE game_events;
ALTER TABLE moves DROP COLUMN bank_after;
ALTER TABLE moves DROP COLUMN conditional;
ALTER TABLE games DROP COLUMN takebacks;
ALTER TABLE games DROP COLUMN takeback_offer;
ALTER TABLE games DROP COLUMN conditional_count;
ALTER TABLE games DROP COLUMN conditional_rev;
DROP TABLE conditional_lines;
