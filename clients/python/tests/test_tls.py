"""The Python client against a server that speaks TLS (``kith serve --tls-cert
--tls-key``): ``wss://`` with a context that trusts the server's self-signed
certificate (sync and asyncio), credentials inside TLS, a refused certificate, and
``ws://`` to the TLS port told to use ``wss://``."""
from __future__ import annotations

import asyncio
import ssl
import subprocess

import pytest

import kith
from conftest import empty_data, make_certificate, start_server, stop_server


@pytest.fixture(scope="module")
def tls_server(kith_bin, tmp_path_factory):
    cert, key = make_certificate(tmp_path_factory.mktemp("tls"))
    data = empty_data(tmp_path_factory)
    subprocess.run([str(kith_bin), "user", "add", "will", "--role", "writer", "--data", str(data),
                    "--password-stdin"], input="will-pw\n", text=True, check=True, capture_output=True)
    server = start_server(kith_bin, data, tmp_path_factory.mktemp("tls-logs"), tls=(cert, key))
    yield server
    stop_server(server)


def as_will(url: str) -> str:
    return url.replace("wss://", "wss://will:will-pw@")


def test_wss_with_the_servers_certificate(tls_server):
    with kith.connect(as_will(tls_server.ws_url), ssl=tls_server.tls) as client:
        client.cypher("CREATE (:Secret {id: 1})")
        assert client.cypher("MATCH (s:Secret) RETURN s.id AS id").rows() == [[1]]


def test_wss_from_asyncio(tls_server):
    async def run():
        async with kith.connect_async(as_will(tls_server.ws_url), ssl=tls_server.tls) as client:
            result = await client.cypher("RETURN $x * 2 AS y", x=21)
            return result.rows()

    assert asyncio.run(run()) == [[42]]


def test_credentials_are_still_checked_inside_tls(tls_server):
    with pytest.raises(kith.HandshakeError) as refused:
        kith.connect(tls_server.ws_url, ssl=tls_server.tls)
    assert refused.value.status == 401


def test_a_certificate_the_client_does_not_trust_is_refused(tls_server):
    # The system's authorities do not vouch for a self-signed certificate.
    with pytest.raises(kith.ConnectionFailed) as refused:
        kith.connect(as_will(tls_server.ws_url), ssl=ssl.create_default_context())
    assert "CERTIFICATE_VERIFY_FAILED" in str(refused.value)


def test_plain_websocket_on_the_tls_port_is_told_to_use_wss(tls_server):
    plain = f"ws://will:will-pw@127.0.0.1:{tls_server.port}/v1/ws"
    with pytest.raises(kith.HandshakeError) as refused:
        kith.connect(plain)
    assert refused.value.status == 400 and "use https:// or wss://" in str(refused.value)
