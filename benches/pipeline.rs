//! The mail pipeline as the daemon runs it: raw mail text → MIME decoding → the judge →
//! one SQLite transaction (games, mail record, outbox) per mail; and a deadline sweep.
//!
//! (p1) 10,000 order mails across 500 running standard games, each mail a SIGNON and three
//!      orders from the power's player, read as the daemon reads its inbox: in batches of up
//!      to 100 mails, each batch one transaction.
//! (p2) a sweep of 1,000 games whose deadline passed with complete orders: each adjudicated,
//!      its results queued to its eight members.
//! (p3) on PostgreSQL only: a sweep of 10,000 such games by one daemon, and by two daemons
//!      sharing the database (two services, each with its own connections and runtime, on
//!      threads of their own, as two `herald run` would be), each game judged by exactly one
//!      (issue 29: "the 10,000-game sweep on two daemons against one").
//!
//! Each runs on SQLite and, when `DATABASE_URL` names a PostgreSQL server (started by
//! scripts/postgres/start.sh; a fresh database is made on it for each run), on PostgreSQL
//! too, in the same run (issue 29): `.../sqlite` and `.../postgres`.
//!
//! Games are set up once through real mail (CREATE, seven joins, START) and copied, so every
//! seat shares one password hash: a player's first SIGNON after a daemon start costs one
//! argon2 run (about 5 ms here), later ones hit the verification cache. These runs measure
//! that steady state.

// Bench code throughout: a panic is a failed run with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use criterion::{criterion_group, criterion_main, Criterion};
use herald::config::Config;
use herald::judge::Game;
use herald::service::Service;

const PLAYERS: [(&str, char); 7] = [
    ("ann@example.org", 'E'),
    ("bob@example.org", 'F'),
    ("cat@example.org", 'G'),
    ("dan@example.org", 'I'),
    ("eve@example.org", 'A'),
    ("fay@example.org", 'R'),
    ("guy@example.org", 'T'),
];

const ORDERS: [(char, &str); 7] = [
    ('E', "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor"),
    ('F', "A Par-Bur\nA Mar-Spa\nF Bre-Mao"),
    ('G', "A Mun-Ruh\nA Ber-Kie\nF Kie-Den"),
    ('I', "A Ven H\nA Rom-Apu\nF Nap-Ion"),
    ('A', "A Vie-Gal\nA Bud-Ser\nF Tri-Alb"),
    ('R', "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF Stp/sc-Bot"),
    ('T', "F Ank-Bla\nA Con-Bul\nA Smy-Con"),
];

fn raw(id: u64, from: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: judge@herald.test\r\nSubject: orders\r\nMessage-ID: <b{id}@bench>\r\n\r\n{}", body.replace('\n', "\r\n")).into_bytes()
}

struct Bench {
    rt: tokio::runtime::Runtime,
    service: Service,
    template: Option<Game>,
    now: DateTime<Utc>,
    id: u64,
    dir: std::path::PathBuf,
}

/// The backends to run on: SQLite, and PostgreSQL when `DATABASE_URL` names a server.
fn backends() -> Vec<(&'static str, Option<String>)> {
    let mut out = vec![("sqlite", None)];
    match std::env::var("DATABASE_URL") {
        Ok(url) if !url.is_empty() => out.push(("postgres", Some(url))),
        _ => eprintln!(
            "DATABASE_URL is not set: SQLite only (start PostgreSQL with scripts/postgres/start.sh)"
        ),
    }
    out
}

/// A fresh database on the PostgreSQL server at `server`, its URL.
async fn scratch_postgres(server: &str, name: &str) -> String {
    use sqlx::Connection;
    let db = format!("herald_bench_{name}_{}", std::process::id());
    let mut conn = sqlx::PgConnection::connect(server).await.unwrap();
    sqlx::query(&format!("DROP DATABASE IF EXISTS {db}"))
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query(&format!("CREATE DATABASE {db}"))
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let (base, _) = server.rsplit_once('/').unwrap();
    format!("{base}/{db}")
}

