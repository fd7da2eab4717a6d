//! The web console (`console/`, docs/console.md): its bundle, built by
//! `console/build.mjs` and committed in `console/dist/`, embedded in the binary and
//! served at `/`, so `kith serve` alone serves it. The files hold no data: the page
//! signs in and queries over the WebSocket protocol like any other client.

use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

const INDEX: &[u8] = include_bytes!("../../../console/dist/index.html");
const SCRIPT: &[u8] = include_bytes!("../../../console/dist/console.js");
const STYLE: &[u8] = include_bytes!("../../../console/dist/console.css");
const LICENSES: &[u8] = include_bytes!("../../../console/dist/console.js.LEGAL.txt");

fn file(bytes: &'static [u8], content_type: &'static str) -> Response {
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // Revalidated each time: a new binary serves a new bundle under the same name.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// `GET /`.
pub(crate) async fn index() -> Response {
    file(INDEX, "text/html; charset=utf-8")
}

/// `GET /console.js`.
pub(crate) async fn script() -> Response {
    file(SCRIPT, "text/javascript; charset=utf-8")
}

/// `GET /console.css`.
pub(crate) async fn style() -> Response {
    file(STYLE, "text/css; charset=utf-8")
}

/// `GET /console.js.LEGAL.txt`: the licences of the bundled packages.
pub(crate) async fn licenses() -> Response {
    file(LICENSES, "text/plain; charset=utf-8")
}

/// A script's request (`X-Requested-With`, as the console sends) that is refused 401
/// gets a `Bearer` challenge instead of `Basic`: a browser answers a Basic challenge to
/// `fetch` with its own password dialog, over the page's sign-in form.
pub(crate) async fn no_prompt(request: Request, next: Next) -> Response {
    let scripted = request.headers().contains_key("x-requested-with");
    let mut response = next.run(request).await;
    if scripted && response.status() == StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"kith\""),
        );
    }
    response
}
