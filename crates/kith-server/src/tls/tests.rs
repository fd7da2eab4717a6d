use std::path::{Path, PathBuf};

use super::{Tls, TlsError};

fn self_signed(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".into()]).expect("rcgen");
    let cert = dir.join(format!("{name}.crt"));
    let key = dir.join(format!("{name}.key"));
    std::fs::write(&cert, made.cert.pem()).expect("write cert");
    std::fs::write(&key, made.signing_key.serialize_pem()).expect("write key");
    (cert, key)
}

#[test]
fn a_certificate_and_its_key_load() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (cert, key) = self_signed(dir.path(), "server");
    Tls::load(&cert, &key).expect("loads");
}

#[test]
fn a_missing_file_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (cert, _) = self_signed(dir.path(), "server");
    let absent = dir.path().join("absent.key");
    let err = Tls::load(&cert, &absent).expect_err("no key file");
    assert!(matches!(&err, TlsError::Read { path, .. } if *path == absent));
    assert!(err.to_string().contains("absent.key"), "{err}");
}

#[test]
fn a_key_given_as_the_certificate_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, key) = self_signed(dir.path(), "server");
    let err = Tls::load(&key, &key).expect_err("a key is no certificate");
    assert!(matches!(err, TlsError::NoCertificate { .. }), "{err}");
    assert!(err.to_string().contains("server.key"), "{err}");
}

#[test]
fn a_certificate_given_as_the_key_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (cert, _) = self_signed(dir.path(), "server");
    let err = Tls::load(&cert, &cert).expect_err("a certificate is no key");
    assert!(matches!(err, TlsError::NoKey { .. }), "{err}");
    assert!(err.to_string().contains("the file holds none"), "{err}");
}

#[test]
fn garbage_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, key) = self_signed(dir.path(), "server");
    let text = dir.path().join("text.crt");
    std::fs::write(&text, "not a certificate\n").expect("write");
    let err = Tls::load(&text, &key).expect_err("no PEM");
    assert!(matches!(err, TlsError::NoCertificate { .. }), "{err}");
}

#[test]
fn a_key_of_another_certificate_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (cert, _) = self_signed(dir.path(), "one");
    let (_, other_key) = self_signed(dir.path(), "two");
    let err = Tls::load(&cert, &other_key).expect_err("mismatched pair");
    assert!(matches!(err, TlsError::Refused { .. }), "{err}");
    assert!(err.to_string().contains("one.crt with"), "{err}");
    assert!(err.to_string().contains("two.key"), "{err}");
}

#[test]
fn the_answer_to_plain_http_is_well_formed() {
    let text = std::str::from_utf8(super::PLAIN_HTTP).expect("ascii");
    let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .and_then(|n| n.parse().ok())
        .expect("content-length");
    assert_eq!(length, body.len(), "{text}");
    assert!(head.starts_with("HTTP/1.1 400 "), "{head}");
}
