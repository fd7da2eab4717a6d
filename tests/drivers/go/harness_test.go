// Package drivers runs Neo4j's Go driver (github.com/neo4j/neo4j-go-driver/v5),
// unchanged, against real `kith serve` processes, as tests/drivers/js and
// tests/drivers/java do for the JavaScript and Java drivers. The binary is $KITH_BIN
// (scripts/test sets it; default target/release/kith of this repository); the LDBC
// server's data is the official SNB Interactive test set, loaded once per run.
package drivers

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// repo is the repository's root: this file is tests/drivers/go/harness_test.go.
func repo() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

func shared() string { return filepath.Join(repo(), "..", "shared", "data") }
func fixtures() string {
	return filepath.Join(repo(), "crates", "kith-cypher", "tests", "fixtures", "neo4j-official")
}

func kithBin(t testing.TB) string {
	bin := os.Getenv("KITH_BIN")
	if bin == "" {
		bin = filepath.Join(repo(), "target", "release", "kith")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no kith binary at %s: build it with cargo build --release --bin kith", bin)
	}
	return bin
}

// kith runs the kith CLI to completion with `input` on its standard input.
func kith(t testing.TB, input string, args ...string) string {
	cmd := exec.Command(kithBin(t), args...)
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("kith %s failed (%v):\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// addUser creates a user in the data directory before a server starts on it; the
// password goes on standard input, never on the command line.
func addUser(t testing.TB, data, name, role, password string) {
	kith(t, password+"\n", "user", "add", name, "--role", role, "--data", data, "--password-stdin")
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// server is one running `kith serve`.
type server struct {
	cmd    *exec.Cmd
	dir    string
	log    string
	bolt   string
	neo4j  string
	exited chan struct{}
}

// serve starts `kith serve` on DIR/data of a new temporary DIR (`prepare` runs first on
// the not yet created data directory) and returns once /health answers.
func serve(t testing.TB, prepare func(data string), extra ...string) *server {
	dir, err := os.MkdirTemp("", "kith-go-")
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	prepare(data)
	httpPort, boltPort := freePort(t), freePort(t)
	s := &server{dir: dir, log: filepath.Join(dir, "serve.log"), exited: make(chan struct{}),
		bolt:  fmt.Sprintf("bolt://127.0.0.1:%d", boltPort),
		neo4j: fmt.Sprintf("neo4j://127.0.0.1:%d", boltPort)}
	out, err := os.Create(s.log)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"serve", "--data", data, "--listen", fmt.Sprintf("127.0.0.1:%d", httpPort),
		"--bolt-listen", fmt.Sprintf("127.0.0.1:%d", boltPort), "--workers", "2"}, extra...)
	s.cmd = exec.Command(kithBin(t), args...)
	s.cmd.Stdout, s.cmd.Stderr = out, out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.cmd.Wait(); out.Close(); close(s.exited) }()
	s.awaitHealth(t, httpPort)
	return s
}

func (s *server) awaitHealth(t testing.TB, httpPort int) {
	client := http.Client{Timeout: time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-s.exited:
			t.Fatalf("kith serve exited:\n%s", s.tail())
		default:
		}
		if answer, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d/health", httpPort)); err == nil {
			answer.Body.Close()
			if answer.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.stop()
	t.Fatalf("kith serve did not answer /health within 30 s:\n%s", s.tail())
}

func (s *server) tail() string {
	b, _ := os.ReadFile(s.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// stop sends SIGTERM, waits for a clean exit (SIGKILL after 30 s) and removes the
// server's directory.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	os.RemoveAll(s.dir)
}

// writeServer is a server on an empty, writable database of its own, stopped when
// the test ends.
func writeServer(t *testing.T, prepare func(data string), extra ...string) *server {
	s := serve(t, prepare, extra...)
	t.Cleanup(s.stop)
	return s
}

var (
	ldbcOnce   sync.Once
	ldbcServer *server
)

// ldbc is the one server on the official LDBC SNB Interactive test data, started by
// the first test that needs it and stopped by TestMain.
func ldbc(t *testing.T) *server {
	ldbcOnce.Do(func() {
		ldbcServer = serve(t, func(data string) {
			kith(t, "", "load", "ldbc", filepath.Join(shared(), "ldbc-snb-interactive-test", "vanilla"), "--out", data)
		})
	})
	if ldbcServer == nil {
		t.Fatal("the LDBC server did not start (see the first test that needed it)")
	}
	return ldbcServer
}

func TestMain(m *testing.M) {
	code := m.Run()
	if ldbcServer != nil {
		ldbcServer.stop()
	}
	os.Exit(code)
}

var noAuth = neo4j.BasicAuth("neo4j", "unused", "")

// open makes a driver for `uri`, closed when the test ends.
func open(t *testing.T, uri string, auth neo4j.AuthToken) neo4j.DriverWithContext {
	d, err := neo4j.NewDriverWithContext(uri, auth)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close(context.Background()) })
	return d
}

// neo4jError is the server's error in err; the test fails if there is none.
func neo4jError(t *testing.T, err error) *neo4j.Neo4jError {
	t.Helper()
	var e *neo4j.Neo4jError
	if !errors.As(err, &e) {
		t.Fatalf("expected a Neo4jError from the server, got %v", err)
	}
	return e
}

// query runs one auto-commit statement and returns its records; the test fails on an error.
func query(t *testing.T, d neo4j.DriverWithContext, text string, params map[string]any) *neo4j.EagerResult {
	t.Helper()
	result, err := neo4j.ExecuteQuery(context.Background(), d, text, params, neo4j.EagerResultTransformer)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return result
}

// single is the one record `text` answers.
func single(t *testing.T, d neo4j.DriverWithContext, text string, params map[string]any) *neo4j.Record {
	t.Helper()
	result := query(t, d, text, params)
	if len(result.Records) != 1 {
		t.Fatalf("%s: %d records, wanted one", text, len(result.Records))
	}
	return result.Records[0]
}

// get is a record's value for `key`; the test fails if there is none.
func get(t *testing.T, r *neo4j.Record, key string) any {
	t.Helper()
	v, ok := r.Get(key)
	if !ok {
		t.Fatalf("no column %q in %v", key, r.Keys)
	}
	return v
}
