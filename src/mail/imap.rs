//! The inbox over IMAP (async-imap on tokio): plain on loopback, TLS or STARTTLS (rustls)
//! elsewhere, LOGIN. New mail is the mail not yet marked handled; a message is marked
//! (\Seen, or moved to a folder) only after the transaction that handled it committed, so a
//! crash in between means it is read again and its Message-ID makes that harmless.

use std::time::Duration;

use async_imap::extensions::idle::IdleResponse;
use async_imap::Session;
use futures_util::TryStreamExt;
use tokio::net::TcpStream;

use super::security::{tls_connector, Security};

/// Something async-imap can talk over: a TCP or TLS stream.
pub trait ImapIo:
    tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + std::fmt::Debug
{
}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + std::fmt::Debug> ImapIo
    for T
{
}

type Stream = Box<dyn ImapIo>;

/// Where and how to read mail.
#[derive(Clone, Debug)]
pub struct ImapSettings {
    /// Server host.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Plain, TLS or STARTTLS.
    pub security: Security,
    /// Login name.
    pub user: String,
    /// Password.
    pub password: String,
    /// The folder new mail arrives in.
    pub folder: String,
    /// Move handled mail here; empty: flag it \Seen and leave it.
    pub handled_folder: String,
    /// Extra trusted certificates (PEM) for TLS.
    pub ca_file: Option<std::path::PathBuf>,
    /// While waiting, ask the server this often (NOOP) instead of waiting in IDLE.
    pub check: Option<Duration>,
}

/// An IMAP failure, with what was being done.
#[derive(Debug, thiserror::Error)]
#[error("IMAP {what}: {source}")]
pub struct ImapError {
    /// What herald was doing.
    pub what: &'static str,
    /// Why it failed.
    pub source: Box<dyn std::error::Error + Send + Sync>,
}

fn err<E: std::error::Error + Send + Sync + 'static>(
    what: &'static str,
) -> impl FnOnce(E) -> ImapError {
    move |e| ImapError {
        what,
        source: Box::new(e),
    }
}

/// A logged-in IMAP session on the inbox folder.
pub struct ImapInbox {
    settings: ImapSettings,
    session: Option<Session<Stream>>,
    idle: bool,
}

impl std::fmt::Debug for ImapInbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImapInbox")
            .field("host", &self.settings.host)
            .field("connected", &self.session.is_some())
            .finish()
    }
}

impl ImapInbox {
    /// An inbox that connects on first use.
    pub fn new(settings: ImapSettings) -> ImapInbox {
        ImapInbox {
            settings,
            session: None,
            idle: false,
        }
    }

    async fn connect(&mut self) -> Result<&mut Session<Stream>, ImapError> {
        let session = self.take_session().await?;
        Ok(self.session.insert(session))
    }

    /// The session, taken out of `self`: the open one, or a new one (connected, logged in,
    /// the folder selected). The caller puts it back when done with it.
    async fn take_session(&mut self) -> Result<Session<Stream>, ImapError> {
        if let Some(session) = self.session.take() {
            return Ok(session);
        }
        let s = &self.settings;
        let tcp = TcpStream::connect((s.host.as_str(), s.port))
            .await
            .map_err(err("connecting"))?;
        let stream: Stream = match s.security {
            Security::None => Box::new(tcp),
            Security::Tls => Box::new(tls(&s.host, s.ca_file.as_deref(), tcp).await?),
            Security::StartTls => {
                let mut client = async_imap::Client::new(tcp);
                client
                    .read_response()
                    .await
                    .map_err(err("reading the greeting"))?;
                client
                    .run_command_and_check_ok("STARTTLS", None)
                    .await
                    .map_err(err("STARTTLS"))?;
                Box::new(tls(&s.host, s.ca_file.as_deref(), client.into_inner()).await?)
            }
        };
        let mut client = async_imap::Client::new(stream);
        if s.security != Security::StartTls {
            client
                .read_response()
                .await
                .map_err(err("reading the greeting"))?
                .ok_or_else(|| ImapError {
                    what: "reading the greeting",
                    source: "the server closed the connection".into(),
                })?;
        }
        let mut session = client
            .login(&s.user, &s.password)
            .await
            .map_err(|(e, _)| err("logging in")(e))?;
        let caps = session
            .capabilities()
            .await
            .map_err(err("reading capabilities"))?;
        self.idle = caps.has_str("IDLE");
        session
            .select(&s.folder)
            .await
            .map_err(err("selecting the folder"))?;
        Ok(session)
    }

