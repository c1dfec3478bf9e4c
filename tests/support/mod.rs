//! A judge on a temporary directory, fed mail files and read back through its outbox:
//! the whole service as a keeper runs it, with the clock in the test's hands.

#![allow(dead_code)]

pub mod rng;
pub mod smtp;
pub mod stack;

use std::path::PathBuf;

use chrono::{DateTime, Duration, Utc};
use herald::config::Config;
use herald::mail::maildir::Maildir;
use herald::service::{Clock, Service};

/// A fresh empty directory for one test, named for `name`: the process id and a count
/// keep it apart from every other test's, in this binary (the tests of many files share a
/// process) and in any other running at the same time.
pub fn scratch_dir(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("herald-it-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The database of a test's judge: `herald.db` in its directory, or, when
/// `HERALD_TEST_DATABASE` names a PostgreSQL server (`scripts/test` starts one with
/// scripts/postgres/start.sh), a fresh database there (issue 29: "the same test suite
/// against both").
pub async fn test_database(dir: &std::path::Path) -> PathBuf {
    match std::env::var("HERALD_TEST_DATABASE") {
        Ok(server) if !server.is_empty() => scratch_postgres(&server).await.into(),
        _ => dir.join("herald.db"),
    }
}

/// A new database on the PostgreSQL server at `server`, its URL.
pub async fn scratch_postgres(server: &str) -> String {
    use sqlx::Connection;
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let name = format!(
        "herald_it_{}_{n}_{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    );
    let mut conn = sqlx::PgConnection::connect(server).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let (base, _) = server.rsplit_once('/').unwrap();
    format!("{base}/{name}")
}

/// A connection of the test's own to a judge's database, file or server, beside the
/// running service. Statements number their parameters `$1`, which both read.
pub enum Db {
    Sqlite(sqlx::SqliteConnection),
    Pg(sqlx::PgConnection),
}

impl Db {
    pub async fn open(database: &std::path::Path) -> Db {
        use sqlx::Connection;
        let text = database.to_string_lossy();
        if text.starts_with("postgres") {
            Db::Pg(sqlx::PgConnection::connect(&text).await.unwrap())
        } else {
            let url = format!("sqlite://{text}");
            Db::Sqlite(sqlx::SqliteConnection::connect(&url).await.unwrap())
        }
    }

    /// The one number `sql` selects, with `bind` as `$1` (when it names one).
    pub async fn count(&mut self, sql: &str, bind: &str) -> i64 {
        match self {
            Db::Sqlite(c) => sqlx::query_scalar(sql).bind(bind).fetch_one(c).await,
            Db::Pg(c) => sqlx::query_scalar(sql).bind(bind).fetch_one(c).await,
        }
        .unwrap()
    }

    /// The one text `sql` selects, with `bind` as `$1`.
    pub async fn text(&mut self, sql: &str, bind: &str) -> String {
        match self {
            Db::Sqlite(c) => sqlx::query_scalar(sql).bind(bind).fetch_one(c).await,
            Db::Pg(c) => sqlx::query_scalar(sql).bind(bind).fetch_one(c).await,
        }
        .unwrap()
    }

    /// Runs `sql`.
    pub async fn execute(&mut self, sql: &str) {
        match self {
            Db::Sqlite(c) => sqlx::query(sql).execute(c).await.map(|_| ()),
            Db::Pg(c) => sqlx::query(sql).execute(c).await.map(|_| ()),
        }
        .unwrap()
    }

    pub async fn close(self) {
        use sqlx::Connection;
        match self {
            Db::Sqlite(c) => c.close().await,
            Db::Pg(c) => c.close().await,
        }
        .unwrap()
    }
}

/// The seven players of a standard-board game and the power each asks for.
pub const SEVEN: [(&str, char); 7] = [
    ("ann@example.org", 'E'),
    ("bob@example.org", 'F'),
    ("cat@example.org", 'G'),
    ("dan@example.org", 'I'),
    ("eve@example.org", 'A'),
    ("fay@example.org", 'R'),
    ("guy@example.org", 'T'),
];

/// Mails a power's orders to game `game` (password `pw<letter>`); returns the reply's body.
pub async fn order(w: &mut World, game: &str, addr: &str, letter: char, orders: &str) -> String {
    let sent = w
        .mail(
            addr,
            "orders",
            &format!("SIGNON {letter}{game} pw{letter}\n{orders}\n"),
        )
        .await;
    to(&sent, addr).body.clone()
}

/// Creates game `game` of `variant` by mail from `gm` (password `gmpass`), has each player
/// join asking for its power (password `pw<letter>`), and starts it. Returns the Master's
/// reply to CREATE and every mail sent at the start.
pub async fn start_game(
    w: &mut World,
    gm: &str,
    game: &str,
    variant: &str,
    players: &[(&str, char)],
) -> (String, Vec<Sent>) {
    let sent = w
        .mail(gm, "new", &format!("CREATE ?{game} gmpass {variant}\n"))
        .await;
    let created = to(&sent, gm).body.clone();
    w.confirm(gm, &sent).await;
    for (addr, letter) in players {
        let joined = w
            .mail(
                addr,
                "join",
                &format!("SIGNON ?{game} pw{letter}\nSET PREFERENCE {letter}\n"),
            )
            .await;
        w.confirm(addr, &joined).await;
    }
    let started = w
        .mail(gm, "start", &format!("SIGNON M{game} gmpass\nSTART\n"))
        .await;
    (created, started)
}

/// One mail herald wrote.
#[derive(Clone, Debug)]
pub struct Sent {
    pub to: String,
    pub subject: String,
    /// The text part.
    pub body: String,
    /// The head and the text part.
    pub raw: String,
    /// The files, as a mail reader finds them, in order.
    pub attachments: Vec<SentFile>,
}

/// A file attached to a mail herald wrote, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentFile {
    /// The file name (Content-Disposition's filename, else Content-Type's name).
    pub name: String,
    /// `type/subtype`, lower case, then each parameter as `; name=value`.
    pub content_type: String,
    /// The disposition (`attachment` or `inline`), lower case; empty when there is none.
    pub disposition: String,
    /// The bytes, transfer encoding undone.
    pub bytes: Vec<u8>,
}

/// The files of a parsed mail, as a reader lists them.
pub fn files(msg: &mail_parser::Message) -> Vec<SentFile> {
    use mail_parser::MimeHeaders;
    msg.attachments()
        .map(|part| {
            let content_type = part
                .content_type()
                .map(|ct| {
                    let mut t = ct.ctype().to_ascii_lowercase();
                    if let Some(sub) = ct.subtype() {
                        t = format!("{t}/{}", sub.to_ascii_lowercase());
                    }
                    for a in ct.attributes().unwrap_or(&[]) {
                        t = format!("{t}; {}={}", a.name, a.value);
                    }
                    t
                })
                .unwrap_or_default();
            SentFile {
                name: part.attachment_name().unwrap_or("").to_string(),
                content_type,
                disposition: part
                    .content_disposition()
                    .map(|d| d.ctype().to_ascii_lowercase())
                    .unwrap_or_default(),
                bytes: part.contents().to_vec(),
            }
        })
        .collect()
}

pub struct World {
    pub dir: PathBuf,
    pub service: Service,
    pub now: DateTime<Utc>,
    /// How herald is told the time: as the daemon's wall clock (the default), or as a time
    /// the keeper set with `--now`.
    pub clock: Clock,
    seq: u32,
}

impl World {
    pub async fn new(name: &str) -> World {
        World::new_with_address(name, "judge@herald.test").await
    }

    /// A judge with this address.
    pub async fn new_with_address(name: &str, address: &str) -> World {
        World::open(scratch_dir(name), address).await
    }

    /// A judge at `judge@herald.test` with its configuration changed by `change` first
    /// (a limit set apart for a test that needs it, such as fast phases).
    pub async fn new_configured(name: &str, change: impl FnOnce(&mut Config)) -> World {
        let dir = scratch_dir(name);
        let mut config = Config::default();
        config.storage.database = test_database(&dir).await;
        change(&mut config);
        World::with_config(dir, config, "judge@herald.test").await
    }

    /// A judge on a copy of this database (a stored judge's file), as herald opens it
    /// after an upgrade: migrations applied, games loaded when mail or the clock needs them.
    pub async fn with_database(name: &str, database: &std::path::Path) -> World {
        let dir = scratch_dir(name);
        std::fs::copy(database, dir.join("herald.db")).unwrap();
        let mut config = Config::default();
        config.storage.database = dir.join("herald.db");
        let mut w = World::with_config(dir, config, "judge@herald.test").await;
        // Message-IDs apart from those the stored judge has seen (it ignores a mail again).
        w.seq = 100_000;
        w
    }

    async fn open(dir: PathBuf, address: &str) -> World {
        let mut config = Config::default();
        config.storage.database = test_database(&dir).await;
        World::with_config(dir, config, address).await
    }

    async fn with_config(dir: PathBuf, mut config: Config, address: &str) -> World {
        config.storage.attention_file = dir.join("attention.txt");
        config.inbox.maildir = dir.join("inbox");
        config.outbox.maildir = dir.join("outbox");
        config.judge.address = address.into();
        let service = Service::open(config).await.unwrap();
        World {
            dir,
            service,
            now: DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
                .unwrap()
                .with_timezone(&Utc),
            clock: Clock::Wall,
            seq: 0,
        }
    }

    /// Drops a mail into the inbox Maildir, lets herald read it, and returns what it wrote.
    pub async fn mail(&mut self, from: &str, subject: &str, body: &str) -> Vec<Sent> {
        self.mails(&[(from, subject, body)]).await
    }

    /// Drops several mails into the inbox at once, so herald reads them in one batch (one
    /// transaction), and returns what it wrote.
    pub async fn mails(&mut self, mails: &[(&str, &str, &str)]) -> Vec<Sent> {
        let inbox = Maildir::open(&self.dir.join("inbox")).unwrap();
        for (from, subject, body) in mails {
            self.seq += 1;
            let raw = format!(
                "From: {from}\r\nTo: judge@herald.test\r\nSubject: {subject}\r\nMessage-ID: <m{}@test>\r\nDate: {}\r\n\r\n{}",
                self.seq,
                self.now.to_rfc2822(),
                body.replace('\n', "\r\n")
            );
            inbox.deliver(self.now.timestamp(), raw.as_bytes()).unwrap();
        }
        self.round().await
    }

    /// Confirms `addr` as a person does: if herald's answer to it among `sent` asks for
    /// confirmation, replies to that answer with a plain reply (see [`World::reply_to`]).
    /// Returns what herald wrote then (nothing when there was nothing to confirm).
    pub async fn confirm(&mut self, addr: &str, sent: &[Sent]) -> Vec<Sent> {
        let asking = sent
            .iter()
            .find(|m| m.to == addr && m.subject.contains("[confirm-"))
            .cloned();
        match asking {
            Some(answer) => self.reply_to(addr, &answer, "").await,
            None => Vec::new(),
        }
    }

    /// A plain reply from `from` to a mail herald wrote, as any mail program writes it:
    /// `Re:` and the subject, In-Reply-To and References naming its Message-ID, `text` typed
    /// above the quoted mail.
    pub async fn reply_to(&mut self, from: &str, mail: &Sent, text: &str) -> Vec<Sent> {
        let id = mail
            .raw
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("message-id")
                    .then(|| value.trim().to_string())
            })
            .unwrap_or_default();
        let quoted: String = mail.body.lines().map(|l| format!("> {l}\n")).collect();
        let body = format!(
            "{text}\n\nOn {}, {} wrote:\n{quoted}",
            self.now.format("%a, %d %b %Y at %H:%M"),
            "judge@herald.test"
        );
        let headers = format!("In-Reply-To: {id}\r\nReferences: {id}\r\n");
        self.mail_with_headers(from, &format!("Re: {}", mail.subject), &headers, &body)
            .await
    }

    /// Drops a mail with extra header lines (each ending in CRLF) into the inbox.
    pub async fn mail_with_headers(
        &mut self,
        from: &str,
        subject: &str,
        headers: &str,
        body: &str,
    ) -> Vec<Sent> {
        self.seq += 1;
        let raw = format!(
            "From: {from}\r\nTo: judge@herald.test\r\nSubject: {subject}\r\nMessage-ID: <m{}@test>\r\n{headers}\r\n{}",
            self.seq,
            body.replace('\n', "\r\n")
        );
        let inbox = Maildir::open(&self.dir.join("inbox")).unwrap();
        inbox.deliver(self.now.timestamp(), raw.as_bytes()).unwrap();
        self.round().await
    }

    /// Drops a mail, exactly these bytes, into the inbox and returns what herald wrote.
    pub async fn deliver_raw(&mut self, raw: &[u8]) -> Vec<Sent> {
        let inbox = Maildir::open(&self.dir.join("inbox")).unwrap();
        inbox.deliver(self.now.timestamp(), raw).unwrap();
        self.round().await
    }

    /// Delivers the same raw mail again (same Message-ID).
    pub async fn redeliver_last(&mut self, from: &str, subject: &str, body: &str) -> Vec<Sent> {
        let raw = format!(
            "From: {from}\r\nTo: judge@herald.test\r\nSubject: {subject}\r\nMessage-ID: <m{}@test>\r\n\r\n{}",
            self.seq,
            body.replace('\n', "\r\n")
        );
        let inbox = Maildir::open(&self.dir.join("inbox")).unwrap();
        inbox.deliver(self.now.timestamp(), raw.as_bytes()).unwrap();
        self.round().await
    }

    /// Moves the clock on and lets herald do what is due.
    pub async fn wait(&mut self, d: Duration) -> Vec<Sent> {
        self.now += d;
        self.round().await
    }

    /// Moves the clock to a time as a running daemon sees it, looking at least every 50
    /// minutes on the way, and returns everything herald wrote meanwhile.
    pub async fn wait_until(&mut self, t: DateTime<Utc>) -> Vec<Sent> {
        let mut sent = Vec::new();
        while self.now + Duration::minutes(50) < t {
            self.now += Duration::minutes(50);
            sent.extend(self.round().await);
        }
        self.now = t;
        sent.extend(self.round().await);
        sent
    }

    /// Moves the clock in one jump, as if herald had been down meanwhile.
    pub async fn jump_to(&mut self, t: DateTime<Utc>) -> Vec<Sent> {
        self.now = t;
        self.round().await
    }

    async fn round(&mut self) -> Vec<Sent> {
        self.service.poll_inbox(self.now).await.unwrap();
        self.service.tick_at(self.now, self.clock).await.unwrap();
        self.service.deliver(self.now).await.unwrap();
        let outbox = Maildir::open(&self.dir.join("outbox")).unwrap();
        let mut sent = Vec::new();
        for path in outbox.waiting().unwrap() {
            let bytes = std::fs::read(&path).unwrap();
            outbox.mark_handled(&path).unwrap();
            // As a mail reader sees it: encoded words and quoted-printable or base64 decoded.
            let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
            let head =
                String::from_utf8(bytes[..msg.root_part().offset_body as usize].to_vec()).unwrap();
            let body = msg.body_text(0).unwrap_or_default().replace("\r\n", "\n");
            sent.push(Sent {
                to: msg
                    .to()
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or("")
                    .to_string(),
                subject: msg.subject().unwrap_or("").to_string(),
                raw: format!("{head}{body}"),
                body,
                attachments: files(&msg),
            });
        }
        sent
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The one mail to `to` (panics listing what was sent otherwise).
pub fn to<'a>(sent: &'a [Sent], to: &str) -> &'a Sent {
    let hits: Vec<&Sent> = sent.iter().filter(|s| s.to == to).collect();
    assert_eq!(
        hits.len(),
        1,
        "expected one mail to {to}, got: {:#?}",
        sent.iter().map(|s| (&s.to, &s.subject)).collect::<Vec<_>>()
    );
    hits[0]
}

