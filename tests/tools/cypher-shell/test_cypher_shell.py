"""Neo4j's cypher-shell 5.26 against kith. The expected texts are what the same
cypher-shell printed against the real Neo4j 5.26.30 (bench/peers/neo4j) for the same
statements on 2026-12-07, so a difference here is a difference from Neo4j."""
from __future__ import annotations

from conftest import ADMIN, READER, Terminal, run_shell


def test_plain_output_of_every_value_kind_is_neo4js(server):
    statements = """
RETURN 1 AS one, 'a' AS s, [1, 2.5, null] AS l, {k: 'v'} AS m, null AS n, true AS b;
RETURN date('2020-01-02') AS d, datetime('2020-01-02T03:04:05Z') AS dt, duration('P1DT2H') AS du, localtime('12:00') AS lt;
RETURN point({x: 1, y: 2}) AS p, point({latitude: 1.5, longitude: 2.5}) AS g;
UNWIND range(1, 3) AS i RETURN i, i * i AS sq;
"""
    ran = run_shell(server, "--format", "plain", stdin=statements)
    assert ran.code == 0, ran.err
    assert ran.out == (
        "one, s, l, m, n, b\n"
        '1, "a", [1, 2.5, NULL], {k: "v"}, NULL, TRUE\n'
        "d, dt, du, lt\n"
        "2020-01-02, 2020-01-02T03:04:05Z, P1DT2H, 12:00\n"
        "p, g\n"
        "point({srid:7203, x:1.0, y:2.0}), point({srid:4326, x:2.5, y:1.5})\n"
        "i, sq\n1, 1\n2, 4\n3, 9\n"
    )


def test_a_file_of_writes_and_reads_with_counters(server, tmp_path):
    script = tmp_path / "people.cypher"
    script.write_text(
        "CREATE (a:Shell {name: 'Ann'})-[r:KNOWS {since: 2020}]->(b:Shell {name: 'Bob'});\n"
        "MATCH p = (:Shell {name: 'Ann'})-[:KNOWS]->() RETURN p;\n"
        "MATCH (n:Shell) DETACH DELETE n;\n")
    ran = run_shell(server, "--format", "verbose", "-f", str(script))
    assert ran.code == 0, ran.err
    assert "Added 2 nodes, Created 1 relationships, Set 3 properties, Added 2 labels" in ran.out
    assert '| (:Shell {name: "Ann"})-[:KNOWS {since: 2020}]->(:Shell {name: "Bob"}) |' in ran.out
    assert "Deleted 2 nodes, Deleted 1 relationships" in ran.out


def test_parameters_from_the_command_line(server):
    ran = run_shell(server, "--format", "plain", "--param", "x => 40 + 2", "--param", 'names => ["a", "b"]',
                    "RETURN $x AS x, $names AS names")
    assert ran.code == 0, ran.err
    assert ran.out == 'x, names\n42, ["a", "b"]\n'


def test_errors_say_where_as_neo4j_lays_them_out(server):
    ran = run_shell(server, "RETURN 1 +")
    assert ran.code == 1
    # Neo4j: Invalid input '': expected an expression (line 1, column 11 (offset: 10))
    assert ran.err.endswith('(line 1, column 11 (offset: 10))\n"RETURN 1 +"\n           ^\n'), ran.err
    ran = run_shell(server, "RETURN nosuch(1)")
    assert "(line 1, column 8 (offset: 7))\n\"RETURN nosuch(1)\"\n        ^" in ran.err, ran.err
    ran = run_shell(server, "RETURN 1/0 AS x")
    assert (ran.code, ran.err) == (1, "/ by zero\n")


def test_credentials_and_roles_hold(server):
    ran = run_shell(server, "RETURN 1", user=(ADMIN[0], "not-the-password"))
    assert ran.code == 1 and "authentication failed" in ran.err, ran.err
    ran = run_shell(server, "CREATE (:Refused)", user=READER)
    assert ran.code == 1 and "may not write" in ran.err, ran.err
    ran = run_shell(server, "--format", "plain", "MATCH (n:Refused) RETURN count(n) AS c", user=READER)
    assert ran.out == "c\n0\n"


def test_a_profile_names_kiths_planner_and_runtime(server):
    ran = run_shell(server, "--format", "verbose", "PROFILE MATCH (n) RETURN count(n) AS c")
    assert ran.code == 0, ran.err
    header = next(line for line in ran.out.splitlines() if line.startswith('| "PROFILE"'))
    assert '| "READ_ONLY" | "5"     | "KITH"  | "KITH"  |' in header, header
    assert "+NodeAllLabelsScan" in ran.out or "+AllNodesScan" in ran.out, ran.out


def test_an_interactive_session_switches_to_system_and_back(terminal: Terminal):
    terminal.expect(f"{ADMIN[0]}@neo4j> ")
    terminal.type(":use system")
    terminal.expect(f"{ADMIN[0]}@system> ")
    terminal.type("SHOW DATABASES YIELD name, type;")
    shown = terminal.expect(f"{ADMIN[0]}@system> ")
    assert '| "neo4j"  | "standard" |' in shown and '| "system" | "system"   |' in shown, shown
    terminal.type("MATCH (n) RETURN n;")
    refused = terminal.expect(f"{ADMIN[0]}@system> ")
    assert "The following unsupported clauses were used: MATCH." in refused, refused
    terminal.type(":use neo4j")
    terminal.expect(f"{ADMIN[0]}@neo4j> ")


def test_sysinfo_lists_the_databases(terminal: Terminal):
    terminal.expect(f"{ADMIN[0]}@neo4j> ")
    terminal.type(":sysinfo")
    shown = terminal.expect(f"{ADMIN[0]}@neo4j> ")
    assert "| Databases" in shown and '| "neo4j"  |' in shown and '| "system" |' in shown, shown
    # kith has no JMX beans: the metric tables are empty, as on Neo4j Community.
    for table in ("ID Allocation", "Store Size", "Page Cache", "Transactions"):
        assert f"| {table}" in shown, shown


def test_an_explicit_transaction_rolls_back(terminal: Terminal):
    terminal.expect(f"{ADMIN[0]}@neo4j> ")
    terminal.type(":begin")
    terminal.expect(f"{ADMIN[0]}@neo4j# ")
    terminal.type("CREATE (:RolledBack);")
    assert "Added 1 nodes, Added 1 labels" in terminal.expect(f"{ADMIN[0]}@neo4j# ")
    terminal.type(":rollback")
    terminal.expect(f"{ADMIN[0]}@neo4j> ")
    terminal.type("MATCH (n:RolledBack) RETURN count(n) AS c;")
    assert "| 0 |" in terminal.expect(f"{ADMIN[0]}@neo4j> ")


def test_users_are_listed_on_system_for_an_admin_and_each_sees_themself(server):
    ran = run_shell(server, "-d", "system", "--format", "plain", "SHOW USERS")
    assert ran.code == 0, ran.err
    assert ran.out == (
        "user, roles, passwordChangeRequired, suspended, home\n"
        f'"{ADMIN[0]}", ["admin"], FALSE, FALSE, NULL\n'
        f'"{READER[0]}", ["reader"], FALSE, FALSE, NULL\n'
    )
    ran = run_shell(server, "-d", "system", "--format", "plain", "SHOW CURRENT USER YIELD user, roles", user=READER)
    assert ran.out == f'user, roles\n"{READER[0]}", ["reader"]\n', ran.err
    ran = run_shell(server, "SHOW USERS", user=READER)
    assert ran.code == 1 and "SHOW USERS needs the admin role" in ran.err, ran.err
