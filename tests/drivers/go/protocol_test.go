package drivers

// Neo4j's Go driver, unchanged, on what applications do beyond reads: writes and their
// counters, managed and explicit transactions, bookmarks, errors and recovery, large
// results in pages, and every value type Bolt carries. Each test has a fresh, empty
// server. Mirrors tests/drivers/js/protocol.test.mjs and tests/drivers/python.

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // zone names (Europe/Stockholm) without the system's zoneinfo

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"
)

var ctx = context.Background()

func noPrepare(string) {}

// fresh is a routing driver on a new, empty server of the test's own.
func fresh(t *testing.T) (*server, neo4j.DriverWithContext) {
	s := writeServer(t, noPrepare)
	return s, open(t, s.neo4j, noAuth)
}

func count(t *testing.T, d neo4j.DriverWithContext, label string) int64 {
	return get(t, single(t, d, fmt.Sprintf("MATCH (n:%s) RETURN count(n) AS c", label), nil), "c").(int64)
}

func TestTheDriverMeetsANeo4j5Server(t *testing.T) {
	_, d := fresh(t)
	if err := d.VerifyConnectivity(ctx); err != nil {
		t.Fatal(err)
	}
	info, err := d.GetServerInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info.Agent(), "Neo4j/5.") {
		t.Fatalf("agent %q", info.Agent())
	}
	// The newest Bolt both speak: this driver offers up to 5.8.
	if v := info.ProtocolVersion(); v.Major != 5 || v.Minor != 8 {
		t.Fatalf("protocol %v", v)
	}
}

func TestWritesReportTheirCountersAndAreVisibleAfter(t *testing.T) {
	_, d := fresh(t)
	result := query(t, d, "CREATE (a:Thing {name: $a})-[:NEXT {w: 1}]->(b:Thing {name: $b}) RETURN a.name AS a",
		map[string]any{"a": "x", "b": "y"})
	if v, _ := result.Records[0].Get("a"); v != "x" {
		t.Fatalf("a = %v", v)
	}
	c := result.Summary.Counters()
	got := []int{c.NodesCreated(), c.RelationshipsCreated(), c.LabelsAdded(), c.PropertiesSet()}
	if !reflect.DeepEqual(got, []int{2, 1, 2, 3}) || !c.ContainsUpdates() {
		t.Fatalf("counters %v", got)
	}
	if result.Summary.StatementType() != neo4j.StatementTypeReadWrite {
		t.Fatalf("statement type %v", result.Summary.StatementType())
	}
	if n := count(t, d, "Thing"); n != 2 {
		t.Fatalf("%d things", n)
	}
	deleted := query(t, d, "MATCH (a:Thing {name: 'x'}) DETACH DELETE a", nil).Summary.Counters()
	if deleted.NodesDeleted() != 1 || deleted.RelationshipsDeleted() != 1 {
		t.Fatalf("deleted %d nodes, %d relationships", deleted.NodesDeleted(), deleted.RelationshipsDeleted())
	}
}

func TestUnwindWritesAThousandRowsInOneTransaction(t *testing.T) {
	_, d := fresh(t)
	rows := make([]any, 1000)
	for i := range rows {
		rows[i] = map[string]any{"id": int64(i), "name": fmt.Sprintf("n%d", i)}
	}
	result := query(t, d, "UNWIND $rows AS r CREATE (:Thing {id: r.id, name: r.name})", map[string]any{"rows": rows})
	if n := result.Summary.Counters().NodesCreated(); n != 1000 {
		t.Fatalf("%d created", n)
	}
	if name := get(t, single(t, d, "MATCH (n:Thing {id: 999}) RETURN n.name AS name", nil), "name"); name != "n999" {
		t.Fatalf("name %v", name)
	}
}

func TestManagedTransactionsCommitAndReadBack(t *testing.T) {
	_, d := fresh(t)
	session := d.NewSession(ctx, neo4j.SessionConfig{})
	defer session.Close(ctx)
	created, err := neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (any, error) {
		return firstValue(tx.Run(ctx, "CREATE (n:Thing {v: 1}) RETURN n.v AS v", nil))
	})
	if err != nil || created != int64(1) {
		t.Fatalf("created %v, %v", created, err)
	}
	seen, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) (any, error) {
		return firstValue(tx.Run(ctx, "MATCH (n:Thing) RETURN count(n) AS c", nil))
	})
	if err != nil || seen != int64(1) {
		t.Fatalf("seen %v, %v", seen, err)
	}
}

