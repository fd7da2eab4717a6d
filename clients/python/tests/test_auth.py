"""The Python client against a server with users: credentials in the URL
(``ws://user:password@host/...``, sent as HTTP Basic by the websockets library), a
refused handshake, and a reader's write refused with ``forbidden``."""
from __future__ import annotations

import subprocess

import pytest

import kith
from conftest import empty_data, start_server, stop_server


@pytest.fixture()
def secured(kith_bin, tmp_path_factory):
    data = empty_data(tmp_path_factory)
    for name, role in [("rita", "reader"), ("will", "writer")]:
        subprocess.run([str(kith_bin), "user", "add", name, "--role", role, "--data", str(data),
                        "--password-stdin"], input=f"{name}-pw\n", text=True, check=True,
                       capture_output=True)
    server = start_server(kith_bin, data, tmp_path_factory.mktemp("auth-logs"))
    yield server
    stop_server(server)


def with_user(url: str, user: str, password: str) -> str:
    return url.replace("ws://", f"ws://{user}:{password}@")


def test_credentials_in_the_url_and_roles(secured):
    with pytest.raises(kith.HandshakeError) as refused:
        kith.connect(secured.ws_url)
    assert refused.value.status == 401 and "requires authentication" in str(refused.value)
    with pytest.raises(kith.HandshakeError):
        kith.connect(with_user(secured.ws_url, "will", "rita-pw"))
    reader = kith.connect(with_user(secured.ws_url, "rita", "rita-pw"))
    with pytest.raises(kith.KithError) as forbidden:
        reader.cypher("CREATE (:P {id: 1})")
    assert forbidden.value.code == "forbidden"
    writer = kith.connect(with_user(secured.ws_url, "will", "will-pw"))
    writer.cypher("CREATE (:P {id: 1})")
    assert reader.cypher("MATCH (p:P) RETURN p.id AS id").rows() == [[1]]
    reader.close()
    writer.close()
