//! End to end over real mail servers on 127.0.0.1 (Dovecot IMAP/LMTP and OpenSMTPD, started
//! by `scripts/test` through `scripts/mailstack/start.sh`): seven players and a Master, each
//! a mailbox, send their mail over SMTP and read herald's replies over IMAP, while herald's
//! daemon reads its own mailbox over IMAP (IDLE) and sends by SMTP. Three phases are played,
//! press included.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::TryStreamExt;
use herald::config::Config;
use herald::mail::security::Security;
use herald::service::Service;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

const DOMAIN: &str = "herald.test";

fn port(var: &str) -> u16 {
    std::env::var(var)
        .unwrap_or_else(|_| {
            panic!(
                "{var} is not set: run the tests with scripts/test, which starts the mail servers"
            )
        })
        .parse()
        .expect("a port number")
}

struct Stack {
    smtp_port: u16,
    imap_port: u16,
    game: String,
}

impl Stack {
    fn new() -> Stack {
        Stack {
            smtp_port: port("HERALD_TEST_SMTP_PORT"),
            imap_port: port("HERALD_TEST_IMAP_PORT"),
            game: format!("e2e{}", std::process::id() % 100_000),
        }
    }

    async fn send(&self, user: &str, subject: &str, body: &str) {
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

    /// Waits for an unread mail to `user` whose subject contains `subject`; reads it (marking
    /// it seen) and returns its body.
    async fn expect(&self, user: &str, password: &str, subject: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", self.imap_port))
            .await
            .unwrap();
        let mut client = async_imap::Client::new(tcp);
        client.read_response().await.unwrap();
        let mut session = client
            .login(user, password)
            .await
            .map_err(|(e, _)| e)
            .unwrap();
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

const PLAYERS: [(&str, &str, char); 7] = [
    ("p1", "pw1", 'E'),
    ("p2", "pw2", 'F'),
    ("p3", "pw3", 'G'),
    ("p4", "pw4", 'I'),
    ("p5", "pw5", 'A'),
    ("p6", "pw6", 'R'),
    ("p7", "pw7", 'T'),
];

fn holds(letter: char) -> &'static str {
    match letter {
        'E' => "F Lon H\nF Edi H\nA Lvp H",
        'G' => "F Kie H\nA Ber H\nA Mun H",
        'I' => "F Nap H\nA Rom H\nA Ven H",
        'A' => "A Vie H\nA Bud H\nF Tri H",
        'R' => "A Mos H\nA War H\nF Sev H\nF Stp/sc H",
        'T' => "F Ank H\nA Con H\nA Smy H",
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_real_imap_and_smtp() {
    let stack = Stack::new();
    let dir = std::env::temp_dir().join(format!("herald-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut config = Config::default();
    config.storage.database = dir.join("herald.db");
    config.inbox.maildir = dir.join("inbox");
    config.outbox.maildir = dir.join("outbox");
    config.judge.address = format!("judge@{DOMAIN}");
    config.inbox.kind = "imap".into();
    config.inbox.poll_seconds = 5;
    config.imap.port = stack.imap_port;
    config.imap.security = Security::None;
    config.imap.user = "judge".into();
    config.imap.password_env = "HERALD_TEST_JUDGE_PASSWORD".into();
    std::env::set_var("HERALD_TEST_JUDGE_PASSWORD", "judgepw");
    config.outbox.kind = "smtp".into();
    config.smtp.port = stack.smtp_port;
    config.timing.early_delay = "0m".into();
    let service = Arc::new(Service::open(config).await.unwrap());
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let daemon = {
        let service = service.clone();
        tokio::spawn(async move {
            herald::daemon::run(&service, async {
                let _ = stop_rx.await;
            })
            .await
        })
    };
    let g = stack.game.clone();

    stack
        .send("gm", "create", &format!("CREATE ?{g} gmpass\n"))
        .await;
    assert!(stack
        .expect("gm", "gmpw", "Re: create")
        .await
        .contains(&format!("Game '{g}' (standard) created")));
    for (user, pw, letter) in PLAYERS {
        stack
            .send(
                user,
                "join",
                &format!("SIGNON ?{g} {pw}\nSET PREFERENCE {letter}\n"),
            )
            .await;
        let reply = stack.expect(user, pw, "Re: join").await;
        assert!(reply.contains(&format!("You joined '{g}'")), "{reply}");
    }
    stack
        .send("gm", "start", &format!("SIGNON M{g} gmpass\nSTART\n"))
        .await;
    for (user, pw, letter) in PLAYERS {
        let start = stack.expect(user, pw, "Game Starting").await;
        assert!(
            start.contains(&format!("({letter}) {user}@{DOMAIN}")),
            "{start}"
        );
    }

    // Spring 1901, with press from France to Germany.
    for (user, pw, letter) in PLAYERS {
        let orders = match letter {
            'F' => "A Par-Bur\nA Mar-Spa\nF Bre-Mao\nPRESS TO G\nShall we talk about Belgium?\nENDPRESS".to_string(),
            l => holds(l).to_string(),
        };
        stack
            .send(
                user,
                "orders",
                &format!("SIGNON {letter}{g} {pw}\n{orders}\n"),
            )
            .await;
        let reply = stack.expect(user, pw, "Re: orders").await;
        assert!(reply.contains("orders complete"), "{reply}");
    }
    let press = stack.expect("p3", "pw3", "Press from F").await;
    assert!(press.contains("Shall we talk about Belgium?"), "{press}");
    for (user, pw, _) in PLAYERS {
        let results = stack.expect(user, pw, "S1901M Results").await;
        assert!(
            results.contains("France: Army Marseilles -> Spain."),
            "{results}"
        );
    }

    // Fall 1901: France takes Portugal and Spain.
    for (user, pw, letter) in PLAYERS {
        let orders = match letter {
            'F' => "A Bur H\nA Spa H\nF Mao-Por".to_string(),
            l => holds(l).to_string(),
        };
        stack
            .send(
                user,
                "fall",
                &format!("SIGNON {letter}{g} {pw}\n{orders}\n"),
            )
            .await;
        stack.expect(user, pw, "Re: fall").await;
    }
    let results = stack.expect("p2", "pw2", "F1901M Results").await;
    assert!(
        results.contains("France: 5 Supply centers, 3 Units: Builds 2 units."),
        "{results}"
    );

    // Winter 1901: France builds.
    stack
        .send(
            "p2",
            "builds",
            &format!("SIGNON F{g} pw2\nBuild A Par\nBuild F Mar\n"),
        )
        .await;
    assert!(stack
        .expect("p2", "pw2", "Re: builds")
        .await
        .contains("France: orders complete."));
    let results = stack.expect("p1", "pw1", "W1901A Results").await;
    assert!(
        results.contains("France: Builds an army in Paris."),
        "{results}"
    );
    assert!(results.contains("Movement for Spring of 1902"), "{results}");

    let _ = stop_tx.send(());
    daemon.await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
