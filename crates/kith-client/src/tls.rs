//! `wss://`: rustls with the system's certificate authorities, or only those of
//! [`ClientConfig::ca_cert`](crate::ClientConfig::ca_cert) (a server with its own or a
//! self-signed certificate).

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use tokio_tungstenite::Connector;

use crate::ClientError;

/// The connector for `wss://` URLs; `None` lets tokio-tungstenite use the system's
/// certificate authorities.
pub(crate) fn connector(ca_cert: Option<&Path>) -> Result<Option<Connector>, ClientError> {
    let Some(path) = ca_cert else {
        return Ok(None);
    };
    let bad = |why: String| ClientError::Config(format!("{}: {why}", path.display()));
    let text = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(&text) {
        let cert = cert.map_err(|e| bad(format!("not a PEM certificate: {e}")))?;
        roots
            .add(cert)
            .map_err(|e| bad(format!("not a usable certificate: {e}")))?;
    }
    if roots.is_empty() {
        return Err(bad(
            "holds no certificate (-----BEGIN CERTIFICATE-----)".into()
        ));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Some(Connector::Rustls(Arc::new(config))))
}
