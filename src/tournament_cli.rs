//! `missive swiss ...` and `missive tournament ...`: Swiss pairing from a
//! TRF file, and a tournament written as TRF.

use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub enum SwissCommand {
    /// Pair the next round of the tournament in FILE (TRF-2026, or TRF16
    /// with XXR/XXC) and print it as bbpPairings' `-p`: the number of pairs,
    /// then `WHITE BLACK` pairing numbers per line, a bye as `NUMBER 0`.
    Pair { file: PathBuf },
}

#[derive(clap::Subcommand)]
pub enum TournamentCommand {
    /// Print tournament ID as a TRF-2026 file (on DATABASE_URL).
    Export { id: i32 },
}

pub fn swiss(cmd: SwissCommand) -> anyhow::Result<()> {
    let SwissCommand::Pair { file } = cmd;
    // A TRF of 9999 players and 99 rounds is under 10 MB; more is not a TRF.
    const LIMIT: u64 = 16 << 20;
    let size = std::fs::metadata(&file)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?
        .len();
    anyhow::ensure!(
        size <= LIMIT,
        "{}: larger than 16 MB, not a TRF file",
        file.display()
    );
    let bytes = std::fs::read(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let trf = missive::domain::trf::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let round = missive::domain::trf_round::next_round(&trf)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    print!("{}", round.to_pairs_text());
    Ok(())
}

pub fn tournament(cmd: TournamentCommand) -> anyhow::Result<()> {
    let TournamentCommand::Export { id } = cmd;
    let config = missive::Config::from_env()?;
    let mut conn = missive::db::Manager::from_config(&config)
        .open()
        .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    missive::db::migrate(&mut conn)?;
    let text = missive::tournaments::trf_export::export(&mut conn, id)
        .map_err(|e| anyhow::anyhow!(e.public_message()))?;
    print!("{text}");
    Ok(())
}
