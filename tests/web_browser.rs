//! Issue 28: "a real browser — headless Chromium from Debian's packages, driven by the test
//! command (WebDriver through chromedriver …) — loads the game list, a game page, a phase
//! page and the signed-in page, submits orders through the form and sees the reply, and
//! the test checks what was rendered (title, map image loaded, deadline text, the reply's
//! lines); screenshots at desktop and phone width". scripts/test installs `chromium` and
//! `chromium-driver`; without them this test fails and says so. With HERALD_WEB_SHOTS set
//! to a directory, the screenshots are written there (docs/ holds the committed ones).

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

use crate::web_pages::played_game;
use crate::{raw, serve};

/// chromedriver, stopped when dropped.
struct Driver {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find_program(names: &[&str]) -> String {
    for name in names {
        for dir in ["/usr/bin", "/usr/lib/chromium", "/usr/local/bin"] {
            let path = format!("{dir}/{name}");
            if std::path::Path::new(&path).exists() {
                return path;
            }
        }
    }
    panic!("none of {names:?} is installed: scripts/test installs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)");
}

async fn call(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> Value {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let a = raw(addr, req.as_bytes()).await;
    let v: Value = serde_json::from_slice(&a.body).unwrap_or(Value::Null);
    assert!(a.status < 300, "{method} {path}: {} {v}", a.status);
    v["value"].clone()
}

async fn start_driver() -> Driver {
    let driver = find_program(&["chromedriver"]);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    // Stopped (killed and waited for) when dropped, on every path.
    let driver = Driver { child, addr };
    // Waits for it to listen (a bounded number of looks, not a timed assertion).
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return driver;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("chromedriver did not start listening");
}

struct Browser {
    addr: SocketAddr,
    session: String,
}

impl Browser {
    async fn go(&self, url: &str) {
        call(
            self.addr,
            "POST",
            &format!("/session/{}/url", self.session),
            Some(json!({ "url": url })),
        )
        .await;
    }
    async fn run(&self, script: &str) -> Value {
        call(
            self.addr,
            "POST",
            &format!("/session/{}/execute/sync", self.session),
            Some(json!({ "script": script, "args": [] })),
        )
        .await
    }
    async fn title(&self) -> String {
        call(
            self.addr,
            "GET",
            &format!("/session/{}/title", self.session),
            None,
        )
        .await
        .as_str()
        .unwrap()
        .to_string()
    }
    async fn element(&self, css: &str) -> String {
        let v = call(
            self.addr,
            "POST",
            &format!("/session/{}/element", self.session),
            Some(json!({ "using": "css selector", "value": css })),
        )
        .await;
        v.as_object()
            .unwrap()
            .values()
            .next()
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    }
    async fn type_in(&self, css: &str, text: &str) {
        let e = self.element(css).await;
        call(
            self.addr,
            "POST",
            &format!("/session/{}/element/{e}/value", self.session),
            Some(json!({ "text": text })),
        )
        .await;
    }
    async fn click(&self, css: &str) {
        let e = self.element(css).await;
        call(
            self.addr,
            "POST",
            &format!("/session/{}/element/{e}/click", self.session),
            Some(json!({})),
        )
        .await;
    }
    /// Waits (a bounded number of looks) until `script` returns true.
    async fn until(&self, script: &str) -> bool {
        for _ in 0..100 {
            if self.run(script).await == Value::Bool(true) {
                return true;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        false
    }
    async fn size(&self, width: u32, height: u32) {
        call(
            self.addr,
            "POST",
            &format!("/session/{}/window/rect", self.session),
            Some(json!({ "width": width, "height": height })),
        )
        .await;
    }
    async fn shot(&self, name: &str) {
        let v = call(
            self.addr,
            "GET",
            &format!("/session/{}/screenshot", self.session),
            None,
        )
        .await;
        let png = base64(v.as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "a screenshot of {name}");
        if let Ok(dir) = std::env::var("HERALD_WEB_SHOTS") {
            std::fs::write(
                std::path::Path::new(&dir).join(format!("web-{name}.png")),
                png,
            )
            .unwrap();
        }
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .collect();
    let mut out = Vec::new();
    for chunk in clean.chunks(4) {
        let n = chunk
            .iter()
            .fold(0u32, |acc, &c| (acc << 6) | u32::from(value(c)))
            << (6 * (4 - chunk.len()));
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// Whether the page's map image loaded (the SVG, or the PNG it falls back to).
const MAP_LOADED: &str =
    "const i = document.getElementById('map'); return !!i && i.complete && i.naturalWidth > 0;";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_reads_the_pages_and_sends_orders() {
    let site = serve(played_game("web-browser").await).await;
    let base = format!("http://{}", site.addr);
    let driver = start_driver().await;
    let chromium = find_program(&["chromium"]);
    let caps = json!({ "capabilities": { "alwaysMatch": { "browserName": "chrome", "goog:chromeOptions": {
        "binary": chromium,
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1"]
    } } } });
    let v = call(driver.addr, "POST", "/session", Some(caps)).await;
    let b = Browser {
        addr: driver.addr,
        session: v["sessionId"].as_str().unwrap().to_string(),
    };
    b.size(1280, 1000).await;

    b.go(&format!("{base}/")).await;
    assert_eq!(b.title().await, "herald: games");
    assert_eq!(
        b.run("return document.querySelector('a[href=\"/games/g\"]') !== null;")
            .await,
        Value::Bool(true)
    );
    b.shot("list-desktop").await;

    b.go(&format!("{base}/games/g")).await;
    assert!(b.title().await.starts_with("g — "), "{}", b.title().await);
    assert!(b.until(MAP_LOADED).await, "the game's map loaded");
    let deadline = b
        .run("return document.getElementById('deadline').innerText;")
        .await;
    assert!(
        deadline.as_str().unwrap().starts_with("Deadline: "),
        "{deadline}"
    );
    assert!(deadline.as_str().unwrap().contains("2026"), "{deadline}");
    b.shot("game-desktop").await;
    b.size(390, 844).await;
    b.go(&format!("{base}/games/g")).await;
    assert!(b.until(MAP_LOADED).await);
    // Phone width: the page fits, no sideways scrolling.
    let fits = b
        .run("return document.documentElement.scrollWidth <= window.innerWidth + 1;")
        .await;
    assert_eq!(
        fits,
        Value::Bool(true),
        "the game page fits a phone's width"
    );
    b.shot("game-phone").await;
    b.size(1280, 1000).await;

    b.go(&format!("{base}/games/g/phases/S1901M")).await;
    assert!(
        b.title().await.starts_with("g — Spring"),
        "{}",
        b.title().await
    );
    assert!(b.until(MAP_LOADED).await, "the phase's map loaded");
    let results = b
        .run("return document.getElementById('results').innerText;")
        .await;
    assert!(results.as_str().unwrap().contains("Par"), "{results}");

    b.go(&format!("{base}/signin")).await;
    b.type_in("#game", "g").await;
    b.type_in("#power", "A").await;
    b.type_in("#password", "pwA").await;
    b.click("#signin").await;
    assert!(
        b.until("return location.pathname === '/seat' && !!document.getElementById('text');")
            .await,
        "signed in"
    );
    assert_eq!(b.title().await, "g — Austria");
    b.type_in("#text", "A Gal-Ukr\nA Bud-Ser\nF Tri-Alb\n")
        .await;
    b.click("#send").await;
    assert!(
        b.until("return !!document.getElementById('reply');").await,
        "the reply is shown"
    );
    let reply = b
        .run("return document.getElementById('reply').innerText;")
        .await;
    let reply = reply.as_str().unwrap();
    for line in ["A Gal - Ukr", "A Bud - Ser", "F Tri - Alb"] {
        assert!(reply.contains(line), "{line}: {reply}");
    }
    b.shot("seat-desktop").await;
    b.size(390, 844).await;
    b.go(&format!("{base}/seat")).await;
    b.shot("seat-phone").await;
    call(
        driver.addr,
        "DELETE",
        &format!("/session/{}", b.session),
        None,
    )
    .await;
}