// firstValue is the first value of the one record a Run answers.
func firstValue(result neo4j.ResultWithContext, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	record, err := result.Single(ctx)
	if err != nil {
		return nil, err
	}
	return record.Values[0], nil
}

// consume runs a result to its end.
func consume(result neo4j.ResultWithContext, err error) error {
	if err != nil {
		return err
	}
	_, err = result.Consume(ctx)
	return err
}

func TestExplicitTransactionsCommitOrRollBack(t *testing.T) {
	_, d := fresh(t)
	session := d.NewSession(ctx, neo4j.SessionConfig{})
	defer session.Close(ctx)
	tx, err := session.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := consume(tx.Run(ctx, "CREATE (:Thing {v: 2})", nil)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(t, d, "Thing"); n != 0 {
		t.Fatalf("%d after rollback", n)
	}
	tx, _ = session.BeginTransaction(ctx)
	if err := consume(tx.Run(ctx, "CREATE (:Thing {v: 3})", nil)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(t, d, "Thing"); n != 1 {
		t.Fatalf("%d after commit", n)
	}
}

func TestATransactionReadsOneSnapshot(t *testing.T) {
	_, d := fresh(t)
	reader := d.NewSession(ctx, neo4j.SessionConfig{})
	defer reader.Close(ctx)
	tx, err := reader.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	countIn := func() any {
		n, err := firstValue(tx.Run(ctx, "MATCH (n:Thing) RETURN count(n) AS c", nil))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := countIn(); n != int64(0) {
		t.Fatalf("%v before", n)
	}
	query(t, d, "CREATE (:Thing)", nil)
	// Committed by another session after BEGIN: not seen inside the transaction.
	if n := countIn(); n != int64(0) {
		t.Fatalf("%v inside the transaction", n)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(t, d, "Thing"); n != 1 {
		t.Fatalf("%d after", n)
	}
}

func TestBookmarksChainSessions(t *testing.T) {
	_, d := fresh(t)
	first := d.NewSession(ctx, neo4j.SessionConfig{})
	if err := consume(first.Run(ctx, "CREATE (:Thing)", nil)); err != nil {
		t.Fatal(err)
	}
	bookmarks := first.LastBookmarks()
	first.Close(ctx)
	if len(bookmarks) == 0 {
		t.Fatal("no bookmark after a write")
	}
	second := d.NewSession(ctx, neo4j.SessionConfig{Bookmarks: bookmarks})
	defer second.Close(ctx)
	if n, err := firstValue(second.Run(ctx, "MATCH (n:Thing) RETURN count(n) AS c", nil)); err != nil || n != int64(1) {
		t.Fatalf("%v, %v", n, err)
	}
}

// runErr is the error of running `text` in `session` to its end.
func runErr(session neo4j.SessionWithContext, text string, params map[string]any) error {
	return consume(session.Run(ctx, text, params))
}

func TestABookmarkKithNeverIssuedIsRefused(t *testing.T) {
	s, _ := fresh(t)
	session := open(t, s.bolt, noAuth).NewSession(ctx,
		neo4j.SessionConfig{Bookmarks: neo4j.BookmarksFromRawValues("not-a-kith-bookmark")})
	defer session.Close(ctx)
	if e := neo4jError(t, runErr(session, "RETURN 1", nil)); e.Code != "Neo.ClientError.Transaction.InvalidBookmark" {
		t.Fatal(e)
	}
}

func TestErrorsHaveNeo4jCodesAndTheSessionRecovers(t *testing.T) {
	_, d := fresh(t)
	session := d.NewSession(ctx, neo4j.SessionConfig{})
	defer session.Close(ctx)
	if e := neo4jError(t, runErr(session, "RETRUN 1", nil)); e.Code != "Neo.ClientError.Statement.SyntaxError" {
		t.Fatal(e)
	}
	if e := neo4jError(t, runErr(session, "RETURN 1 / $z AS q", map[string]any{"z": 0})); e.Code != "Neo.ClientError.Statement.ArithmeticError" {
		t.Fatal(e)
	}
	if e := neo4jError(t, runErr(session, "RETURN $missing AS m", nil)); e.Code != "Neo.ClientError.Statement.ParameterMissing" {
		t.Fatal(e)
	}
	// The connection was reset after each failure: it still works.
	if x, err := firstValue(session.Run(ctx, "RETURN 41 + 1 AS x", nil)); err != nil || x != int64(42) {
		t.Fatalf("%v, %v", x, err)
	}
}

func TestAReadSessionCannotWrite(t *testing.T) {
	_, d := fresh(t)
	session := d.NewSession(ctx, neo4j.SessionConfig{AccessMode: neo4j.AccessModeRead})
	defer session.Close(ctx)
	if e := neo4jError(t, runErr(session, "CREATE (:Thing)", nil)); e.Code != "Neo.ClientError.Statement.AccessMode" {
		t.Fatal(e)
	}
	if n := count(t, d, "Thing"); n != 0 {
		t.Fatalf("%d written", n)
	}
}

func TestAnUnknownDatabaseIsRefused(t *testing.T) {
	s, _ := fresh(t)
	session := open(t, s.bolt, noAuth).NewSession(ctx, neo4j.SessionConfig{DatabaseName: "elsewhere"})
	defer session.Close(ctx)
	if e := neo4jError(t, runErr(session, "RETURN 1", nil)); e.Code != "Neo.ClientError.Database.DatabaseNotFound" {
		t.Fatal(e)
	}
}

func TestLargeResultsStreamInPages(t *testing.T) {
	_, d := fresh(t)
	session := d.NewSession(ctx, neo4j.SessionConfig{FetchSize: 100})
	defer session.Close(ctx)
	result, err := session.Run(ctx, "UNWIND range(1, 25000) AS i RETURN i, 'row ' + toString(i) AS s", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := int64(1)
	for result.Next(ctx) {
		r := result.Record()
		if r.Values[0] != want || r.Values[1] != fmt.Sprintf("row %d", want) {
			t.Fatalf("row %d: %v", want, r.Values)
		}
		want++
	}
	if err := result.Err(); err != nil || want != 25001 {
		t.Fatalf("%d rows, %v", want-1, err)
	}
}

func TestGraphStructuresArriveAsDriverTypes(t *testing.T) {
	_, d := fresh(t)
	query(t, d, "CREATE (:P {name: 'a'})-[:KNOWS {since: 2020}]->(:P {name: 'b'})", nil)
	r := single(t, d, "MATCH p = (a:P {name: 'a'})-[r:KNOWS]->(b:P) RETURN a, r, p", nil)
	a, rel, path := r.Values[0].(dbtype.Node), r.Values[1].(dbtype.Relationship), r.Values[2].(dbtype.Path)
	if !reflect.DeepEqual(a.Labels, []string{"P"}) || a.Props["name"] != "a" || a.ElementId == "" {
		t.Fatalf("node %+v", a)
	}
	if rel.Type != "KNOWS" || rel.Props["since"] != int64(2020) || rel.StartElementId != a.ElementId {
		t.Fatalf("relationship %+v", rel)
	}
	if len(path.Relationships) != 1 || len(path.Nodes) != 2 || path.Nodes[1].Props["name"] != "b" {
		t.Fatalf("path %+v", path)
	}
	// elementId() is the driver's element id, and seeks the element.
	seek := single(t, d, "MATCH (n) WHERE elementId(n) = $id RETURN n.name AS name", map[string]any{"id": a.ElementId})
	if seek.Values[0] != "a" {
		t.Fatalf("seek %v", seek.Values)
	}
}

func TestEveryTemporalTypeRoundTripsAsTheDriversTypes(t *testing.T) {
	_, d := fresh(t)
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]any{
		"d":   dbtype.Date(time.Date(1984, 10, 11, 0, 0, 0, 0, time.UTC)),
		"lt":  dbtype.LocalTime(time.Date(0, 1, 1, 12, 31, 14, 645876123, time.UTC)),
		"t":   dbtype.Time(time.Date(0, 1, 1, 12, 31, 14, 645876123, time.FixedZone("Offset", -3600))),
		"ldt": dbtype.LocalDateTime(time.Date(1984, 10, 11, 12, 31, 14, 645876123, time.UTC)),
		"dt":  time.Date(1984, 10, 11, 12, 31, 14, 645876123, stockholm),
		"off": time.Date(1984, 10, 11, 12, 31, 14, 5, time.FixedZone("Offset", 5400)),
		"dur": dbtype.Duration{Months: 14, Days: -3, Seconds: 70, Nanos: 5},
	}
	r := single(t, d, "CREATE (v:Temporals {d: $d, lt: $lt, t: $t, ldt: $ldt, dt: $dt, off: $off, dur: $dur}) "+
		"RETURN v.d AS d, v.lt AS lt, v.t AS t, v.ldt AS ldt, v.dt AS dt, v.off AS off, v.dur AS dur, "+
		"toString(v.dt) AS text, toString(v.off) AS offText, v.d + v.dur AS later", params)
	for key, sent := range params {
		got := get(t, r, key)
		if reflect.TypeOf(got) != reflect.TypeOf(sent) || !sameInstant(got, sent) {
			t.Errorf("%s: sent %v (%T), got %v (%T)", key, sent, sent, got, got)
		}
	}
	if text := get(t, r, "text"); text != "1984-10-11T12:31:14.645876123+01:00[Europe/Stockholm]" {
		t.Errorf("text %v", text)
	}
	if text := get(t, r, "offText"); text != "1984-10-11T12:31:14.000000005+01:30" {
		t.Errorf("offset text %v", text)
	}
	later := time.Time(get(t, r, "later").(dbtype.Date))
	if later.Year() != 1985 || later.Month() != 12 || later.Day() != 8 {
		t.Errorf("later %v", later)
	}
}

// sameInstant compares two temporal values field by field: the date and clock the type
// has, and the zone's offset and name where it has one (the driver reads local types
// in time.Local, which means nothing to them).
func sameInstant(got, sent any) bool {
	const date, clock = "2006-01-02", "15:04:05.999999999"
	var layout string
	var g, s time.Time
	zoned := false
	switch x := sent.(type) {
	case dbtype.Duration:
		return x.Equal(got.(dbtype.Duration))
	case time.Time:
		layout, g, s, zoned = date+"T"+clock+" -07:00 MST", got.(time.Time), x, true
	case dbtype.Date:
		layout, g, s = date, time.Time(got.(dbtype.Date)), time.Time(x)
	case dbtype.LocalTime:
		layout, g, s = clock, time.Time(got.(dbtype.LocalTime)), time.Time(x)
	case dbtype.Time:
		layout, g, s, zoned = clock+" -07:00", time.Time(got.(dbtype.Time)), time.Time(x), true
	case dbtype.LocalDateTime:
		layout, g, s = date+"T"+clock, time.Time(got.(dbtype.LocalDateTime)), time.Time(x)
	default:
		return false
	}
	return g.Format(layout) == s.Format(layout) && (!zoned || g.Location().String() == s.Location().String())
}

func TestPointsRoundTripAsTheDriversPoints(t *testing.T) {
	_, d := fresh(t)
	params := map[string]any{
		"c2": dbtype.Point2D{X: 1.5, Y: -2.0, SpatialRefId: 7203},
		"c3": dbtype.Point3D{X: 1, Y: 2, Z: 3, SpatialRefId: 9157},
		"g2": dbtype.Point2D{X: 12.5, Y: 55.6, SpatialRefId: 4326},
		"g3": dbtype.Point3D{X: 12.5, Y: 55.6, Z: 100, SpatialRefId: 4979},
	}
	r := single(t, d, "CREATE (v:Points {c2: $c2, c3: $c3, g2: $g2, g3: $g3, path: [$c2, $c2]}) "+
		"RETURN v.c2 AS c2, v.c3 AS c3, v.g2 AS g2, v.g3 AS g3, v.path AS path, v.g2.latitude AS lat, "+
		"point.distance(v.g2, point({longitude: 12.5, latitude: 55.7})) AS metres", params)
	for key, sent := range params {
		if got := get(t, r, key); !reflect.DeepEqual(got, sent) {
			t.Errorf("%s: sent %v, got %v", key, sent, got)
		}
	}
	if path := get(t, r, "path"); !reflect.DeepEqual(path, []any{params["c2"], params["c2"]}) {
		t.Errorf("path %v", path)
	}
	if lat := get(t, r, "lat"); lat != 55.6 {
		t.Errorf("latitude %v", lat)
	}
	if m := get(t, r, "metres").(float64); m < 11_000 || m > 11_200 {
		t.Errorf("distance %v", m)
	}
}

func TestByteArraysRoundTripAndReadAsSignedIntegers(t *testing.T) {
	_, d := fresh(t)
	sent := []byte{1, 2, 255}
	r := single(t, d, "CREATE (v:GoBlob {b: $b, e: $e}) RETURN v.b AS b, v.e AS e, size($b) AS n, "+
		"$b[-1] AS last, $b = [1, 2, -1] AS same, valueType($b) AS type",
		map[string]any{"b": sent, "e": []byte{}})
	if b := get(t, r, "b"); !reflect.DeepEqual(b, sent) {
		t.Errorf("b %v (%T)", b, b)
	}
	if e := get(t, r, "e"); !reflect.DeepEqual(e, []byte{}) {
		t.Errorf("e %v (%T)", e, e)
	}
	got := []any{get(t, r, "n"), get(t, r, "last"), get(t, r, "same"), get(t, r, "type")}
	if !reflect.DeepEqual(got, []any{int64(3), int64(-1), true, "LIST<INTEGER NOT NULL> NOT NULL"}) {
		t.Errorf("read as %v", got)
	}
}

func TestScalarsListsAndMapsRoundTripExactly(t *testing.T) {
	_, d := fresh(t)
	params := map[string]any{
		"min": int64(math.MinInt64), "max": int64(math.MaxInt64), "tiny": 5e-324, "inf": math.Inf(1),
		"text": "ünïcødé ✓ \x00 end", "empty": "", "yes": true, "none": nil,
		"list": []any{int64(1), "two", 3.5, nil, []any{false}},
		"map":  map[string]any{"k": []any{int64(1)}, "nested": map[string]any{"z": "y"}},
		"ints": []int64{1, 2, 3}, "strings": []string{"a", "b"},
	}
	r := single(t, d, "CREATE (v:Scalars {min: $min, max: $max, tiny: $tiny, inf: $inf, text: $text, "+
		"empty: $empty, yes: $yes, ints: $ints, strings: $strings}) "+
		"RETURN v.min AS min, v.max AS max, v.tiny AS tiny, v.inf AS inf, v.text AS text, v.empty AS empty, "+
		"v.yes AS yes, $none AS none, $list AS list, $map AS map, v.ints AS ints, v.strings AS strings, "+
		"0.0 / 0.0 AS nan", params)
	want := map[string]any{"ints": []any{int64(1), int64(2), int64(3)}, "strings": []any{"a", "b"}}
	for key, sent := range params {
		if w, ok := want[key]; ok {
			sent = w
		}
		if got := get(t, r, key); !reflect.DeepEqual(got, sent) {
			t.Errorf("%s: sent %#v, got %#v", key, sent, got)
		}
	}
	if nan := get(t, r, "nan").(float64); !math.IsNaN(nan) {
		t.Errorf("0.0 / 0.0 = %v", nan)
	}
}

func TestExplainAndProfileFillTheSummary(t *testing.T) {
	_, d := fresh(t)
	query(t, d, "UNWIND range(1, 5) AS i CREATE (:Thing {v: i})-[:NEXT]->(:Other)", nil)
	result := query(t, d, "PROFILE MATCH (t:Thing)-[:NEXT]->(o) WHERE t.v > 2 RETURN count(o) AS n", nil)
	if result.Records[0].Values[0] != int64(3) {
		t.Fatalf("n = %v", result.Records[0].Values[0])
	}
	profile := result.Summary.Profile()
	if profile == nil || profile.Operator() != "ProduceResults" || profile.Records() != 1 {
		t.Fatalf("profile %+v", profile)
	}
	ops := map[string]neo4j.ProfiledPlan{}
	var walk func(neo4j.ProfiledPlan)
	walk = func(p neo4j.ProfiledPlan) {
		ops[p.Operator()] = p
		for _, c := range p.Children() {
			walk(c)
		}
	}
	walk(profile)
	if ops["NodeByLabelScan"] == nil || ops["NodeByLabelScan"].Records() != 5 || ops["Expand(All)"].Records() != 3 {
		t.Fatalf("operators %v", ops)
	}
	explained := query(t, d, "EXPLAIN CREATE (:Thing {v: 99})", nil)
	if len(explained.Records) != 0 || explained.Summary.Plan() == nil || explained.Summary.Profile() != nil {
		t.Fatal("EXPLAIN answered rows or no plan")
	}
	if n := count(t, d, "Thing"); n != 5 {
		t.Fatalf("EXPLAIN ran: %d things", n)
	}
}
