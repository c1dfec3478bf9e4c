//! The outbox over SMTP (lettre on tokio): plain on loopback, STARTTLS or TLS elsewhere,
//! with authentication. A 4xx answer to a mail is transient (the mail stays queued and is
//! retried with backoff); a 5xx is permanent (recorded and reported). Trouble with the
//! server itself — no connection, no answer within the timeout, a greeting, TLS or login
//! refused (535 after a changed password), a dropped connection — is no fault of any mail:
//! it is [`SendError::Server`], and every mail stays queued until the server takes mail again.
//!
//! herald keeps one connection open and sends mail after mail over it, with TCP_NODELAY
//! set: lettre writes a mail's end-of-data marker as a write of its own, and with Nagle's
//! algorithm on, that small write waited for the server's delayed ACK (about 40 ms a mail,
//! which capped sending at about 21 mails a second).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{
    AsyncSmtpConnection, AsyncTokioStream, Certificate, TlsParameters,
};
use lettre::transport::smtp::extension::ClientId;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::rustls::pki_types::ServerName;

use super::security::{tls_connector, Security, TlsSetupError};

/// Where and how to send mail.
#[derive(Clone, Debug)]
pub struct SmtpSettings {
    /// Server host.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Plain, TLS or STARTTLS.
    pub security: Security,
    /// Login name; empty: no authentication.
    pub user: String,
    /// Password.
    pub password: String,
    /// Extra trusted certificates (PEM) for TLS.
    pub ca_file: Option<std::path::PathBuf>,
}

/// How a send went.
#[derive(Debug)]
pub enum SendError {
    /// Try again later (4xx, connection trouble).
    Transient(String),
    /// The server refused for good (5xx, a bad address).
    Permanent(String),
    /// The server, or herald's settings for it, cannot take any mail now (no connection, no
    /// answer in time, login or TLS refused): not this mail's fault, so it is neither
    /// counted against the mail nor given up; sending stops until the next round.
    Server(String),
}

/// Mails sent over one connection before herald opens a new one: servers limit messages
/// per session (OpenSMTPD answers 452 after 100).
const PER_CONNECTION: u32 = 90;

/// A connection unused for longer than this is checked with NOOP before it carries a mail:
/// servers close idle sessions (OpenSMTPD after 5 minutes), and a mail sent into a closed
/// connection would wait for its retry.
const IDLE_CHECK: Duration = Duration::from_secs(2);

/// How long connecting, or sending one mail, may take, unless set otherwise
/// ([`SmtpOutbox::with_timeout`], `[smtp] timeout_seconds`).
const TIMEOUT: Duration = Duration::from_secs(30);

/// An SMTP client.
pub struct SmtpOutbox {
    /// The server and how to reach it.
    settings: SmtpSettings,
    /// STARTTLS's parameters (the server's name, the trusted roots), made once.
    starttls: Option<TlsParameters>,
    /// The connection kept open between mails, how many mails it carried and when it was
    /// last used; `None` before the first mail and after a failure.
    open: tokio::sync::Mutex<Option<Open>>,
    /// How long connecting, or sending one mail, may take.
    timeout: Duration,
}

/// A connection kept open.
struct Open {
    /// The session, greeted, secured and logged in.
    conn: AsyncSmtpConnection,
    /// Mails it carried.
    sent: u32,
    /// When it last carried one.
    used: Instant,
}

impl std::fmt::Debug for SmtpOutbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SmtpOutbox")
    }
}

impl SmtpOutbox {
    /// A client for these settings (connects when sending).
    pub fn new(s: &SmtpSettings) -> Result<SmtpOutbox, TlsSetupError> {
        let starttls = match s.security {
            Security::StartTls => Some(starttls_parameters(s)?),
            Security::None | Security::Tls => None,
        };
        if s.security == Security::Tls {
            // Checked now, so a bad CA file is a reason not to start rather than a send
            // that fails at every try.
            tls_connector(s.ca_file.as_deref())?;
        }
        Ok(SmtpOutbox {
            settings: s.clone(),
            starttls,
            open: tokio::sync::Mutex::new(None),
            timeout: TIMEOUT,
        })
    }

