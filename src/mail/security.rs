//! Connection security for IMAP and SMTP, and the rustls setup they share.

use std::path::{Path, PathBuf};
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

/// Why the trust for a TLS connection could not be set up from the settings: each names
/// the CA file once.
#[derive(Debug, thiserror::Error)]
pub enum TlsSetupError {
    /// The CA file could not be read.
    #[error("reading {}: {source}", path.display())]
    Read {
        /// The CA file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A certificate in the CA file is not PEM, or not one TLS takes.
    #[error("{}: {source}", path.display())]
    Certificate {
        /// The CA file.
        path: PathBuf,
        /// What the TLS library said.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The CA file holds no certificate.
    #[error("{}: no certificate in it", path.display())]
    Empty {
        /// The CA file.
        path: PathBuf,
    },
    /// The TLS library refused the configuration.
    #[error("setting up TLS: {0}")]
    Library(Box<dyn std::error::Error + Send + Sync>),
}

impl TlsSetupError {
    /// A certificate of the CA file at `path` refused by the TLS library.
    pub(crate) fn certificate(
        path: &Path,
        e: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        TlsSetupError::Certificate {
            path: path.to_path_buf(),
            source: Box::new(e),
        }
    }

    /// The CA file at `path` could not be read.
    pub(crate) fn read(path: &Path, source: std::io::Error) -> Self {
        TlsSetupError::Read {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// A rustls connector trusting the Web PKI roots, and the certificates of `ca_file` (PEM)
/// when given: a private CA, or a server's own self-signed certificate.
pub fn tls_connector(ca_file: Option<&Path>) -> Result<tokio_rustls::TlsConnector, TlsSetupError> {
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::CertificateDer;
    let mut roots = tokio_rustls::rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = ca_file {
        let pem = std::fs::read(path).map_err(|e| TlsSetupError::read(path, e))?;
        let mut added = 0;
        for cert in CertificateDer::pem_slice_iter(&pem) {
            let cert = cert.map_err(|e| TlsSetupError::certificate(path, e))?;
            roots
                .add(cert)
                .map_err(|e| TlsSetupError::certificate(path, e))?;
            added += 1;
        }
        if added == 0 {
            return Err(TlsSetupError::Empty {
                path: path.to_path_buf(),
            });
        }
    }
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = tokio_rustls::rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsSetupError::Library(Box::new(e)))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 26: a bad CA file is a kind to match on, naming the file once.
    #[test]
    fn a_bad_ca_file_says_which_kind() {
        let missing = Path::new("/nonexistent/herald-ca.pem");
        let refused = tls_connector(Some(missing)).err().unwrap();
        assert!(
            matches!(&refused, TlsSetupError::Read { path, .. } if path == missing),
            "{refused:?}"
        );
        assert_eq!(refused.to_string().matches("herald-ca.pem").count(), 1);
        let empty =
            std::env::temp_dir().join(format!("herald-empty-ca-{}.pem", std::process::id()));
        std::fs::write(&empty, "no certificate here\n").unwrap();
        let refused = tls_connector(Some(&empty)).err().unwrap();
        let _ = std::fs::remove_file(&empty);
        assert!(
            matches!(refused, TlsSetupError::Empty { .. }),
            "{refused:?}"
        );
        assert!(tls_connector(None).is_ok());
    }
}
