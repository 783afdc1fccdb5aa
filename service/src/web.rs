//! Browsers: the static files of a web front-end served on the API's own
//! port (`--web-dir`), and which other origins may call the API from a
//! page (`--cors-origin`). By default no other origin may: a page served
//! by the server itself is same-origin and needs no CORS, and every other
//! site's scripts are kept out unless the operator names them.

use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, Response, StatusCode, header};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// What the server offers browsers.
#[derive(Clone, Debug, Default)]
pub struct WebConfig {
    /// A directory of static files (the built front-end) served at `/`.
    pub dir: Option<PathBuf>,
    /// Origins allowed to call the API from a page they serve, e.g.
    /// `http://localhost:5173`; `*` allows any. Empty: none.
    pub cors_origins: Vec<String>,
}

/// Why a web setting was refused.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// An origin is not a valid header value.
    #[error("--cors-origin '{0}' is not a valid origin (e.g. http://localhost:5173)")]
    BadOrigin(String),
    /// The web directory has no index.html.
    #[error("--web-dir {0}: no index.html there (build the front-end first: see README)")]
    NoIndex(PathBuf),
}

/// The CORS layer for the configured origins, or `None` when no other
/// origin may call. Preflights are answered for gRPC-Web and Connect
/// requests; the gRPC status trailers are exposed to scripts.
pub fn cors(origins: &[String]) -> Result<Option<CorsLayer>, WebError> {
    if origins.is_empty() {
        return Ok(None);
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        let list = origins
            .iter()
            .map(|o| HeaderValue::from_str(o.trim_end_matches('/')).map_err(|_| WebError::BadOrigin(o.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        AllowOrigin::list(list)
    };
    let name = |n: &'static str| header::HeaderName::from_static(n);
    Ok(Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::POST, Method::GET, Method::OPTIONS])
            .allow_headers([
                header::CONTENT_TYPE,
                header::AUTHORIZATION,
                name("x-grpc-web"),
                name("x-user-agent"),
                name("grpc-timeout"),
                name("connect-protocol-version"),
                name("connect-timeout-ms"),
            ])
            .expose_headers([name("grpc-status"), name("grpc-message"), name("grpc-status-details-bin")])
            .max_age(Duration::from_secs(3600)),
    ))
}

/// Checks that `dir` holds a front-end.
pub fn check_dir(dir: &Path) -> Result<(), WebError> {
    if dir.join("index.html").is_file() { Ok(()) } else { Err(WebError::NoIndex(dir.to_path_buf())) }
}

/// The file a request path names inside `dir`, refusing anything that
/// would leave it.
fn resolve(dir: &Path, path: &str) -> Option<PathBuf> {
    let rel = path.trim_start_matches('/');
    let rel = if rel.is_empty() { "index.html" } else { rel };
    let rel = Path::new(rel);
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    Some(dir.join(rel))
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or_default() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut r = Response::new(Body::from(text));
    *r.status_mut() = status;
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    r
}

/// Answers a GET (or HEAD) for a static file of `dir`.
pub async fn serve_file(dir: PathBuf, req: Request<Body>) -> Response<Body> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return plain(StatusCode::METHOD_NOT_ALLOWED, "only GET is served here\n");
    }
    let Some(path) = resolve(&dir, req.uri().path()) else {
        return plain(StatusCode::NOT_FOUND, "not found\n");
    };
    match tokio::fs::read(&path).await {
        Ok(bytes) => {
            let mut r = Response::new(if req.method() == Method::HEAD { Body::empty() } else { Body::from(bytes) });
            let h = r.headers_mut();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type(&path)));
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
            r
        }
        Err(_) => plain(StatusCode::NOT_FOUND, "not found\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_never_leave_the_web_directory() {
        let dir = Path::new("/srv/web");
        assert_eq!(resolve(dir, "/"), Some(dir.join("index.html")));
        assert_eq!(resolve(dir, "/app.js"), Some(dir.join("app.js")));
        assert_eq!(resolve(dir, "/assets/a.css"), Some(dir.join("assets/a.css")));
        for bad in ["/../etc/passwd", "/a/../../x", "//etc/passwd", "/./x"] {
            let r = resolve(dir, bad);
            assert!(r.as_ref().is_none_or(|p| p.starts_with(dir)), "{bad} -> {r:?}");
        }
        assert_eq!(resolve(dir, "/../etc/passwd"), None);
    }

    #[test]
    fn origins_are_checked() {
        assert!(cors(&[]).expect("ok").is_none());
        assert!(cors(&["http://localhost:5173".into()]).expect("ok").is_some());
        assert!(cors(&["*".into()]).expect("ok").is_some());
        assert!(matches!(cors(&["bad\norigin".into()]), Err(WebError::BadOrigin(_))));
    }
}
