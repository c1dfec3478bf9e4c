//! A judge of 100,000 games: what a mail, a page and a sweep cost as the games on file grow
//! from 1,000 to 10,000 to 100,000 in one run, and as one game grows old (year 1 against
//! year 20). On SQLite, and on PostgreSQL as well when `DATABASE_URL` names a server.
//!
//! The games on file are copies of one started standard game, each with players of its own
//! (distinct addresses, as real games have) and no deadline due; the measured game is
//! another one. Each scale measures: an order mail (`ingest`, one transaction, as the
//! daemon's inbox worker runs it), a `LIST` mail from a stranger, the web's `/` and a game
//! page over HTTP (kept, and `304`), the page right after an order mail changed its game
//! (read, decoded and rendered), `herald export` of one game (found by name, exported as
//! JSON) and a results sweep of 100 due games. Criterion's median per benchmark; the ratio
//! to read is 100,000 against 1,000 (docs/speed.md).
//!
//! `HERALD_SCALE_KEEP=DIR` keeps the SQLite judge of 100,000 games in DIR (with a
//! `herald.toml` for `herald run`), for measuring the daemon's memory (docs/speed.md).

// Bench code throughout: a panic is a failed run with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use herald::config::Config;
use herald::judge::Game;
use herald::service::Service;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const PLAYERS: [(&str, char); 7] = [
    ("ann", 'E'),
    ("bob", 'F'),
    ("cat", 'G'),
    ("dan", 'I'),
    ("eve", 'A'),
    ("fay", 'R'),
    ("guy", 'T'),
];

/// The scales measured, in games on file (`HERALD_SCALES=100,1000` for a quick look).
fn scales() -> Vec<usize> {
    match std::env::var("HERALD_SCALES") {
        Ok(list) => list
            .split(',')
            .filter_map(|n| n.trim().parse().ok())
            .collect(),
        Err(_) => vec![1_000, 10_000, 100_000],
    }
}

/// Games saved a transaction while filling.
const FILL_CHUNK: usize = 1_000;

/// Games a sweep judges.
const SWEPT: usize = 100;

struct Scale {
    rt: tokio::runtime::Runtime,
    service: Arc<Service>,
    /// The started game the copies are made of.
    template: Option<Game>,
    /// The same with every power's orders on file: processed at its deadline.
    due_template: Option<Game>,
    now: DateTime<Utc>,
    id: u64,
    web: SocketAddr,
    dir: std::path::PathBuf,
    keep: bool,
}

fn raw(id: u64, from: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: judge@herald.test\r\nSubject: s\r\nMessage-ID: <s{id}@bench>\r\n\r\n{}", body.replace('\n', "\r\n")).into_bytes()
}

/// The backends to run on: SQLite, and PostgreSQL when `DATABASE_URL` names a server.
fn backends() -> Vec<(&'static str, Option<String>)> {
    let mut out = vec![("sqlite", None)];
    match std::env::var("DATABASE_URL") {
        Ok(url) if !url.is_empty() => out.push(("postgres", Some(url))),
        _ => eprintln!("DATABASE_URL is not set: SQLite only"),
    }
    out
}

/// A fresh database on the PostgreSQL server at `server`, its URL.
async fn scratch_postgres(server: &str) -> String {
    use sqlx::Connection;
    let db = format!("herald_bench_scale_{}", std::process::id());
    let mut conn = sqlx::PgConnection::connect(server).await.unwrap();
    for sql in [
        format!("DROP DATABASE IF EXISTS {db}"),
        format!("CREATE DATABASE {db}"),
    ] {
        sqlx::query(&sql).execute(&mut conn).await.unwrap();
    }
    conn.close().await.unwrap();
    let (base, _) = server.rsplit_once('/').unwrap();
    format!("{base}/{db}")
}

/// One GET on a new connection; the status and the body's length.
async fn get(addr: SocketAddr, path: &str, etag: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let tag = etag.map_or(String::new(), |t| format!("If-None-Match: {t}\r\n"));
    let request = format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n{tag}\r\n");
    s.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let head = String::from_utf8_lossy(&buf);
    let status = head[9..12].parse().unwrap();
    let etag = head
        .lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .unwrap_or("")
        .to_string();
    (status, etag)
}

/// Every power's opening orders.
const ORDERS: [(char, &str); 7] = [
    ('E', "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor"),
    ('F', "A Par-Bur\nA Mar-Spa\nF Bre-Mao"),
    ('G', "A Mun-Ruh\nA Ber-Kie\nF Kie-Den"),
    ('I', "A Ven H\nA Rom-Apu\nF Nap-Ion"),
    ('A', "A Vie-Gal\nA Bud-Ser\nF Tri-Alb"),
    ('R', "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF Stp/sc-Bot"),
    ('T', "F Ank-Bla\nA Con-Bul\nA Smy-Con"),
];

