package drivers

// Authentication and roles through Neo4j's Go driver: once a data directory has users
// (`kith user add`), every Bolt connection must log in with basic auth, and a user's
// role decides whether it may write. The driver must see Neo4j's own codes:
// Neo.ClientError.Security.Unauthorized for bad credentials, Forbidden for a write the
// role does not allow. Mirrors tests/drivers/js/auth.test.mjs.

import (
	"strings"
	"testing"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

var users = map[string][2]string{ // name: role, password
	"ada":  {"admin", "ada-Secret-1"},
	"wes":  {"writer", "wes secret with spaces"},
	"rita": {"reader", "rita-Secret-3"},
}

const unauthorized = "Neo.ClientError.Security.Unauthorized"

func login(name string) neo4j.AuthToken { return neo4j.BasicAuth(name, users[name][1], "") }

func TestAuthenticationAndRoles(t *testing.T) {
	s := writeServer(t, func(data string) {
		for name, u := range users {
			addUser(t, data, name, u[0], u[1])
		}
	})
	refused := func(t *testing.T, auth neo4j.AuthToken) {
		d := open(t, s.bolt, auth)
		if e := neo4jError(t, d.VerifyConnectivity(ctx)); e.Code != unauthorized {
			t.Fatal(e)
		}
	}
	t.Run("a wrong password is refused as unauthorized", func(t *testing.T) {
		refused(t, neo4j.BasicAuth("wes", "not-the-password", ""))
		_, err := neo4j.ExecuteQuery(ctx, open(t, s.bolt, neo4j.BasicAuth("wes", "nope", "")), "RETURN 1", nil,
			neo4j.EagerResultTransformer)
		if e := neo4jError(t, err); e.Code != unauthorized {
			t.Fatal(e)
		}
	})
	t.Run("an unknown user is refused", func(t *testing.T) { refused(t, neo4j.BasicAuth("mallory", users["wes"][1], "")) })
	t.Run("no credentials are refused once users exist", func(t *testing.T) { refused(t, neo4j.NoAuth()) })
	t.Run("VerifyAuthentication tells good credentials from bad", func(t *testing.T) {
		d := open(t, s.bolt, login("rita"))
		if err := d.VerifyAuthentication(ctx, nil); err != nil {
			t.Fatal(err)
		}
		wrong := neo4j.BasicAuth("rita", "wrong", "")
		if e := neo4jError(t, d.VerifyAuthentication(ctx, &wrong)); e.Code != unauthorized {
			t.Fatal(e)
		}
	})
	t.Run("a writer writes and reads its writes", func(t *testing.T) {
		d := open(t, s.bolt, login("wes"))
		if n := query(t, d, "CREATE (:Note {by: 'wes'})", nil).Summary.Counters().NodesCreated(); n != 1 {
			t.Fatalf("%d created", n)
		}
		if n := count(t, d, "Note"); n != 1 {
			t.Fatalf("%d notes", n)
		}
	})
	t.Run("a reader reads but may not write, and its session goes on", func(t *testing.T) {
		session := open(t, s.bolt, login("rita")).NewSession(ctx, neo4j.SessionConfig{})
		defer session.Close(ctx)
		if e := neo4jError(t, runErr(session, "CREATE (:Note {by: 'rita'})", nil)); e.Code != "Neo.ClientError.Security.Forbidden" {
			t.Fatal(e)
		}
		if n, err := firstValue(session.Run(ctx, "MATCH (n:Note {by: 'rita'}) RETURN count(n)", nil)); err != nil || n != int64(0) {
			t.Fatalf("%v, %v", n, err)
		}
	})
	// Session auth (Bolt 5.1+ LOGOFF/LOGON on a pooled connection): the session's user,
	// not the driver's, decides.
	t.Run("a session logged in as another user has that user's rights", func(t *testing.T) {
		d := open(t, s.bolt, login("ada"))
		rita := login("rita")
		reader := d.NewSession(ctx, neo4j.SessionConfig{Auth: &rita})
		defer reader.Close(ctx)
		if e := neo4jError(t, runErr(reader, "CREATE (:Note {by: 'rita via ada'})", nil)); e.Code != "Neo.ClientError.Security.Forbidden" {
			t.Fatal(e)
		}
		wrong := neo4j.BasicAuth("rita", "wrong", "")
		intruder := d.NewSession(ctx, neo4j.SessionConfig{Auth: &wrong})
		defer intruder.Close(ctx)
		err := runErr(intruder, "RETURN 1", nil)
		if err == nil || !strings.Contains(err.Error(), "authentication failed") {
			t.Fatalf("a wrong session password: %v", err)
		}
		if n := query(t, d, "CREATE (:Note {by: 'ada'})", nil).Summary.Counters().NodesCreated(); n != 1 {
			t.Fatalf("%d created", n)
		}
	})
}
