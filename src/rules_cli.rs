//! `missive perft` and `missive variants`.

use anyhow::{anyhow, Context};
use missive_rules::perft;
use std::time::Instant;

/// Print a line; a closed pipe (`missive perft ... | head`) ends the output quietly.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            return Err(e.into());
        }
    }};
}

#[derive(clap::Args)]
pub struct PerftArgs {
    /// Variant id (see `missive variants`).
    pub variant: String,
    /// Depth in plies.
    #[arg(value_parser = depth)]
    pub depth: u32,
    /// Start from this position instead of the variant's start.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print each legal move with the count below it.
    #[arg(long)]
    pub divide: bool,
    /// Print the time taken and nodes per second (on standard error).
    #[arg(long)]
    pub bench: bool,
    /// Stop with a message after this many seconds (whatever the FEN).
    #[arg(long, default_value_t = DEFAULT_MAX_SECS)]
    pub max_secs: u64,
}

/// The time budget of one `missive perft`: the deepest start-position
/// counts take about a minute here; a FEN can make any depth far bigger.
pub const DEFAULT_MAX_SECS: u64 = 600;

/// A depth as typed: a whole number; one past `u32` is "too large" (it is
/// past every variant's maximum, below, as well).
fn depth(s: &str) -> Result<u32, String> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match s.parse::<u32>() {
        Ok(d) => Ok(d),
        Err(_) if digits => Err(format!("{s} is too large")),
        Err(_) => Err(format!("“{s}” is not a whole number")),
    }
}