/// `g` with every power's orders on file.
fn with_orders(service: &Service, mut g: Game) -> Game {
    let map = &service.judge.variant(&g).map;
    for (letter, text) in ORDERS {
        let power = map.powers.iter().position(|p| p.letter == letter).unwrap() as u8;
        let orders = text
            .lines()
            .map(|l| herald::game::order::parse_order(map, l).unwrap())
            .collect();
        g.orders.insert(
            power,
            herald::judge::game::PowerOrders {
                orders,
                legacy: Vec::new(),
                errors: false,
            },
        );
    }
    g
}

impl Scale {
    fn new(backend: &str, server: Option<&str>) -> Scale {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let keep = std::env::var_os("HERALD_SCALE_KEEP").filter(|_| server.is_none());
        let dir = keep.clone().map(Into::into).unwrap_or_else(|| {
            std::env::temp_dir().join(format!(
                "herald-bench-scale-{backend}-{}",
                std::process::id()
            ))
        });
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut config = Config::default();
        config.storage.database = match server {
            Some(url) => rt.block_on(scratch_postgres(url)).into(),
            None => dir.join("herald.db"),
        };
        config.storage.attention_file = dir.join("attention.txt");
        config.inbox.maildir = dir.join("inbox");
        config.outbox.maildir = dir.join("outbox");
        config.judge.address = "judge@herald.test".into();
        config.limits.replies_per_hour = u32::MAX;
        // The old game is twenty years of every unit holding, by no orders at all: not
        // paused as idle.
        config.limits.idle_phases = 0;
        let service = Arc::new(rt.block_on(Service::open(config)).unwrap());
        let now = DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let clock_now = now;
        let web = Arc::new(
            herald::web::Web::with_clock(service.clone(), Arc::new(move || clock_now)).unwrap(),
        );
        let listener = rt
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        rt.spawn(herald::web::serve(web, listener, std::future::pending()));
        let mut s = Scale {
            rt,
            service,
            template: None,
            due_template: None,
            now,
            id: 0,
            web: addr,
            dir,
            keep: keep.is_some(),
        };
        s.start("young");
        s.start("old");
        // Twenty years of every unit holding: the Master processes each phase at once.
        for _ in 0..40 {
            s.mail("gm@example.org", "SIGNON Mold gmpass\nPROCESS!");
        }
        let old = s.game("old");
        eprintln!(
            "the old game: {} phases played, at {:?}, {} bytes stored",
            old.history.len(),
            old.position.as_ref().map(|p| p.phase),
            serde_json::to_string(&old).unwrap().len()
        );
        let template = s.game("young");
        s.due_template = Some(with_orders(&s.service, template.clone()));
        s.template = Some(template);
        if s.keep {
            let toml = format!(
                "[storage]\ndatabase = \"{}\"\n[inbox]\nmaildir = \"{}\"\n[outbox]\nmaildir = \"{}\"\n[judge]\naddress = \"judge@herald.test\"\n[web]\nlisten = \"127.0.0.1:8089\"\n",
                s.dir.join("herald.db").display(),
                s.dir.join("inbox").display(),
                s.dir.join("outbox").display(),
            );
            std::fs::write(s.dir.join("herald.toml"), toml).unwrap();
        }
        s
    }

    fn mail(&mut self, from: &str, body: &str) {
        self.id += 1;
        let bytes = raw(self.id, from, body);
        self.rt
            .block_on(self.service.ingest(&bytes, self.now))
            .unwrap();
    }

    fn game(&self, name: &str) -> Game {
        self.rt.block_on(self.service.game(name)).unwrap().unwrap()
    }

    /// A standard game `name` with seven players, started.
    fn start(&mut self, name: &str) {
        self.mail("gm@example.org", &format!("CREATE ?{name} gmpass"));
        for (who, letter) in PLAYERS {
            self.mail(
                &format!("{who}@example.org"),
                &format!("SIGNON ?{name} pw{letter}\nSET PREFERENCE {letter}"),
            );
        }
        self.mail("gm@example.org", &format!("SIGNON M{name} gmpass\nSTART"));
    }

    /// Writes copies of the template named `prefix{i}` for i in `from..to`, each with
    /// addresses of its own, due at `due`.
    fn copies(&self, prefix: &str, from: usize, to: usize, template: &Game, due: Option<i64>) {
        self.rt.block_on(async {
            for chunk in (from..to).collect::<Vec<_>>().chunks(FILL_CHUNK) {
                let mut games = Vec::with_capacity(chunk.len());
                for &i in chunk {
                    let mut g = template.clone();
                    g.name = format!("{prefix}{i}");
                    g.master.address = format!("gm@{prefix}{i}.example");
                    for s in &mut g.seats {
                        let user = s
                            .member
                            .address
                            .split('@')
                            .next()
                            .unwrap_or("p")
                            .to_string();
                        s.member.address = format!("{user}@{prefix}{i}.example");
                    }
                    let summary = herald::service::summary_of(&self.service.judge, &g);
                    games.push((g, summary));
                }
                let rows: Vec<_> = games
                    .iter()
                    .map(|(g, s)| (g.name.as_str(), "running", g, s.clone(), due))
                    .collect();
                let mut tx = self.service.store.begin().await.unwrap();
                tx.save_games(&rows, self.now.timestamp()).await.unwrap();
                tx.commit().await.unwrap();
            }
        });
    }
}

