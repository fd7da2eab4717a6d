//! TLS on every transport (`--tls-cert/--tls-key`, docs/security.md): wss:// through
//! the Rust client with the server's certificate as its authority, https://, Bolt's
//! handshake under TLS; a client that does not trust the certificate is refused, and
//! plain text on a TLS port gets no service (HTTP is told to use https://).

mod support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kith_client::{Client, ClientConfig, ClientError};
use kith_core::Value;
use support::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::rustls;

struct Pem {
    cert: PathBuf,
    key: PathBuf,
    der: rustls::pki_types::CertificateDer<'static>,
}

fn self_signed(dir: &Path) -> Pem {
    self_signed_for(dir, &["localhost", "127.0.0.1"])
}

fn self_signed_for(dir: &Path, names: &[&str]) -> Pem {
    let names = names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let made = rcgen::generate_simple_self_signed(names).expect("rcgen");
    let (cert, key) = (dir.join("server.crt"), dir.join("server.key"));
    std::fs::write(&cert, made.cert.pem()).expect("cert");
    std::fs::write(&key, made.signing_key.serialize_pem()).expect("key");
    Pem {
        cert,
        key,
        der: made.cert.der().clone(),
    }
}

async fn start(dir: &Path, pem: &Pem) -> TestServer {
    let (cert, key) = (pem.cert.clone(), pem.key.clone());
    TestServer::start_database(&dir.join("data"), move |c| {
        c.tls_cert = Some(cert);
        c.tls_key = Some(key);
        c.bolt_listen = Some("127.0.0.1:0".parse().expect("addr"));
    })
    .await
}

fn wss(server: &TestServer) -> String {
    format!("wss://localhost:{}/v1/ws", server.addr.port())
}

/// A client configuration trusting only the test certificate.
fn trusting(pem: &Pem) -> Arc<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(pem.der.clone()).expect("root");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    Arc::new(config)
}

/// A TLS connection trusting only the test certificate.
async fn tls_connect(
    addr: std::net::SocketAddr,
    pem: &Pem,
) -> tokio_rustls::client::TlsStream<TcpStream> {
    connect_with(addr, trusting(pem)).await
}

async fn connect_with(
    addr: std::net::SocketAddr,
    config: Arc<rustls::ClientConfig>,
) -> tokio_rustls::client::TlsStream<TcpStream> {
    let connector = tokio_rustls::TlsConnector::from(config);
    let tcp = TcpStream::connect(addr).await.expect("connects");
    let name = rustls::pki_types::ServerName::try_from("localhost").expect("name");
    connector.connect(name, tcp).await.expect("TLS handshake")
}