pub fn perft(args: PerftArgs) -> anyhow::Result<()> {
    let variant = missive::posted::lookup::variant(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant “{}”; see `missive variants`", args.variant))?;
    let max = variant.max_perft_depth();
    if args.depth > max {
        return Err(anyhow!(
            "depth {} is too deep for {}: at most {max}",
            args.depth,
            variant.id()
        ));
    }
    let fen = args.fen.as_deref().unwrap_or(variant.start_fen());
    let pos = variant
        .parse_fen(fen)
        .with_context(|| format!("cannot use the FEN “{fen}”"))?;
    within_node_budget(variant, &pos, args.depth)?;
    let start = Instant::now();
    let (depth, divide) = (args.depth, args.divide);
    let (tx, rx) = std::sync::mpsc::channel();
    // The count runs beside this thread, which stops waiting at the
    // budget: the process then exits, and the count with it.
    std::thread::spawn(move || {
        let counted = if divide {
            let rows = perft::divide(variant, &pos, depth);
            let total = match depth {
                0 => 1,
                _ => rows.iter().map(|(_, n)| n).sum(),
            };
            (rows, total)
        } else {
            (Vec::new(), perft::perft(variant, &pos, depth))
        };
        let _ = tx.send(counted);
    });
    let budget = std::time::Duration::from_secs(args.max_secs.max(1));
    let (rows, total) = rx.recv_timeout(budget).map_err(|_| {
        anyhow!(
            "stopped after {} s (the time budget; --max-secs sets it): depth {} from this \
             position is too big to count here",
            budget.as_secs(),
            args.depth
        )
    })?;
    for (mv, n) in &rows {
        say!("{mv} {n}");
    }
    let secs = start.elapsed().as_secs_f64();
    say!("{total}");
    if args.bench {
        eprintln!(
            "{} depth {}: {} nodes in {:.3} s = {:.0} nodes/s",
            variant.id(),
            args.depth,
            total,
            secs,
            total as f64 / secs.max(1e-9)
        );
    }
    Ok(())
}

/// Refuse at once a count whose tree, estimated from the position's own
/// number of moves, is bigger than the variant's start position's at its
/// [`missive_rules::Variant::max_perft_depth`] (issue 60: a 218-move FEN at depth 8 was accepted).
fn within_node_budget(
    variant: &'static dyn missive_rules::Variant,
    pos: &missive_rules::Position,
    depth: u32,
) -> anyhow::Result<()> {
    let start = variant.parse_fen(variant.start_fen())?;
    let moves = |p| variant.legal_moves(p).len().max(1) as f64;
    let budget = moves(&start).powi(variant.max_perft_depth() as i32);
    let here = moves(pos);
    let estimate = here.powi(depth as i32);
    if estimate <= budget {
        return Ok(());
    }
    let deepest = (budget.ln() / here.ln()).floor().max(0.0) as u32;
    Err(anyhow!(
        "depth {depth} from this position is about {estimate:.1e} nodes ({here} moves at \
         its root), more than the budget of {budget:.1e} for {}: at most depth {deepest} \
         from it",
        variant.id()
    ))
}

/// One line per variant: id, name, board size and family (its code),
/// tab-separated, in the order the server offers them.
pub fn list_variants() -> anyhow::Result<()> {
    for v in missive_rules::variants() {
        let g = v.geometry();
        say!(
            "{}\t{}\t{}x{}\t{}",
            v.id(),
            v.name(),
            g.width,
            g.height,
            v.family().code()
        );
    }
    Ok(())
}

/// The definitions of `MISSIVE_VARIANTS_DIR` (environment or config
/// file), so the command line knows the variants the server offers.
pub fn load_variant_files() -> anyhow::Result<()> {
    let dir = missive::Config::from_env()
        .ok()
        .and_then(|c| c.variants_dir)
        .or_else(|| std::env::var_os("MISSIVE_VARIANTS_DIR").map(Into::into))
        .filter(|d: &std::path::PathBuf| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        missive::variant_files::load(&dir)?;
    }
    Ok(())
}

#[derive(clap::Subcommand)]
pub enum RecordCommand {
    /// Check a PGN file or Game Courier log move by move; report the first
    /// illegal move with its ply and reason. Exit status 1 if any game fails.
    Check {
        /// The record file (`-` for standard input).
        file: String,
    },
}

pub fn record(cmd: RecordCommand) -> anyhow::Result<std::process::ExitCode> {
    use missive_rules::record::{check, parse_any, parse_pgn};
    let RecordCommand::Check { file } = cmd;
    let text = if file == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(&file).with_context(|| format!("cannot read {file}"))?
    };
    let records = if text.trim_start().starts_with('[') {
        parse_pgn(&text)
    } else {
        parse_any(&text).map(|r| vec![r])
    };
    let records = match records {
        Ok(r) => r,
        Err(e) => {
            say!("{file}: {e}");
            return Ok(std::process::ExitCode::FAILURE);
        }
    };
    let mut failed = false;
    for (i, rec) in records.iter().enumerate() {
        let label = if records.len() > 1 {
            format!("{file} game {}", i + 1)
        } else {
            file.clone()
        };
        match check(rec, missive_rules::variant) {
            Ok(game) => {
                let end = game
                    .outcome()
                    .map(|o| format!("{} ({})", o.result_code(), o.describe(game.variant())))
                    .unwrap_or_else(|| "game not finished".into());
                say!(
                    "{label}: ok, {} {} plies, {end}",
                    rec.variant_id(),
                    game.ply()
                );
            }
            Err(e) => {
                failed = true;
                say!("{label}: {e}");
            }
        }
    }
    Ok(if failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    })
}

#[derive(clap::Args)]
pub struct PositionArgs {
    /// Variant id (see `missive variants`).
    pub variant: String,
    /// Moves to play, in any notation the variant accepts.
    pub moves: Vec<String>,
    /// Start from this position instead of the variant's start.
    #[arg(long)]
    pub fen: Option<String>,
}

/// Print the position after the moves: FEN, outcome, legal moves (display
/// form, then coordinates).
pub fn position(args: PositionArgs) -> anyhow::Result<()> {
    let variant = missive::posted::lookup::variant(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant “{}”; see `missive variants`", args.variant))?;
    let game = missive_rules::Game::replay(variant, args.fen.as_deref(), &args.moves)?;
    say!("fen {}", game.fen());
    match game.outcome() {
        Some(o) => say!("outcome {} {}", o.result_code(), o.describe(variant)),
        None => say!("to-move {}", variant.side_name(game.side_to_move())),
    }
    for m in game.move_views() {
        say!("move {} {}", m.display, m.coordinate);
    }
    Ok(())
}