/// The mails to `to` whose subject contains `what`.
pub fn find<'a>(sent: &'a [Sent], to: &str, what: &str) -> Vec<&'a Sent> {
    sent.iter()
        .filter(|s| s.to == to && s.subject.contains(what))
        .collect()
}

/// The reply to `addr` among what was sent (notices aside).
pub fn reply<'a>(sent: &'a [Sent], addr: &str) -> &'a Sent {
    sent.iter()
        .find(|m| m.to == addr && m.subject.starts_with("Re:"))
        .unwrap_or_else(|| panic!("no reply to {addr}: {sent:#?}"))
}

/// Orders that hold every unit of a standard power at the opening, by its letter.
pub fn holds(letter: char) -> &'static str {
    match letter {
        'E' => "F Lon H\nF Edi H\nA Lvp H",
        'F' => "F Bre H\nA Par H\nA Mar H",
        'G' => "F Kie H\nA Ber H\nA Mun H",
        'I' => "F Nap H\nA Rom H\nA Ven H",
        'A' => "A Vie H\nA Bud H\nF Tri H",
        'R' => "A Mos H\nA War H\nF Sev H\nF Stp/sc H",
        _ => "F Ank H\nA Con H\nA Smy H",
    }
}

/// Stores copies of game `template` under these names (as `benches/pipeline.rs` fills a
/// judge), each with its summary, in one transaction: many games without a mail each.
pub async fn copies(service: &Service, template: &str, names: &[String]) {
    let template = service.game(template).await.unwrap().unwrap();
    let due = service.judge.next_due(&template).map(|d| d.timestamp());
    let mut tx = service.store.begin().await.unwrap();
    for name in names {
        let mut g = template.clone();
        g.name = name.clone();
        let summary = herald::service::summary_of(&service.judge, &g);
        tx.save_game(name, g.status.word(), &g, &summary, due, 0)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
}
