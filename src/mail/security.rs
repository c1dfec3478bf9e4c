//! Connection security for IMAP and SMTP, and the rustls setup they share.

use std::sync::Arc;

use serde::Deserialize;

/// How a mail connection is secured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Plain text: only for a server on loopback.
    #[default]
    None,
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
    /// Plain, upgraded with STARTTLS (IMAP 143, submission 587).
    StartTls,
}

/// A rustls connector trusting the Web PKI roots.
pub fn tls_connector() -> tokio_rustls::TlsConnector {
    let roots = tokio_rustls::rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = tokio_rustls::rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring supports the default protocol versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    tokio_rustls::TlsConnector::from(Arc::new(config))
}
