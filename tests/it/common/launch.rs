//! The real server in this process on a free port of 127.0.0.1, stopped as
//! `missive serve` stops it: shared by the tests (`TestApp`) and the HTTP
//! benchmark (`benches/http.rs`).

#![allow(dead_code)]

use std::net::TcpListener;
use std::sync::mpsc;
use std::thread;

/// A server from [`launch`].
pub struct Running {
    pub base: String,
    handle: actix_web::dev::ServerHandle,
    thread: thread::JoinHandle<()>,
    state: std::sync::Arc<missive::web::AppState>,
}

/// Start the server on a free port of 127.0.0.1.
pub fn launch(mut config: missive::Config) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().unwrap();
    // An https base URL is kept (tests of what it turns on); links and
    // origins otherwise name the port the server got.
    if !config.base_url.starts_with("https://") {
        config.base_url = format!("http://{addr}");
    }
    let (tx, rx) = mpsc::channel();
    let thread = thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let started = missive::build_state(&config).and_then(|state| {
                let server = missive::server_on(state.clone(), &config, listener)?;
                Ok((server, state))
            });
            match started {
                Ok((server, state)) => {
                    tx.send(Ok((server.handle(), state))).unwrap();
                    let _ = server.await;
                }
                Err(e) => tx.send(Err(e.to_string())).unwrap(),
            }
        })
    });
    let (handle, state) = rx.recv().unwrap().expect("server starts");
    Running {
        base: format!("http://{addr}"),
        handle,
        thread,
        state,
    }
}

impl Running {
    /// The running server's state (its queues and caches).
    pub fn state(&self) -> &std::sync::Arc<missive::web::AppState> {
        &self.state
    }

    /// Stop the server (at once, in-flight requests and all, unless
    /// `graceful`), then its pool's connecting, as `missive serve` does.
    pub fn stop(self, graceful: bool) -> std::sync::Arc<missive::web::AppState> {
        actix_web::rt::System::new().block_on(self.handle.stop(graceful));
        let _ = self.thread.join();
        self.state.stop_connecting();
        self.state
    }
}

/// Stop a server from [`launch`] at once, in-flight requests and all.
pub fn halt(running: Running) {
    drop(running.stop(false));
}
