//! `dbms.clientConfig()`: the settings Neo4j tells its clients (Neo4j Browser reads
//! `dbms.security.auth_enabled` to decide whether to ask for a login), in Neo4j
//! 5.26's eight columns. Served here, not by `kith-procedures`: whether clients must
//! authenticate is the server's to say, and it changes as users are added.

use kith_core::Value;
use kith_cypher::Signature;

/// The procedure's name.
pub(super) const NAME: &str = "dbms.clientConfig";

const COLUMNS: [&str; 8] = [
    "name",
    "description",
    "value",
    "dynamic",
    "defaultValue",
    "startupValue",
    "explicitlySet",
    "validValues",
];

/// Its signature: no parameters, Neo4j's columns.
pub(super) fn signature() -> Signature {
    Signature {
        name: NAME.to_owned(),
        description: "The settings a client of this server may read (Neo4j's client settings)"
            .to_owned(),
        params: Vec::new(),
        outputs: COLUMNS.iter().map(|c| (*c).to_owned()).collect(),
        writes: false,
    }
}

/// Its rows, sorted by name as Neo4j's are. `asks_credentials`: whether a client
/// must authenticate now.
pub(super) fn rows(asks_credentials: bool) -> Vec<Vec<Value>> {
    let auth = if asks_credentials { "true" } else { "false" };
    let settings = [
        (
            "browser.post_connect_cmd",
            "Commands Neo4j Browser runs once connected (kith sets none)",
            "",
            "",
            "A string.",
        ),
        (
            "browser.remote_content_hostname_whitelist",
            "Hosts Neo4j Browser may fetch content from",
            "guides.neo4j.com,localhost",
            "guides.neo4j.com,localhost",
            "A string.",
        ),
        (
            "client.allow_telemetry",
            "Whether client applications may send product analytics (kith asks them not to)",
            "false",
            "true",
            "A boolean.",
        ),
        (
            "dbms.security.auth_enabled",
            "Whether clients must authenticate: kith asks for credentials once its data \
             directory has users, or when it listens beyond loopback",
            auth,
            "true",
            "A boolean.",
        ),
    ];
    let s = |v: &str| Value::string(v);
    settings
        .iter()
        .map(|(name, description, value, default, valid)| {
            vec![
                s(name),
                s(description),
                s(value),
                Value::Bool(false),
                s(default),
                s(value),
                Value::Bool(value != default),
                s(valid),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auth_enabled_follows_the_server_and_rows_fill_every_column() {
        let value_of = |asks: bool| {
            let rows = rows(asks);
            assert!(rows.iter().all(|r| r.len() == COLUMNS.len()));
            let auth = rows
                .iter()
                .find(|r| r[0] == Value::string("dbms.security.auth_enabled"));
            auth.expect("the auth setting is listed")[2].clone()
        };
        assert_eq!(value_of(true), Value::string("true"));
        assert_eq!(value_of(false), Value::string("false"));
        assert_eq!(signature().outputs.len(), COLUMNS.len());
    }
}
