//! The service files in `deploy/`, checked by the programs that read them:
//! `systemd-analyze verify` (and its offline security review) on the unit,
//! `nginx -t` on the nginx configuration, `caddy validate` on the
//! Caddyfile, each on a temporary copy where the copy must differ from the
//! file (the built binary, a throwaway certificate, free loopback ports).
//! Without one of those programs its check is skipped on a developer's
//! machine, and fails when `CI` or `MISSIVE_TEST_DEPLOY=1` is set
//! (`.ci/run` sets it and installs them). The Containerfile is not built
//! here (no container engine is assumed); its lines are read.

use std::collections::BTreeSet;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn env_on(name: &str) -> bool {
    std::env::var(name)
        .map(|v| !v.is_empty() && v != "0" && v != "false")
        .unwrap_or(false)
}

/// A program from `PATH`, or from `/usr/sbin` and `/sbin` (nginx lives in
/// `/usr/sbin`, which a user's `PATH` may lack); `None` (after saying so)
/// when the check may be skipped.
fn tool(name: &str, package: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from));
    let found = dirs.iter().map(|d| d.join(name)).find(|p| p.is_file());
    if found.is_none() {
        let how =
            format!("{name} not found: install it with `apt-get install -y {package}` (Debian)");
        if env_on("CI") || env_on("MISSIVE_TEST_DEPLOY") {
            panic!("{how}");
        }
        eprintln!("deploy test skipped: {how} (set MISSIVE_TEST_DEPLOY=1 to make this a failure)");
    }
    found
}

fn deploy_file(name: &str) -> (PathBuf, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    (path, text)
}

/// Run it; its exit status and its output, stdout then stderr, as text.
fn run(cmd: &mut Command) -> (bool, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    println!("$ {cmd:?}\n{text}(exit: {status})");
    (status.success(), text)
}

/// `text` with `from` replaced by `to`, which must occur in it (so that a
/// change to the file cannot quietly leave the copy pointing elsewhere).
fn replaced(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "expected {from:?} in the file");
    text.replace(from, to)
}

/// The `Name=value` lines of the unit's `[Service]` section.
fn service_lines(unit: &str) -> BTreeSet<&str> {
    unit.lines()
        .map(str::trim)
        .skip_while(|l| *l != "[Service]")
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

#[test]
fn the_unit_runs_the_server_sandboxed_with_its_state_in_var_lib() {
    let (_, unit) = deploy_file("missive.service");
    let lines = service_lines(&unit);
    for want in [
        "ExecStart=/usr/local/bin/missive serve",
        "User=missive",
        "StateDirectory=missive",
        "WorkingDirectory=/var/lib/missive",
        "Environment=DATABASE_URL=/var/lib/missive/missive.db",
        "Environment=MISSIVE_BIND=127.0.0.1:8080",
        "EnvironmentFile=-/etc/missive/missive.env",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "PrivateTmp=yes",
        "ProtectKernelTunables=yes",
        "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
        "Restart=on-failure",
        "KillSignal=SIGTERM",
        "TimeoutStopSec=45",
    ] {
        assert!(lines.contains(want), "missive.service lacks {want:?}");
    }
    // The database is a plain path, which the server reads as SQLite, in the
    // one folder ProtectSystem=strict leaves writable.
    assert_eq!(
        missive::db::parse_url("/var/lib/missive/missive.db"),
        (
            missive::db::Backend::Sqlite,
            "/var/lib/missive/missive.db".to_string()
        )
    );
}

/// Every setting the unit and the example environment file name is one the
/// settings tables of docs/operations.md document (a misspelt name would be
/// silently ignored), and the example reads as a config file too
/// (`MISSIVE_CONFIG`).
#[test]
fn the_settings_named_are_real_ones() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/operations.md"))
            .expect("docs/operations.md");
    let (_, unit) = deploy_file("missive.service");
    let (_, example) = deploy_file("missive.env.example");
    let mut names = BTreeSet::new();
    for line in service_lines(&unit) {
        if let Some(setting) = line.strip_prefix("Environment=") {
            names.insert(setting.split_once('=').expect("Name=value").0.to_string());
        }
    }
    // Its lines, commented out or not (the commented ones are suggestions).
    for line in example.lines() {
        let line = line.trim_start_matches('#');
        if let Some((name, _)) = line.split_once('=') {
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                names.insert(name.to_string());
            }
        }
    }
    assert!(names.len() >= 10, "{names:?}");
    for name in &names {
        assert!(
            doc.contains(&format!("| `{name}` |")),
            "{name} is not in docs/operations.md's settings tables"
        );
    }
    let set = missive::config::parse_file(&example).expect("the example as a config file");
    assert_eq!(set["MISSIVE_BASE_URL"], "https://missive.example.org");
    assert_eq!(set["MISSIVE_TRUST_PROXY"], "1");
}

