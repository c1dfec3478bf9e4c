//! The outbox over SMTP (lettre on tokio): plain on loopback, STARTTLS or TLS elsewhere,
//! with authentication. A 4xx answer or a dropped connection is transient (the mail stays
//! queued and is retried with backoff); a 5xx is permanent (recorded and reported).

use std::time::Duration;

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use super::security::Security;

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
}

/// Mails sent over one connection before herald opens a new one: servers limit messages
/// per session (OpenSMTPD answers 452 after 100).
const PER_CONNECTION: u32 = 50;

/// An SMTP client.
pub struct SmtpOutbox {
    settings: SmtpSettings,
    transport: std::sync::Mutex<(AsyncSmtpTransport<Tokio1Executor>, u32)>,
}

impl std::fmt::Debug for SmtpOutbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SmtpOutbox")
    }
}

impl SmtpOutbox {
    /// A client for these settings (connects when sending).
    pub fn new(s: &SmtpSettings) -> Result<SmtpOutbox, String> {
        let transport = Self::transport(s)?;
        Ok(SmtpOutbox {
            settings: s.clone(),
            transport: std::sync::Mutex::new((transport, 0)),
        })
    }

    fn transport(s: &SmtpSettings) -> Result<AsyncSmtpTransport<Tokio1Executor>, String> {
        let tls = |s: &SmtpSettings| -> Result<TlsParameters, String> {
            let mut params = TlsParameters::builder(s.host.clone());
            if let Some(path) = &s.ca_file {
                let pem =
                    std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
                let cert =
                    Certificate::from_pem(&pem).map_err(|e| format!("{}: {e}", path.display()))?;
                params = params.add_root_certificate(cert);
            }
            params.build_rustls().map_err(|e| e.to_string())
        };
        let builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&s.host).port(s.port);
        let builder = match s.security {
            Security::None => builder,
            Security::Tls => builder.tls(Tls::Wrapper(tls(s)?)),
            Security::StartTls => builder.tls(Tls::Required(tls(s)?)),
        };
        let mut builder = builder.timeout(Some(Duration::from_secs(30)));
        if !s.user.is_empty() {
            builder = builder.credentials(Credentials::new(s.user.clone(), s.password.clone()));
        }
        Ok(builder.build())
    }

    /// Sends one rendered mail from `from` to `to`.
    pub async fn send(&self, from: &str, to: &str, bytes: &[u8]) -> Result<(), SendError> {
        let from = from
            .parse()
            .map_err(|e| SendError::Permanent(format!("herald's address '{from}': {e}")))?;
        let rcpt = to
            .parse()
            .map_err(|e| SendError::Permanent(format!("recipient '{to}': {e}")))?;
        let envelope = Envelope::new(Some(from), vec![rcpt])
            .map_err(|e| SendError::Permanent(e.to_string()))?;
        let transport = {
            let mut guard = self.transport.lock().unwrap_or_else(|e| e.into_inner());
            if guard.1 >= PER_CONNECTION {
                guard.0 = Self::transport(&self.settings).map_err(SendError::Permanent)?;
                guard.1 = 0;
            }
            guard.1 += 1;
            guard.0.clone()
        };
        let result = transport.send_raw(&envelope, bytes).await;
        if result.is_err() {
            // A fresh connection for the next try.
            if let Ok(t) = Self::transport(&self.settings) {
                *self.transport.lock().unwrap_or_else(|e| e.into_inner()) = (t, 0);
            }
        }
        match result {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() => Err(SendError::Permanent(e.to_string())),
            Err(e) => Err(SendError::Transient(e.to_string())),
        }
    }
}