/// `GET /health` over `stream`: the whole response.
async fn health(mut stream: tokio_rustls::client::TlsStream<TcpStream>) -> String {
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .expect("request");
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .await
        .expect("response");
    response
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_and_http_speak_tls_with_a_trusted_certificate() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pem = self_signed(dir.path());
    let server = start(dir.path(), &pem).await;

    let config = ClientConfig {
        ca_cert: Some(pem.cert.clone()),
        ..ClientConfig::new(wss(&server))
    };
    let client = Client::connect(config).await.expect("wss connects");
    let answer = client
        .cypher("RETURN $x + 1 AS y", vec![("x".into(), Value::Int(41))])
        .await
        .expect("query over wss");
    assert_eq!(answer.rows, vec![vec![Value::Int(42)]]);

    let response = health(tls_connect(server.addr, &pem).await).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"status\":\"ok\""), "{response}");
    drop(client);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bolt_negotiates_its_version_inside_tls_and_plain_bolt_is_closed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pem = self_signed(dir.path());
    let server = start(dir.path(), &pem).await;
    let bolt = server.bolt.expect("bolt served");
    // The preamble and one offer: 5.8 down to 5.0.
    let hello: [u8; 20] = [
        0x60, 0x60, 0xB0, 0x17, 0, 8, 8, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];

    let mut tls = tls_connect(bolt, &pem).await;
    tls.write_all(&hello).await.expect("handshake");
    let mut version = [0u8; 4];
    tls.read_exact(&mut version).await.expect("version");
    assert_eq!(version, [0, 0, 8, 5], "Bolt 5.8 under TLS");

    let mut plain = TcpStream::connect(bolt).await.expect("connects");
    plain.write_all(&hello).await.expect("handshake");
    let mut answer = Vec::new();
    plain.read_to_end(&mut answer).await.expect("closed");
    assert!(answer.is_empty(), "no bytes for plain text: {answer:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_text_on_the_tls_port_is_refused_and_told_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pem = self_signed(dir.path());
    let server = start(dir.path(), &pem).await;

    let (status, body) = server.http("GET", "/health", "").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("use https:// or wss://"), "{body}");

    let plain = Client::connect(ClientConfig::new(server.ws_url())).await;
    assert!(
        matches!(plain, Err(ClientError::Connect { .. })),
        "ws:// to a TLS port"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_the_client_does_not_trust_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pem = self_signed(dir.path());
    let server = start(dir.path(), &pem).await;
    // The system's authorities do not know a self-signed certificate.
    let refused = Client::connect(ClientConfig::new(wss(&server))).await;
    let Err(ClientError::Connect { reason, .. }) = refused else {
        panic!("connected to an untrusted certificate");
    };
    assert!(reason.to_lowercase().contains("certificate"), "{reason}");
    // Nor does another self-signed certificate vouch for it.
    let other = tempfile::tempdir().expect("tempdir");
    let stranger = self_signed(other.path());
    let config = ClientConfig {
        ca_cert: Some(stranger.cert.clone()),
        ..ClientConfig::new(wss(&server))
    };
    let Err(ClientError::Connect { reason, .. }) = Client::connect(config).await else {
        panic!("connected with a stranger's authority");
    };
    assert!(reason.contains("invalid peer certificate"), "{reason}");
    assert!(
        reason.contains("ClientConfig.ca_cert"),
        "says what to do: {reason}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_for_another_name_is_refused_and_said_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pem = self_signed_for(dir.path(), &["localhost"]);
    let server = start(dir.path(), &pem).await;
    // Trusted, but made for localhost only.
    let config = ClientConfig {
        ca_cert: Some(pem.cert.clone()),
        ..ClientConfig::new(format!("wss://127.0.0.1:{}/v1/ws", server.addr.port()))
    };
    let Err(ClientError::Connect { reason, .. }) = Client::connect(config).await else {
        panic!("connected under a name the certificate does not list");
    };
    assert!(reason.contains("does not name this host"), "{reason}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ca_file_without_certificates_is_a_configuration_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pem = self_signed(dir.path());
    let config = ClientConfig {
        ca_cert: Some(pem.key.clone()),
        ..ClientConfig::new("wss://localhost:1/v1/ws")
    };
    let Err(ClientError::Config(why)) = Client::connect(config).await else {
        panic!("a key file accepted as authorities");
    };
    assert!(
        why.contains("server.key") && why.contains("no certificate"),
        "{why}"
    );
}

/// TLS 1.3 session tickets arrive after the handshake, as a client starts writing;
/// Python's websockets (a reader thread in SSL_read while the upgrade request goes
/// out) then sometimes never sent its request. The server sends none: a client that
/// kept what the first connection gave it still makes a full handshake the second time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_sends_no_session_tickets() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pem = self_signed(dir.path());
    let server = start(dir.path(), &pem).await;
    let config = trusting(&pem);
    let response = health(connect_with(server.addr, config.clone()).await).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    let second = connect_with(server.addr, config).await;
    assert_eq!(
        second.get_ref().1.handshake_kind(),
        Some(rustls::HandshakeKind::Full),
        "resumed with a ticket from the first connection"
    );
    server.stop().await;
}