#[test]
fn systemd_analyze_verifies_the_unit() {
    let Some(analyze) = tool("systemd-analyze", "systemd") else {
        return;
    };
    let (_, unit) = deploy_file("missive.service");
    let dir = tempfile::tempdir().unwrap();
    // verify checks that ExecStart's program exists: the one just built.
    let copy = replaced(
        &unit,
        "ExecStart=/usr/local/bin/missive serve",
        &format!("ExecStart=\"{}\" serve", env!("CARGO_BIN_EXE_missive")),
    );
    let path = dir.path().join("missive.service");
    std::fs::write(&path, &copy).unwrap();
    // Unknown keys and unreadable values are warned about and ignored, and
    // whether that changes the exit status depends on the options (systemd
    // 252: exit 0 without --recursive-errors, 1 with it), so every line
    // naming the file fails the test too. --recursive-errors=no: units the
    // machine has (network-online.target...) are not ours to judge.
    let verify = |path: &Path| {
        run(Command::new(&analyze)
            .args([
                "verify",
                "--man=no",
                "--generators=no",
                "--recursive-errors=no",
            ])
            .arg(path))
    };
    let (ok, out) = verify(&path);
    assert!(ok, "systemd-analyze verify failed:\n{out}");
    let about_it: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("missive.service"))
        .collect();
    assert!(about_it.is_empty(), "systemd-analyze verify: {about_it:#?}");

    // The same check on a misspelt copy does see it, so silence above means
    // something.
    let bad = dir.path().join("bad").join("missive.service");
    std::fs::create_dir(bad.parent().unwrap()).unwrap();
    std::fs::write(
        &bad,
        replaced(
            &copy,
            "ProtectHome=yes",
            "ProtectHome=yess\nProtectHomme=yes",
        ),
    )
    .unwrap();
    let (_, out) = verify(&bad);
    assert!(
        out.contains("missive.service:") && out.contains("ProtectHomme") && out.contains("yess"),
        "a misspelt unit passed unremarked:\n{out}"
    );

    // The offline security review scores the sandboxing from 0 (locked
    // down) to 10 (nothing); the unit scores 1.8 with systemd 252. Its
    // --threshold is that score times ten.
    let (ok, out) = run(Command::new(&analyze)
        .args(["security", "--offline=yes", "--threshold=25", "--no-pager"])
        .arg(&path));
    let score = out
        .lines()
        .find(|l| l.contains("Overall exposure level"))
        .unwrap_or("no score printed");
    assert!(ok, "the sandboxing scores worse than 2.5: {score}\n{out}");
}

/// A free port on a loopback address (`127.0.0.1` or `::1`), or `None`
/// when the machine has no such address.
fn free_port(ip: &str) -> Option<u16> {
    TcpListener::bind((ip, 0))
        .ok()
        .map(|l| l.local_addr().unwrap().port())
}

