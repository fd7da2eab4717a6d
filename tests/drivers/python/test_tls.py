"""Neo4j's Python driver over TLS (`kith serve --tls-cert --tls-key`): bolt+ssc:// and
neo4j+ssc:// (encrypted, self-signed accepted), bolt:// with the certificate as a
trusted authority (fully verified), and the driver's own refusals: bolt+s:// when no
system authority vouches for the certificate, plain bolt:// to a TLS-only port."""
from __future__ import annotations

import subprocess

import neo4j
import pytest
from neo4j.exceptions import ServiceUnavailable

from conftest import REPO, kith_bin, start, stop

AUTH = ("will", "will-pw")


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("tls")
    subprocess.run(["bash", str(REPO / "scripts" / "test-cert"), str(root)], check=True, capture_output=True)
    cert, key = root / "server.crt", root / "server.key"
    data = root / "data"
    subprocess.run([str(kith_bin()), "user", "add", "will", "--role", "writer", "--data", str(data),
                    "--password-stdin"], input="will-pw\n", text=True, check=True, capture_output=True)
    server = start(data, root / "serve.log", tls=(cert, key))
    yield server, cert
    stop(server)


def test_bolt_ssc_writes_and_reads(tls_server):
    server, _ = tls_server
    url = f"bolt+ssc://127.0.0.1:{server.bolt_port}"
    with neo4j.GraphDatabase.driver(url, auth=AUTH) as driver:
        driver.execute_query("CREATE (:Sealed {id: 7})")
        records, _, _ = driver.execute_query("MATCH (s:Sealed) RETURN s.id AS id")
        assert [r["id"] for r in records] == [7]


def test_neo4j_ssc_routes_through_the_encrypted_port(tls_server):
    server, _ = tls_server
    with neo4j.GraphDatabase.driver(f"neo4j+ssc://127.0.0.1:{server.bolt_port}", auth=AUTH) as driver:
        records, _, _ = driver.execute_query("RETURN 1 AS one", routing_=neo4j.RoutingControl.READ)
        assert records[0]["one"] == 1


def test_the_certificate_as_a_trusted_authority_verifies_fully(tls_server):
    server, cert = tls_server
    with neo4j.GraphDatabase.driver(f"bolt://localhost:{server.bolt_port}", auth=AUTH, encrypted=True,
                                    trusted_certificates=neo4j.TrustCustomCAs(str(cert))) as driver:
        driver.verify_connectivity()
        with driver.session() as session:
            assert session.run("RETURN 'secret' AS word").single()["word"] == "secret"


def test_bolt_s_refuses_a_certificate_no_system_authority_signed(tls_server):
    server, _ = tls_server
    with neo4j.GraphDatabase.driver(f"bolt+s://localhost:{server.bolt_port}", auth=AUTH) as driver:
        with pytest.raises(ServiceUnavailable) as refused:
            driver.verify_connectivity()
        assert "SSLCertVerificationError" in str(refused.value)


def test_plain_bolt_to_the_tls_port_is_closed(tls_server):
    server, _ = tls_server
    with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{server.bolt_port}", auth=AUTH,
                                    connection_timeout=5) as driver:
        with pytest.raises(ServiceUnavailable):
            driver.verify_connectivity()
