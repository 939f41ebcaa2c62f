-- Issue 62: variants posted by players. A variant has an id (its URLs,
-- and what /games/new takes) and versions, each the SHA-256 of its
-- normalised definition; a game stores `id@version` as its variant, so it
-- replays under the rules it was created with. Games per variant and the
-- last one's time are kept here, counted when a game is created.
CREATE TABLE posted_variants (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    author_id INTEGER NOT NULL REFERENCES users(id),
    visibility TEXT NOT NULL,
    current_version TEXT NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    last_played_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX posted_variants_author ON posted_variants (author_id, created_at);
CREATE TABLE posted_variant_versions (
    variant_id TEXT NOT NULL REFERENCES posted_variants(id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    definition TEXT NOT NULL,
    rules TEXT NOT NULL,
    report TEXT NOT NULL,
    approved_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (variant_id, version)
);
