//! One template folder per mail kind, `templates/email/<kind>/`: its
//! subject (`subject.txt`), plain text (`body.txt`) and HTML (`body.html`),
//! each rendered from the kind's own data.

#[allow(unused_imports)] // read by the clock_notice templates
use crate::domain::mail_kind::ClockNotice;
use crate::mail::context::MailData;
use crate::mail::digest::DigestData;
use askama::Template;

/// A mail's three texts.
pub struct Parts {
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// A withdrawal notice: the tournament, why, and what became of the results.
pub struct WithdrawnMail {
    pub tournament: String,
    pub tournament_url: String,
    pub reason: String,
    pub results_cancelled: bool,
}

/// An entry's confirmation: the tournament and its rules in words.
pub struct EnteredMail {
    pub tournament: String,
    pub tournament_url: String,
    pub rules: Vec<crate::tournaments::rules_text::RuleText>,
}

/// A forfeit rule's notice: what it says, about whom, and when or why.
pub struct NoticeMail {
    pub notice: crate::domain::mail_kind::ClockNotice,
    /// The player it is about ("you" when that is the reader).
    pub player: String,
    pub detail: String,
    pub silence_days: i32,
    pub claim_url: String,
}

/// A mail about the account itself: its link, and the new address when
/// it is about one.
pub struct AccountMail {
    pub username: String,
    pub link: String,
    pub new_email: String,
    /// How long the link works, in words ("1 hour").
    pub valid_for: String,
}

pub struct VerifyData {
    pub username: String,
    pub verify_url: String,
}

/// A header holds one line: the subject template's line breaks (its file's
/// last one, or any a long `if` leaves) become spaces.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `name(field: Type, …) => "email/<kind>"`: the function rendering that
/// kind's folder from its data.
macro_rules! mail_folder {
    ($(#[$doc:meta])* $name:ident($($field:ident: $ty:ty),+) =>
        $subject:literal, $text:literal, $html:literal) => {
        $(#[$doc])*
        pub fn $name($($field: &$ty),+) -> Result<Parts, askama::Error> {
            // A subject line may leave some of the data unused.
            #[allow(dead_code)]
            #[derive(Template)]
            #[template(path = $subject)]
            struct Subject<'a> { $($field: &'a $ty),+ }
            #[derive(Template)]
            #[template(path = $text)]
            struct Text<'a> { $($field: &'a $ty),+ }
            #[derive(Template)]
            #[template(path = $html)]
            struct Html<'a> { $($field: &'a $ty),+ }
            Ok(Parts {
                subject: one_line(&Subject { $($field),+ }.render()?),
                text: Text { $($field),+ }.render()?,
                html: Html { $($field),+ }.render()?,
            })
        }
    };
}

mail_folder!(verify_email(m: VerifyData) =>
    "email/verify_email/subject.txt", "email/verify_email/body.txt", "email/verify_email/body.html");
mail_folder!(challenge_received(m: MailData) =>
    "email/challenge_received/subject.txt", "email/challenge_received/body.txt",
    "email/challenge_received/body.html");
mail_folder!(challenge_accepted(m: MailData) =>
    "email/challenge_accepted/subject.txt", "email/challenge_accepted/body.txt",
    "email/challenge_accepted/body.html");
mail_folder!(your_turn(m: MailData) =>
    "email/your_turn/subject.txt", "email/your_turn/body.txt", "email/your_turn/body.html");
mail_folder!(clock_reminder(m: MailData) =>
    "email/clock_reminder/subject.txt", "email/clock_reminder/body.txt",
    "email/clock_reminder/body.html");
mail_folder!(draw_offer(m: MailData) =>
    "email/draw_offer/subject.txt", "email/draw_offer/body.txt", "email/draw_offer/body.html");
mail_folder!(takeback_offer(m: MailData) =>
    "email/takeback_offer/subject.txt", "email/takeback_offer/body.txt",
    "email/takeback_offer/body.html");
mail_folder!(game_over(m: MailData) =>
    "email/game_over/subject.txt", "email/game_over/body.txt", "email/game_over/body.html");
mail_folder!(leave_booked(m: MailData) =>
    "email/leave_booked/subject.txt", "email/leave_booked/body.txt",
    "email/leave_booked/body.html");
mail_folder!(tournament_round(m: MailData, t: crate::tournaments::views::RoundMail) =>
    "email/tournament_round/subject.txt", "email/tournament_round/body.txt",
    "email/tournament_round/body.html");
mail_folder!(tournament_entered(m: MailData, e: EnteredMail) =>
    "email/tournament_entered/subject.txt", "email/tournament_entered/body.txt",
    "email/tournament_entered/body.html");
mail_folder!(tournament_withdrawn(m: MailData, w: WithdrawnMail) =>
    "email/tournament_withdrawn/subject.txt", "email/tournament_withdrawn/body.txt",
    "email/tournament_withdrawn/body.html");
mail_folder!(conditional_played(m: MailData) =>
    "email/conditional_played/subject.txt", "email/conditional_played/body.txt",
    "email/conditional_played/body.html");
mail_folder!(password_reset(m: AccountMail) =>
    "email/password_reset/subject.txt", "email/password_reset/body.txt",
    "email/password_reset/body.html");
mail_folder!(password_changed(m: AccountMail) =>
    "email/password_changed/subject.txt", "email/password_changed/body.txt",
    "email/password_changed/body.html");
mail_folder!(email_change_confirm(m: AccountMail) =>
    "email/email_change_confirm/subject.txt", "email/email_change_confirm/body.txt",
    "email/email_change_confirm/body.html");
mail_folder!(email_changing(m: AccountMail) =>
    "email/email_changing/subject.txt", "email/email_changing/body.txt",
    "email/email_changing/body.html");
mail_folder!(reply_done(m: MailData) =>
    "email/reply_done/subject.txt", "email/reply_done/body.txt", "email/reply_done/body.html");
mail_folder!(reply_refused(m: MailData) =>
    "email/reply_refused/subject.txt", "email/reply_refused/body.txt",
    "email/reply_refused/body.html");
mail_folder!(clock_notice(m: MailData, n: NoticeMail) =>
    "email/clock_notice/subject.txt", "email/clock_notice/body.txt",
    "email/clock_notice/body.html");
mail_folder!(digest(m: DigestData) =>
    "email/digest/subject.txt", "email/digest/body.txt", "email/digest/body.html");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::mail_kind::MailKind;

    #[test]
    fn every_kind_has_its_folder_and_nothing_else_is_there() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/email");
        let mut kinds: Vec<&str> = MailKind::ALL.iter().map(|k| k.code()).collect();
        kinds.sort();
        let mut folders: Vec<String> = std::fs::read_dir(&root)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        folders.sort();
        assert_eq!(folders, kinds);
        for kind in kinds {
            for file in ["subject.txt", "body.txt", "body.html"] {
                assert!(root.join(kind).join(file).is_file(), "{kind}/{file}");
            }
        }
    }

    #[test]
    fn a_subject_is_one_line() {
        let m = MailData {
            opponent: "bob".into(),
            game_id: crate::domain::ids::GameId(7),
            last_move: "Nf3".into(),
            ..MailData::default()
        };
        assert_eq!(
            your_turn(&m).unwrap().subject,
            "Your move against bob: bob played Nf3 (game 7)"
        );
        let first = MailData {
            last_move: String::new(),
            ..m
        };
        assert_eq!(
            your_turn(&first).unwrap().subject,
            "Your move against bob (game 7)"
        );
    }
}
