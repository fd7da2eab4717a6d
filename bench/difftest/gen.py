"""A grammar-based generator of Cypher queries for a known graph (the way GDsmith and
Dinkel work): random patterns over the labels and relationship types the graph really
has, WHERE trees, projections, aggregations, ORDER BY/SKIP/LIMIT, OPTIONAL MATCH,
UNWIND, subqueries, list and string functions, shortest paths, and writes (run inside a
transaction that is rolled back).

Every query is generated so that its answer is defined: nothing that may differ between
two correct systems is asked for. No internal ids (`id()`, `elementId()`), no `rand()`
or clock; LIMIT and SKIP only under an ORDER BY of every returned column, and only when
those are plain values (nodes are ordered by internal id); `collect()`, `keys()` and
`labels()` (whose order Neo4j does not define) only as whole returned columns, which are
compared as bags; `shortestPath` (which may pick any of several shortest paths) only
through its length. `Query.unordered` names the columns compared as bags and
`Query.ordered` says whether the rows' order is part of the answer.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from schema import Schema

INT, FLOAT, STR, BOOL, LIST, ANY = "int", "float", "str", "bool", "list", "any"
# Byte-array parameters (one empty, one with bytes past 127, which read as negative).
BYTES = [b"", bytes([1, 2, 255]), bytes([0, 128, 7]), bytes([5])]


@dataclass
class Query:
    text: str
    params: dict = field(default_factory=dict)
    ordered: bool = False
    unordered: set = field(default_factory=set)  # column names compared as bags
    writes: bool = False
    shape: str = "read"
    # parameter -> the values it may take (its variants draw from them)
    pools: dict = field(default_factory=dict)

    def variant(self, rng: random.Random) -> "Query":
        """The same text with each parameter drawn again from its pool: another query
        to answer, which a plan cache answers without planning again."""
        params = {k: rng.choice(self.pools.get(k) or [v]) for k, v in self.params.items()}
        return Query(self.text, params, self.ordered, self.unordered, self.writes, self.shape,
                     self.pools)


@dataclass
class Var:
    name: str
    kind: str  # node | rel | rels | path | int | float | str | bool | list | any
    label: str | None = None  # a node's label, a relationship's type
    nullable: bool = False


def literal(v) -> str:
    """A Python value as a Cypher literal."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        text = repr(v)
        return text if ("." in text or "e" in text) else text + ".0"
    if isinstance(v, str):
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {literal(x)}" for k, x in v.items()) + "}"
    return literal(str(v))


def kind_of(v) -> str:
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, float):
        return FLOAT
    if isinstance(v, str):
        return STR
    if isinstance(v, list):
        return LIST
    return ANY


