package drivers

// The official LDBC SNB Interactive read texts, unmodified, sent by Neo4j's Go driver
// to kith over Bolt: every answer must equal Neo4j 5.26's own (the fixtures the Rust
// suite also checks the engine against), through `bolt://` sessions and through
// `neo4j://` routing with neo4j.ExecuteQuery. Mirrors tests/drivers/js.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

type fixture struct {
	Text        string   `json:"text"`
	Columns     []string `json:"columns"`
	SortedLists []string `json:"sorted_lists"`
	Cases       []struct {
		Params map[string]any `json:"params"`
		Rows   []any          `json:"rows"`
		Error  *string        `json:"error"`
	} `json:"cases"`
}

type ldbcCase struct {
	name    string
	fixture fixture
	text    string
}

// decode reads JSON keeping numbers exact (json.Number), as the fixtures write them.
func decode(data []byte, into any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(into)
}

func ldbcCases(t *testing.T, dataset string) []ldbcCase {
	dir := filepath.Join(fixtures(), dataset)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s (%v)", dir, err)
	}
	sort.Strings(files)
	var out []ldbcCase
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var f fixture
		if err := decode(raw, &f); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		text, err := os.ReadFile(filepath.Join(shared(), "ldbc-cypher", f.Text))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ldbcCase{strings.TrimSuffix(filepath.Base(file), ".json"), f, string(text)})
	}
	return out
}

// driverParam is a fixture parameter as an application sends it: whole numbers as
// Bolt Integers (int64), the rest as Floats.
func driverParam(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = driverParam(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = driverParam(e)
		}
		return out
	}
	return v
}

// canonical is a value as JSON with every number in one spelling, so a driver's int64
// 2 and float64 2.0 and a fixture's 2 and 2.0 compare equal, as JSON numbers do in the
// JavaScript suite (integers stay exact).
func canonical(t *testing.T, v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%v (%T) is not a fixture value: %v", v, v, err)
	}
	var out any
	if err := decode(raw, &out); err != nil {
		t.Fatal(err)
	}
	return spelled(out)
}

func spelled(v any) any {
	switch x := v.(type) {
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return x
		}
		f, _ := x.Float64()
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	case []any:
		for i, e := range x {
			x[i] = spelled(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = spelled(e)
		}
	}
	return v
}

func jsonText(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// normalise sorts the lists of `sorted_lists` columns (no defined order) and IC14's
// paths of equal weight.
func normalise(rows [][]any, f fixture, name string) [][]any {
	sorted := map[int]bool{}
	for _, c := range f.SortedLists {
		for i, col := range f.Columns {
			if col == c {
				sorted[i] = true
			}
		}
	}
	for _, row := range rows {
		for i, v := range row {
			if list, ok := v.([]any); ok && sorted[i] {
				sort.Slice(list, func(a, b int) bool { return jsonText(list[a]) < jsonText(list[b]) })
			}
		}
	}
	if name == "ic14" {
		sort.SliceStable(rows, func(a, b int) bool {
			wa, _ := rows[a][1].(json.Number).Float64()
			wb, _ := rows[b][1].(json.Number).Float64()
			if wa != wb {
				return wa > wb
			}
			return jsonText(rows[a]) < jsonText(rows[b])
		})
	}
	return rows
}

type answer struct {
	keys []string
	rows [][]any
}

type runner func(text string, params map[string]any) (answer, error)

func checkCase(t *testing.T, run runner, c ldbcCase, i int) string {
	kase := c.fixture.Cases[i]
	params := driverParam(kase.Params).(map[string]any)
	where := fmt.Sprintf("%s %s", c.name, jsonText(kase.Params))
	got, err := run(c.text, params)
	if kase.Error != nil {
		code := strings.SplitN(*kase.Error, ":", 2)[0]
		var e *neo4j.Neo4jError
		switch {
		case err == nil:
			return fmt.Sprintf("%s: Neo4j raised %s, kith answered", where, code)
		case !errors.As(err, &e):
			t.Fatalf("%s: %v", where, err)
		case e.Code != code:
			return fmt.Sprintf("%s: Neo4j raised %s, kith %s (%s)", where, code, e.Code, e.Msg)
		}
		return ""
	}
	if err != nil {
		return fmt.Sprintf("%s: %v", where, err)
	}
	if !reflect.DeepEqual(got.keys, c.fixture.Columns) {
		return fmt.Sprintf("%s: columns %v, Neo4j %v", c.name, got.keys, c.fixture.Columns)
	}
	ours := make([][]any, len(got.rows))
	for r, row := range got.rows {
		ours[r] = canonical(t, row).([]any)
	}
	theirs := make([][]any, len(kase.Rows))
	for r, row := range kase.Rows {
		theirs[r] = canonical(t, row).([]any)
	}
	ours, theirs = normalise(ours, c.fixture, c.name), normalise(theirs, c.fixture, c.name)
	if jsonText(ours) == jsonText(theirs) {
		return ""
	}
	first := func(rows [][]any) string {
		if len(rows) == 0 {
			return "none"
		}
		return jsonText(rows[0])
	}
	return fmt.Sprintf("%s: %d rows, Neo4j %d; first rows kith %s, Neo4j %s", where, len(ours), len(theirs), first(ours), first(theirs))
}

// check runs every case of `dataset` through `run`; the test fails listing the ones
// that differ.
func check(t *testing.T, run runner, dataset string) {
	var failures []string
	count := 0
	for _, c := range ldbcCases(t, dataset) {
		for i := range c.fixture.Cases {
			count++
			if f := checkCase(t, run, c, i); f != "" {
				failures = append(failures, f)
			}
		}
	}
	if len(failures) > 0 {
		if len(failures) > 20 {
			failures = failures[:20]
		}
		t.Fatalf("%d of %d cases differ:\n%s", len(failures), count, strings.Join(failures, "\n"))
	}
}

func values(records []*neo4j.Record) [][]any {
	rows := make([][]any, len(records))
	for i, r := range records {
		rows[i] = r.Values
	}
	return rows
}

func TestLdbcSessionsOverBoltAnswerAsNeo4j(t *testing.T) {
	s := ldbc(t)
	for _, dataset := range []string{"test", "test-probes"} {
		t.Run(dataset, func(t *testing.T) {
			ctx := context.Background()
			session := open(t, s.bolt, noAuth).NewSession(ctx, neo4j.SessionConfig{})
			defer session.Close(ctx)
			check(t, func(text string, params map[string]any) (answer, error) {
				result, err := session.Run(ctx, text, params)
				if err != nil {
					return answer{}, err
				}
				keys, err := result.Keys()
				if err != nil {
					return answer{}, err
				}
				records, err := result.Collect(ctx)
				return answer{keys, values(records)}, err
			}, dataset)
		})
	}
}

func TestLdbcExecuteQueryWithRoutingAnswersAsNeo4j(t *testing.T) {
	s := ldbc(t)
	for _, dataset := range []string{"test", "test-probes"} {
		t.Run(dataset, func(t *testing.T) {
			d := open(t, s.neo4j, noAuth)
			check(t, func(text string, params map[string]any) (answer, error) {
				result, err := neo4j.ExecuteQuery(context.Background(), d, text, params,
					neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithReadersRouting())
				if err != nil {
					return answer{}, err
				}
				return answer{result.Keys, values(result.Records)}, nil
			}, dataset)
		})
	}
}
