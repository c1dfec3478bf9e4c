//! The inbox over IMAP (async-imap on tokio): plain on loopback, TLS or STARTTLS (rustls)
//! elsewhere, LOGIN. New mail is the mail not yet marked handled; a message is marked
//! (\Seen, or moved to a folder) only after the transaction that handled it committed, so a
//! crash in between means it is read again and its Message-ID makes that harmless.
//!
//! Every operation has a time limit (`[imap] timeout_seconds`): a server that accepts and
//! never answers costs one timeout, after which the connection is dropped and made anew at
//! the next try. A mail's size (RFC822.SIZE) is asked before the mail is fetched: one over
//! `[inbox] max_bytes` is not downloaded (only its head, to answer it), and one batch holds
//! at most `[imap] batch_bytes` of mail.

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
    /// How long any one operation may take.
    pub timeout: Duration,
    /// Mails larger than this are not downloaded, only their first [`HEAD_BYTES`].
    pub max_bytes: usize,
    /// One batch of fetched mail holds at most this many bytes (or one mail).
    pub batch_bytes: usize,
}

/// What is fetched of a mail over `max_bytes`: enough for its header, to answer it.
pub const HEAD_BYTES: usize = 64 * 1024;

/// Mails in one batch, at most.
const BATCH_MAILS: usize = 100;

/// A mail waiting in the inbox: its UID and size as the server gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The UID.
    pub uid: u32,
    /// RFC822.SIZE.
    pub size: usize,
}

