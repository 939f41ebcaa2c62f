DROP TABLE calendar_feeds;
ALTER TABLE tournaments DROP COLUMN weekends_free;
ALTER TABLE games DROP COLUMN weekends_free;
ALTER TABLE users DROP COLUMN time_zone;