class Gen:
    def __init__(self, schema: Schema, seed: int):
        self.s = schema
        self.r = random.Random(seed)
        self.n = 0
        self.params: dict = {}
        self.pools: dict = {}
        # Small labels first when a pattern starts unanchored: a scan of every message
        # joined three hops out would measure patience, not correctness.
        counts = schema.counts
        self.small = [l for l in schema.labels if counts.get(l, 0) <= 400] or schema.labels

    # -- names and constants -------------------------------------------------------------

    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    def constant(self, samples: list, kind: str):
        if samples and self.chance(0.85):
            return self.pick(samples)
        return {INT: self.r.randint(-3, 50), FLOAT: round(self.r.uniform(-2, 2), 2),
                STR: self.pick(["a", "", "en", "Jose", "x y", "Z"]), BOOL: self.chance(0.5),
                LIST: [1, 2]}.get(kind, 0)

    def const(self, v, pool: list | None = None) -> str:
        """A constant: as a parameter when it was drawn from the graph's values
        (`pool`, which its variants draw from again), or now and then; else in the text."""
        if isinstance(v, float) or not (pool and self.chance(0.9) or self.chance(0.2)):
            return literal(v)
        name = f"p{len(self.params)}"
        self.params[name] = v
        self.pools[name] = [x for x in (pool or [v]) if kind_of(x) == kind_of(v)] or [v]
        return f"${name}"

    # -- properties of what is in scope --------------------------------------------------

    def props_of(self, var: Var) -> dict[str, list]:
        if var.kind == "node" and var.label:
            return self.s.node_props.get(var.label, {})
        if var.kind == "rel" and var.label:
            return self.s.rel_props.get(var.label, {})
        return {}

    def prop(self, scope: list[Var], kind: str | None) -> tuple[str, list] | None:
        """`v.key` of a node or relationship in scope whose samples are of `kind`."""
        options = []
        for v in scope:
            for k, samples in self.props_of(v).items():
                if kind is None or (samples and kind_of(samples[0]) == kind):
                    options.append((f"{v.name}.{k}", samples))
            if v.kind in ("node", "rel") and kind is None and self.chance(0.05):
                options.append((f"{v.name}.absentKey", []))
        return self.pick(options) if options else None

    def of_kind(self, scope: list[Var], kinds: tuple) -> list[Var]:
        return [v for v in scope if v.kind in kinds]

    # -- expressions ---------------------------------------------------------------------

    def expr(self, kind: str, scope: list[Var], depth: int = 2) -> str:
        f = getattr(self, f"e_{kind}")
        return f(scope, max(depth, 0))

    def e_any(self, scope, d):
        return self.expr(self.pick([INT, STR, FLOAT, BOOL, LIST]), scope, d)

    def e_int(self, scope, d):
        options = ["lit", "prop", "prop"]
        if d > 0:
            options += ["arith", "size_str", "size_list", "abs", "case", "coalesce", "sign",
                        "reduce", "toint", "char_length", "toint_or_null"]
            if self.of_kind(scope, ("path",)):
                options.append("length")
            if self.of_kind(scope, ("node",)) and self.s.rels:
                options.append("count_sub")
        o = self.pick(options)
        if o == "prop":
            p = self.prop(scope, INT)
            if p:
                return p[0]
            o = "lit"
        if o == "lit":
            return self.const(self.r.randint(-5, 100))
        sub = lambda k=INT: self.expr(k, scope, d - 1)  # noqa: E731
        if o == "arith":
            op = self.pick(["+", "-", "*", "%", "/"])
            right = sub() if op not in "%/" else str(self.r.randint(1, 9))
            return f"({sub()} {op} {right})"
        if o == "size_str":
            return f"size({sub(STR)})"
        if o == "size_list":
            return f"size({sub(LIST)})"
        if o == "abs":
            return f"abs({sub()})"
        if o == "sign":
            return f"sign({sub(self.pick([INT, FLOAT]))})"
        if o == "case":
            return f"CASE WHEN {sub(BOOL)} THEN {sub()} ELSE {sub()} END"
        if o == "coalesce":
            return f"coalesce({sub()}, {sub()})"
        if o == "reduce":
            x = self.fresh("x")
            return f"reduce(acc = 0, {x} IN range(0, {self.r.randint(0, 4)}) | acc + {x})"
        if o == "toint":
            return f"toInteger({sub(self.pick([FLOAT, STR]))})"
        if o == "char_length":
            return f"{self.pick(['char_length', 'character_length'])}({sub(STR)})"
        if o == "toint_or_null":
            return f"toIntegerOrNull({sub(self.pick([FLOAT, STR, BOOL, LIST]))})"
        if o == "length":
            return f"length({self.pick(self.of_kind(scope, ('path',))).name})"
        if o == "count_sub":
            n = self.pick(self.of_kind(scope, ("node",)))
            return f"COUNT {{ {self.tiny_pattern(n)} }}"
        return "0"

    def e_float(self, scope, d):
        options = ["lit", "toflt"]
        if d > 0:
            options += ["arith", "round", "sqrt", "floor", "ceil", "trig", "trig", "round_to",
                        "tofloat_or_null", "distance", "point_field"]
        o = self.pick(options)
        sub = lambda k=FLOAT: self.expr(k, scope, d - 1)  # noqa: E731
        if o == "lit":
            return literal(round(self.r.uniform(-10, 10), 3))
        if o == "toflt":
            return f"toFloat({self.expr(INT, scope, d - 1)})"
        if o == "arith":
            return f"({sub()} {self.pick(['+', '-', '*'])} {sub(self.pick([INT, FLOAT]))})"
        if o == "sqrt":
            return f"sqrt(abs({sub()}))"
        if o == "trig":
            f = self.pick(["sin", "cos", "tan", "atan", "degrees", "radians", "haversin"])
            if self.chance(0.2):
                return f"atan2({sub()}, {sub(self.pick([INT, FLOAT]))})"
            if self.chance(0.2):
                return f"{self.pick(['asin', 'acos'])}({sub()} / 20.0)"
            return f"{f}({sub()})"
        if o == "round_to":
            mode = self.pick(["", "", ", 'HALF_EVEN'", ", 'HALF_DOWN'", ", 'UP'", ", 'DOWN'",
                              ", 'CEILING'", ", 'FLOOR'", ", 'HALF_UP'"])
            return f"round({sub()}, {self.r.randint(0, 3)}{mode})"
        if o == "tofloat_or_null":
            return f"toFloatOrNull({self.expr(self.pick([INT, STR, BOOL]), scope, d - 1)})"
        if o == "distance":
            crs = self.pick(["cartesian", "cartesian-3d", "wgs-84", "wgs-84-3d"])
            if self.chance(0.1):
                return f"point.distance({self.point(scope, d, crs)}, {self.point(scope, d, 'cartesian')})"
            return f"point.distance({self.point(scope, d, crs)}, {self.point(scope, d, crs)})"
        if o == "point_field":
            crs = self.pick(["cartesian", "cartesian-3d", "wgs-84", "wgs-84-3d"])
            field = self.pick(["x", "y", "longitude", "latitude", "z", "height"])
            return f"{self.point(scope, d, crs)}.{field}"
        return f"{o}({sub()})"

    def point(self, scope, d, crs: str) -> str:
        """`point({...})` in `crs`, its coordinates numbers of the scope (a latitude
        kept in range: Neo4j refuses one outside [-90, 90], as kith does)."""
        num = lambda: self.expr(self.pick([INT, FLOAT]), scope, max(d - 2, 0))  # noqa: E731
        geo = crs.startswith("wgs")
        keys = ["longitude", "latitude", "height"] if geo else ["x", "y", "z"]
        dims = 3 if crs.endswith("3d") else 2
        parts = []
        for i, k in enumerate(keys[:dims]):
            v = num()
            if geo and i == 1:
                v = f"({v}) % 90"
            parts.append(f"{k}: {v}")
        if self.chance(0.3):
            parts.append(f"crs: {literal(crs)}")
        return f"point({{{', '.join(parts)}}})"

    def e_str(self, scope, d):
        options = ["lit", "prop", "prop"]
        if d > 0:
            options += ["upper", "lower", "trim", "substr", "left", "right", "replace", "concat",
                        "tostr", "reverse", "coalesce", "case", "split_head", "pipes", "trim_chars",
                        "tostr_or_null", "upper5", "nullif", "point_str"]
            if self.of_kind(scope, ("rel",)):
                options.append("type")
        o = self.pick(options)
        sub = lambda k=STR: self.expr(k, scope, d - 1)  # noqa: E731
        if o == "prop":
            p = self.prop(scope, STR)
            if p:
                return p[0]
            o = "lit"
        if o == "lit":
            return self.const(self.pick(["a", "", "Jose", "en", "x_y", "Hamid_Karzai", "Chrome"]))
        if o in ("upper", "lower"):
            return f"to{o.capitalize()}({sub()})"
        if o in ("trim", "reverse"):
            return f"{o}({sub()})"
        if o == "substr":
            return f"substring({sub()}, {self.r.randint(0, 3)}, {self.r.randint(0, 5)})"
        if o in ("left", "right"):
            return f"{o}({sub()}, {self.r.randint(0, 4)})"
        if o == "replace":
            return f"replace({sub()}, {literal(self.pick(['a', 'e', '_']))}, {literal('-')})"
        if o == "concat":
            return f"({sub()} + {sub()})"
        if o == "tostr":
            return f"toString({self.expr(self.pick([INT, FLOAT, BOOL]), scope, d - 1)})"
        if o == "coalesce":
            return f"coalesce({sub()}, {sub()})"
        if o == "case":
            return f"CASE WHEN {self.expr(BOOL, scope, d - 1)} THEN {sub()} ELSE {sub()} END"
        if o == "pipes":
            return f"({sub()} || {sub()})"
        if o == "trim_chars":
            chars = literal(self.pick(["a", "_", "ae", "J", " "]))
            f = self.pick(["ltrim", "rtrim", "btrim"])
            if self.chance(0.4):
                side = self.pick(["LEADING", "TRAILING", "BOTH", ""])
                return f"trim({side} {chars} FROM {sub()})"
            return f"{f}({sub()}, {chars})"
        if o == "tostr_or_null":
            return f"toStringOrNull({self.expr(self.pick([INT, FLOAT, BOOL, LIST]), scope, d - 1)})"
        if o == "upper5":
            return f"{self.pick(['upper', 'lower'])}({sub()})"
        if o == "nullif":
            return f"nullIf({sub()}, {self.expr(STR, scope, 0)})"
        if o == "point_str":
            crs = self.pick(["cartesian", "cartesian-3d", "wgs-84", "wgs-84-3d"])
            p = self.point(scope, d, crs)
            return self.pick([f"toString({p})", f"{p}.crs", f"valueType({p})"])
        if o == "split_head":
            return f"head(split({sub()}, {literal(self.pick(['_', ' ', 'a']))}))"
        if o == "type":
            return f"type({self.pick(self.of_kind(scope, ('rel',))).name})"
        return "''"

    def e_bool(self, scope, d):
        options = ["cmp", "cmp", "isnull", "lit"]
        if d > 0:
            options += ["and", "or", "not", "xor", "in", "strop", "quant", "regex", "isnan",
                        "istype", "bbox", "point_eq"]
            nodes = self.of_kind(scope, ("node",))
            if nodes:
                options += ["label", "label_expr"]
                if self.s.rels:
                    options += ["exists", "exists_sub"]
        o = self.pick(options)
        sub = lambda: self.expr(BOOL, scope, d - 1)  # noqa: E731
        if o == "lit":
            return self.pick(["true", "false", "null"])
        if o == "cmp":
            p = self.prop(scope, None)
            if p and p[1] and self.chance(0.7):
                k = kind_of(p[1][0])
                right = (self.const(self.constant(p[1], k), p[1]) if k != LIST
                         else self.expr(INT, scope, 0))
                return f"{p[0]} {self.pick(['=', '<>', '<', '>', '<=', '>='])} {right}"
            k = self.pick([INT, STR, FLOAT])
            return (f"{self.expr(k, scope, d - 1)} {self.pick(['=', '<>', '<', '>', '<=', '>='])} "
                    f"{self.expr(k, scope, d - 1)}")
        if o == "isnull":
            p = self.prop(scope, None)
            target = p[0] if p else f"({self.expr(ANY, scope, d - 1)})"
            return f"{target} IS {self.pick(['', 'NOT '])}NULL"
        if o in ("and", "or", "xor"):
            return f"({sub()} {o.upper()} {sub()})"
        if o == "not":
            return f"NOT ({sub()})"
        if o == "in":
            k = self.pick([INT, STR])
            items = ", ".join(self.expr(k, scope, 0) for _ in range(self.r.randint(0, 3)))
            return f"{self.expr(k, scope, d - 1)} IN [{items}]"
        if o == "strop":
            op = self.pick(["STARTS WITH", "ENDS WITH", "CONTAINS"])
            return f"{self.expr(STR, scope, d - 1)} {op} {self.expr(STR, scope, 0)}"
        if o == "regex":
            pattern = self.pick(["J.*", ".*a.*", "[A-Z].*", "en", ".*_.*"])
            return f"{self.expr(STR, scope, d - 1)} =~ {literal(pattern)}"
        if o == "bbox":
            crs = self.pick(["cartesian", "wgs-84", "cartesian-3d"])
            pts = ", ".join(self.point(scope, d, crs) for _ in range(3))
            return f"point.withinBBox({pts})"
        if o == "point_eq":
            crs = self.pick(["cartesian", "wgs-84"])
            op = self.pick(["=", "<>", "<", "<=", ">="])
            return f"{self.point(scope, d, crs)} {op} {self.point(scope, d, crs)}"
        if o == "istype":
            nodes = self.of_kind(scope, ("node",))
            subject = (self.pick(nodes).name if nodes and self.chance(0.3)
                       else f"({self.expr(ANY, scope, d - 1)})")
            return f"{subject} {self.type_test()}"
        if o == "isnan":
            return f"isNaN({self.expr(FLOAT, scope, d - 1)})"
        if o == "quant":
            x = self.fresh("x")
            q = self.pick(["all", "any", "none", "single"])
            inner = [Var(x, INT)]
            return (f"{q}({x} IN range(0, {self.r.randint(0, 4)}) WHERE "
                    f"{self.expr(BOOL, scope + inner, d - 1)})")
        n = self.pick(self.of_kind(scope, ("node",)))
        if o == "label":
            return f"{n.name}:{self.pick(self.s.labels)}"
        if o == "label_expr":
            return f"{n.name}:{self.label_expr()}"
        if o == "exists":
            return self.tiny_pattern(n)
        if o == "exists_sub":
            return f"EXISTS {{ {self.tiny_match(n, scope, d - 1)} }}"
        return "true"

    TYPES = ["INTEGER", "FLOAT", "STRING", "BOOLEAN", "NULL", "NOTHING", "ANY", "MAP",
             "NODE", "RELATIONSHIP", "PATH", "DATE", "ZONED DATETIME", "DURATION",
             "PROPERTY VALUE", "LIST<INTEGER>", "LIST<STRING NOT NULL>", "LIST<ANY>",
             "INTEGER | FLOAT", "ANY<STRING | BOOLEAN>", "LIST<INTEGER | STRING>"]

    def type_test(self) -> str:
        """`IS [NOT] :: T` (or `IS TYPED`, `::`), Neo4j 5's type predicates."""
        t = self.pick(self.TYPES)
        if "|" not in t and self.chance(0.3):
            t += self.pick([" NOT NULL", "!"])
        form = self.pick(["IS ::", "IS NOT ::", "IS TYPED", "IS NOT TYPED", "::"])
        return f"{form} {t}"

    def e_list(self, scope, d):
        options = ["lit", "range"]
        if d > 0:
            options += ["comp", "split", "tail", "concat", "slice", "reverse", "to_list",
                        "split_many", "bytes"]
            p = self.prop(scope, LIST)
            if p:
                options += ["prop", "prop"]
            if self.of_kind(scope, ("path",)):
                options.append("path_nodes")
        o = self.pick(options)
        if o == "prop":
            return self.prop(scope, LIST)[0]
        if o == "lit":
            k = self.pick([INT, STR])
            return "[" + ", ".join(self.expr(k, scope, 0) for _ in range(self.r.randint(0, 4))) + "]"
        if o == "range":
            a, b = self.r.randint(-2, 3), self.r.randint(0, 6)
            step = f", {self.pick([1, 2, -1])}" if self.chance(0.2) else ""
            return f"range({a}, {b}{step})"
        sub = lambda: self.expr(LIST, scope, d - 1)  # noqa: E731
        if o == "comp":
            x = self.fresh("x")
            inner = scope + [Var(x, INT)]
            where = f" WHERE {self.expr(BOOL, inner, d - 1)}" if self.chance(0.6) else ""
            mapped = f" | {self.expr(self.pick([INT, STR]), inner, d - 1)}" if self.chance(0.6) else ""
            return f"[{x} IN range(0, {self.r.randint(0, 5)}){where}{mapped}]"
        if o == "split":
            return f"split({self.expr(STR, scope, d - 1)}, {literal(self.pick(['_', ' ', 'a', '']))})"
        if o == "tail":
            return f"tail({sub()})"
        if o == "reverse":
            return f"reverse({sub()})"
        if o == "concat":
            return f"({sub()} + {sub()})"
        if o == "slice":
            return f"{sub()}[{self.r.randint(-2, 2)}..{self.r.randint(0, 3)}]"
        if o == "path_nodes":
            p = self.pick(self.of_kind(scope, ("path",)))
            return f"[n IN nodes({p.name}) | n.id]"
        if o == "to_list":
            f = self.pick(["toIntegerList", "toFloatList", "toStringList", "toBooleanList"])
            k = self.pick([INT, STR, FLOAT, BOOL])
            items = ", ".join(self.expr(k, scope, 0) for _ in range(self.r.randint(0, 3)))
            return f"{f}([{items}])"
        if o == "bytes":
            # A driver's byte array: Neo4j reads it as the list of its signed bytes.
            name = f"p{len(self.params)}"
            self.params[name] = self.pick(BYTES)
            self.pools[name] = BYTES
            return f"${name}"
        if o == "split_many":
            delimiters = ", ".join(literal(x) for x in self.r.sample(["_", " ", "a", "e", ""], 2))
            return f"split({self.expr(STR, scope, d - 1)}, [{delimiters}])"
        return "[]"

    def label_expr(self, bare_pipe: bool = False) -> str:
        """A Neo4j 5 label expression over the graph's labels; a disjunction is in
        parentheses unless `bare_pipe` (in a pattern, where `|` cannot end a filter)."""
        a, b = self.pick(self.s.labels), self.pick(self.s.labels)
        o = self.pick(["or", "and", "not", "and_not", "any", "not_or"])
        text = {"or": f"{a}|{b}", "and": f"{a}&{b}", "not": f"!{a}", "and_not": f"{a}&!{b}",
                "any": "%", "not_or": f"!({a}|{b})"}[o]
        return text if bare_pipe or "|" not in text or o == "not_or" else f"({text})"

    # -- patterns ------------------------------------------------------------------------

    def tiny_pattern(self, n: Var) -> str:
        """`(n)-[:T]->(:L)` from a node in scope (a pattern predicate)."""
        options = self.s.rels_from(n.label)
        if not options:
            return f"({n.name})--()"
        t, direction, other, _ = self.pick(options)
        arrow = f"-[:{t}]->" if direction == ">" else f"<-[:{t}]-"
        return f"({n.name}){arrow}(:{other})"

    def tiny_match(self, n: Var, scope, d) -> str:
        options = self.s.rels_from(n.label)
        if not options:
            return f"MATCH ({n.name})--()"
        t, direction, other, _ = self.pick(options)
        m = Var(self.fresh("m"), "node", other)
        arrow = f"-[:{t}]->" if direction == ">" else f"<-[:{t}]-"
        where = f" WHERE {self.expr(BOOL, [m], min(d, 1))}" if self.chance(0.7) else ""
        return f"MATCH ({n.name}){arrow}({m.name}:{other}){where}"

    def node(self, scope: list[Var], label: str | None = None, anchor: bool = False) -> tuple[str, Var]:
        if label is None:
            label = self.pick(self.small if self.chance(0.9) or not anchor else self.s.labels)
        v = Var(self.fresh("n"), "node", label)
        props = self.s.node_props.get(label, {})
        body = f"{v.name}:{label}"
        if not anchor and self.chance(0.1):
            # Neo4j 5's label expressions: the node keeps its label (the generator's
            # knowledge of its properties) under a conjunction.
            body = f"{v.name}:{label}&{self.pick(['%', '!' + self.pick(self.s.labels)])}"
        if anchor and "id" in props and props["id"]:
            body += f" {{id: {self.const(self.pick(props['id']), props['id'])}}}"
        return f"({body})", v

    def path(self, scope: list[Var], start: Var | None, hops: int) -> tuple[str, list[Var]]:
        """A pattern of `hops` relationships from `start` (or a new node)."""
        new: list[Var] = []
        if start is None:
            text, cur = self.node(scope, anchor=self.chance(0.8))
            new.append(cur)
        else:
            text, cur = f"({start.name})", start
        for _ in range(hops):
            options = self.s.rels_from(cur.label)
            if not options:
                break
            t, direction, other, _ = self.pick(options)
            var_length = self.chance(0.15)
            rel = Var(self.fresh("r"), "rels" if var_length else "rel", t)
            named = self.chance(0.5)
            types = t if self.chance(0.9) else f"{t}|{self.pick(self.s.rels)[1]}"
            if not var_length and self.chance(0.05):
                types = f"{t}&!{self.pick(self.s.rels)[1]}"
            length = self.pick(["*1..2", "*2", "*..2", "*0..1"]) if var_length else ""
            body = f"[{rel.name if named else ''}:{types}{length}]"
            if named:
                new.append(rel)
            arrow = f"-{body}->" if direction == ">" else f"<-{body}-"
            if self.chance(0.1):
                arrow = f"-{body}-"
            label_it = self.chance(0.75)
            nxt = Var(self.fresh("n"), "node", other)
            inline = ""
            if label_it and self.chance(0.1):
                inline = f" WHERE {self.expr(BOOL, [nxt], 1)}"  # Neo4j 5's (n WHERE ...)
            text += f"{arrow}({nxt.name}{':' + other if label_it else ''}{inline})"
            new.append(nxt)
            cur = nxt
        return text, new

    # -- clauses -------------------------------------------------------------------------

    def where(self, scope, p=0.6) -> str:
        return f" WHERE {self.expr(BOOL, scope, 2)}" if self.chance(p) else ""

    def return_items(self, scope: list[Var], aggregate: bool,
                     distinct: bool) -> tuple[list[str], list[str], set, bool]:
        """Items, their names, the bag columns, whether all are plain values."""
        items, names, bags, plain = [], [], set(), True
        graph_vars = [v for v in scope if v.kind in ("node", "rel", "path")]
        for i in range(self.r.randint(1, 3)):
            name = f"c{i}"
            roll = self.r.random()
            if roll < 0.15 and graph_vars:
                v = self.pick(graph_vars)
                items.append(f"{v.name} AS {name}")
                plain = False
            elif roll < 0.22 and graph_vars and not aggregate and not distinct:
                # (Not as a grouping key nor under DISTINCT: Neo4j's keys() order varies
                # from node to node, so equal key sets may count as different values.)
                v = self.pick([g for g in graph_vars if g.kind != "path"] or graph_vars)
                fn = "labels" if v.kind == "node" else "keys"
                if v.kind == "node" and self.chance(0.5):
                    fn = "keys"
                if v.kind == "path":
                    fn = "length"
                    items.append(f"length({v.name}) AS {name}")
                else:
                    items.append(f"{fn}({v.name}) AS {name}")
                    bags.add(name)
            elif roll < 0.27 and graph_vars:
                v = self.pick([g for g in graph_vars if g.kind == "node"] or graph_vars)
                if v.kind == "node":
                    keys = list(self.props_of(v))[:2]
                    inner = ", ".join(f".{k}" for k in keys) or ".*"
                    items.append(f"{v.name} {{{inner}}} AS {name}")
                    plain = False
                else:
                    items.append(f"{self.expr(INT, scope, 1)} AS {name}")
            else:
                k = self.pick([INT, STR, BOOL, FLOAT, LIST, INT, STR])
                items.append(f"{self.expr(k, scope, 2)} AS {name}")
            names.append(name)
        if aggregate:
            name = f"c{len(items)}"
            agg, bag = self.aggregate(scope)
            items.append(f"{agg} AS {name}")
            names.append(name)
            if bag:
                bags.add(name)
        return items, names, bags, plain

    def aggregate(self, scope) -> tuple[str, bool]:
        o = self.pick(["count*", "count", "countd", "sum", "avg", "min", "max", "collect",
                       "collectd", "count*", "stdev"])
        if o == "count*":
            return "count(*)", False
        if o == "count":
            return f"count({self.expr(ANY, scope, 1)})", False
        if o == "countd":
            return f"count(DISTINCT {self.expr(self.pick([INT, STR]), scope, 1)})", False
        if o in ("sum", "avg"):
            return f"{o}({self.expr(self.pick([INT, FLOAT]), scope, 1)})", False
        if o in ("min", "max"):
            return f"{o}({self.expr(self.pick([INT, STR, FLOAT]), scope, 1)})", False
        if o == "collect":
            return f"collect({self.expr(self.pick([INT, STR]), scope, 1)})", True
        if o == "stdev":
            f = self.pick(["stDev", "stDevP"])
            return f"{f}({self.expr(self.pick([INT, FLOAT]), scope, 1)})", False
        return f"collect(DISTINCT {self.expr(self.pick([INT, STR]), scope, 1)})", True

    def finish(self, scope, clauses: list[str], shape: str) -> Query:
        aggregate = self.chance(0.35)
        distinct = "DISTINCT " if self.chance(0.15) else ""
        items, names, bags, plain = self.return_items(scope, aggregate, bool(distinct))
        ret = f"RETURN {distinct}{', '.join(items)}"
        ordered = False
        if plain and not bags and self.chance(0.5):
            order = names[:]
            self.r.shuffle(order)
            ret += " ORDER BY " + ", ".join(f"{n}{self.pick(['', ' DESC'])}" for n in order)
            ordered = True
            if self.chance(0.3):
                ret += f" {self.pick(['SKIP', 'SKIP', 'OFFSET'])} {self.r.randint(0, 3)}"
            if self.chance(0.6):
                ret += f" LIMIT {self.r.randint(0, 10)}"
        clauses.append(ret)
        return Query(" ".join(clauses), dict(self.params), ordered, bags, False, shape,
                     dict(self.pools))

    # -- whole queries -------------------------------------------------------------------

    def query(self) -> Query:
        self.params, self.pools = {}, {}
        roll = self.r.random()
        if roll < 0.12:
            return self.q_expr()
        if roll < 0.16:
            return self.q_union()
        if roll < 0.50:
            return self.q_match()
        if roll < 0.60:
            return self.q_with()
        if roll < 0.70:
            return self.q_unwind()
        if roll < 0.77:
            return self.q_shortest()
        if roll < 0.83:
            return self.q_call()
        return self.q_write()

    # -- the expression engine alone: edge cases of numbers, strings, lists, maps,
    # temporal values and null, where two implementations most often part ------------

    INDEXES = ["0", "-1", "1", "5", "null", "0..2", "-2..", "..1", "'a'"]
    EDGE_INTS = [0, 1, -1, 2, -7, 3, 9223372036854775807, -9223372036854775808, 4611686018427387904]
    EDGE_FLOATS = [0.0, -0.0, 0.5, -2.5, 1e308, 1e-308, 0.1, 3.0, 123456789.125, -1.5e10]
    EDGE_STRINGS = ["", "a", "A b", "ÄÖü", "  pad  ", "12", "12.5", "-3", "1e3", "true",
                    "abc", "a,b,,c", "x_y_z", "😀é"]
    TEMPORAL = ["date('2020-01-31')", "date('2019-02-28')", "localtime('12:34:56.789')",
                "localdatetime('2015-07-21T21:40:32.142')", "datetime('2015-07-21T21:40:32.142+01:00')",
                "time('10:00:01+02:00')", "duration('P1Y2M3DT4H5M6.5S')", "duration('PT0S')",
                "duration({days: 40, hours: -3})", "date({year: 2024, month: 2, day: 29})"]

    def edge(self, depth: int = 2) -> str:
        r = self.r
        leaf = [
            lambda: literal(r.choice(self.EDGE_INTS)),
            lambda: literal(r.choice(self.EDGE_FLOATS)),
            lambda: literal(r.choice(self.EDGE_STRINGS)),
            lambda: r.choice(["null", "true", "false", "[]", "{}", "[1, null, 'a']", "[[1, 2], [3]]",
                              "{a: 1, b: null}", "range(0, 5)", "[2, 1, 3]", "['b', 'a', null]"]),
            lambda: r.choice(self.TEMPORAL),
        ]
        if depth <= 0:
            return r.choice(leaf)()
        e = lambda: self.edge(depth - 1)  # noqa: E731
        ops = [
            lambda: f"({e()} {r.choice(['+', '-', '*', '/', '%', '^'])} {e()})",
            lambda: f"({e()} {r.choice(['=', '<>', '<', '>', '<=', '>='])} {e()})",
            lambda: f"({e()} {r.choice(['AND', 'OR', 'XOR'])} {e()})",
            lambda: f"(NOT {e()})",
            lambda: f"({e()} IS {r.choice(['', 'NOT '])}NULL)",
            lambda: f"({e()} IN {e()})",
            lambda: f"({e()} {r.choice(['STARTS WITH', 'ENDS WITH', 'CONTAINS'])} {e()})",
            lambda: f"{e()}[{r.choice(self.INDEXES)}]",
            lambda: f"{r.choice(['toInteger', 'toFloat', 'toString', 'toBoolean', 'abs', 'sign', 'ceil', 'floor', 'round', 'sqrt', 'exp', 'log', 'log10', 'size', 'reverse', 'head', 'last', 'tail', 'toUpper', 'toLower', 'trim', 'ltrim', 'rtrim', 'isEmpty'])}({e()})",
            lambda: f"{r.choice(['left', 'right'])}({e()}, {r.choice(['0', '2', '10', '-1'])})",
            lambda: f"substring({e()}, {r.choice(['0', '1', '3', '-1'])}{r.choice(['', ', 2', ', 0', ', 100'])})",
            lambda: f"replace({e()}, {literal(r.choice(['a', '', ',', 'b']))}, {literal(r.choice(['', 'X', 'aa']))})",
            lambda: f"split({e()}, {literal(r.choice([',', '', '_', 'b']))})",
            lambda: f"range({r.randint(-3, 3)}, {r.randint(-3, 6)}, {r.choice([1, 2, -1, 3])})",
            lambda: f"coalesce({e()}, {e()})",
            lambda: f"CASE {e()} WHEN {e()} THEN {e()} ELSE {e()} END",
            lambda: f"CASE WHEN {e()} THEN {e()} END",
            lambda: f"[x IN {e()} WHERE x IS NOT NULL | x]",
            lambda: f"size([x IN range(0, 4) WHERE x % 2 = 0])",
            lambda: f"reduce(s = 0, x IN {e()} | s + x)",
            lambda: f"{r.choice(['all', 'any', 'none', 'single'])}(x IN {e()} WHERE x > 1)",
            lambda: f"{{k: {e()}, m: {e()}}}",
            lambda: f"{{a: 1, b: [2, 3]}}.{r.choice(['a', 'b', 'c'])}",
            lambda: f"{r.choice(self.TEMPORAL)}.{r.choice(['year', 'month', 'day', 'hour', 'minute', 'second', 'millisecond', 'days', 'months', 'seconds', 'epochSeconds', 'dayOfWeek', 'week', 'quarter', 'timezone', 'offset'])}",
            lambda: f"toString({r.choice(self.TEMPORAL)})",
            lambda: f"({r.choice(self.TEMPORAL)} {r.choice(['+', '-'])} {r.choice(self.TEMPORAL)})",
            lambda: f"duration.between({r.choice(self.TEMPORAL)}, {r.choice(self.TEMPORAL)})",
            lambda: f"toString({literal(r.choice(self.EDGE_FLOATS))})",
            lambda: f"toInteger({literal(r.choice(self.EDGE_STRINGS + ['9223372036854775808', '0x1F', ' 7 ']))})",
            lambda: f"toFloat({literal(r.choice(self.EDGE_STRINGS + ['NaN', 'Infinity', '-0', '.5']))})",
        ]
        return r.choice(ops if r.random() < 0.8 else leaf)()

    def q_expr(self) -> Query:
        items = [f"{self.edge(self.pick([1, 2, 2, 3]))} AS c{i}" for i in range(self.r.randint(1, 3))]
        if self.chance(0.3):
            source = self.pick(["[1, 2, 2, null, 'a']", "range(1, 4)", "[[1], [1], [2, 3], []]",
                                "[{a: 1}, {a: 1}, {a: null}]", "[0.5, 1, 1.0, -0.0, 0.0]"])
            agg = self.pick(["count(x)", "count(DISTINCT x)", "collect(x)", "min(x)", "max(x)",
                             "sum(x)", "avg(x)", "count(*)"])
            return Query(f"UNWIND {source} AS x RETURN {agg} AS c0",
                         {}, False, {"c0"} if "collect" in agg else set(), False, "expr")
        return Query("RETURN " + ", ".join(items), {}, False, set(), False, "expr")

    def q_union(self) -> Query:
        kind = self.pick(["UNION", "UNION ALL"])
        parts = []
        for _ in range(self.r.randint(2, 3)):
            scope: list[Var] = []
            text, new = self.path(scope, None, self.pick([0, 1]))
            scope += new
            value = self.expr(self.pick([INT, STR]), scope, 1)
            parts.append(f"MATCH {text}{self.where(scope, 0.5)} RETURN {value} AS c0")
        return Query(f" {kind} ".join(parts), dict(self.params), False, set(), False, "union",
                     dict(self.pools))

    def q_match(self) -> Query:
        scope: list[Var] = []
        text, new = self.path(scope, None, self.pick([0, 1, 1, 2, 2, 3]))
        scope += new
        clauses = [f"MATCH {text}{self.where(scope)}"]
        nodes = self.of_kind(scope, ("node",))
        if nodes and self.chance(0.4):
            text, new = self.path(scope, self.pick(nodes), 1)
            for v in new:
                v.nullable = True
            scope += new
            clauses.append(f"OPTIONAL MATCH {text}{self.where(scope, 0.4)}")
        elif nodes and self.chance(0.2):
            text, new = self.path(scope, self.pick(nodes), self.pick([1, 2]))
            scope += new
            clauses.append(f"MATCH {text}{self.where(scope, 0.5)}")
        return self.finish(scope, clauses, "match")

    def q_with(self) -> Query:
        scope: list[Var] = []
        text, new = self.path(scope, None, self.pick([1, 1, 2]))
        scope += new
        clauses = [f"MATCH {text}{self.where(scope, 0.4)}"]
        keep = [v for v in scope if v.kind == "node"][:1]
        items = [v.name for v in keep]
        kept = list(keep)
        if self.chance(0.6):
            name = self.fresh("w")
            items.append(f"{self.expr(INT, scope, 1)} AS {name}")
            kept.append(Var(name, INT))
        if self.chance(0.5):
            name = self.fresh("w")
            agg, bag = self.aggregate(scope)
            if not bag:
                items.append(f"{agg} AS {name}")
                kept.append(Var(name, INT if agg.startswith("count") else ANY))
        if not items:
            items = ["1 AS one"]
            kept = [Var("one", INT)]
        clauses.append(f"WITH {', '.join(items)}{self.where(kept, 0.5)}")
        scope = kept
        nodes = self.of_kind(scope, ("node",))
        if nodes and self.chance(0.6):
            text, new = self.path(scope, self.pick(nodes), 1)
            scope += new
            clauses.append(f"MATCH {text}{self.where(scope, 0.4)}")
        return self.finish(scope, clauses, "with")

    def q_unwind(self) -> Query:
        x = Var(self.fresh("u"), ANY)
        source = self.pick([
            lambda: self.expr(LIST, [], 2),
            lambda: literal([self.r.randint(-3, 5) for _ in range(self.r.randint(0, 5))]),
            lambda: literal([None, 1, "a", 2.5, True, [1, 2], {"k": 1}][: self.r.randint(1, 7)]),
            lambda: literal([{"a": self.r.randint(0, 3), "b": self.pick(["x", "y", None])}
                             for _ in range(self.r.randint(1, 5))]),
        ])()
        clauses = [f"UNWIND {source} AS {x.name}"]
        scope = [x]
        if "a:" in source:
            scope = [x, Var(f"{x.name}.a", INT), Var(f"{x.name}.b", STR)]
        if self.chance(0.4):
            text, new = self.node([], anchor=True)
            clauses.append(f"MATCH {text}")
            scope += [new]
        if self.chance(0.3):
            clauses.append(f"WITH {x.name}{' , ' + scope[-1].name if scope[-1].kind == 'node' else ''}"
                           f" WHERE {self.expr(BOOL, scope, 1)}")
        q = self.finish(scope, clauses, "unwind")
        return q

    def q_shortest(self) -> Query:
        people = [l for l, t, m in self.s.rels if l == m]
        if not people:
            return self.q_match()
        label = self.pick(people)
        types = sorted({t for l, t, m in self.s.rels if l == label and m == label})
        t = self.pick(types)
        ids = self.s.node_props.get(label, {}).get("id") or [0]
        a, b = self.pick(ids), self.pick(ids)
        all_paths = self.chance(0.5)
        fn = "allShortestPaths" if all_paths else "shortestPath"
        rels = self.fresh("ks")
        bound = self.pick(["*..4", "*..6", "*", "*1..3"])
        where = ""
        if self.chance(0.6):
            k = self.fresh("k")
            rprops = self.s.rel_props.get(t, {})
            if rprops and self.chance(0.7):
                key, samples = self.pick(list(rprops.items()))
                cond = f"{k}.{key} {self.pick(['<', '>', '<>'])} {literal(self.pick(samples))}" if samples else "true"
            else:
                cond = f"{k} IS NOT NULL"
            q = self.pick(["all", "none"])
            lst = self.pick([rels, "relationships(p)"])
            where = f" WHERE {q}({k} IN {lst} WHERE {cond})"
            if self.chance(0.3):
                where += f" AND length(p) {self.pick(['>', '>=', '<'])} {self.r.randint(1, 3)}"
        elif self.chance(0.3):
            where = f" WHERE length(p) > {self.r.randint(1, 3)}"
        ret = "RETURN length(p) AS len" if not all_paths else self.pick([
            "RETURN length(p) AS len, count(*) AS paths",
            "RETURN [n IN nodes(p) | n.id] AS ids",
        ])
        text = (f"MATCH (a:{label} {{id: $a}}), (b:{label} {{id: $b}}) "
                f"MATCH p = {fn}((a)-[{rels}:{t}{bound}]-(b)){where} {ret}")
        return Query(text, {"a": a, "b": b}, False, set(), False, "shortest",
                     {"a": ids, "b": ids})

    def q_call(self) -> Query:
        scope: list[Var] = []
        text, new = self.node(scope, anchor=self.chance(0.5))
        scope.append(new)
        inner_text, inner_new = self.path([new], new, 1)
        inner_scope = [new] + inner_new
        kind = self.pick(["count", "call", "collect"])
        if kind == "call":
            agg, _ = self.aggregate(inner_scope)
            head = self.pick([f"CALL {{ WITH {new.name} ", f"CALL ({new.name}) {{ ",
                              "CALL (*) { "])
            clauses = [f"MATCH {text}", f"{head}MATCH {inner_text} RETURN {agg} AS sub }}"]
            scope.append(Var("sub", INT))
        elif kind == "count":
            clauses = [f"MATCH {text}",
                       f"WITH {new.name}, COUNT {{ MATCH {inner_text}{self.where(inner_scope, 0.5)} }} AS sub"]
            scope.append(Var("sub", INT))
        else:
            field = self.pick([v for v in inner_new if v.kind == "node"] or [new])
            clauses = [f"MATCH {text}",
                       f"WITH {new.name}, size(COLLECT {{ MATCH {inner_text} RETURN {field.name} }}) AS sub"]
            scope.append(Var("sub", INT))
        return self.finish(scope, clauses, "subquery")

    def q_write(self) -> Query:
        label = self.pick(self.small)
        props = self.s.node_props.get(label, {})
        ids = props.get("id") or [1]
        n = Var("n", "node", label)
        key = self.pick([k for k in props if k != "id"] or ["name"])
        value = self.expr(self.pick([INT, STR]), [n], 1)
        shapes = [
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}}) SET n.{key} = {value} RETURN n.{key} AS c0",
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}}) SET n.extra = {value}, n:Extra "
            f"RETURN n.extra AS c0, n:Extra AS c1",
            f"CREATE (m:Fresh {{id: 999999999, v: {value}}}) RETURN m.v AS c0",
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}}) CREATE (n)-[r:FRESH {{w: {self.r.randint(0, 5)}}}]->(m:Fresh) "
            f"RETURN type(r) AS c0, r.w AS c1",
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}}) DETACH DELETE n",
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}})-[r]-() WITH r LIMIT 100 DELETE r "
            f"RETURN count(*) AS c0",
            f"MERGE (n:{label} {{id: {self.const(self.pick(ids + [999999998]), ids + [999999998])}}}) ON CREATE SET n.made = true "
            f"ON MATCH SET n.seen = true RETURN n.made AS c0, n.seen AS c1",
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}}) REMOVE n.{key} RETURN n.{key} AS c0",
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}}) SET n:{label} RETURN labels(n) AS c0",
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}}) REMOVE n:Nope RETURN n.id AS c0",
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}}) SET n.absent = null RETURN n.id AS c0",
            f"MATCH (n:{label} {{id: {self.const(self.pick(ids), ids)}}}) SET n += {{a: 1, b: {value}}} "
            f"RETURN n.a AS c0, n.b AS c1",
        ]
        text = self.pick(shapes)
        bags = {"c0"} if "labels(n) AS c0" in text else set()
        self.pools = {k: v for k, v in self.pools.items() if f"${k}" in text}
        # The write's effect is read back in the same transaction.
        after = f"MATCH (x:{label}) RETURN count(x) AS c, count(x.{key}) AS k"
        params = {k: v for k, v in self.params.items() if f"${k}" in text}
        return Query(text, params, False, bags, True, "write:" + after, dict(self.pools))
