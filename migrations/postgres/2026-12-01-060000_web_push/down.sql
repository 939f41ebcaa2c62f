DROP TABLE push_outbox;
DROP TABLE push_muted;
DROP TABLE push_subscriptions;
