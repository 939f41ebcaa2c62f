//! The `missive` command: the server (default) and its tools.

mod rules_cli;

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
}

fn main() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            missive::init_tracing();
            let config = missive::Config::from_env()?;
            actix_web::rt::System::new().block_on(missive::serve(config))?;
        }
        Command::Perft(args) => rules_cli::perft(args)?,
        Command::Variants => rules_cli::list_variants()?,
        Command::Position(args) => rules_cli::position(args)?,
        Command::Record(cmd) => return rules_cli::record(cmd),
    }
    Ok(ExitCode::SUCCESS)
}
