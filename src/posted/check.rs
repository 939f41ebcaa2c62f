//! The check a posted definition passes before it is kept (issue 62).
//!
//! A check runs in a child process (`missive variant check --json`) with
//! its CPU time and memory capped by the kernel (`setrlimit`): a definition
//! that makes the engine loop, allocate without end or even crash costs
//! the child, never the server. Inside, the trial asks the clock as it
//! goes, so a check over its budget usually ends with the stage it was in;
//! the kernel's limits are the backstop.

use crate::config::PostedLimits;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a passed check found (the trial's report, kept with the version).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// Positions at depth 1, 2, 3 from the start.
    pub perft: Vec<u64>,
    pub games: u32,
    pub first_wins: u32,
    pub second_wins: u32,
    pub draws: u32,
    /// Games stopped at the ply cap.
    pub stopped: u32,
    pub ply_cap: u32,
    pub first_score: f64,
    pub shortest: u32,
    pub median: u32,
    pub mean_length: f64,
    pub longest: u32,
    pub mean_legal_moves: f64,
    /// How games ended (the rules' reason codes) with their counts.
    pub endings: Vec<(String, u32)>,
    pub moves_read_back: u64,
    /// CPU time the check took, in milliseconds.
    pub cpu_ms: u64,
}

impl CheckReport {
    /// How the games ended, in words ("checkmate 52, stalemate 22").
    pub fn ending_words(&self) -> Vec<(&'static str, u32)> {
        self.endings
            .iter()
            .map(|(code, n)| {
                let words = missive_rules::Reason::from_code(code)
                    .map_or("another ending", |r| r.describe());
                (words, *n)
            })
            .collect()
    }
}

/// A check's answer: passed with its report, or refused with why (and the
/// definition's line when the refusal is about one).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum CheckOutcome {
    Passed {
        report: CheckReport,
    },
    Refused {
        line: Option<usize>,
        message: String,
    },
}

impl CheckOutcome {
    fn refused(message: impl Into<String>) -> CheckOutcome {
        CheckOutcome::Refused {
            line: None,
            message: message.into(),
        }
    }
}

/// Check `text` in this process, asking `cpu_left` for the budget: what
/// the child does (and tests of the check's logic).
pub fn check_here(text: &str, cpu_left: &mut dyn FnMut() -> bool) -> CheckOutcome {
    let variant = match missive_rules::read_posted(text, "posted-check", "Posted variant") {
        Ok(v) => v,
        Err(e) => {
            return CheckOutcome::Refused {
                line: Some(e.line),
                message: e.message,
            }
        }
    };
    let plan = missive_rules::TrialPlan::default();
    let started = process_cpu();
    match missive_rules::trial(variant, &plan, cpu_left) {
        Ok(r) => CheckOutcome::Passed {
            report: CheckReport {
                perft: r.perft,
                games: r.games,
                first_wins: r.first_wins,
                second_wins: r.second_wins,
                draws: r.draws,
                stopped: r.stopped,
                ply_cap: plan.ply_cap,
                first_score: r.first_score,
                shortest: r.shortest,
                median: r.median,
                mean_length: r.mean_length,
                longest: r.longest,
                mean_legal_moves: r.mean_legal_moves,
                endings: r
                    .endings
                    .into_iter()
                    .map(|(reason, n)| (reason.code().to_string(), n))
                    .collect(),
                moves_read_back: r.moves_read_back,
                cpu_ms: process_cpu().saturating_sub(started).as_millis() as u64,
            },
        },
        Err(missive_rules::TrialFailure::OutOfBudget(stage)) => CheckOutcome::refused(format!(
            "The check ran out of CPU time during {stage}: the definition asks more of the engine than a check may spend. Make the board smaller or the pieces' moves shorter."
        )),
        Err(e) => CheckOutcome::refused(format!("The check failed: {e}")),
    }
}

/// CPU time this process has used.
pub fn process_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given and nothing else.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Cap this process's CPU time and address space (the child's first act).
pub fn limit_this_process(cpu_secs: u64, memory_mb: u64) -> std::io::Result<()> {
    let set = |what, soft: u64, hard: u64| {
        let lim = libc::rlimit {
            rlim_cur: soft as libc::rlim_t,
            rlim_max: hard as libc::rlim_t,
        };
        // SAFETY: setrlimit reads the struct it is given.
        if unsafe { libc::setrlimit(what, &lim) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    };
    // SIGXCPU at the soft limit, SIGKILL a second later.
    set(libc::RLIMIT_CPU, cpu_secs, cpu_secs + 1)?;
    let bytes = memory_mb.saturating_mul(1024 * 1024);
    set(libc::RLIMIT_AS, bytes, bytes)
}

/// Run the check of `text` in a child process under `limits`. Blocking:
/// call it off the request threads, behind the checks' queue.
pub fn check_in_child(limits: &PostedLimits, text: &str) -> CheckOutcome {
    let program = match &limits.checker {
        Some(p) => p.clone(),
        None => match std::env::current_exe() {
            Ok(p) => p,
            Err(e) => return CheckOutcome::refused(format!("The checker cannot start: {e}")),
        },
    };
    let child = Command::new(&program)
        .args(["variant", "check", "--json", "--cpu-secs"])
        .arg(limits.cpu_secs.to_string())
        .arg("--memory-mb")
        .arg(limits.memory_mb.to_string())
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(program = %program.display(), "variant checker: {e}");
            return CheckOutcome::refused(
                "The checker could not be started; the operator has been told. Try again later.",
            );
        }
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A child that dies at once closes its end: what it says is read below.
        let _ = stdin.write_all(text.as_bytes());
    }
    // Wall time as a backstop for a child that sleeps or is starved: the
    // CPU limit, twice, and a few seconds to start.
    let deadline = Instant::now() + Duration::from_secs(limits.cpu_secs * 2 + 5);
    let mut timed_out = false;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                timed_out = true;
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return CheckOutcome::refused(format!("The checker failed: {e}")),
        }
    }
    let out = match child.wait_with_output() {
        Ok(o) => o,
        Err(e) => return CheckOutcome::refused(format!("The checker failed: {e}")),
    };
    if let Ok(outcome) = serde_json::from_slice::<CheckOutcome>(&out.stdout) {
        return outcome;
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    use std::os::unix::process::ExitStatusExt;
    let signal = out.status.signal();
    let cpu = || {
        CheckOutcome::refused(format!(
            "The check ran out of CPU time (it may use {} s): the definition asks more of the engine than a check may spend. Make the board smaller or the pieces' moves shorter.",
            limits.cpu_secs
        ))
    };
    if timed_out || signal == Some(libc::SIGXCPU) || signal == Some(libc::SIGKILL) {
        return cpu();
    }
    if stderr.contains("memory allocation") || stderr.contains("out of memory") {
        return CheckOutcome::refused(format!(
            "The check ran out of memory (it may use {} MB): make the board smaller or use fewer pieces.",
            limits.memory_mb
        ));
    }
    tracing::error!(status = %out.status, stderr = %crate::util::clip(&stderr, 400), "variant checker failed");
    CheckOutcome::refused(
        "The check stopped without an answer; the operator has been told. Try a simpler definition, or try again later.",
    )
}
