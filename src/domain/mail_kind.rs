//! The mails the server sends: each kind one variant carrying what its
//! event knew that the database will not keep (who caused it, the move as
//! played). The rest (the position, the clock, names) is read when the mail
//! is rendered, so a mail says what is true when it goes out.

use crate::domain::codes::text_codes;
use crate::domain::ids::GameId;
use chrono::NaiveDate;

text_codes! {
    "mail kind",
    /// A mail's kind, as the outbox stores it.
    pub enum MailKind {
        VerifyEmail => "verify_email",
        ChallengeReceived => "challenge_received",
        ChallengeAccepted => "challenge_accepted",
        YourTurn => "your_turn",
        ClockReminder => "clock_reminder",
        DrawOffer => "draw_offer",
        TakebackOffer => "takeback_offer",
        GameOver => "game_over",
        TournamentRound => "tournament_round",
        TournamentWithdrawn => "tournament_withdrawn",
        // Issue 63: the rules a player entered under.
        TournamentEntered => "tournament_entered",
        LeaveBooked => "leave_booked",
        Digest => "digest",
        ConditionalPlayed => "conditional_played",
        PasswordReset => "password_reset",
        PasswordChanged => "password_changed",
        EmailChangeConfirm => "email_change_confirm",
        EmailChanging => "email_changing",
        // Issue 42: answers to replies by mail.
        ReplyDone => "reply_done",
        ReplyRefused => "reply_refused",
        ClockNotice => "clock_notice",
    }
}

text_codes! {
    "clock notice",
    /// What a forfeit-rule mail ([`Mail::ClockNotice`]) tells its reader.
    pub enum ClockNotice {
        /// To the player to move: no move for a while; the silence rule
        /// will end the game (its `detail`: when).
        SilenceWarning => "silence-warning",
        /// To the tournament's director: a player (`about`) is silent.
        SilenceReport => "silence-report",
        /// To the opponent of a player (`about`) whose time ran out: the win
        /// may be claimed (its `detail`: until when).
        FlagFell => "flag-fell",
        /// To both players: a director gave a player (`about`) more time
        /// (its `detail`: how much and why).
        TimeExtended => "time-extended",
        /// To both players: a director set a finished game's result again
        /// (its `detail`: the result and the reason).
        Adjudicated => "adjudicated",
    }
}

text_codes! {
    "mail policy",
    /// What a player wants mailed (the mail settings form's `policy`).
    pub enum MailPolicy {
        /// Every mail.
        Every => "every",
        /// One daily digest instead of a mail on every turn.
        Digest => "digest",
        /// No mail at all.
        None => "none",
    }
}

impl MailKind {
    /// Mails about the account's security: sent whatever the mail policy
    /// says, since a person who chose "no mail" still needs their reset link
    /// and must hear of a password or address change. (The confirmation
    /// mail of sign-up follows the policy, as it always has.)
    pub fn about_the_account(self) -> bool {
        matches!(
            self,
            MailKind::PasswordReset
                | MailKind::PasswordChanged
                | MailKind::EmailChangeConfirm
                | MailKind::EmailChanging
        )
    }

    /// Mails to an address not yet confirmed: the confirmation links.
    pub fn to_any_address(self) -> bool {
        matches!(self, MailKind::VerifyEmail | MailKind::EmailChangeConfirm)
    }
}

/// A move as its mover entered it: the notation shown and the `//` comment.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MoveNote {
    pub display: String,
    pub comment: Option<String>,
    /// Played from a conditional line, in answer to this move (shown).
    pub answers: Option<String>,
}

impl MoveNote {
    /// The move as played, its comment dropped when blank.
    pub fn of(played: &missive_rules::Played) -> MoveNote {
        MoveNote {
            display: played.display.clone(),
            comment: played.comment.clone().filter(|c| !c.trim().is_empty()),
            answers: None,
        }
    }
}

/// One mail to one user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mail {
    /// "Confirm your address": the one mail sent to an unverified address.
    VerifyEmail,
    /// `from` challenged the reader to `game`.
    ChallengeReceived { game: GameId, from: i32 },
    /// `from` accepted the reader's challenge (the game is at `ply`).
    ChallengeAccepted { game: GameId, ply: i32, from: i32 },
    /// The reader is to move in `game` at `ply`; `last_move` is what the
    /// opponent `from` just played (none at the start of a game).
    YourTurn {
        game: GameId,
        ply: i32,
        from: Option<i32>,
        last_move: Option<MoveNote>,
    },
    /// The reader's time in `game` at `ply` is running out.
    ClockReminder { game: GameId, ply: i32 },
    /// `from` offers a draw in `game` at `ply`.
    DrawOffer { game: GameId, ply: i32, from: i32 },
    /// `from` asks to take back their last move in `game` at `ply`.
    TakebackOffer { game: GameId, ply: i32, from: i32 },
    /// `game` is over; `last_move` the move that ended it, if one did.
    GameOver {
        game: GameId,
        from: Option<i32>,
        last_move: Option<MoveNote>,
    },
    /// A tournament started or paired a round (`None`: all its games).
    TournamentRound { tournament: i32, round: Option<i32> },
    /// The reader entered a tournament: its rules in words.
    TournamentEntered { tournament: i32 },
    /// The reader was withdrawn from a tournament.
    TournamentWithdrawn {
        tournament: i32,
        reason: String,
        results_cancelled: bool,
    },
    /// The opponent `from` booked leave from `first_day` to `last_day`.
    LeaveBooked {
        from: i32,
        first_day: NaiveDate,
        last_day: NaiveDate,
    },
    /// The daily digest of the games where the reader is to move.
    Digest,
    /// The reader's conditional move `last_move` (which says what it
    /// answered) was played in `game`, leaving it at `ply`; `from` is the
    /// opponent whose move it answered.
    ConditionalPlayed {
        game: GameId,
        ply: i32,
        from: i32,
        last_move: MoveNote,
    },
    /// A password-reset link (`account_tokens` row `token`).
    PasswordReset { token: i32 },
    /// "Your password was changed", after a change or a reset.
    PasswordChanged,
    /// To the new address: confirm it (`account_tokens` row `token`).
    EmailChangeConfirm { token: i32 },
    /// To the current address: a change to another one was asked for.
    EmailChanging { token: i32 },
    /// A reply by mail did `act` ("your move Nf3 was played") in `game`,
    /// leaving it at `ply`.
    ReplyDone { game: GameId, ply: i32, act: String },
    /// A reply by mail in `game` was not acted on, for `reason`; with
    /// `ply`, the legal moves are listed while the game is still there.
    ReplyRefused {
        game: GameId,
        ply: Option<i32>,
        reason: String,
    },
    /// A forfeit rule's notice about `game` at `ply` (`about`: the player it
    /// concerns; `detail`: what the event knew, in words).
    ClockNotice {
        game: GameId,
        ply: i32,
        notice: ClockNotice,
        about: Option<i32>,
        detail: String,
    },
}

