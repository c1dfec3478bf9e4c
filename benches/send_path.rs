//! The send path is linear (issue 24, point 1: "bodies handed to lettre already CRLF (no
//! quadratic step anywhere on the send path ...) — a criterion benchmark at two sizes"): a
//! reply of the largest size herald writes (`[limits] reply_bytes` 256 KiB, `reply_lines`
//! 5,000) rendered into the bytes that go to the SMTP server or the outbox Maildir, and one of
//! a quarter of it; linear work takes four times as long for four times the text. For
//! comparison, what lettre does with text whose lines end in a bare LF (as herald gave it
//! before): `Body::new` inserts a `\r` before each into the whole string. Method: criterion's
//! median, 50 samples over 10 s each, on the development machine (2 cores, shared).

use chrono::{DateTime, Utc};
use criterion::{criterion_group, criterion_main, Criterion};
use herald::envelope::Outgoing;
use std::hint::black_box;

/// A reply of `lines` lines of 51 characters and a line end (5,000 of them: 260,000 bytes,
/// within 256 KiB).
fn reply(lines: usize) -> Outgoing {
    let line = "A Par - Bur  *** an order line as a reply echoes it ";
    Outgoing {
        to: "ann@example.org".into(),
        subject: "Re: orders".into(),
        body: format!("{}\n", &line[..51]).repeat(lines),
        in_reply_to: Some("<1@example.org>".into()),
        attachments: Vec::new(),
    }
}

fn send_path(c: &mut Criterion) {
    let date: DateTime<Utc> = DateTime::UNIX_EPOCH;
    let mut group = c.benchmark_group("send path");
    group.sample_size(50);
    group.measurement_time(std::time::Duration::from_secs(10));
    for lines in [1_250, 5_000] {
        let mail = reply(lines);
        group.bench_function(format!("render {} bytes", mail.body.len()), |b| {
            b.iter(|| {
                black_box(&mail)
                    .render("herald", "judge@example.org", "1.x@example.org", date)
                    .map(|bytes| bytes.len())
            })
        });
    }
    for lines in [1_250, 5_000] {
        let text = reply(lines).body;
        group.bench_function(format!("lettre bare LF {} bytes", text.len()), |b| {
            b.iter(|| lettre::message::Body::new(black_box(text.clone())).len())
        });
    }
    group.finish();
}

criterion_group!(benches, send_path);
criterion_main!(benches);
