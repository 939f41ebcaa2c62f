//! `missive perft` and `missive variants`.

use anyhow::{anyhow, Context};
use missive_rules::perft;
use std::time::Instant;

#[derive(clap::Args)]
pub struct PerftArgs {
    /// Variant id (see `missive variants`).
    pub variant: String,
    /// Depth in plies.
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
}

pub fn perft(args: PerftArgs) -> anyhow::Result<()> {
    let variant = missive_rules::variant(&args.variant).ok_or_else(|| anyhow!("unknown variant “{}”; see `missive variants`", args.variant))?;
    let fen = args.fen.as_deref().unwrap_or(variant.start_fen());
    let pos = variant.parse_fen(fen).with_context(|| format!("cannot use the FEN “{fen}”"))?;
    let start = Instant::now();
    let total = if args.divide {
        let rows = perft::divide(variant, &pos, args.depth);
        for (mv, n) in &rows {
            println!("{mv} {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft(variant, &pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("{total}");
    if args.bench {
        eprintln!("{} depth {}: {} nodes in {:.3} s = {:.0} nodes/s", variant.id(), args.depth, total, secs, total as f64 / secs.max(1e-9));
    }
    Ok(())
}

pub fn list_variants() -> anyhow::Result<()> {
    for v in missive_rules::variants() {
        let g = v.geometry();
        println!("{}\t{}\t{}x{}", v.id(), v.name(), g.width, g.height);
    }
    Ok(())
}