impl Mail {
    pub fn kind(&self) -> MailKind {
        match self {
            Mail::VerifyEmail => MailKind::VerifyEmail,
            Mail::ChallengeReceived { .. } => MailKind::ChallengeReceived,
            Mail::ChallengeAccepted { .. } => MailKind::ChallengeAccepted,
            Mail::YourTurn { .. } => MailKind::YourTurn,
            Mail::ClockReminder { .. } => MailKind::ClockReminder,
            Mail::DrawOffer { .. } => MailKind::DrawOffer,
            Mail::TakebackOffer { .. } => MailKind::TakebackOffer,
            Mail::GameOver { .. } => MailKind::GameOver,
            Mail::TournamentRound { .. } => MailKind::TournamentRound,
            Mail::TournamentWithdrawn { .. } => MailKind::TournamentWithdrawn,
            Mail::TournamentEntered { .. } => MailKind::TournamentEntered,
            Mail::LeaveBooked { .. } => MailKind::LeaveBooked,
            Mail::Digest => MailKind::Digest,
            Mail::ConditionalPlayed { .. } => MailKind::ConditionalPlayed,
            Mail::PasswordReset { .. } => MailKind::PasswordReset,
            Mail::PasswordChanged => MailKind::PasswordChanged,
            Mail::EmailChangeConfirm { .. } => MailKind::EmailChangeConfirm,
            Mail::EmailChanging { .. } => MailKind::EmailChanging,
            Mail::ReplyDone { .. } => MailKind::ReplyDone,
            Mail::ReplyRefused { .. } => MailKind::ReplyRefused,
            Mail::ClockNotice { .. } => MailKind::ClockNotice,
        }
    }

    /// The game the mail is about, if one.
    pub fn game(&self) -> Option<GameId> {
        match self {
            Mail::ChallengeReceived { game, .. }
            | Mail::ChallengeAccepted { game, .. }
            | Mail::YourTurn { game, .. }
            | Mail::ClockReminder { game, .. }
            | Mail::DrawOffer { game, .. }
            | Mail::TakebackOffer { game, .. }
            | Mail::GameOver { game, .. }
            | Mail::ConditionalPlayed { game, .. }
            | Mail::ReplyDone { game, .. }
            | Mail::ReplyRefused { game, .. }
            | Mail::ClockNotice { game, .. } => Some(*game),
            _ => None,
        }
    }

    /// The ply of the game the mail was caused at, where it matters.
    pub fn ply(&self) -> Option<i32> {
        match self {
            Mail::ChallengeAccepted { ply, .. }
            | Mail::YourTurn { ply, .. }
            | Mail::ClockReminder { ply, .. }
            | Mail::DrawOffer { ply, .. }
            | Mail::TakebackOffer { ply, .. }
            | Mail::ConditionalPlayed { ply, .. }
            | Mail::ReplyDone { ply, .. }
            | Mail::ClockNotice { ply, .. } => Some(*ply),
            Mail::ReplyRefused { ply, .. } => *ply,
            Mail::ChallengeReceived { .. } => Some(0),
            _ => None,
        }
    }

    /// The account link the mail carries, if one.
    pub fn token(&self) -> Option<i32> {
        match self {
            Mail::PasswordReset { token }
            | Mail::EmailChangeConfirm { token }
            | Mail::EmailChanging { token } => Some(*token),
            _ => None,
        }
    }

    /// Who caused it, if someone did.
    pub fn from(&self) -> Option<i32> {
        match self {
            Mail::ChallengeReceived { from, .. }
            | Mail::ChallengeAccepted { from, .. }
            | Mail::DrawOffer { from, .. }
            | Mail::TakebackOffer { from, .. }
            | Mail::LeaveBooked { from, .. }
            | Mail::ConditionalPlayed { from, .. } => Some(*from),
            Mail::YourTurn { from, .. } | Mail::GameOver { from, .. } => *from,
            Mail::ClockNotice { about, .. } => *about,
            _ => None,
        }
    }
}