#[test]
fn nginx_accepts_the_proxy_configuration() {
    let Some(nginx) = tool("nginx", "nginx-light") else {
        return;
    };
    let Some(openssl) = tool("openssl", "openssl") else {
        return;
    };
    let (path, conf) = deploy_file("nginx.conf");
    for want in [
        "listen 80;",
        "listen 443 ssl http2;",
        "return 301 https://$host$request_uri;",
        "server 127.0.0.1:8080;",
        "proxy_pass http://missive;",
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "proxy_set_header X-Request-Id $request_id;",
        "client_max_body_size 256k;",
    ] {
        assert!(conf.contains(want), "nginx.conf lacks {want:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().display().to_string();
    let (ok, out) = run(Command::new(&openssl)
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes"])
        .args(["-subj", "/CN=missive.example.org", "-days", "1"])
        .arg("-keyout")
        .arg(dir.path().join("privkey.pem"))
        .arg("-out")
        .arg(dir.path().join("fullchain.pem")));
    assert!(ok, "openssl req failed:\n{out}");

    // The copy: the certificate, the pid file and the logs in the temporary
    // folder, and each listen on a free loopback port, since `nginx -t`
    // binds its listening sockets (ports 80 and 443 may be taken, or need
    // root); the [::] ones are dropped on a machine without IPv6.
    let mut copy = replaced(
        &conf,
        "/etc/letsencrypt/live/missive.example.org/",
        &format!("{tmp}/"),
    );
    copy = replaced(
        &copy,
        "pid /run/nginx.pid;",
        &format!("pid {tmp}/nginx.pid;"),
    );
    copy = replaced(&copy, "/var/log/nginx/", &format!("{tmp}/"));
    let mut listens = 0;
    copy = copy
        .lines()
        .map(|line| {
            let Some(rest) = line.trim().strip_prefix("listen ") else {
                return line.to_string();
            };
            listens += 1;
            let addr = rest.split([' ', ';']).next().unwrap();
            let options = &rest[addr.len()..];
            let local = if addr.starts_with("[::]:") {
                free_port("::1").map(|p| format!("[::1]:{p}"))
            } else {
                assert!(
                    addr.parse::<u16>().is_ok(),
                    "listen {addr}: expected a port"
                );
                Some(format!("127.0.0.1:{}", free_port("127.0.0.1").unwrap()))
            };
            match local {
                Some(local) => format!("        listen {local}{options}"),
                None => format!("        # (no IPv6 here) listen {addr}{options}"),
            }
        })
        .map(|l| l + "\n")
        .collect();
    assert_eq!(listens, 4, "nginx.conf: 80 and 443, IPv4 and IPv6");
    let test_conf = dir.path().join("nginx.conf");
    std::fs::write(&test_conf, &copy).unwrap();

    let (ok, out) = run(Command::new(&nginx)
        .arg("-p")
        .arg(dir.path())
        .arg("-e")
        .arg(dir.path().join("error.log"))
        .arg("-t")
        .arg("-c")
        .arg(&test_conf));
    assert!(
        ok && out.contains("test is successful"),
        "nginx -t failed on (a copy of) {}:\n{out}",
        path.display()
    );
    // Run as a user, nginx says it ignores `user www-data`; nothing else.
    let warnings: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("[warn]") && !l.contains("\"user\" directive makes sense only"))
        .collect();
    assert!(warnings.is_empty(), "nginx -t warns: {warnings:#?}");
}

#[test]
fn caddy_validates_the_caddyfile() {
    let Some(caddy) = tool("caddy", "caddy") else {
        return;
    };
    let (path, caddyfile) = deploy_file("Caddyfile");
    assert!(caddyfile.contains("reverse_proxy 127.0.0.1:8080 {"));
    assert!(caddyfile.contains("header_up X-Request-Id {http.request.uuid}"));
    assert!(caddyfile.contains("missive.example.org {"));
    // Caddy keeps certificates and state under the home folder; validating
    // touches it, so give it a temporary one.
    let home = tempfile::tempdir().unwrap();
    let (ok, out) = run(Command::new(&caddy)
        .args(["validate", "--adapter", "caddyfile", "--config"])
        .arg(&path)
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_CONFIG_HOME", home.path().join("config")));
    assert!(
        ok && out.contains("Valid configuration"),
        "caddy validate:\n{out}"
    );
    // Caddy warns (and goes on) about an unformatted file, among others.
    let warnings: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("\"level\":\"warn\""))
        .collect();
    assert!(warnings.is_empty(), "caddy validate warns: {warnings:#?}");
}

#[test]
fn the_containerfile_builds_locked_and_runs_unprivileged() {
    let (_, file) = deploy_file("Containerfile");
    let lines: Vec<&str> = file
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let has = |want: &str| lines.iter().any(|l| l.contains(want));
    for want in [
        "FROM docker.io/library/rust:1-bookworm AS build",
        "cargo build --release --locked",
        "FROM docker.io/library/debian:bookworm-slim",
        "ca-certificates",
        "libpq5",
        "VOLUME /var/lib/missive",
        "EXPOSE 8080",
        "MISSIVE_BIND=0.0.0.0:8080",
        "DATABASE_URL=/var/lib/missive/missive.db",
    ] {
        assert!(has(want), "Containerfile lacks {want:?}");
    }
    let user = lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("USER "))
        .expect("a USER line");
    assert!(
        !matches!(user.split(':').next(), Some("root" | "0")),
        "USER {user}"
    );
    // The build stage copies what the build reads: the workspace's members,
    // the patched lettre, the bench target Cargo.toml declares, the SQLite
    // build flags, and what the code includes at compile time.
    for dir in [
        "src",
        "rules",
        "vendor",
        "benches",
        ".cargo",
        "migrations",
        "templates",
        "static",
    ] {
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).exists(),
            "{dir} is gone: update the Containerfile and this list"
        );
        assert!(
            has(&format!("COPY {dir} {dir}")),
            "Containerfile does not copy {dir}"
        );
    }
}
