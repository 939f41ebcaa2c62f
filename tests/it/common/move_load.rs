//! A move load for the fault tests: players and games set up through the
//! services, then threads that each play their games in turn over HTTP,
//! keeping every move the server acknowledged.

#![allow(dead_code)]

use crate::common::load::{self, Http, Player, Table};
use crate::common::stored::Acked;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// `players` players and `games` chess games between them, set up through
/// the services on the server's `secret`.
pub fn setup(
    database_url: &str,
    players: usize,
    games: usize,
    secret: &str,
) -> Vec<(i32, Player, Player)> {
    missive::listen();
    let pool = missive::db::connect(database_url, 2).expect("database");
    let mut conn = pool.get().unwrap();
    let secret = missive::web::load_secret(&mut conn, Some(secret)).unwrap();
    let ps: Vec<Player> = (0..players)
        .map(|i| load::player(&mut conn, &secret, &format!("player{i}")))
        .collect();
    (0..games)
        .map(|i| {
            let w = ps[(2 * i) % players].clone();
            let b = ps[(2 * i + 1) % players].clone();
            (load::new_game(&mut conn, &w, &b), w, b)
        })
        .collect()
}

/// The games dealt out to `threads` load threads.
pub fn tables_of(games: &[(i32, Player, Player)], threads: usize) -> Vec<Vec<Table>> {
    let mut out: Vec<Vec<Table>> = (0..threads).map(|_| Vec::new()).collect();
    for (i, (id, w, b)) in games.iter().enumerate() {
        out[i % threads].push(Table::new(*id, w.clone(), b.clone()));
    }
    out
}

/// How a load runs.
pub struct Load {
    /// Moves each thread makes at most.
    pub limit: usize,
    /// Thread `t` draws its moves from the seed `seed + t`.
    pub seed: u64,
    /// A move answered other than 303 ends the thread's load (a server
    /// whose disk died) instead of failing the test.
    pub refusal_ends_it: bool,
}

impl Load {
    pub fn limit(limit: usize) -> Load {
        Load {
            limit,
            seed: 0,
            refusal_ends_it: false,
        }
    }
}

/// Each thread first reads its games from the server (which knows better
/// after a fault), then plays them in turn until the server stops
/// answering, `stop` is set, `how.limit` moves were made or a minute is up.
pub fn run_load(
    addr: &str,
    tables: Vec<Vec<Table>>,
    acked: Arc<Mutex<Vec<Acked>>>,
    stop: Arc<AtomicBool>,
    how: Load,
) -> Vec<thread::JoinHandle<Vec<Table>>> {
    let addr = addr.trim_start_matches("http://");
    tables
        .into_iter()
        .enumerate()
        .map(|(t, mut mine)| {
            let (addr, acked, stop) = (addr.to_string(), acked.clone(), stop.clone());
            let (limit, seed, refusal_ends_it) =
                (how.limit, how.seed + t as u64, how.refusal_ends_it);
            thread::spawn(move || {
                let mut http = Http::new(&addr);
                let cookie_seed = load::csrf_seed();
                let Ok(csrf) = load::csrf_for(&mut http, &cookie_seed) else {
                    return mine;
                };
                for table in mine.iter_mut() {
                    if table.sync(&mut http, &cookie_seed).is_err() {
                        return mine;
                    }
                }
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                let started = Instant::now();
                let mut made = 0;
                'load: while made < limit
                    && !stop.load(Ordering::SeqCst)
                    && started.elapsed() < Duration::from_secs(60)
                {
                    let mut any = false;
                    for table in mine.iter_mut().filter(|t| !t.finished()) {
                        any = true;
                        match load::post_move(&mut http, table, &cookie_seed, &csrf, &mut rng) {
                            Ok(p) if p.status == 303 => {
                                acked.lock().unwrap().push((table.id, p.ply, p.coordinate));
                                made += 1;
                            }
                            Ok(_) if refusal_ends_it => break 'load,
                            Ok(p) => {
                                panic!("move {} in game {}: {}", p.coordinate, table.id, p.status)
                            }
                            Err(_) => break 'load,
                        }
                    }
                    if !any {
                        break;
                    }
                }
                mine
            })
        })
        .collect()
}
