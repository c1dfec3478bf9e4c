//! Connection security for IMAP and SMTP, and the rustls setup they share.

use std::path::Path;
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

/// A rustls connector trusting the Web PKI roots, and the certificates of `ca_file` (PEM)
/// when given: a private CA, or a server's own self-signed certificate.
pub fn tls_connector(ca_file: Option<&Path>) -> Result<tokio_rustls::TlsConnector, String> {
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::CertificateDer;
    let mut roots = tokio_rustls::rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = ca_file {
        let pem = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        let mut added = 0;
        for cert in CertificateDer::pem_slice_iter(&pem) {
            let cert = cert.map_err(|e| format!("{}: {e}", path.display()))?;
            roots
                .add(cert)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            added += 1;
        }
        if added == 0 {
            return Err(format!("{}: no certificate in it", path.display()));
        }
    }
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = tokio_rustls::rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("setting up TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}
