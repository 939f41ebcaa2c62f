//! `missive user ...`: accounts and the director role, on `DATABASE_URL`.

use std::io::BufRead;
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum UserCommand {
    /// Create an account (validated like a sign-up; its address counts as
    /// verified). The password comes from --password, else MISSIVE_PASSWORD,
    /// else the first line of standard input.
    Create {
        name: String,
        email: String,
        #[arg(long)]
        password: Option<String>,
    },
    /// Let a user create and direct tournaments.
    GrantDirector { name: String },
    /// Take the director role away.
    RevokeDirector { name: String },
    /// Make a user an administrator: they grant and remove the director
    /// role on /admin/directors.
    GrantAdmin { name: String },
    /// Take the administrator role away.
    RevokeAdmin { name: String },
    /// Log the account out everywhere and refuse its logins and play links;
    /// its games go on under the clock.
    Disable { name: String },
    /// Lift `disable`.
    Enable { name: String },
    /// Print a one-hour password-reset link for the account (for support).
    ResetLink { name: String },
}

fn password(given: Option<String>) -> anyhow::Result<String> {
    if let Some(p) = given {
        return Ok(p);
    }
    if let Ok(p) = std::env::var("MISSIVE_PASSWORD") {
        return Ok(p);
    }
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}

pub fn run(cmd: UserCommand) -> ExitCode {
    match execute(cmd) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn execute(cmd: UserCommand) -> anyhow::Result<String> {
    use missive::accounts::users as accounts;
    use missive::tournaments::directors;
    let config = missive::Config::from_env()?;
    let mut conn = missive::db::Manager::from_config(&config)
        .open()
        .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    missive::db::migrate(&mut conn)?;
    let now = missive::web::now();
    let public = |e: missive::domain::error::Error| anyhow::anyhow!(e.public_message());
    match cmd {
        UserCommand::Create {
            name,
            email,
            password: given,
        } => {
            let pw = password(given)?;
            let u =
                accounts::create_verified(&mut conn, &name, &email, &pw, now).map_err(public)?;
            Ok(format!(
                "created user {} <{}> (id {}, address verified)",
                u.username, u.email, u.id
            ))
        }
        UserCommand::GrantDirector { name } => {
            let u = directors::set_director(&mut conn, &name, true).map_err(public)?;
            Ok(format!("{} is now a tournament director", u.username))
        }
        UserCommand::RevokeDirector { name } => {
            let u = directors::set_director(&mut conn, &name, false).map_err(public)?;
            Ok(format!("{} is no longer a tournament director", u.username))
        }
        UserCommand::GrantAdmin { name } => {
            let u = missive::accounts::admins::set_admin(&mut conn, &name, true, now)
                .map_err(public)?;
            Ok(format!("{} is now an administrator", u.username))
        }
        UserCommand::RevokeAdmin { name } => {
            let u = missive::accounts::admins::set_admin(&mut conn, &name, false, now)
                .map_err(public)?;
            Ok(format!("{} is no longer an administrator", u.username))
        }
        UserCommand::Disable { name } => {
            let (u, ended) =
                missive::accounts::disabling::disable(&mut conn, &name, now).map_err(public)?;
            Ok(format!(
                "{} is disabled ({ended} session{} ended)",
                u.username,
                if ended == 1 { "" } else { "s" }
            ))
        }
        UserCommand::Enable { name } => {
            let u = missive::accounts::disabling::enable(&mut conn, &name).map_err(public)?;
            Ok(format!("{} is enabled", u.username))
        }
        UserCommand::ResetLink { name } => {
            let secret = missive::web::load_secret(&mut conn, config.secret.as_deref())?;
            missive::accounts::password_reset::link_for(
                &mut conn,
                &secret,
                &config.base_url,
                &name,
                now,
            )
            .map_err(public)
        }
    }
}
