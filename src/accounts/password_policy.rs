//! Which passwords are accepted: zxcvbn's estimate, told the username and
//! the address (a password built from them is guessed first), score 3 or
//! more, with zxcvbn's own advice when it is refused.

use zxcvbn::Score;

pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 256;
/// zxcvbn's matching grows fast with length; its authors estimate only the
/// first 100 characters, and a password that long is strong by then.
const ESTIMATED_CHARS: usize = 100;

pub fn check(password: &str, username: &str, email: &str) -> Result<(), String> {
    let n = password.chars().count();
    if n < PASSWORD_MIN {
        return Err(format!(
            "That password is too short: use at least {PASSWORD_MIN} characters \
             (a few unrelated words make a strong one)."
        ));
    }
    if n > PASSWORD_MAX {
        return Err(format!("A password has at most {PASSWORD_MAX} characters."));
    }
    let estimated: String = password.chars().take(ESTIMATED_CHARS).collect();
    let local = email.split('@').next().unwrap_or("");
    let inputs: Vec<&str> = [username, email, local, "missive", "chess"]
        .into_iter()
        .filter(|s| !s.trim().is_empty())
        .collect();
    let entropy = zxcvbn::zxcvbn(&estimated, &inputs);
    if entropy.score() >= Score::Three {
        return Ok(());
    }
    let mut advice = Vec::new();
    if let Some(feedback) = entropy.feedback() {
        if let Some(w) = feedback.warning() {
            advice.push(w.to_string());
        }
        advice.extend(feedback.suggestions().iter().map(|s| s.to_string()));
    }
    if advice.is_empty() {
        advice.push("Add another word or two; uncommon words are better.".into());
    }
    Err(format!(
        "That password is too easy to guess. {}",
        advice.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weak_passwords_of_the_issue_are_refused_with_advice() {
        for weak in ["12341234", "qwerty12", "1q2w3e4r", "trustno1", "password1"] {
            let e = check(weak, "alice", "alice@example.org").unwrap_err();
            assert!(
                e.starts_with("That password is too easy to guess."),
                "{weak}: {e}"
            );
            assert!(
                e.len() > "That password is too easy to guess. ".len(),
                "{e}"
            );
        }
    }

    #[test]
    fn the_username_and_address_count_against_a_password() {
        assert!(check("vermilion-otter-7", "bob", "bob@example.org").is_ok());
        let e = check("vermilionotter", "vermilionotter", "v@example.org");
        assert!(e.is_err(), "{e:?}");
        assert!(check("correct horse battery", "alice", "alice@example.org").is_ok());
    }

    #[test]
    fn length_bounds_come_first() {
        assert!(check("Ab1!", "x", "").unwrap_err().contains("too short"));
        let long = "a-very-long-and-unusual-phrase ".repeat(10);
        assert!(check(&long, "x", "").unwrap_err().contains("at most 256"));
        // Past 100 characters only the start is estimated, and accepted.
        let ok = format!("Plinth gargoyle umbrella 42 {}", "x".repeat(200));
        assert!(check(&ok, "x", "").is_ok());
    }
}
