//! The servers a soak runs against, as processes: a durable primary and, given a
//! Kafka broker, a read replica that applies the primary's log from a topic. And
//! what each uses of memory.

use std::net::SocketAddr;

use super::Options;
use crate::process::{self, ServeProcess};

/// The primary and the replica, if any; killed when dropped.
pub(crate) struct Servers {
    pub(crate) primary: ServeProcess,
    pub(crate) replica: Option<ServeProcess>,
}

impl Servers {
    /// Starts the primary and, with `options.kafka`, a replica bootstrapped from it
    /// (once the primary serves a checkpoint that has reached the topic).
    pub(crate) fn start(options: &Options) -> Result<Servers, String> {
        let workers = ["--workers".to_owned(), options.workers.to_string()];
        let topic = options.kafka.as_ref().map(|broker| {
            let ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis());
            format!("kafka://{broker}/soak-{ms}")
        });
        let mut extra = workers.to_vec();
        if let Some(topic) = &topic {
            extra.extend(["--publish".to_owned(), topic.clone()]);
        }
        let addr = process::free_port()?;
        let primary = process::serve(&options.kith, &options.data, addr, &extra, &options.log)?;
        let Some(topic) = topic else {
            return Ok(Servers {
                primary,
                replica: None,
            });
        };
        process::wait_for_checkpoint(addr)?;
        let mut extra = workers.to_vec();
        extra.extend([
            "--replica-of".to_owned(),
            topic,
            "--bootstrap".to_owned(),
            format!("http://{addr}"),
        ]);
        let log = options.log.with_file_name("replica.log");
        let (at, data) = (process::free_port()?, &options.replica_data);
        let replica = process::serve(&options.kith, data, at, &extra, &log)?;
        Ok(Servers {
            primary,
            replica: Some(replica),
        })
    }

    /// How many versions the replica is behind the primary now (`None` without a
    /// replica, or when either did not answer `GET /health` within 5 s). Asked off
    /// the runtime: `curl` blocks, and the paced clients share the runtime's threads.
    pub(crate) async fn lag_versions(&self) -> Option<u64> {
        let (primary, replica) = (self.primary.addr, self.replica.as_ref()?.addr);
        let version = |addr: SocketAddr| process::health_number(addr, None, "version");
        let asked = tokio::task::spawn_blocking(move || (version(primary), version(replica)));
        let (primary, replica) = asked.await.ok()?;
        Some(primary?.saturating_sub(replica?))
    }
}

/// A process's resident memory, MiB (from `/proc/PID/status`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Memory {
    /// All of it.
    pub rss_mib: f64,
    /// The anonymous part (heap, stacks).
    pub anon_mib: f64,
    /// The file-backed part (the mapped graph file, the binary).
    pub file_mib: f64,
}

impl Memory {
    /// The process's memory now; zeros once it is gone.
    pub(crate) fn of(pid: u32) -> Memory {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        Memory {
            rss_mib: field_mib(&status, "VmRSS:"),
            anon_mib: field_mib(&status, "RssAnon:"),
            file_mib: field_mib(&status, "RssFile:"),
        }
    }
}

/// Resident memory of a process, MiB.
pub(crate) fn rss_mib(pid: u32) -> f64 {
    Memory::of(pid).rss_mib
}

/// One memory field of a `/proc/PID/status` text (given in kB there), MiB; 0 when it
/// is missing.
fn field_mib(status: &str, field: &str) -> f64 {
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_fields_are_read_in_mib() {
        let status = "Name:\tkith\nVmRSS:\t  2048 kB\nRssAnon:\t  1536 kB\nRssFile:\t   512 kB\n";
        assert_eq!(field_mib(status, "VmRSS:"), 2.0);
        assert_eq!(field_mib(status, "RssAnon:"), 1.5);
        assert_eq!(field_mib(status, "RssFile:"), 0.5);
        assert_eq!(field_mib(status, "RssShmem:"), 0.0);
    }

    #[test]
    fn this_process_has_resident_memory() {
        let memory = Memory::of(std::process::id());
        assert!(memory.rss_mib > 0.0 && memory.anon_mib > 0.0, "{memory:?}");
        assert!(memory.anon_mib + memory.file_mib <= memory.rss_mib + 0.01);
    }
}
