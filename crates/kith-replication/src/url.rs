//! `kafka://HOST:PORT[,HOST:PORT...]/TOPIC`: where a log is published or read.

use std::fmt;
use std::str::FromStr;

use crate::ReplicationError;

/// A topic on a Kafka cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KafkaUrl {
    /// Bootstrap servers, comma-separated `HOST:PORT` (librdkafka's `bootstrap.servers`).
    pub brokers: String,
    /// The topic.
    pub topic: String,
}

/// Kafka's own limit on a topic name's length.
const TOPIC_CHARS_MAX: usize = 249;

impl FromStr for KafkaUrl {
    type Err = ReplicationError;

    fn from_str(text: &str) -> Result<KafkaUrl, ReplicationError> {
        let bad = |why: &str| ReplicationError::BadUrl {
            url: text.to_owned(),
            reason: why.to_owned(),
        };
        let rest = text
            .strip_prefix("kafka://")
            .ok_or_else(|| bad("it must start with kafka://"))?;
        let (brokers, topic) = rest
            .split_once('/')
            .ok_or_else(|| bad("it names no topic (kafka://HOST:PORT/TOPIC)"))?;
        if brokers.is_empty() {
            return Err(bad("it names no broker"));
        }
        for broker in brokers.split(',') {
            let (host, port) = broker
                .rsplit_once(':')
                .ok_or_else(|| bad(&format!("broker `{broker}` has no :PORT")))?;
            if host.is_empty() || port.parse::<u16>().map_or(true, |p| p == 0) {
                return Err(bad(&format!("broker `{broker}` is not HOST:PORT")));
            }
        }
        let topic_ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        if topic.is_empty() || topic.len() > TOPIC_CHARS_MAX || !topic.chars().all(topic_ok) {
            return Err(bad(&format!(
                "topic `{topic}` must be 1 to {TOPIC_CHARS_MAX} of a-z, A-Z, 0-9, '.', '_', '-'"
            )));
        }
        if topic == "." || topic == ".." {
            return Err(bad("a topic may not be named . or .."));
        }
        Ok(KafkaUrl {
            brokers: brokers.to_owned(),
            topic: topic.to_owned(),
        })
    }
}

impl fmt::Display for KafkaUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kafka://{}/{}", self.brokers, self.topic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_brokers_and_topic() {
        let url: KafkaUrl = "kafka://127.0.0.1:9092,b:9093/kith.log-1"
            .parse()
            .expect("parses");
        assert_eq!(url.brokers, "127.0.0.1:9092,b:9093");
        assert_eq!(url.topic, "kith.log-1");
        assert_eq!(url.to_string(), "kafka://127.0.0.1:9092,b:9093/kith.log-1");
    }

    #[test]
    fn refuses_what_is_not_a_topic_url_by_name() {
        for (text, why) in [
            ("http://h:1/t", "kafka://"),
            ("kafka://h:1", "no topic"),
            ("kafka:///t", "no broker"),
            ("kafka://h/t", "no :PORT"),
            ("kafka://h:0/t", "not HOST:PORT"),
            ("kafka://h:x/t", "not HOST:PORT"),
            ("kafka://h:1/", "topic ``"),
            ("kafka://h:1/a b", "topic `a b`"),
            ("kafka://h:1/..", "may not be named"),
        ] {
            let err = text.parse::<KafkaUrl>().expect_err(text).to_string();
            assert!(err.contains(why) && err.contains(text), "{text}: {err}");
        }
    }
}
