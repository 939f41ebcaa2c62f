//! The `missive` command: the server (default) and its tools.

mod rules_cli;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "missive", version, about = "Play-by-correspondence server for chess variants")]
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
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            eprintln!("missive: the server is not built yet");
            Ok(())
        }
        Command::Perft(args) => rules_cli::perft(args),
        Command::Variants => rules_cli::list_variants(),
    }
}
