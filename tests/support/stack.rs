//! The real mail stack from `scripts/mailstack/start.sh`: ports from the environment, a
//! player's SMTP sends and IMAP reads, and herald's daemon configured for IMAP and SMTP.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::TryStreamExt;
use herald::config::Config;
use herald::mail::security::Security;
use herald::service::Service;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

pub const DOMAIN: &str = "herald.test";

/// The stack's players (`scripts/mailstack/start.sh`'s users): mailbox, password, and the
/// power each asks for in a standard game.
pub const PLAYERS: [(&str, &str, char); 7] = [
    ("p1", "pw1", 'E'),
    ("p2", "pw2", 'F'),
    ("p3", "pw3", 'G'),
    ("p4", "pw4", 'I'),
    ("p5", "pw5", 'A'),
    ("p6", "pw6", 'R'),
    ("p7", "pw7", 'T'),
];

pub fn port(var: &str) -> u16 {
    std::env::var(var)
        .unwrap_or_else(|_| {
            panic!(
                "{var} is not set: run the tests with scripts/test, which starts the mail servers"
            )
        })
        .parse()
        .expect("a port number")
}

/// The turn of one test on the real servers: the tests of the stack share one pair of
/// servers and the judge's mailbox, which a test's daemon reads and empties, and one test
/// stops and restarts the servers; so they take turns (tests of other things in the same
/// binary still run beside them).
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub struct Stack {
    pub smtp_port: u16,
    pub imap_port: u16,
    pub game: String,
    /// Held while this test uses the servers (see [`TURN`]).
    _turn: Option<std::sync::MutexGuard<'static, ()>>,
}

impl Stack {
    /// The servers, once no other test of this process uses them; `tag` names the game.
    pub fn new(tag: &str) -> Stack {
        // A test that failed holding the turn leaves it poisoned; the next takes it anyway.
        let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        Stack {
            smtp_port: port("HERALD_TEST_SMTP_PORT"),
            imap_port: port("HERALD_TEST_IMAP_PORT"),
            game: format!("{tag}{}", std::process::id() % 100_000),
            _turn: Some(turn),
        }
    }

    /// Another pair of servers, on these ports (a test that started them itself, holding
    /// the turn through its first [`Stack`]).
    pub fn other(smtp_port: u16, imap_port: u16, game: &str) -> Stack {
        Stack {
            smtp_port,
            imap_port,
            game: game.to_string(),
            _turn: None,
        }
    }

    pub async fn send(&self, user: &str, subject: &str, body: &str) {
        let mailer = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
            .port(self.smtp_port)
            .build();
        let msg = lettre::Message::builder()
            .from(format!("{user}@{DOMAIN}").parse().unwrap())
            .to(format!("judge@{DOMAIN}").parse().unwrap())
            .subject(subject)
            .body(body.replace('\n', "\r\n"))
            .unwrap();
        mailer
            .send(msg)
            .await
            .expect("the SMTP server takes the mail");
    }

    /// Confirms `user`'s address as a person does: a plain reply to herald's answer
    /// `answer` (its text), keeping the code it carries in the subject and the quoted text;
    /// waits for herald's answer to that reply, so the address is confirmed on return.
    pub async fn confirm(&self, user: &str, password: &str, answer: &str) {
        let code = answer
            .split("confirm-")
            .nth(1)
            .map(|rest| rest.chars().take(16).collect::<String>())
            .filter(|c| c.len() == 16 && c.chars().all(|c| c.is_ascii_hexdigit()))
            .expect("the answer asks for confirmation");
        let quoted: String = answer.lines().map(|l| format!("> {l}\n")).collect();
        self.send(
            user,
            &format!("Re: your answer [confirm-{code}]"),
            &format!("\n\nOn Tue, herald wrote:\n{quoted}"),
        )
        .await;
        let confirmed = self.expect(user, password, "Re: your answer").await;
        assert!(confirmed.contains("is now confirmed"), "{confirmed}");
    }

    /// Waits for an unread mail to `user` whose subject contains `subject`; reads it (marking
    /// it seen) and returns its body.
    pub async fn expect(&self, user: &str, password: &str, subject: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut session = self.login(user, password).await;
        loop {
            session.select("INBOX").await.unwrap();
            let found: Vec<u32> = session
                .uid_search(format!("UNSEEN SUBJECT \"{subject}\""))
                .await
                .unwrap()
                .into_iter()
                .collect();
            if let Some(uid) = found.into_iter().min() {
                let fetched: Vec<_> = session
                    .uid_fetch(uid.to_string(), "BODY[]")
                    .await
                    .unwrap()
                    .try_collect()
                    .await
                    .unwrap();
                let raw = fetched[0].body().unwrap().to_vec();
                let _ = session.logout().await;
                let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
                return msg.body_text(0).unwrap().into_owned();
            }
            assert!(
                Instant::now() < deadline,
                "no mail '{subject}' reached {user} within 30 s"
            );
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }
}

impl Stack {
    /// A logged-in IMAP session for a player's mailbox.
    pub async fn login(
        &self,
        user: &str,
        password: &str,
    ) -> async_imap::Session<tokio::net::TcpStream> {
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", self.imap_port))
            .await
            .unwrap();
        let mut client = async_imap::Client::new(tcp);
        client.read_response().await.unwrap();
        client
            .login(user, password)
            .await
            .map_err(|(e, _)| e)
            .unwrap()
    }

