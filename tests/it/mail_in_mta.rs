//! Replies by mail through a real mail server (issue 42): a reply sent by
//! SMTP to Debian's postfix on loopback, routed by its transport map to a
//! pipe transport that runs `missive mail-in`, as docs/operations.md configures
//! it, lands on the game page; a second delivery of the same message plays
//! nothing; a tampered address is bounced by postfix on exit code 67.
//!
//! Each test starts its own postfix instance (`postfix -c DIR start`) in a
//! temporary folder, listening on a free port of 127.0.0.1, so it needs
//! postfix and root. Without them the test says so and passes; with
//! `CI` or `MISSIVE_TEST_MTA=1` set (`.ci/run` sets it) it fails instead.

use crate::common;
use missive::domain::ids::GameId;

use common::{Backend, TestApp};
use lettre::address::Envelope;
use lettre::{Address, SmtpTransport, Transport};
use missive::accounts::links::ReplyToken;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const DOMAIN: &str = "missive.test";
/// How long a delivery may take before the test gives up and shows the
/// mail server's log: a wait for an event, never a timing assertion.
const PATIENCE: Duration = Duration::from_secs(90);

fn env_on(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Whether postfix can be run here; when it cannot, a line saying why, or
/// a failure when someone asked for the test.
fn postfix_usable() -> bool {
    let why = if !Path::new("/usr/sbin/postfix").exists() {
        "Debian's postfix is not installed"
    } else if !Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
    {
        "starting postfix needs root"
    } else {
        return true;
    };
    if env_on("CI") || env_on("MISSIVE_TEST_MTA") {
        panic!("mail server test: {why}");
    }
    eprintln!("mail server test skipped: {why} (set MISSIVE_TEST_MTA=1 to make this a failure)");
    false
}

fn run(cmd: &mut Command) {
    let out = cmd.output().expect("run a command");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// One postfix instance of the test's own.
struct Postfix {
    dir: tempfile::TempDir,
    port: u16,
}

impl Postfix {
    fn conf(&self) -> PathBuf {
        self.dir.path().join("conf")
    }

    /// Start postfix with `missive mail-in` on `database_url` as the pipe
    /// command for mail to `play+…@missive.test`.
    fn start(database_url: &str) -> Postfix {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        // Postfix's daemons (user postfix) and the pipe command (user
        // nobody) reach into this folder.
        chmod(root, 0o755);
        for sub in ["conf", "queue", "data"] {
            std::fs::create_dir(root.join(sub)).unwrap();
        }
        run(Command::new("chown").arg("postfix").arg(root.join("data")));
        // The binary is copied beside the configuration so that the pipe's
        // user can run it whatever the checkout's folder permissions.
        let bin = root.join("missive");
        std::fs::copy(env!("CARGO_BIN_EXE_missive"), &bin).unwrap();
        chmod(&bin, 0o755);
        // The pipe transport clears the environment: a wrapper sets what
        // the server's configuration would.
        let wrapper = root.join("mail-in.sh");
        std::fs::write(
            &wrapper,
            format!(
                "#!/bin/sh\nDATABASE_URL='{database_url}' MISSIVE_MAIL_DOMAIN={DOMAIN} \
                 RUST_LOG=warn exec '{}' mail-in \"$@\"\n",
                bin.display()
            ),
        )
        .unwrap();
        chmod(&wrapper, 0o755);

        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let r = root.display();
        std::fs::write(
            root.join("conf/main.cf"),
            format!(
                "compatibility_level = 3.6
queue_directory = {r}/queue
data_directory = {r}/data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
meta_directory = /etc/postfix
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
myhostname = mta.{DOMAIN}
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_recipient_restrictions = permit_mynetworks, reject_unauth_destination
maillog_file = {r}/maillog
maillog_file_prefixes = {r}
biff = no
# What docs/operations.md tells an operator to add:
relay_domains = {DOMAIN}
transport_maps = inline:{{ {DOMAIN}=missive: }}
missive_destination_recipient_limit = 1
"
            ),
        )
        .unwrap();
        // Only the services this test uses, none chrooted; the last line is
        // docs/operations.md's, with the wrapper for the binary.
        std::fs::write(
            root.join("conf/master.cf"),
            format!(
                "127.0.0.1:{port} inet n - n - - smtpd
cleanup   unix  n - n - 0 cleanup
qmgr      unix  n - n 300 1 qmgr
rewrite   unix  - - n - - trivial-rewrite
bounce    unix  - - n - 0 bounce
defer     unix  - - n - 0 bounce
trace     unix  - - n - 0 bounce
verify    unix  - - n - 1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n - - proxymap
smtp      unix  - - n - - smtp
relay     unix  - - n - - smtp
showq     unix  n - n - - showq
error     unix  - - n - - error
retry     unix  - - n - - error
discard   unix  - - n - - discard
anvil     unix  - - n - 1 anvil
scache    unix  - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
missive   unix  - n n - - pipe flags=DRO user=nobody argv={} ${{original_recipient}}
",
                wrapper.display()
            ),
        )
        .unwrap();
        let postfix = Postfix { dir, port };
        run(Command::new("postfix")
            .arg("-c")
            .arg(postfix.conf())
            .arg("start"));
        postfix
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("maillog")).unwrap_or_default()
    }

    /// Wait until the log has `n` lines of the missive transport that say
    /// `status`.
    fn await_deliveries(&self, status: &str, n: usize) {
        let start = Instant::now();
        loop {
            let log = self.log();
            let seen = log
                .lines()
                .filter(|l| l.contains("relay=missive") && l.contains(status))
                .count();
            if seen >= n {
                return;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "waited for {n} × {status}; the mail server's log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Hand a message to postfix by SMTP.
    fn send(&self, from: &str, to: &str, raw: &str) {
        let smtp = SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.port)
            .build();
        let envelope = Envelope::new(
            Some(from.parse::<Address>().unwrap()),
            vec![to.parse::<Address>().unwrap()],
        )
        .unwrap();
        smtp.send_raw(&envelope, raw.as_bytes())
            .expect("postfix takes the message");
    }
}

impl Drop for Postfix {
    fn drop(&mut self) {
        let _ = Command::new("postfix")
            .arg("-c")
            .arg(self.conf())
            .arg("stop")
            .output();
    }
}

fn reply(from: &str, to: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: Your move\r\nMessage-ID: <{id}>\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
}

fn plies(app: &TestApp, game: GameId) -> i64 {
    app.count(&format!(
        "SELECT CAST(ply AS BIGINT) AS n FROM games WHERE id = {game}"
    ))
}

fn a_reply_through_postfix_is_played(backend: Backend) {
    if !postfix_usable() {
        return;
    }
    let app = TestApp::start(backend);
    if backend == Backend::Sqlite {
        // The pipe runs as another user than this test's server: it must
        // write the database file and its journal files.
        let db = Path::new(&app.database_url);
        chmod(db.parent().unwrap(), 0o777);
        for entry in std::fs::read_dir(db.parent().unwrap()).unwrap() {
            chmod(&entry.unwrap().path(), 0o666);
        }
    }
    let alice = app.verified_user("alice");
    let bob = app.verified_user("bob");
    let game = alice.challenge("bob", "white");
    bob.post(&format!("/games/{game}/accept"), &[]);
    let to = ReplyToken {
        game,
        user: app.user_id("alice"),
        ply: 0,
        expires: missive::web::now().and_utc().timestamp() + 3600,
    }
    .address(&app.secret(), DOMAIN);

    let postfix = Postfix::start(&app.database_url);
    let body = "e4 // sent through postfix\r\n\r\nOn Thu, Nov 26, 2026 at 5:00 PM Missive wrote:\r\n> Your move\r\n";
    let msg = reply("Alice <alice@example.org>", &to, "mta1@example.org", body);
    postfix.send("alice@example.org", &to, &msg);
    postfix.await_deliveries("status=sent", 1);
    assert_eq!(plies(&app, game), 1, "log:\n{}", postfix.log());
    let page = alice.get(&format!("/games/{game}"));
    assert!(page.has("e4"), "the move is on the game page");
    assert!(page.has("sent through postfix"), "with its comment");

    // The same message delivered again (a client's resend): acted on once.
    postfix.send("alice@example.org", &to, &msg);
    postfix.await_deliveries("status=sent", 2);
    assert_eq!(plies(&app, game), 1);
    assert_eq!(app.count("SELECT COUNT(*) AS n FROM mail_in"), 1);
    assert_eq!(
        app.count("SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'reply_done'"),
        1
    );

    // A made-up token: exit 67, which postfix turns into a bounce.
    let forged = format!("play+{game}-1-1-zzzzzz-000000000000000000000000@{DOMAIN}");
    let msg = reply("bob@example.org", &forged, "mta2@example.org", "e5\r\n");
    postfix.send("bob@example.org", &forged, &msg);
    postfix.await_deliveries("status=bounced", 1);
    assert_eq!(plies(&app, game), 1);

    // Issue 60: bob's good reply address only in Cc, From forged as bob,
    // delivered to another address of the domain: the envelope recipient
    // has no token, so nothing is played (bounced).
    let bobs = ReplyToken {
        game,
        user: app.user_id("bob"),
        ply: 1,
        expires: missive::web::now().and_utc().timestamp() + 3600,
    }
    .address(&app.secret(), DOMAIN);
    let elsewhere = format!("someone@{DOMAIN}");
    let msg = format!(
        "From: bob@example.org\r\nTo: {elsewhere}\r\nCc: {bobs}\r\nSubject: Re\r\n\
         Message-ID: <mta3@example.org>\r\n\r\ne5\r\n"
    );
    postfix.send("bob@example.org", &elsewhere, &msg);
    postfix.await_deliveries("status=bounced", 2);
    assert_eq!(plies(&app, game), 1, "log:\n{}", postfix.log());
}

both_backends!(a_reply_through_postfix_is_played);