impl Bench {
    fn new(name: &str, server: Option<&str>) -> Bench {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let dir = std::env::temp_dir().join(format!("herald-bench-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut config = Config::default();
        config.storage.database = match server {
            Some(url) => rt.block_on(scratch_postgres(url, name)).into(),
            None => dir.join("herald.db"),
        };
        config.storage.attention_file = dir.join("attention.txt");
        config.inbox.maildir = dir.join("inbox");
        config.outbox.maildir = dir.join("outbox");
        config.judge.address = "judge@herald.test".into();
        config.limits.replies_per_hour = u32::MAX;
        let service = rt.block_on(Service::open(config)).unwrap();
        let now = DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let mut b = Bench {
            rt,
            service,
            template: None,
            now,
            id: 0,
            dir,
        };
        b.mail("gm@example.org", "CREATE ?base gmpass");
        for (addr, letter) in PLAYERS {
            b.mail(
                addr,
                &format!("SIGNON ?base pw{letter}\nSET PREFERENCE {letter}"),
            );
        }
        b.mail("gm@example.org", "SIGNON Mbase gmpass\nSTART");
        let rows = b.rt.block_on(b.service.store.games()).unwrap();
        b.template = Some(serde_json::from_str(&rows[0].state).unwrap());
        b
    }

    fn mail(&mut self, from: &str, body: &str) {
        self.id += 1;
        let bytes = raw(self.id, from, body);
        self.rt
            .block_on(self.service.ingest(&bytes, self.now))
            .unwrap();
    }

    /// Writes `n` copies of the started game with complete orders, due at its deadline, and
    /// returns a minute past it: the time to sweep them at (the last sweep set to it, so
    /// that it is not taken for the end of an outage).
    fn due_games(&self, n: usize) -> DateTime<Utc> {
        let due = self
            .template
            .as_ref()
            .and_then(|g| g.deadline)
            .expect("started");
        self.games(n, Some(due), true);
        let at = due + Duration::minutes(1);
        self.rt
            .block_on(
                self.service
                    .store
                    .set_meta("last_tick", &at.timestamp().to_string()),
            )
            .unwrap();
        at
    }

    /// Writes `n` copies of the started game, named g0…, due at `due`.
    fn games(&self, n: usize, due: Option<DateTime<Utc>>, orders: bool) {
        self.rt.block_on(async {
            let mut tx = self.service.store.begin().await.unwrap();
            for i in 0..n {
                let mut g = self.template.clone().expect("set up");
                g.name = format!("g{i}");
                if orders {
                    for (letter, text) in ORDERS {
                        let p = herald::game::ids::PowerId(
                            PLAYERS.iter().position(|(_, l)| *l == letter).unwrap() as u8,
                        );
                        let power = g
                            .seats
                            .iter()
                            .find(|s| s.member.address == PLAYERS[p.index()].0)
                            .unwrap()
                            .power
                            .unwrap();
                        let map = &self.service.judge.variant(&g).map;
                        let orders = text
                            .lines()
                            .map(|l| herald::game::order::parse_order(map, l).unwrap())
                            .collect();
                        g.orders.insert(
                            power.0,
                            herald::judge::game::PowerOrders {
                                orders,
                                legacy: Vec::new(),
                                errors: false,
                            },
                        );
                    }
                }
                let summary = herald::service::summary_of(&self.service.judge, &g);
                tx.save_game(
                    &g.name,
                    "running",
                    &g,
                    &summary,
                    due.map(|d| d.timestamp()),
                    0,
                )
                .await
                .unwrap();
            }
            tx.commit().await.unwrap();
        });
    }
}

impl Drop for Bench {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn pipeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("p1_10000_order_mails_500_games");
    group
        .sample_size(10)
        .warm_up_time(StdDuration::from_millis(100))
        .measurement_time(StdDuration::from_secs(30));
    for (backend, server) in backends() {
        let mut b = Bench::new(&format!("pipeline_{backend}"), server.as_deref());
        b.games(500, None, false);
        group.bench_function(format!("ingest/{backend}"), |bencher| {
            bencher.iter_custom(|iters| {
                let mut total = StdDuration::ZERO;
                for _ in 0..iters {
                    let mails: Vec<Vec<u8>> = (0..10_000u64)
                        .map(|k| {
                            b.id += 1;
                            let game = k % 500;
                            let (addr, letter) = PLAYERS[(k / 500 % 7) as usize];
                            let orders = ORDERS.iter().find(|(l, _)| *l == letter).unwrap().1;
                            raw(
                                b.id,
                                addr,
                                &format!("SIGNON {letter}g{game} pw{letter}\n{orders}"),
                            )
                        })
                        .collect();
                    let start = Instant::now();
                    b.rt.block_on(async {
                        // As the daemon reads its inbox: batches of up to 100 mails, each batch
                        // one transaction.
                        for batch in mails.chunks(100) {
                            let refs: Vec<&[u8]> = batch.iter().map(Vec::as_slice).collect();
                            b.service.ingest_batch(&refs, b.now).await.unwrap();
                        }
                    });
                    total += start.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

fn sweep(c: &mut Criterion) {
    let mut group = c.benchmark_group("p2_deadline_sweep_1000_games");
    group
        .sample_size(10)
        .warm_up_time(StdDuration::from_millis(100))
        .measurement_time(StdDuration::from_secs(20));
    for (backend, server) in backends() {
        let b = Bench::new(&format!("sweep_{backend}"), server.as_deref());
        group.bench_function(format!("tick/{backend}"), |bencher| {
            bencher.iter_custom(|iters| {
                let mut total = StdDuration::ZERO;
                for _ in 0..iters {
                    let at = b.due_games(1000);
                    let start = Instant::now();
                    let ticked = b.rt.block_on(b.service.tick(at)).unwrap();
                    total += start.elapsed();
                    assert!(ticked >= 1000, "{ticked} games due");
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, pipeline, sweep, sweep_daemons);
criterion_main!(benches);

fn sweep_daemons(c: &mut Criterion) {
    let Some(server) = std::env::var("DATABASE_URL").ok().filter(|u| !u.is_empty()) else {
        eprintln!("DATABASE_URL is not set: no sweep by several daemons (it needs PostgreSQL)");
        return;
    };
    let mut group = c.benchmark_group("p3_deadline_sweep_10000_games");
    group
        .sample_size(10)
        .warm_up_time(StdDuration::from_millis(100))
        .measurement_time(StdDuration::from_secs(60));
    let b = Bench::new("daemons_postgres", Some(&server));
    // The second daemon: its own runtime, and its own pool made on it.
    let rt2 = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let second = rt2
        .block_on(Service::open(b.service.config.clone()))
        .unwrap();
    for daemons in [1, 2] {
        group.bench_function(format!("tick/postgres_{daemons}_daemons"), |bencher| {
            bencher.iter_custom(|iters| {
                let mut total = StdDuration::ZERO;
                for _ in 0..iters {
                    let at = b.due_games(10_000);
                    let due = b.rt.block_on(b.service.store.due_games(at.timestamp()));
                    let due = due.unwrap().len();
                    let start = Instant::now();
                    let ticked = if daemons == 1 {
                        b.rt.block_on(b.service.tick(at)).unwrap()
                    } else {
                        std::thread::scope(|s| {
                            let one = s.spawn(|| b.rt.block_on(b.service.tick(at)).unwrap());
                            let two = s.spawn(|| rt2.block_on(second.tick(at)).unwrap());
                            one.join().unwrap() + two.join().unwrap()
                        })
                    };
                    total += start.elapsed();
                    // Every due game judged (the 10,000, and the first time the one they
                    // were copied from), and none twice.
                    assert_eq!(ticked, due, "games judged by {daemons} daemons");
                }
                total
            })
        });
    }
    group.finish();
}