impl Drop for Scale {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn scale(c: &mut Criterion) {
    for (backend, server) in backends() {
        let mut s = Scale::new(backend, server.as_deref());
        let mut group = c.benchmark_group(format!("scale_{backend}"));
        group
            .sample_size(10)
            .warm_up_time(StdDuration::from_millis(500))
            .measurement_time(StdDuration::from_secs(3));
        let mut have = 0;
        for n in scales() {
            let t = Instant::now();
            let template = s.template.clone().unwrap();
            s.copies("g", have, n, &template, None);
            eprintln!("{backend}: {n} games on file ({:.1?} to fill)", t.elapsed());
            have = n;
            bench_mails(&mut group, &mut s, n);
            bench_pages(&mut group, &mut s, n);
            bench_export_and_sweep(&mut group, &mut s, n);
        }
        group.finish();
    }
}

fn bench_mails(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    s: &mut Scale,
    n: usize,
) {
    for game in ["young", "old"] {
        let mut flip = false;
        group.bench_function(BenchmarkId::new(format!("order_mail_{game}"), n), |b| {
            b.iter(|| {
                flip = !flip;
                let order = if flip { "F Lon-Nth" } else { "F Lon H" };
                s.mail("ann@example.org", &format!("SIGNON E{game} pwE\n{order}"));
            })
        });
    }
    let mut k = 0;
    group.bench_function(BenchmarkId::new("list_mail", n), |b| {
        b.iter(|| {
            k += 1;
            s.mail(&format!("stranger{k}@elsewhere.example"), "LIST");
        })
    });
}

fn bench_pages(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    s: &mut Scale,
    n: usize,
) {
    let addr = s.web;
    group.bench_function(BenchmarkId::new("web_list", n), |b| {
        b.iter(|| assert_eq!(s.rt.block_on(get(addr, "/", None)).0, 200))
    });
    for game in ["young", "old"] {
        let path = format!("/games/{game}");
        let (status, etag) = s.rt.block_on(get(addr, &path, None));
        assert_eq!(status, 200);
        group.bench_function(BenchmarkId::new(format!("game_page_kept_{game}"), n), |b| {
            b.iter(|| assert_eq!(s.rt.block_on(get(addr, &path, None)).0, 200))
        });
        group.bench_function(BenchmarkId::new(format!("game_page_304_{game}"), n), |b| {
            b.iter(|| assert_eq!(s.rt.block_on(get(addr, &path, Some(&etag))).0, 304))
        });
        let mut flip = false;
        group.bench_function(
            BenchmarkId::new(format!("order_mail_then_page_{game}"), n),
            |b| {
                b.iter(|| {
                    flip = !flip;
                    let order = if flip { "F Lon-Nth" } else { "F Lon H" };
                    s.mail("ann@example.org", &format!("SIGNON E{game} pwE\n{order}"));
                    assert_eq!(s.rt.block_on(get(addr, &path, None)).0, 200);
                })
            },
        );
    }
}

fn bench_export_and_sweep(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    s: &mut Scale,
    n: usize,
) {
    let name = format!("g{}", n / 2);
    group.bench_function(BenchmarkId::new("export", n), |b| {
        b.iter(|| {
            let g = s.rt.block_on(s.service.game(&name)).unwrap().unwrap();
            let json = herald::judge::export::export_json(&s.service.judge, &g);
            assert!(json.to_string().len() > 100);
        })
    });
    let due = s.due_template.clone().unwrap();
    let deadline = due.deadline.expect("started");
    let at = deadline + Duration::minutes(1);
    group.bench_function(BenchmarkId::new("sweep_100_due", n), |b| {
        b.iter_custom(|iters| {
            let mut total = StdDuration::ZERO;
            for _ in 0..iters {
                // The same 100 games, written due again (with every power's orders on file)
                // before each sweep.
                s.copies(
                    &format!("due{n}_"),
                    0,
                    SWEPT,
                    &due,
                    Some(deadline.timestamp()),
                );
                s.rt.block_on(
                    s.service
                        .store
                        .set_meta("last_tick", &(at.timestamp() - 30).to_string()),
                )
                .unwrap();
                let start = Instant::now();
                let ticked = s.rt.block_on(s.service.tick(at)).unwrap();
                total += start.elapsed();
                assert!(ticked >= SWEPT, "{ticked} games judged");
            }
            total
        })
    });
}

criterion_group!(benches, scale);
criterion_main!(benches);
