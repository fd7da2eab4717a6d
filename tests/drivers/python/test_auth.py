"""Authentication through Neo4j's Python driver: users made with `kith user`, a wrong
password is the driver's own AuthError, a reader's write is Security.Forbidden, and
user changes on a running server apply at the next login."""
from __future__ import annotations

import subprocess

import neo4j
import pytest
from neo4j.exceptions import AuthError, Forbidden

from conftest import kith_bin, start, stop


def user(data, *args: str, password: str | None = None) -> None:
    subprocess.run([str(kith_bin()), "user", *args, "--data", str(data),
                    *(["--password-stdin"] if password is not None else [])],
                   input=(password or "") + "\n", text=True, check=True, capture_output=True)


@pytest.fixture()
def secured(tmp_path):
    data = tmp_path / "data"
    user(data, "add", "rita", "--role", "reader", password="rita-pw")
    user(data, "add", "will", "--role", "writer", password="will-pw")
    server = start(data, tmp_path / "serve.log")
    yield server, data
    stop(server)


def test_wrong_credentials_raise_the_drivers_auth_error(secured):
    server, _ = secured
    for auth in [("will", "wrong"), ("nobody", "will-pw"), None]:
        with neo4j.GraphDatabase.driver(server.bolt, auth=auth) as driver:
            with pytest.raises(AuthError) as refused:
                driver.verify_connectivity()
            assert refused.value.code == "Neo.ClientError.Security.Unauthorized"


def test_roles_decide_who_writes(secured):
    server, _ = secured
    with neo4j.GraphDatabase.driver(server.neo4j, auth=("rita", "rita-pw")) as reader:
        with pytest.raises(Forbidden) as refused:
            reader.execute_query("CREATE (:Thing {v: 1})")
        assert "`reader` may not write" in refused.value.message
        records, _, _ = reader.execute_query("RETURN 1 AS one")
        assert records[0]["one"] == 1
    with neo4j.GraphDatabase.driver(server.neo4j, auth=("will", "will-pw")) as writer:
        _, summary, _ = writer.execute_query("CREATE (:Thing {v: 1})")
        assert summary.counters.nodes_created == 1


def test_user_changes_apply_to_a_running_server(secured):
    server, data = secured
    user(data, "passwd", "will", password="new-pw")
    with neo4j.GraphDatabase.driver(server.bolt, auth=("will", "will-pw")) as old:
        with pytest.raises(AuthError):
            old.verify_connectivity()
    with neo4j.GraphDatabase.driver(server.bolt, auth=("will", "new-pw")) as new:
        new.verify_connectivity()
    user(data, "remove", "rita")
    with neo4j.GraphDatabase.driver(server.bolt, auth=("rita", "rita-pw")) as gone:
        with pytest.raises(AuthError):
            gone.verify_connectivity()
