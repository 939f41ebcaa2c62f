-- Ratings (issue 39): Glicko-2 per player and variant, moved once per
-- rated game in the transaction that ends it.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
-- An open seek's rating range: only players rated inside it may accept.
ALTER TABLE games ADD COLUMN rating_min INTEGER;
ALTER TABLE games ADD COLUMN rating_max INTEGER;
-- The order in which rated games moved ratings, as Lamport clocks: one
-- more than the larger of its two players' last. Each player's games are in
-- the order they were rated, so `missive ratings rebuild` replays them in
-- the same order even when two ended at the same moment.
ALTER TABLE games ADD COLUMN rating_seq BIGINT;
ALTER TABLE tournaments ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

-- A player's rating in a variant after their last rated game there.
CREATE TABLE ratings (
    user_id INTEGER NOT NULL REFERENCES users(id),
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    last_played_at TIMESTAMP,
    -- `games.rating_seq` of the player's last rated game (any variant's
    -- rows count apart: a variant's ratings move independently).
    seq BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, variant)
);

CREATE INDEX ratings_by_variant ON ratings (variant, last_played_at);

-- What each rated game did to each player's rating: the history the
-- profile chart draws, the PGN's Elo and RatingDiff tags. Its key is the
-- second guard that a game moves a rating once.
CREATE TABLE rating_changes (
    game_id INTEGER NOT NULL REFERENCES games(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    variant TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    volatility_after DOUBLE PRECISION NOT NULL,
    at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_changes_by_user ON rating_changes (user_id, variant, at);