    /// How many mails to `user` have a subject containing `subject` (read or not).
    pub async fn count(&self, user: &str, password: &str, subject: &str) -> usize {
        let mut session = self.login(user, password).await;
        session.select("INBOX").await.unwrap();
        let n = session
            .uid_search(format!("SUBJECT \"{subject}\""))
            .await
            .unwrap()
            .len();
        let _ = session.logout().await;
        n
    }

    /// The Message-IDs of the mails to `user` whose subject contains `subject`.
    pub async fn message_ids(&self, user: &str, password: &str, subject: &str) -> Vec<String> {
        let mut session = self.login(user, password).await;
        session.select("INBOX").await.unwrap();
        let uids: Vec<String> = session
            .uid_search(format!("SUBJECT \"{subject}\""))
            .await
            .unwrap()
            .into_iter()
            .map(|u| u.to_string())
            .collect();
        let mut ids = Vec::new();
        if !uids.is_empty() {
            let fetched: Vec<_> = session
                .uid_fetch(uids.join(","), "BODY.PEEK[]")
                .await
                .unwrap()
                .try_collect()
                .await
                .unwrap();
            for f in fetched {
                let msg = mail_parser::MessageParser::default()
                    .parse(f.body().unwrap())
                    .unwrap();
                ids.push(msg.message_id().unwrap_or("").to_string());
            }
        }
        let _ = session.logout().await;
        ids
    }

    /// The subject, Message-ID and In-Reply-To of every mail to `user` whose subject
    /// contains `subject`, read or not: the server's ENVELOPE of each, no bodies, so that
    /// thousands of mails are read in a moment.
    pub async fn envelopes(&self, user: &str, password: &str, subject: &str) -> Vec<Envelope> {
        let mut session = self.login(user, password).await;
        session.select("INBOX").await.unwrap();
        let mut uids: Vec<u32> = session
            .uid_search(format!("SUBJECT \"{subject}\""))
            .await
            .unwrap()
            .into_iter()
            .collect();
        uids.sort_unstable();
        let text = |v: Option<&std::borrow::Cow<'_, [u8]>>| {
            v.map(|b| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_default()
        };
        let mut out = Vec::with_capacity(uids.len());
        for chunk in uids.chunks(500) {
            let set: Vec<String> = chunk.iter().map(u32::to_string).collect();
            let fetched: Vec<_> = session
                .uid_fetch(set.join(","), "ENVELOPE")
                .await
                .unwrap()
                .try_collect()
                .await
                .unwrap();
            for f in &fetched {
                let e = f.envelope().expect("the server sends the envelope");
                out.push(Envelope {
                    subject: text(e.subject.as_ref()),
                    message_id: text(e.message_id.as_ref()),
                    in_reply_to: text(e.in_reply_to.as_ref()),
                });
            }
        }
        let _ = session.logout().await;
        out
    }

    /// The mail stack's directory (pid files, configs).
    pub fn dir() -> std::path::PathBuf {
        std::env::var("HERALD_TEST_MAILSTACK")
            .expect("HERALD_TEST_MAILSTACK: run scripts/test")
            .into()
    }
}

/// What [`Stack::envelopes`] reads of a mail.
#[derive(Clone, Debug)]
pub struct Envelope {
    /// The subject as sent (ASCII subjects need no decoding).
    pub subject: String,
    /// The Message-ID, with its angle brackets.
    pub message_id: String,
    /// The In-Reply-To (empty when there is none).
    pub in_reply_to: String,
}

/// herald's daemon on the stack, running until `stop` is sent.
pub struct Daemon {
    pub service: Arc<Service>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    dir: std::path::PathBuf,
}

impl Daemon {
    pub async fn start(stack: &Stack, tag: &str, tune: impl FnOnce(&mut Config)) -> Daemon {
        let dir = std::env::temp_dir().join(format!("herald-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut config = Config::default();
        config.storage.database = dir.join("herald.db");
        config.inbox.maildir = dir.join("inbox");
        config.outbox.maildir = dir.join("outbox");
        config.judge.address = format!("judge@{DOMAIN}");
        config.inbox.kind = herald::config::InboxKind::Imap;
        config.inbox.poll_seconds = 1;
        config.imap.port = stack.imap_port;
        config.imap.security = Security::None;
        config.imap.user = "judge".into();
        config.imap.password = "judgepw".into();
        config.outbox.kind = herald::config::OutboxKind::Smtp;
        config.smtp.port = stack.smtp_port;
        config.timing.early_delay = "0m".into();
        tune(&mut config);
        let service = Arc::new(Service::open(config).await.unwrap());
        let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let task = {
            let service = service.clone();
            tokio::spawn(async move {
                herald::daemon::run(&service, async {
                    let _ = stop_rx.await;
                })
                .await
            })
        };
        Daemon {
            service,
            stop: Some(stop),
            task: Some(task),
            dir,
        }
    }

    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.task.take() {
            t.await.unwrap();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
