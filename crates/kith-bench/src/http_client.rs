//! A keep-alive HTTP/1.1 client for the REST baseline: one request, one response,
//! as S1's REST driver, with the answer decoded into values like any real client.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use kith_protocol::Encoding;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// One keep-alive connection.
pub(crate) struct Http {
    reader: BufReader<TcpStream>,
    host: String,
}

/// What one POST cost on the client, besides waiting.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct HttpTiming {
    /// Answer body bytes.
    pub(crate) bytes: usize,
    /// Decoding the JSON answer into values.
    pub(crate) decode: Duration,
}

impl Http {
    pub(crate) async fn connect(addr: SocketAddr) -> std::io::Result<Http> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Http {
            reader: BufReader::new(stream),
            host: addr.to_string(),
        })
    }

    /// POSTs `body` to `path` and decodes the answer; a non-200 answer is an error
    /// carrying the server's error document.
    pub(crate) async fn post(&mut self, path: &str, body: &str) -> std::io::Result<HttpTiming> {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.host,
            body.len()
        );
        self.reader.get_mut().write_all(request.as_bytes()).await?;
        let mut length = None;
        let mut status_ok = false;
        let mut line = String::new();
        loop {
            line.clear();
            if self.reader.read_line(&mut line).await? == 0 {
                return Err(std::io::Error::other("connection closed"));
            }
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if l.starts_with("HTTP/1.1 ") {
                status_ok = l.starts_with("HTTP/1.1 200");
            } else if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse::<usize>().ok();
            }
        }
        let length = length.ok_or_else(|| std::io::Error::other("no content-length"))?;
        let mut body = vec![0u8; length];
        self.reader.read_exact(&mut body).await?;
        if !status_ok {
            return Err(std::io::Error::other(
                String::from_utf8_lossy(&body).into_owned(),
            ));
        }
        // Decode the answer into values, as the WebSocket client does: a client that
        // skipped this would make the baseline look cheaper than any real one.
        let started = Instant::now();
        kith_protocol::ResultChunk::decode(Encoding::Json, &body).map_err(std::io::Error::other)?;
        Ok(HttpTiming {
            bytes: length,
            decode: started.elapsed(),
        })
    }
}
