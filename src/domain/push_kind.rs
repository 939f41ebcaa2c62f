//! Browser notifications (issue 64): which mails a player may also have
//! pushed to their browsers, grouped as the switches on
//! `/settings/notifications` show them.

use crate::domain::codes::text_codes;
use crate::domain::mail_kind::MailKind;

text_codes! {
    "push kind",
    /// A switch of browser notifications, as `push_muted` stores it.
    pub enum PushKind {
        /// It is the player's move (a move made, a challenge accepted).
        YourTurn => "your_turn",
        /// The opponent offers a draw or asks to take a move back.
        Offers => "offers",
        /// The player's time to move runs low.
        Reminders => "reminders",
        /// A game ended.
        GameOver => "game_over",
        /// A tournament round began.
        TournamentRound => "tournament_round",
    }
}

impl PushKind {
    /// The switch that covers a mail of `kind`, if such a mail is pushed
    /// at all (account mails, digests and the like are mail only).
    pub fn of(kind: MailKind) -> Option<PushKind> {
        Some(match kind {
            MailKind::YourTurn | MailKind::ChallengeAccepted => PushKind::YourTurn,
            MailKind::DrawOffer | MailKind::TakebackOffer => PushKind::Offers,
            MailKind::ClockReminder => PushKind::Reminders,
            MailKind::GameOver => PushKind::GameOver,
            MailKind::TournamentRound => PushKind::TournamentRound,
            _ => return None,
        })
    }

    /// The switch's words on the settings page.
    pub fn label(self) -> &'static str {
        match self {
            PushKind::YourTurn => "It is my move (and my challenge was accepted)",
            PushKind::Offers => "My opponent offers a draw or asks to take back a move",
            PushKind::Reminders => "My time to move runs low",
            PushKind::GameOver => "A game ends",
            PushKind::TournamentRound => "A tournament round begins",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_switch_covers_some_mail_and_account_mails_are_not_pushed() {
        for &k in PushKind::ALL {
            assert!(MailKind::ALL.iter().any(|m| PushKind::of(*m) == Some(k)));
        }
        assert_eq!(PushKind::of(MailKind::PasswordReset), None);
        assert_eq!(PushKind::of(MailKind::Digest), None);
        assert_eq!(
            PushKind::of(MailKind::TakebackOffer),
            Some(PushKind::Offers)
        );
    }
}
