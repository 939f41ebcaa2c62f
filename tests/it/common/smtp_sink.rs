//! A small SMTP sink for tests and the benchmarks: speaks enough SMTP
//! for lettre (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) on 127.0.0.1 and
//! keeps every message in memory. Not a mail server. A stalled sink accepts
//! connections and never answers (a mail server that hangs). Test support,
//! not in the shipped library: tests/it/common declares it, and
//! tests/power_cut.rs and benches/*.rs include it by `#[path]`.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct Received {
    pub from: String,
    pub to: Vec<String>,
    pub data: String,
}

pub struct SmtpSink {
    pub addr: SocketAddr,
    mails: Arc<Mutex<Vec<Received>>>,
    /// Recipients answered `550` at `RCPT TO` (a mailbox that does not exist).
    refused: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<thread::JoinHandle<()>>,
}

/// A port on 127.0.0.1 where nothing listens (for "SMTP is down").
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl SmtpSink {
    pub fn start() -> SmtpSink {
        Self::start_on(0)
    }

    pub fn start_on(port: u16) -> SmtpSink {
        Self::launch(port, false)
    }

    /// A server that accepts TCP connections, reads what it is sent, and
    /// never answers, not even the greeting.
    pub fn start_stalled() -> SmtpSink {
        Self::launch(0, true)
    }

    fn launch(port: u16, stalled: bool) -> SmtpSink {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind the SMTP sink");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let mails = Arc::new(Mutex::new(Vec::new()));
        let refused = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (m, s, r) = (mails.clone(), stop.clone(), refused.clone());
        let thread = thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) if stalled => {
                        let s = s.clone();
                        thread::spawn(move || stall(stream, &s));
                    }
                    Ok((stream, _)) => {
                        let (m, r) = (m.clone(), r.clone());
                        thread::spawn(move || {
                            let _ = session(stream, &m, &r);
                        });
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => break,
                }
            }
        });
        SmtpSink {
            addr,
            mails,
            refused,
            stop,
            thread: Some(thread),
        }
    }

    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    pub fn mails(&self) -> Vec<Received> {
        self.mails.lock().unwrap().clone()
    }

    pub fn count(&self) -> usize {
        self.mails.lock().unwrap().len()
    }

    /// From now on answer `550 5.1.1` (a permanent refusal) to mail for
    /// `address`.
    pub fn refuse(&self, address: &str) {
        self.refused
            .lock()
            .unwrap()
            .push(address.to_ascii_lowercase());
    }

    pub fn clear(&self) {
        self.mails.lock().unwrap().clear();
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn strip_path(arg: &str) -> String {
    let a = arg.trim();
    let a = a.split_once(':').map(|(_, r)| r).unwrap_or(a).trim();
    let a = a.split_whitespace().next().unwrap_or("");
    a.trim_start_matches('<').trim_end_matches('>').to_string()
}

/// Hold the connection open without a word until the client gives up or
/// the sink stops.
fn stall(mut stream: TcpStream, stop: &AtomicBool) {
    use std::io::Read;
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
    let mut buf = [0u8; 4096];
    while !stop.load(Ordering::SeqCst) {
        match stream.read(&mut buf) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => return,
        }
    }
}

fn session(
    stream: TcpStream,
    mails: &Mutex<Vec<Received>>,
    refused: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut out = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    out.write_all(b"220 sink ESMTP ready\r\n")?;
    let mut from = String::new();
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let cmd = line.trim_end().to_string();
        let upper = cmd.to_ascii_uppercase();
        if upper.starts_with("EHLO") {
            out.write_all(b"250-sink\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")?;
        } else if upper.starts_with("HELO") {
            out.write_all(b"250 sink\r\n")?;
        } else if upper.starts_with("MAIL FROM") {
            from = strip_path(&cmd);
            to.clear();
            out.write_all(b"250 OK\r\n")?;
        } else if upper.starts_with("RCPT TO") {
            let rcpt = strip_path(&cmd);
            if refused.lock().unwrap().contains(&rcpt.to_ascii_lowercase()) {
                out.write_all(b"550 5.1.1 no such mailbox here\r\n")?;
            } else {
                to.push(rcpt);
                out.write_all(b"250 OK\r\n")?;
            }
        } else if upper == "DATA" {
            out.write_all(b"354 go ahead\r\n")?;
            let mut data = String::new();
            loop {
                line.clear();
                if reader.read_line(&mut line)? == 0 {
                    return Ok(());
                }
                if line == ".\r\n" || line == ".\n" {
                    break;
                }
                let l = line.strip_prefix('.').unwrap_or(&line);
                data.push_str(l);
            }
            mails.lock().unwrap().push(Received {
                from: from.clone(),
                to: std::mem::take(&mut to),
                data,
            });
            out.write_all(b"250 OK queued\r\n")?;
        } else if upper == "RSET" {
            to.clear();
            out.write_all(b"250 OK\r\n")?;
        } else if upper == "NOOP" {
            out.write_all(b"250 OK\r\n")?;
        } else if upper == "QUIT" {
            out.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            out.write_all(b"502 not implemented\r\n")?;
        }
    }
}
