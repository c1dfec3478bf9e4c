//! The web face (issue 28) over HTTP: every page kind, the secrecy crawl, the signed-in
//! page, and a real browser. Each file of tests/ below is a module of this binary; the
//! server runs on 127.0.0.1:0 in the test's runtime, and a small HTTP/1.1 client here
//! talks to it.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

mod support;

mod web_browser;
mod web_cache;
mod web_edge;
mod web_guesses;
mod web_pages;
mod web_seat_words;
mod web_secrecy;
mod web_sessions;
mod web_signin;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Serves the pages of the judge of `world` (a second service on its database, as the
/// daemon's would be) on a free loopback port, with the clock standing at the world's time.
pub async fn serve(world: support::World) -> Site {
    let now: DateTime<Utc> = world.now;
    let config = world.service.config.clone();
    let service = Arc::new(herald::service::Service::open(config).await.unwrap());
    let clock = Arc::new(move || now);
    let web = Arc::new(herald::web::Web::with_clock(service.clone(), clock).unwrap());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(herald::web::serve(web, listener, std::future::pending()));
    Site {
        addr,
        service,
        _world: world,
    }
}

/// A running site.
pub struct Site {
    pub addr: SocketAddr,
    pub service: Arc<herald::service::Service>,
    /// Kept so that its directory stays.
    _world: support::World,
}

/// One answer.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    /// Header names in lower case; a repeated header's values joined with "\n".
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map(String::as_str).unwrap_or("")
    }
}

impl Site {
    /// Sends a raw request (the text up to the body, then the body) and reads the answer.
    pub async fn raw(&self, request: &[u8]) -> Answer {
        raw(self.addr, request).await
    }

    /// GET `path` with these extra header lines.
    pub async fn get_with(&self, path: &str, extra: &[(&str, &str)]) -> Answer {
        let mut req = format!("GET {path} HTTP/1.1\r\nHost: herald.test\r\nConnection: close\r\n");
        for (k, v) in extra {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        self.raw(req.as_bytes()).await
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.get_with(path, &[]).await
    }

    /// POSTs a form (fields url-encoded) with these extra header lines.
    pub async fn post(&self, path: &str, form: &[(&str, &str)], extra: &[(&str, &str)]) -> Answer {
        let body: Vec<String> = form
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect();
        let body = body.join("&");
        let mut req = format!(
            "POST {path} HTTP/1.1\r\nHost: herald.test\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (k, v) in extra {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(&body);
        self.raw(req.as_bytes()).await
    }
}

/// Sends a raw request to `addr` and reads the answer (the server closes the connection).
pub async fn raw(addr: SocketAddr, request: &[u8]) -> Answer {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(request).await.unwrap();
    // Read to the end of the body its Content-Length gives (chromedriver keeps the
    // connection open), else to the end of the stream.
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        let n = s.read(&mut chunk).await.unwrap();
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if length.is_some_and(|len| buf.len() >= end + 4 + len) {
                break;
            }
        }
    }
    parse(&buf)
}

/// Percent-encodes a form value.
pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            b' ' => "+".to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn parse(buf: &[u8]) -> Answer {
    let end = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let mut headers: BTreeMap<String, String> = BTreeMap::new();
    for l in lines {
        let (k, v) = l.split_once(':').unwrap();
        let k = k.trim().to_ascii_lowercase();
        let v = v.trim().to_string();
        headers
            .entry(k)
            .and_modify(|old| {
                old.push('\n');
                old.push_str(&v);
            })
            .or_insert(v);
    }
    let mut body = buf[end + 4..].to_vec();
    if headers
        .get("transfer-encoding")
        .is_some_and(|t| t.eq_ignore_ascii_case("chunked"))
    {
        body = unchunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn unchunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let nl = b.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&b[..nl])
                .split(';')
                .next()
                .unwrap()
                .trim(),
            16,
        )
        .unwrap();
        b = &b[nl + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[..size]);
        b = &b[size + 2..];
    }
}

/// The local links of a page (`href` and `src` values starting with `/`), HTML entities of
/// `&amp;` undone.
pub fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\"", "srcset=\"", "action=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            let end = rest.find('"').unwrap();
            let link = rest[..end].replace("&amp;", "&").replace("&#x2f;", "/");
            if link.starts_with('/') {
                out.push(link);
            }
            rest = &rest[end..];
        }
    }
    out
}

/// The value of cookie `name` set by an answer.
pub fn set_cookie(a: &Answer, name: &str) -> Option<String> {
    a.header("set-cookie")
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}=")))
        .map(|v| v.split(';').next().unwrap().to_string())
}

/// The value of the hidden `csrf` field of a page's last form (on the seat page, its text box's; the sign-out in the
/// top bar comes first).
pub fn csrf(html: &str) -> String {
    let i = html.rfind("name=\"csrf\" value=\"").expect("a csrf field") + 19;
    html[i..i + html[i..].find('"').unwrap()].to_string()
}
