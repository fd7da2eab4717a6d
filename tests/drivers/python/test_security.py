"""Every transport refuses what it should when a server has users (issue 18,
deliverable 5): each HTTP endpoint without credentials, with a wrong password or a
made-up token (401, with a challenge), a role that may not (403); Bolt and WebSocket
likewise; and no password or token ever reaches the server's log, even at debug level.
Public by design: `/health` (for load balancers) and the console's static files."""
from __future__ import annotations

import base64
import json
import os
import urllib.error
import urllib.request

import kith
import neo4j
import pytest
from neo4j.exceptions import AuthError, Forbidden

from conftest import start, stop
from test_auth import user

PASSWORDS = {"ada": "ada-Secret-1", "will": "will-Secret-2", "rita": "rita-Secret-3"}

# (method, path, body): every endpoint that needs a user.
PROTECTED = [
    ("GET", "/metrics", None),
    ("GET", "/v1/checkpoint", None),
    ("GET", "/v1/backup", None),
    ("POST", "/v1/call/graph.node", {"params": {"node": 0}}),
    ("POST", "/v1/cypher", {"query": "RETURN 1 AS one"}),
    ("POST", "/v1/write", {"write": [{"op": "create_node", "labels": ["T"], "props": {"id": 1}}]}),
    ("POST", "/v1/tx", {}),
    ("POST", "/v1/tx/nope/cypher", {"query": "RETURN 1"}),
    ("POST", "/v1/tx/nope/commit", {}),
    ("POST", "/v1/tx/nope/rollback", {}),
    ("POST", "/v1/auth/token", None),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("security")
    data = root / "data"
    for name, role in [("ada", "admin"), ("will", "writer"), ("rita", "reader")]:
        user(data, "add", name, "--role", role, password=PASSWORDS[name])
    # Debug level: the most a log ever says.
    saved = os.environ.get("RUST_LOG")
    os.environ["RUST_LOG"] = "debug"
    try:
        s = start(data, root / "serve.log", "--log-format", "json")
    finally:
        if saved is None:
            del os.environ["RUST_LOG"]
        else:
            os.environ["RUST_LOG"] = saved
    s.log = root / "serve.log"
    yield s
    stop(s)


def request(server, method, path, body=None, auth=None):
    """(status, headers, body) of one HTTP request; `auth` is (user, password), a
    bearer token string, or None."""
    req = urllib.request.Request(f"http://127.0.0.1:{server.http_port}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode())
    if isinstance(auth, tuple):
        req.add_header("Authorization", "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode())
    elif isinstance(auth, str):
        req.add_header("Authorization", f"Bearer {auth}")
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


@pytest.mark.parametrize("method,path,body", PROTECTED)
def test_every_http_endpoint_refuses_the_unauthenticated(server, method, path, body):
    for auth in [None, ("ada", "wrong"), ("nobody", PASSWORDS["ada"]), "kith_made-up-token"]:
        status, headers, text = request(server, method, path, body, auth)
        assert status == 401, (path, auth, status, text)
        assert headers["WWW-Authenticate"], path
        assert json.loads(text)["code"] == "unauthorized", text


def test_roles_decide_what_each_endpoint_allows(server):
    rita, will, ada = [(n, PASSWORDS[n]) for n in ("rita", "will", "ada")]
    write = {"write": [{"op": "create_node", "labels": ["T"], "props": {"id": 7}}]}
    assert request(server, "POST", "/v1/write", write, rita)[0] == 403
    assert request(server, "POST", "/v1/cypher", {"query": "CREATE (:T {id: 8})"}, rita)[0] == 403
    assert request(server, "POST", "/v1/write", write, will)[0] == 200
    for who in (rita, will):
        status, _, text = request(server, "GET", "/v1/backup", None, who)
        assert status == 403 and b"needs an admin" in text, text
    assert request(server, "GET", "/v1/backup", None, ada)[0] == 200
    assert request(server, "GET", "/metrics", None, rita)[0] == 200
    # A token stands for its user: a reader's token cannot write either.
    _, _, text = request(server, "POST", "/v1/auth/token", None, rita)
    token = json.loads(text)["token"]
    assert request(server, "POST", "/v1/cypher", {"query": "RETURN 1 AS one"}, token)[0] == 200
    assert request(server, "POST", "/v1/write", write, token)[0] == 403


def test_public_endpoints_say_nothing_secret(server):
    status, _, text = request(server, "GET", "/health")
    assert status == 200 and json.loads(text)["status"] == "ok"
    status, headers, _ = request(server, "GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")


def test_bolt_and_websocket_refuse_the_unauthenticated(server):
    for auth in [None, ("ada", "wrong"), ("nobody", PASSWORDS["ada"])]:
        with neo4j.GraphDatabase.driver(server.bolt, auth=auth) as d:
            with pytest.raises(AuthError):
                d.verify_connectivity()
    with neo4j.GraphDatabase.driver(server.bolt, auth=("rita", PASSWORDS["rita"])) as d:
        with pytest.raises(Forbidden):
            d.execute_query("CREATE (:T {id: 9})")
    # The WebSocket handshake is refused before the upgrade (kith's own client).
    url = f"ws://127.0.0.1:{server.http_port}/v1/ws"
    for auth in ["", "ada:wrong@", f"nobody:{PASSWORDS['ada']}@"]:
        with pytest.raises(kith.HandshakeError) as refused:
            kith.connect(url.replace("ws://", f"ws://{auth}"))
        assert refused.value.status == 401, auth
    with kith.connect(url.replace("ws://", f"ws://rita:{PASSWORDS['rita']}@")) as reader:
        with pytest.raises(kith.KithError) as forbidden:
            reader.cypher("CREATE (:T {id: 10})")
        assert forbidden.value.code == "forbidden"


def test_no_password_or_token_reaches_the_log(server):
    # Everything above ran against this server (module scope); add a token and a
    # wrong password at debug level's worst: in URLs and headers.
    _, _, text = request(server, "POST", "/v1/auth/token", None, ("ada", PASSWORDS["ada"]))
    token = json.loads(text)["token"]
    request(server, "GET", "/metrics", None, token)
    request(server, "GET", f"/v1/ws?access_token={token}")
    log = server.log.read_text()
    assert log, "the server logged nothing"
    for secret in [*PASSWORDS.values(), token, "kith_made-up-token"]:
        assert secret not in log, f"{secret!r} is in the server's log"