    /// The same client with another limit on connecting and on sending one mail.
    pub fn with_timeout(mut self, timeout: Duration) -> SmtpOutbox {
        self.timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// A new session: TCP (TCP_NODELAY set), TLS from the first byte or STARTTLS as
    /// configured, EHLO, and AUTH when a user is set.
    async fn connect(&self) -> Result<AsyncSmtpConnection, SendError> {
        let s = &self.settings;
        let trouble = |what: &str, e: &dyn std::fmt::Display| {
            SendError::Server(format!("{what} {}:{}: {e}", s.host, s.port))
        };
        let tcp = TcpStream::connect((s.host.as_str(), s.port))
            .await
            .map_err(|e| trouble("connecting to", &e))?;
        tcp.set_nodelay(true)
            .map_err(|e| trouble("setting TCP_NODELAY on", &e))?;
        let stream: Box<dyn AsyncTokioStream> = match s.security {
            Security::Tls => {
                let connector =
                    tls_connector(s.ca_file.as_deref()).map_err(|e| trouble("TLS to", &e))?;
                let name =
                    ServerName::try_from(s.host.to_string()).map_err(|e| trouble("TLS to", &e))?;
                let tls = connector
                    .connect(name, tcp)
                    .await
                    .map_err(|e| trouble("TLS handshake with", &e))?;
                Box::new(Wire::Tls(Box::new(tls)))
            }
            Security::None | Security::StartTls => Box::new(Wire::Plain(tcp)),
        };
        let hello = ClientId::default();
        let mut conn = AsyncSmtpConnection::connect_with_transport(stream, &hello)
            .await
            .map_err(|e| trouble("the greeting of", &e))?;
        if let Some(params) = &self.starttls {
            conn.starttls(params.clone(), &hello)
                .await
                .map_err(|e| trouble("STARTTLS with", &e))?;
        }
        if !s.user.is_empty() {
            let credentials = Credentials::new(s.user.clone(), s.password.clone());
            conn.auth(&[Mechanism::Plain, Mechanism::Login], &credentials)
                .await
                .map_err(|e| trouble(&format!("logging in as '{}' to", s.user), &e))?;
        }
        Ok(conn)
    }

    /// Makes sure a session is open and answering (connecting, with TLS and login, when
    /// none is), so that a server that cannot take mail is found before any mail is
    /// claimed for it. Costs at most one timeout.
    pub async fn ready(&self) -> Result<(), SendError> {
        let mut open = self.open.lock().await;
        let current = self.session(&mut open).await?;
        *open = Some(current);
        Ok(())
    }

    /// The open session if it still answers, else a new one; `open` is left empty.
    async fn session(&self, open: &mut Option<Open>) -> Result<Open, SendError> {
        if let Some(mut old) = open.take() {
            if old.sent >= PER_CONNECTION {
                let _ = tokio::time::timeout(self.timeout, old.conn.quit()).await;
            } else if old.used.elapsed() < IDLE_CHECK
                || tokio::time::timeout(self.timeout, old.conn.test_connected())
                    .await
                    .unwrap_or(false)
            {
                return Ok(old);
            }
        }
        match tokio::time::timeout(self.timeout, self.connect()).await {
            Ok(conn) => Ok(Open {
                conn: conn?,
                sent: 0,
                used: Instant::now(),
            }),
            Err(_) => Err(SendError::Server(format!(
                "{}:{} did not finish greeting and login within {} s",
                self.settings.host,
                self.settings.port,
                self.timeout.as_secs_f64()
            ))),
        }
    }

    /// Sends one rendered mail from `from` to `to`, over the open connection when there is
    /// one that still answers, else over a new one.
    pub async fn send(&self, from: &str, to: &str, bytes: &[u8]) -> Result<(), SendError> {
        let from = from
            .parse()
            .map_err(|e| SendError::Permanent(format!("herald's address '{from}': {e}")))?;
        let rcpt = to
            .parse()
            .map_err(|e| SendError::Permanent(format!("recipient '{to}': {e}")))?;
        let envelope = Envelope::new(Some(from), vec![rcpt])
            .map_err(|e| SendError::Permanent(e.to_string()))?;
        let mut open = self.open.lock().await;
        let mut current = self.session(&mut open).await?;
        let result = tokio::time::timeout(self.timeout, current.conn.send(&envelope, bytes)).await;
        match result {
            Ok(Ok(_)) => {
                current.sent += 1;
                current.used = Instant::now();
                *open = Some(current);
                Ok(())
            }
            // A refusal of this mail leaves the session usable (lettre ends it only on
            // trouble it cannot read past); anything else drops it, and the next mail opens
            // a new one.
            Ok(Err(e)) => {
                if !current.conn.has_broken() {
                    current.used = Instant::now();
                    *open = Some(current);
                }
                Err(classify(e))
            }
            Err(_) => Err(SendError::Server(format!(
                "{}:{} did not take a mail within {} s",
                self.settings.host,
                self.settings.port,
                self.timeout.as_secs_f64()
            ))),
        }
    }
}

/// What a failed send means: a refusal of this mail (4xx: later; 5xx: never), or trouble
/// with the server (the connection broke without an answer, an answer that cannot be read,
/// or an answer that herald must log in or that its login was refused: 530, 534, 535, 538),
/// which no mail is to blame for.
fn classify(e: lettre::transport::smtp::Error) -> SendError {
    let code = e.status().map(u16::from);
    match code {
        Some(530 | 534 | 535 | 538) => SendError::Server(e.to_string()),
        Some(_) if e.is_permanent() => SendError::Permanent(e.to_string()),
        Some(_) => SendError::Transient(e.to_string()),
        None if !e.is_client() => SendError::Server(e.to_string()),
        // A fault lettre found in the mail itself before sending it (8-bit text to a
        // server without 8BITMIME): this mail's, tried again until given up.
        None => SendError::Transient(e.to_string()),
    }
}

fn starttls_parameters(s: &SmtpSettings) -> Result<TlsParameters, TlsSetupError> {
    let mut params = TlsParameters::builder(s.host.clone());
    if let Some(path) = &s.ca_file {
        let pem = std::fs::read(path).map_err(|e| TlsSetupError::read(path, e))?;
        let cert = Certificate::from_pem(&pem).map_err(|e| TlsSetupError::certificate(path, e))?;
        params = params.add_root_certificate(cert);
    }
    params
        .build_rustls()
        .map_err(|e| TlsSetupError::Library(Box::new(e)))
}

/// The byte stream under a session: TCP, or TLS over TCP.
#[derive(Debug)]
enum Wire {
    /// Plain TCP: on loopback, or until STARTTLS (lettre then wraps it in TLS itself).
    Plain(TcpStream),
    /// TLS from the first byte (`security = "tls"`), with the same trust as IMAP's.
    Tls(Box<tokio_rustls::client::TlsStream<TcpStream>>),
}

impl AsyncTokioStream for Wire {
    fn peer_addr(&self) -> io::Result<SocketAddr> {
        match self {
            Wire::Plain(s) => s.peer_addr(),
            Wire::Tls(s) => s.get_ref().0.peer_addr(),
        }
    }
}

impl AsyncRead for Wire {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Wire::Tls(s) => Pin::new(s).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Wire {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Wire::Tls(s) => Pin::new(s).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_flush(cx),
            Wire::Tls(s) => Pin::new(s).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Wire::Tls(s) => Pin::new(s).poll_shutdown(cx),
        }
    }
}
