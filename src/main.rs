//! The `missive` command: the server (default) and its tools.

mod rules_cli;
mod tournament_cli;
mod user_cli;
mod variant_cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "missive",
    version,
    about = "Play-by-correspondence server for chess variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the web server (the default).
    Serve,
    /// Count leaf nodes of the legal move tree.
    Perft(rules_cli::PerftArgs),
    /// List the variants: id, name, board size.
    Variants,
    /// Play moves from a position; print the FEN, the outcome and the legal moves.
    Position(rules_cli::PositionArgs),
    /// Game records (PGN, Game Courier logs).
    #[command(subcommand)]
    Record(rules_cli::RecordCommand),
    /// Accounts and the tournament director role (on DATABASE_URL).
    #[command(subcommand)]
    User(user_cli::UserCommand),
    /// Copy the SQLite database (DATABASE_URL) to FILE while the server
    /// runs: a consistent copy as of one commit. FILE must not exist.
    Backup { file: std::path::PathBuf },
    /// Put the backup FILE in place of the SQLite database (DATABASE_URL);
    /// refused while a server is using it. The replaced database is kept
    /// beside it.
    Restore { file: std::path::PathBuf },
    /// Swiss pairings from a TRF file.
    #[command(subcommand)]
    Swiss(tournament_cli::SwissCommand),
    /// Tournaments (on DATABASE_URL).
    #[command(subcommand)]
    Tournament(tournament_cli::TournamentCommand),
    /// Ratings (on DATABASE_URL).
    #[command(subcommand)]
    Ratings(RatingsCommand),
    /// Read one reply to a "your turn" mail on standard input (a mail
    /// server's pipe transport) and act on it. Exit codes (sysexits): 0
    /// done, 65 unreadable, 67 unknown address, 75 try later.
    MailIn {
        /// The envelope recipients, as the mail server passes them
        /// (postfix: `${original_recipient}`).
        recipients: Vec<String>,
    },
    /// Posted variants: check a definition, approve a version for rated play.
    #[command(subcommand)]
    Variant(variant_cli::VariantCommand),
    /// Developers' tools: a large generated database.
    #[command(subcommand)]
    Dev(DevCommand),
}

#[derive(Subcommand)]
enum DevCommand {
    /// Fill the database (DATABASE_URL) with generated players, games with
    /// their moves, tournaments, ratings and an outbox backlog, after what
    /// it holds; prints how long it took and how large the database is.
    /// Every generated player's password is "populated player lantern".
    Populate {
        /// Players to make (named player1, player2...).
        #[arg(long, default_value_t = 100_000)]
        players: usize,
        /// Games to make, tournament games included; a tenth are running.
        #[arg(long, default_value_t = 1_000_000)]
        games: usize,
        /// Tournaments to make (their games at most a fifth of --games).
        #[arg(long, default_value_t = 500)]
        tournaments: usize,
        /// Seed of the random choices: the same seed makes the same rows.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn dev(cmd: DevCommand) -> anyhow::Result<()> {
    let DevCommand::Populate {
        players,
        games,
        tournaments,
        seed,
    } = cmd;
    let config = missive::Config::from_env()?;
    let mut conn = missive::db::Manager::from_config(&config)
        .open()
        .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    missive::db::migrate(&mut conn)?;
    let opts = missive::populate::Options {
        players,
        games,
        tournaments,
        seed,
        ..missive::populate::Options::default()
    };
    let r = missive::populate::run(&mut conn, &opts)?;
    println!(
        "populated {}: {} players, {} games ({} running, {} rated) with {} moves, {} tournaments \
         in {:.1} s ({:.1} s of it playing the variant pools); the database is {:.1} MB",
        missive::redact(&config.database_url),
        r.players,
        r.games,
        r.running,
        r.rated,
        r.moves,
        r.tournaments,
        r.seconds,
        r.pool_seconds,
        r.bytes as f64 / 1e6
    );
    Ok(())
}

#[derive(Subcommand)]
enum RatingsCommand {
    /// Recompute every rating from the rated games in the order they ended,
    /// store the result, and say how many ratings differed from the stored ones.
    Rebuild {
        /// Compare only: store nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

fn ratings(cmd: RatingsCommand) -> anyhow::Result<()> {
    let RatingsCommand::Rebuild { dry_run } = cmd;
    let config = missive::Config::from_env()?;
    let mut conn = missive::db::Manager::from_config(&config)
        .open()
        .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    missive::db::migrate(&mut conn)?;
    let r = missive::ratings::rebuild::rebuild(&mut conn, dry_run)
        .map_err(|e| anyhow::anyhow!(e.public_message()))?;
    println!(
        "{} rated games, {} ratings; {} differed from the stored ones{}",
        r.games,
        r.ratings,
        r.differing,
        if dry_run {
            " (dry run: nothing stored)"
        } else {
            ""
        }
    );
    Ok(())
}

fn main() -> ExitCode {
    // A user's mistake (a bad FEN, an unknown variant, a missing file) is
    // told in one line, never with a backtrace, whatever RUST_BACKTRACE says.
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    missive::listen();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            missive::init_tracing()?;
            let config = missive::Config::from_env()?;
            actix_web::rt::System::new().block_on(missive::serve(config))?;
        }
        Command::Perft(args) => {
            rules_cli::load_variant_files()?;
            rules_cli::perft(args)?
        }
        Command::Variants => {
            rules_cli::load_variant_files()?;
            rules_cli::list_variants()?
        }
        Command::Position(args) => {
            rules_cli::load_variant_files()?;
            rules_cli::position(args)?
        }
        Command::Record(cmd) => {
            rules_cli::load_variant_files()?;
            return rules_cli::record(cmd);
        }
        Command::User(cmd) => return Ok(user_cli::run(cmd)),
        Command::Variant(cmd) => return Ok(variant_cli::run(cmd)),
        Command::Ratings(cmd) => ratings(cmd)?,
        Command::Dev(cmd) => dev(cmd)?,
        Command::Swiss(cmd) => tournament_cli::swiss(cmd)?,
        Command::Tournament(cmd) => tournament_cli::tournament(cmd)?,
        Command::Backup { file } => {
            let config = missive::Config::from_env()?;
            let copy = missive::db::backup::backup(&config.database_url, &file)?;
            println!(
                "backed up {} to {}: {copy}",
                missive::redact(&config.database_url),
                file.display()
            );
        }
        Command::Restore { file } => {
            let config = missive::Config::from_env()?;
            let (restored, kept) = missive::db::backup::restore(&file, &config.database_url)?;
            println!(
                "restored {} from {}: {restored}",
                missive::redact(&config.database_url),
                file.display()
            );
            if let Some(kept) = kept {
                println!("the database it replaced is kept as {}", kept.display());
            }
        }
        Command::MailIn { recipients } => {
            let done = missive::mail_in::run(missive::Config::from_env(), &recipients);
            // The mail server logs this line with the delivery.
            eprintln!("mail-in: {}", done.note);
            return Ok(ExitCode::from(done.exit.code()));
        }
    }
    Ok(ExitCode::SUCCESS)
}
