package drivers

// One Go driver shared by many goroutines, as a Go service uses it: concurrent managed
// write transactions on one contended element lose no update (a refused conflict is
// retried by the driver), readers stream beside them, and statements that fail inside
// managed transactions leave the pool usable.

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

const workers, rounds = 16, 25

func TestConcurrentManagedWritesLoseNoUpdate(t *testing.T) {
	_, d := fresh(t)
	query(t, d, "CREATE (:Counter {n: 0})", nil)
	var wg sync.WaitGroup
	failures := make(chan error, workers+2)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			session := d.NewSession(ctx, neo4j.SessionConfig{})
			defer session.Close(ctx)
			for i := 0; i < rounds; i++ {
				_, err := session.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
					// Read, then write what was read plus one: a lost update would show.
					n, err := firstValue(tx.Run(ctx, "MATCH (c:Counter) RETURN c.n", nil))
					if err != nil {
						return nil, err
					}
					if _, err := firstValue(tx.Run(ctx, "MATCH (c:Counter) SET c.n = $n RETURN c.n", map[string]any{"n": n.(int64) + 1})); err != nil {
						return nil, err
					}
					return firstValue(tx.Run(ctx, "CREATE (m:Mine {w: $w, i: $i}) RETURN m.i", map[string]any{"w": w, "i": i}))
				})
				if err != nil {
					failures <- fmt.Errorf("worker %d round %d: %w", w, i, err)
					return
				}
			}
		}(w)
	}
	// Readers stream a large result while the writers contend.
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			session := d.NewSession(ctx, neo4j.SessionConfig{FetchSize: 50, AccessMode: neo4j.AccessModeRead})
			defer session.Close(ctx)
			result, err := session.Run(ctx, "UNWIND range(1, 5000) AS i RETURN i", nil)
			seen := int64(0)
			for err == nil && result.Next(ctx) {
				seen++
				if result.Record().Values[0] != seen {
					err = fmt.Errorf("row %d read %v", seen, result.Record().Values[0])
				}
			}
			if err == nil {
				err = result.Err()
			}
			if err == nil && seen != 5000 {
				err = fmt.Errorf("a reader saw %d rows", seen)
			}
			if err != nil {
				failures <- err
			}
		}()
	}
	wg.Wait()
	close(failures)
	for err := range failures {
		t.Error(err)
	}
	if n := get(t, single(t, d, "MATCH (c:Counter) RETURN c.n AS n", nil), "n"); n != int64(workers*rounds) {
		t.Fatalf("counter %v after %d increments", n, workers*rounds)
	}
	per := query(t, d, "MATCH (m:Mine) RETURN m.w AS w, count(*) AS n, count(DISTINCT m.i) AS distinct ORDER BY w", nil)
	if len(per.Records) != workers {
		t.Fatalf("%d workers wrote", len(per.Records))
	}
	for _, r := range per.Records {
		if r.Values[1] != int64(rounds) || r.Values[2] != int64(rounds) {
			t.Fatalf("worker %v wrote %v rows (%v distinct), not %d", r.Values[0], r.Values[1], r.Values[2], rounds)
		}
	}
}

func TestFailuresInsideManagedTransactionsLeaveTheDriverUsable(t *testing.T) {
	_, d := fresh(t)
	done := make(chan error, 20)
	for g := 0; g < 20; g++ {
		go func(g int) {
			session := d.NewSession(ctx, neo4j.SessionConfig{})
			defer session.Close(ctx)
			for i := 0; i < 10; i++ {
				_, err := session.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
					return firstValue(tx.Run(ctx, "CREATE (:Tried) RETURN 1 / $z", map[string]any{"z": 0}))
				})
				if e, ok := err.(*neo4j.Neo4jError); !ok || e.Code != "Neo.ClientError.Statement.ArithmeticError" {
					done <- fmt.Errorf("goroutine %d: %v", g, err)
					return
				}
				if _, err := session.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
					return firstValue(tx.Run(ctx, "CREATE (n:Done {g: $g}) RETURN n.g", map[string]any{"g": g}))
				}); err != nil {
					done <- fmt.Errorf("goroutine %d after a failure: %w", g, err)
					return
				}
			}
			done <- nil
		}(g)
	}
	deadline := time.After(60 * time.Second)
	for g := 0; g < 20; g++ {
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-deadline:
			t.Fatalf("%d of 20 goroutines still blocked after 60 s", 20-g)
		}
	}
	if n := count(t, d, "Done"); n != 200 {
		t.Fatalf("%d committed, wanted 200", n)
	}
	if n := count(t, d, "Tried"); n != 0 {
		t.Fatalf("%d failed transactions left writes", n)
	}
}
