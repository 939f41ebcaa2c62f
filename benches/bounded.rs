//! Benchmark for issue 37, items 1 and 2: `bash bench/bounded.sh`, or
//! `cargo bench --bench bounded`. Prints times; asserts nothing about them,
//! since they depend on the machine (docs/performance.md keeps the figures).
//!
//! - record check (`POST /records/check` and the check it runs) for a
//!   Leaperhouse record of 1,000, 2,000, 4,000 and 8,000 plies where the
//!   Knights shuffle without any position occurring a third time, from a
//!   start where both sides hold pieces to drop (about 330 legal moves a
//!   ply, each tried against the repetition rule);
//! - `.pgn` and `.txt` export of a 10-ply and a 2,000-ply game, with records
//!   kept and with none kept (`MISSIVE_POSITION_CACHE_MB=0`);
//! - another game's JSON, p50 and p99, while ten clients export the
//!   2,000-ply game's `.txt` (nothing kept) without pause.

#[path = "../tests/it/common/mod.rs"]
mod common;

use common::long_records::knight_shuffle;
use common::{Backend, TestApp, TestClient};
use reqwest::StatusCode;
use std::time::{Duration, Instant};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn quantile(mut xs: Vec<f64>, q: f64) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[((xs.len() as f64 - 1.0) * q).round() as usize]
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let out = f();
    (out, ms(t.elapsed()))
}

/// A finished game of the record's moves between ann and ben, imported.
fn import(director: &TestClient, record: &str) -> i32 {
    let finished = record.replace(" *\n", " 1/2-1/2\n");
    let p = director.post(
        "/records/import",
        &[
            ("record", finished.as_str()),
            ("white", "ann"),
            ("black", "ben"),
        ],
    );
    assert_eq!(
        p.status(),
        StatusCode::SEE_OTHER,
        "{}",
        &p.body[..p.body.len().min(2000)]
    );
    p.location
        .unwrap()
        .trim_start_matches("/games/")
        .parse()
        .unwrap()
}

fn app_with_players(cache_mb: u32) -> (TestApp, TestClient) {
    let app = TestApp::start_with(Backend::Sqlite, |c| c.position_cache_mb = cache_mb);
    let d = app.member("director", true);
    app.member("ann", false);
    app.member("ben", false);
    (app, d)
}

fn bounded_work() {
    println!("record check, Leaperhouse Knight shuffle (median of 3 over HTTP; rules alone, 9 rounds with the sizes interleaved, so a busy moment of the machine falls on all sizes alike):");
    let (app, director) = app_with_players(0);
    let sizes = [1_000, 2_000, 4_000, 8_000];
    let records: Vec<String> = sizes.iter().map(|&n| knight_shuffle(n)).collect();
    let mut rounds: Vec<Vec<f64>> = vec![Vec::new(); sizes.len()];
    for _ in 0..9 {
        for (record, times) in records.iter().zip(&mut rounds) {
            times.push(timed(|| missive::game::records::check_record(record)).1);
        }
    }
    let (direct_base, mut base) = (median(rounds[0].clone()), 0.0);
    for ((plies, record), times) in sizes.into_iter().zip(&records).zip(rounds) {
        let direct = median(times.clone());
        let least = times.iter().copied().fold(f64::MAX, f64::min);
        let http = median(
            (0..3)
                .map(|_| {
                    let (p, t) =
                        timed(|| director.post("/records/check", &[("record", record.as_str())]));
                    assert_eq!(p.status(), StatusCode::OK, "{plies}");
                    t
                })
                .collect(),
        );
        if plies == 1_000 {
            base = http;
        }
        println!(
            "  {plies:>5} plies ({} KB): check {direct:8.1} ms (least {least:.1}; {:.1}x the 1,000-ply check), POST /records/check {http:8.1} ms ({:.1}x the 1,000-ply POST)",
            record.len() / 1024,
            direct / direct_base,
            http / base
        );
    }

    let short = knight_shuffle(10);
    let long = knight_shuffle(2_000);
    for cache_mb in [0, 32] {
        let (_app, director) = app_with_players(cache_mb);
        let ids = [import(&director, &short), import(&director, &long)];
        let kept = if cache_mb == 0 {
            "none kept"
        } else {
            "records kept"
        };
        for (id, plies) in ids.iter().zip([10, 2_000]) {
            for ext in ["pgn", "txt"] {
                let path = format!("/games/{id}.{ext}");
                let times: Vec<f64> = (0..20)
                    .map(|_| {
                        let (p, t) = timed(|| director.get(&path));
                        assert_eq!(p.status(), StatusCode::OK);
                        t
                    })
                    .collect();
                println!(
                    "  export {plies:>5}-ply .{ext} ({kept}): median {:.2} ms, max {:.2} ms",
                    median(times.clone()),
                    times.iter().copied().fold(0.0, f64::max)
                );
            }
        }
    }

    // Another game's JSON while ten clients export the long game's log.
    let (app2, director2) = app_with_players(0);
    let ids = [import(&director2, &short), import(&director2, &long)];
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let exporters: Vec<_> = (0..10)
        .map(|_| {
            let stop = stop.clone();
            let base = app2.base.clone();
            let path = format!("{base}/games/{}.txt", ids[1]);
            std::thread::spawn(move || {
                let client = reqwest::blocking::Client::new();
                let mut n = 0u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let r = client.get(&path).send().unwrap();
                    assert_eq!(r.status(), StatusCode::OK);
                    let _ = r.bytes();
                    n += 1;
                }
                n
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let json = format!("/games/{}.json", ids[0]);
    let times: Vec<f64> = (0..200)
        .map(|_| {
            let (p, t) = timed(|| director2.get(&json));
            assert_eq!(p.status(), StatusCode::OK);
            std::thread::sleep(Duration::from_millis(10));
            t
        })
        .collect();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let exports: u32 = exporters.into_iter().map(|t| t.join().unwrap()).sum();
    println!(
        "  JSON of another game under ten concurrent 2,000-ply .txt exports (none kept; {exports} exports meanwhile): p50 {:.2} ms, p99 {:.2} ms",
        quantile(times.clone(), 0.5),
        quantile(times, 0.99)
    );
    drop(app);
}

fn main() {
    bounded_work();
}
