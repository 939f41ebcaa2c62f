//! `missive variant ...`: posted variants (issue 62). `check` is also what
//! the server runs, in a child process, on every definition posted.

use std::io::Read;
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum VariantCommand {
    /// Check a definition as posting one does (perft 1-3, 200 random games,
    /// every move written and read back) and print the report.
    Check {
        /// The definition file; `-` for standard input.
        file: String,
        /// The report as JSON (what the server reads).
        #[arg(long)]
        json: bool,
        /// CPU seconds the check may use.
        #[arg(long, default_value_t = 20)]
        cpu_secs: u64,
        /// Memory (address space) the check may map, in MB.
        #[arg(long, default_value_t = 512)]
        memory_mb: u64,
    },
    /// Approve a version of a posted variant for rated play (on DATABASE_URL).
    Approve { id: String, version: String },
}

pub fn run(cmd: VariantCommand) -> ExitCode {
    match cmd {
        VariantCommand::Check {
            file,
            json,
            cpu_secs,
            memory_mb,
        } => check(&file, json, cpu_secs, memory_mb),
        VariantCommand::Approve { id, version } => match approve(&id, &version) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

fn check(file: &str, json: bool, cpu_secs: u64, memory_mb: u64) -> ExitCode {
    use missive::posted::check::{self, CheckOutcome};
    if let Err(e) = check::limit_this_process(cpu_secs, memory_mb) {
        eprintln!("error: cannot limit the check: {e}");
        return ExitCode::FAILURE;
    }
    let mut text = String::new();
    let read = if file == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(file).map(|t| text = t)
    };
    if let Err(e) = read {
        eprintln!("error: cannot read {file}: {e}");
        return ExitCode::FAILURE;
    }
    // The trial stops itself a little before the kernel would, to say
    // which stage ran out.
    let budget = std::time::Duration::from_millis(cpu_secs * 900);
    let outcome = check::check_here(&text, &mut || check::process_cpu() < budget);
    if json {
        match serde_json::to_string(&outcome) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match outcome {
        CheckOutcome::Passed { report } => {
            if !json {
                println!("passed: perft {:?}", report.perft);
                println!(
                    "{} random games: first player {} wins, second {} wins, {} draws, {} stopped at {} plies; first player's score {:.3}",
                    report.games, report.first_wins, report.second_wins, report.draws, report.stopped, report.ply_cap, report.first_score
                );
                println!(
                    "plies per game: shortest {}, median {}, mean {:.1}, longest {}; legal moves per position {:.1}; {} moves written and read back; {} ms CPU",
                    report.shortest, report.median, report.mean_length, report.longest, report.mean_legal_moves, report.moves_read_back, report.cpu_ms
                );
            }
            ExitCode::SUCCESS
        }
        CheckOutcome::Refused { message, .. } => {
            if !json {
                eprintln!("refused: {message}");
            }
            ExitCode::from(2)
        }
    }
}

fn approve(id: &str, version: &str) -> anyhow::Result<String> {
    let config = missive::Config::from_env()?;
    let mut conn = missive::db::Manager::from_config(&config)
        .open()
        .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))?;
    missive::db::migrate(&mut conn)?;
    missive::posted::post::approve(&mut conn, id, version, missive::web::now())
        .map_err(|e| anyhow::anyhow!(e.public_message()))?;
    Ok(format!("approved {id} version {version} for rated play"))
}