/// A mail fetched: its UID, its bytes (only the head when it is over `max_bytes`), and its
/// whole size.
#[derive(Clone, Debug)]
pub struct Fetched {
    /// The UID.
    pub uid: u32,
    /// The bytes fetched.
    pub raw: Vec<u8>,
    /// The mail's whole size.
    pub size: usize,
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

/// Runs one operation within `limit`: its own failure, or a timeout, as an [`ImapError`].
async fn timed<T, E: std::error::Error + Send + Sync + 'static>(
    limit: Duration,
    what: &'static str,
    op: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, ImapError> {
    match tokio::time::timeout(limit, op).await {
        Ok(done) => done.map_err(err(what)),
        Err(_) => Err(ImapError {
            what,
            source: format!("no answer within {} s", limit.as_secs_f64()).into(),
        }),
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
        let t = s.timeout;
        let tcp = timed(
            t,
            "connecting",
            TcpStream::connect((s.host.as_str(), s.port)),
        )
        .await?;
        let stream: Stream = match s.security {
            Security::None => Box::new(tcp),
            Security::Tls => Box::new(tls(&s.host, s.ca_file.as_deref(), tcp, t).await?),
            Security::StartTls => {
                let mut client = async_imap::Client::new(tcp);
                timed(t, "reading the greeting", client.read_response()).await?;
                timed(
                    t,
                    "STARTTLS",
                    client.run_command_and_check_ok("STARTTLS", None),
                )
                .await?;
                Box::new(tls(&s.host, s.ca_file.as_deref(), client.into_inner(), t).await?)
            }
        };
        let mut client = async_imap::Client::new(stream);
        if s.security != Security::StartTls {
            timed(t, "reading the greeting", client.read_response())
                .await?
                .ok_or_else(|| ImapError {
                    what: "reading the greeting",
                    source: "the server closed the connection".into(),
                })?;
        }
        let mut session = match tokio::time::timeout(t, client.login(&s.user, &s.password)).await {
            Ok(done) => done.map_err(|(e, _)| err("logging in")(e))?,
            Err(_) => {
                return Err(ImapError {
                    what: "logging in",
                    source: format!("no answer within {} s", t.as_secs_f64()).into(),
                })
            }
        };
        let caps = timed(t, "reading capabilities", session.capabilities()).await?;
        self.idle = caps.has_str("IDLE");
        timed(t, "selecting the folder", session.select(&s.folder)).await?;
        Ok(session)
    }

    /// Forgets the connection (after an error); the next call reconnects.
    pub fn reset(&mut self) {
        self.session = None;
    }

    /// The mails not yet handled, oldest first, with their sizes (nothing downloaded).
    pub async fn waiting(&mut self) -> Result<Vec<Waiting>, ImapError> {
        let t = self.settings.timeout;
        let session = self.connect().await?;
        let mut uids: Vec<u32> = timed(t, "searching", session.uid_search("UNSEEN"))
            .await?
            .into_iter()
            .collect();
        uids.sort_unstable();
        let mut sizes = std::collections::HashMap::new();
        for chunk in uids.chunks(500) {
            let fetched: Vec<_> = timed(t, "asking sizes", async {
                session
                    .uid_fetch(uid_set(chunk), "(UID RFC822.SIZE)")
                    .await?
                    .try_collect()
                    .await
            })
            .await?;
            sizes.extend(
                fetched
                    .iter()
                    .filter_map(|f| Some((f.uid?, f.size? as usize))),
            );
        }
        // A size the server did not give is taken as `max_bytes`: the mail is still fetched
        // as a partial, so no more than that comes, and a longer one is refused by what came.
        let max = self.settings.max_bytes;
        Ok(uids
            .into_iter()
            .map(|uid| Waiting {
                uid,
                size: sizes.get(&uid).copied().unwrap_or(max),
            })
            .collect())
    }

    /// Splits waiting mail into batches to fetch: at most [`BATCH_MAILS`] mails and
    /// `batch_bytes` bytes each (a mail over `max_bytes` counts as its head), always at
    /// least one mail.
    pub fn batches(&self, waiting: &[Waiting]) -> Vec<Vec<Waiting>> {
        let mut out: Vec<Vec<Waiting>> = Vec::new();
        let mut bytes = 0;
        for w in waiting {
            let cost = self.fetched_bytes(w.size);
            match out.last_mut() {
                Some(batch)
                    if batch.len() < BATCH_MAILS && bytes + cost <= self.settings.batch_bytes =>
                {
                    batch.push(*w);
                    bytes += cost;
                }
                _ => {
                    out.push(vec![*w]);
                    bytes = cost;
                }
            }
        }
        out
    }

    /// How many bytes of a mail of `size` are fetched: all of it, or its head when it is
    /// over `max_bytes`.
    fn fetched_bytes(&self, size: usize) -> usize {
        if size > self.settings.max_bytes {
            HEAD_BYTES
        } else {
            size
        }
    }

    /// Fetches one batch, oldest first. Each mail is fetched as a partial (`<0.n>`), so the
    /// server can never hand herald more than `max_bytes` (or [`HEAD_BYTES`]) of one mail
    /// whatever size it claimed.
    pub async fn fetch(&mut self, batch: &[Waiting]) -> Result<Vec<Fetched>, ImapError> {
        let t = self.settings.timeout;
        let max = self.settings.max_bytes;
        let (big, small): (Vec<Waiting>, Vec<Waiting>) = batch.iter().partition(|w| w.size > max);
        let session = self.connect().await?;
        let mut out = Vec::with_capacity(batch.len());
        for (group, limit) in [(small, max + 1), (big, HEAD_BYTES)] {
            if group.is_empty() {
                continue;
            }
            let uids: Vec<u32> = group.iter().map(|w| w.uid).collect();
            let fetched: Vec<_> = timed(t, "fetching", async {
                session
                    .uid_fetch(uid_set(&uids), format!("(UID BODY.PEEK[]<0.{limit}>)"))
                    .await?
                    .try_collect()
                    .await
            })
            .await?;
            for f in fetched {
                if let (Some(uid), Some(body)) = (f.uid, f.body()) {
                    let claimed = group.iter().find(|w| w.uid == uid).map_or(0, |w| w.size);
                    out.push(Fetched {
                        uid,
                        raw: body.to_vec(),
                        size: claimed.max(body.len()),
                    });
                }
            }
        }
        out.sort_by_key(|f| f.uid);
        Ok(out)
    }

    /// Marks mails handled: moved to the handled folder, or flagged \Seen.
    pub async fn mark_handled(&mut self, uids: &[u32]) -> Result<(), ImapError> {
        if uids.is_empty() {
            return Ok(());
        }
        let folder = self.settings.handled_folder.clone();
        let t = self.settings.timeout;
        let session = self.connect().await?;
        let set = uid_set(uids);
        if folder.is_empty() {
            let _: Vec<_> = timed(t, "flagging handled mail", async {
                session
                    .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
                    .await?
                    .try_collect()
                    .await
            })
            .await?;
        } else {
            timed(t, "moving handled mail", session.uid_mv(&set, &folder)).await?;
        }
        Ok(())
    }

    /// Waits until new mail may have arrived, at most `timeout`: asking the server every
    /// `check` when set, else in IDLE where the server has it, else sleeping.
    pub async fn wait(&mut self, timeout: Duration) -> Result<(), ImapError> {
        let mut session = self.take_session().await?;
        if let Some(every) = self.settings.check {
            let result =
                check_until_news(&mut session, every, timeout, self.settings.timeout).await;
            self.session = Some(session);
            return result;
        }
        if !self.idle {
            self.session = Some(session);
            tokio::time::sleep(timeout).await;
            return Ok(());
        }
        let t = self.settings.timeout;
        let mut idle = session.idle();
        timed(t, "starting IDLE", idle.init()).await?;
        let (wait, _stop) = idle.wait_with_timeout(timeout);
        let result = wait.await;
        let session = timed(t, "ending IDLE", idle.done()).await?;
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
    limit: Duration,
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
        timed(limit, "asking for news (NOOP)", session.noop()).await?;
    }
}

async fn tls(
    host: &str,
    ca_file: Option<&std::path::Path>,
    tcp: TcpStream,
    limit: Duration,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>, ImapError> {
    let connector = tls_connector(ca_file).map_err(|e| ImapError {
        what: "setting up TLS",
        source: e.into(),
    })?;
    let name = rustls_pki_types_name(host)?;
    timed(limit, "TLS handshake", connector.connect(name, tcp)).await
}

/// `1,2,3`: a UID set for a command.
fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn rustls_pki_types_name(
    host: &str,
) -> Result<tokio_rustls::rustls::pki_types::ServerName<'static>, ImapError> {
    tokio_rustls::rustls::pki_types::ServerName::try_from(host.to_string())
        .map_err(err("reading the server name"))
}
