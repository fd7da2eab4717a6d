"""A PostgreSQL connection for benchmarks: a statement timeout, and the server's own
execution time read from pg_stat_statements (postgres.sh preloads it)."""
import psycopg


class Session:
    def __init__(self, port, timeout_s, db="ldbc"):
        self.errors = psycopg.errors
        self.db = db
        self.conn = psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname=db, autocommit=True)
        self.conn.execute(f"SET statement_timeout = {int(timeout_s * 1000)}")
        self.conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        self.timeout_ms = timeout_s * 1000

    def reset(self):
        self.conn.execute("SELECT pg_stat_statements_reset()")

    def server_mean_ms(self):
        """This database's mean execution time per call since reset(); cancelled
        statements are not recorded by pg_stat_statements."""
        row = self.conn.execute(
            "SELECT sum(total_exec_time) / nullif(sum(calls), 0) FROM pg_stat_statements s "
            "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = %s "
            "AND query NOT LIKE '%%pg_stat_statements%%' AND query NOT LIKE 'SET %%'", (self.db,)).fetchone()
        return float(row[0]) if row[0] is not None else None
