DROP TABLE request_keys;