    /// Forgets the connection (after an error); the next call reconnects.
    pub fn reset(&mut self) {
        self.session = None;
    }

    /// The mails not yet handled, oldest first, as (UID, raw bytes).
    pub async fn fetch_new(&mut self) -> Result<Vec<(u32, Vec<u8>)>, ImapError> {
        let session = self.connect().await?;
        let mut uids: Vec<u32> = session
            .uid_search("UNSEEN")
            .await
            .map_err(err("searching"))?
            .into_iter()
            .collect();
        uids.sort_unstable();
        let mut out = Vec::new();
        for chunk in uids.chunks(100) {
            let set = chunk
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",");
            let fetched: Vec<_> = session
                .uid_fetch(&set, "(UID BODY.PEEK[])")
                .await
                .map_err(err("fetching"))?
                .try_collect()
                .await
                .map_err(err("fetching"))?;
            for f in fetched {
                if let (Some(uid), Some(body)) = (f.uid, f.body()) {
                    out.push((uid, body.to_vec()));
                }
            }
        }
        out.sort_by_key(|(uid, _)| *uid);
        Ok(out)
    }

    /// Marks mails handled: moved to the handled folder, or flagged \Seen.
    pub async fn mark_handled(&mut self, uids: &[u32]) -> Result<(), ImapError> {
        if uids.is_empty() {
            return Ok(());
        }
        let folder = self.settings.handled_folder.clone();
        let session = self.connect().await?;
        let set = uids
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        if folder.is_empty() {
            let _: Vec<_> = session
                .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
                .await
                .map_err(err("flagging handled mail"))?
                .try_collect()
                .await
                .map_err(err("flagging handled mail"))?;
        } else {
            session
                .uid_mv(&set, &folder)
                .await
                .map_err(err("moving handled mail"))?;
        }
        Ok(())
    }

    /// Waits until new mail may have arrived, at most `timeout`: asking the server every
    /// `check` when set, else in IDLE where the server has it, else sleeping.
    pub async fn wait(&mut self, timeout: Duration) -> Result<(), ImapError> {
        let mut session = self.take_session().await?;
        if let Some(every) = self.settings.check {
            let result = check_until_news(&mut session, every, timeout).await;
            self.session = Some(session);
            return result;
        }
        if !self.idle {
            self.session = Some(session);
            tokio::time::sleep(timeout).await;
            return Ok(());
        }
        let mut idle = session.idle();
        idle.init().await.map_err(err("starting IDLE"))?;
        let (wait, _stop) = idle.wait_with_timeout(timeout);
        let result = wait.await;
        let session = idle.done().await.map_err(err("ending IDLE"))?;
        self.session = Some(session);
        match result.map_err(err("waiting in IDLE"))? {
            IdleResponse::NewData(_) | IdleResponse::Timeout | IdleResponse::ManualInterrupt => {
                Ok(())
            }
        }
    }
}

/// Sends NOOP every `every` until the server reports the mailbox grew (EXISTS or RECENT)
/// or `timeout` passed. A report that came in with an earlier command (the mail arrived
/// while the last one was read) counts too, so nothing that arrived meanwhile waits.
async fn check_until_news(
    session: &mut Session<Stream>,
    every: Duration,
    timeout: Duration,
) -> Result<(), ImapError> {
    use async_imap::types::UnsolicitedResponse;
    let end = tokio::time::Instant::now() + timeout;
    loop {
        let mut news = false;
        while let Ok(response) = session.unsolicited_responses.try_recv() {
            news |= matches!(
                response,
                UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
            );
        }
        if news || tokio::time::Instant::now() >= end {
            return Ok(());
        }
        tokio::time::sleep(every.min(end - tokio::time::Instant::now())).await;
        session
            .noop()
            .await
            .map_err(err("asking for news (NOOP)"))?;
    }
}

async fn tls(
    host: &str,
    ca_file: Option<&std::path::Path>,
    tcp: TcpStream,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>, ImapError> {
    let connector = tls_connector(ca_file).map_err(|e| ImapError {
        what: "setting up TLS",
        source: e.into(),
    })?;
    let name = rustls_pki_types_name(host)?;
    connector
        .connect(name, tcp)
        .await
        .map_err(err("TLS handshake"))
}

fn rustls_pki_types_name(
    host: &str,
) -> Result<tokio_rustls::rustls::pki_types::ServerName<'static>, ImapError> {
    tokio_rustls::rustls::pki_types::ServerName::try_from(host.to_string())
        .map_err(err("reading the server name"))
}
