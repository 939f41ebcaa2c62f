//! Issue 60, finding 6: bodies that trickle in are cut off after
//! `MISSIVE_BODY_TIMEOUT_SECS`, one address has at most
//! `MISSIVE_REQUESTS_PER_ADDRESS` requests in progress, and real requests
//! from elsewhere are answered meanwhile. Loopback only; the count of
//! connections and every wait are bounded.

use crate::common;

use common::{Backend, TestApp};
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::time::{Duration, Instant};

const SLOW: usize = 1_000;
const PER_ADDRESS: usize = 100;

/// A connection that sends a form's headers and a first byte of its body,
/// promising 100,000 more.
fn slow_body(addr: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(
        b"POST /records/check HTTP/1.1\r\nHost: x\r\n\
          Content-Type: application/x-www-form-urlencoded\r\n\
          Content-Length: 100000\r\n\r\nr",
    )
    .unwrap();
    s
}

/// What the server did with a slow connection within `wait`: the status
/// of its answer (then the connection is closed), 0 for a close without
/// one; `None` when it is still open.
fn outcome(s: &mut TcpStream, wait: Duration) -> Option<u16> {
    s.set_read_timeout(Some(wait)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::ConnectionReset) => break,
            Err(_) => return None,
        }
    }
    let head = String::from_utf8_lossy(&got);
    Some(
        head.split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0),
    )
}

fn slow_bodies_are_cut_off_while_others_are_served(backend: Backend) {
    let app = TestApp::start_with(backend, |c| {
        c.body_timeout_secs = 2;
        c.requests_per_address = PER_ADDRESS;
    });
    let addr = app.base.trim_start_matches("http://").to_string();
    let started = Instant::now();
    let mut slow: Vec<TcpStream> = (0..SLOW).map(|_| slow_body(&addr)).collect();
    // Real requests from another loopback address, while they are held.
    let other = reqwest::blocking::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)))
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let mut served = 0;
    for path in ["/", "/records/check", "/xfcc?wsdl"] {
        let r = other.get(format!("{}{path}", app.base)).send().unwrap();
        assert_eq!(r.status(), 200, "{path}");
        served += 1;
    }
    eprintln!(
        "{served} of 3 real requests served within {:?} while {SLOW} slow bodies were open",
        started.elapsed()
    );
    // Every slow body ends: refused at once past the address's limit, cut
    // off after its second otherwise. The wait is far longer than either.
    let mut by_status = std::collections::BTreeMap::new();
    for s in &mut slow {
        let status = outcome(s, Duration::from_secs(30)).expect("a slow body still open");
        *by_status.entry(status).or_insert(0) += 1;
    }
    eprintln!("slow bodies ended by status: {by_status:?}");
    assert_eq!(by_status.values().sum::<usize>(), SLOW);
    // Both ways happened: more than the limit were open at once (opening
    // them takes far less than their two seconds), and those let in were
    // cut off.
    let refused = by_status.get(&429).copied().unwrap_or(0);
    assert!(
        refused > 0,
        "past {PER_ADDRESS} at once, refused: {by_status:?}"
    );
    assert!(
        refused < SLOW,
        "those in progress were cut off: {by_status:?}"
    );
    // The address is served again once its bodies are cut off.
    assert_eq!(app.client().get("/").status(), 200);
}

both_backends!(slow_bodies_are_cut_off_while_others_are_served);
