"""langchain-neo4j (PyPI), unchanged, against kith: its ``Neo4jGraph`` connects, reads the
graph's schema the way it reads Neo4j's (``apoc.meta.data`` through neo4j-graphrag,
``SHOW CONSTRAINTS``, ``apoc.schema.nodes``), and ``GraphCypherQAChain`` runs a
question's generated Cypher on kith and hands the rows to the answering model.

No language model runs here (none is installed, and its answers would not be the
subject): a recording stand-in returns the Cypher a model would write for the
question, and records the prompts LangChain built, so the test sees the schema kith
answered reach the model and kith's rows reach the answer step.
"""
from __future__ import annotations

import neo4j
import pytest
from langchain_core.language_models.fake import FakeListLLM
from langchain_neo4j import GraphCypherQAChain, Neo4jGraph


class RecordingLLM(FakeListLLM):
    """Answers with ``responses`` in turn and keeps every prompt it was given."""

    prompts: list[str] = []

    def _call(self, prompt, stop=None, run_manager=None, **kwargs):
        self.prompts.append(prompt)
        return super()._call(prompt, stop=stop, run_manager=run_manager, **kwargs)


@pytest.fixture(scope="module")
def graph(ldbc_server):
    g = Neo4jGraph(url=ldbc_server.bolt, username="neo4j", password="unused")
    yield g
    g.close()


def test_the_schema_is_read_as_from_neo4j(graph):
    schema = graph.get_structured_schema
    person = {p["property"]: p["type"] for p in schema["node_props"]["Person"]}
    assert person["firstName"] == "STRING" and person["id"] == "INTEGER"
    assert person["creationDate"] in {"INTEGER", "DATE_TIME"}
    assert person["email"] == "LIST"
    assert {"start": "Person", "type": "KNOWS", "end": "Person"} in schema["relationships"]
    assert {"start": "Comment", "type": "REPLY_OF", "end": "Post"} in schema["relationships"]
    assert [p["property"] for p in schema["rel_props"]["KNOWS"]] == ["creationDate"]
    # The text a model is prompted with.
    assert "Person {" in graph.get_schema and "(:Person)-[:KNOWS]->(:Person)" in graph.get_schema


def test_query_runs_cypher_with_parameters(graph):
    rows = graph.query("MATCH (p:Person {id: $id}) RETURN p.firstName AS name", {"id": 41})
    assert rows == [{"name": "John"}]


def test_a_question_is_answered_from_kiths_rows(graph, ldbc_server):
    cypher = ("MATCH (p:Person {id: 41})-[:KNOWS]->(f:Person) "
              "RETURN f.firstName AS name ORDER BY name")
    llm = RecordingLLM(responses=[cypher, "They are friends with the people listed."], prompts=[])
    chain = GraphCypherQAChain.from_llm(llm=llm, graph=graph, validate_cypher=True,
                                        return_intermediate_steps=True, allow_dangerous_requests=True)
    out = chain.invoke({"query": "Whom does person 41 know?"})
    assert out["result"] == "They are friends with the people listed."
    with neo4j.GraphDatabase.driver(ldbc_server.bolt, auth=("neo4j", "unused")) as d:
        want, _, _ = d.execute_query(cypher)
    assert want, "person 41 knows someone in the test data"
    steps = out["intermediate_steps"]
    assert steps[0]["query"] == cypher
    assert steps[1]["context"] == [r.data() for r in want]
    # The schema kith answered was in the Cypher prompt; its rows in the answer prompt.
    assert "(:Person)-[:KNOWS]->(:Person)" in llm.prompts[0]
    assert want[0]["name"] in llm.prompts[1]


def test_validation_turns_a_reversed_relationship_by_kiths_schema(graph):
    # The schema says Comment-[:REPLY_OF]->Post: CypherQueryCorrector turns a query
    # written the other way round, so it runs as the model meant it.
    backwards = "MATCH (p:Post)-[:REPLY_OF]->(c:Comment) RETURN count(c) AS n"
    llm = RecordingLLM(responses=[backwards, "Counted."], prompts=[])
    chain = GraphCypherQAChain.from_llm(llm=llm, graph=graph, validate_cypher=True,
                                        return_intermediate_steps=True, allow_dangerous_requests=True)
    out = chain.invoke({"query": "How many comments reply to posts?"})
    steps = out["intermediate_steps"]
    assert steps[0]["query"] != backwards
    [row] = steps[1]["context"]
    assert row["n"] > 0
    assert row == graph.query("MATCH (c:Comment)-[:REPLY_OF]->(p:Post) RETURN count(c) AS n")[0]
