//! Issue 60, finding 10: anonymous record checks run on their own permits,
//! one at a time per client address, with a bounded queue; exports (the
//! rules permits) go on while every check permit is taken. 16 clients
//! looping checks once made a 6-ply game's PGN wait 5.7 s (median).

use crate::common;

use common::{Backend, TestApp};
use missive::domain::error::Error;
use missive::web::rules_pool::{check_permits, checks_work, rules_work, CHECKS_WAITING};
use std::sync::mpsc;
use std::time::Duration;

fn checks_queue_apart_from_exports(backend: Backend) {
    let app = TestApp::start(backend);
    let state = missive::web::build_state(&app.config).unwrap();
    actix_web::rt::System::new().block_on(async move {
        // Checks that run until told to end, one per permit.
        let mut ends = Vec::new();
        for i in 0..check_permits() {
            let (tx, rx) = mpsc::channel::<()>();
            ends.push(tx);
            let s = state.clone();
            actix_web::rt::spawn(async move {
                let _ = checks_work(&s, &format!("10.0.0.{i}"), move || rx.recv()).await;
            });
        }
        while state.check_permits.available_permits() > 0 {
            actix_web::rt::time::sleep(Duration::from_millis(5)).await;
        }
        // The same address again: refused at once, whatever waits.
        let again = checks_work(&state, "10.0.0.0", || ()).await;
        assert!(matches!(again, Err(Error::TooSoon { .. })), "{again:?}");
        // Exports are not behind the checks.
        let export = actix_web::rt::time::timeout(
            Duration::from_secs(30),
            rules_work(&state, || "exported"),
        )
        .await;
        assert_eq!(export.unwrap().unwrap(), "exported");
        // The queue: CHECKS_WAITING more wait, one more is refused.
        let mut waiting = Vec::new();
        for i in 0..CHECKS_WAITING {
            let s = state.clone();
            waiting.push(actix_web::rt::spawn(async move {
                checks_work(&s, &format!("10.1.0.{i}"), || ()).await
            }));
        }
        while state.check_queue.available_permits() > 0 {
            actix_web::rt::time::sleep(Duration::from_millis(5)).await;
        }
        let full = checks_work(&state, "10.2.0.1", || ()).await;
        assert!(matches!(full, Err(Error::TooSoon { .. })), "{full:?}");
        // Once the running checks end, the waiting ones run.
        for tx in ends {
            tx.send(()).unwrap();
        }
        for w in waiting {
            assert!(w.await.unwrap().is_ok());
        }
        assert!(checks_work(&state, "10.0.0.0", || ()).await.is_ok());
    });
}

both_backends!(checks_queue_apart_from_exports);
