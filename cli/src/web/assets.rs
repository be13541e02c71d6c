//! The page: plain HTML, CSS and JavaScript from `cli/web/`, compiled into
//! the binary (no build step, nothing fetched at run time). For work on the
//! page, `BONES_WEB_DIR=cli/web` serves the same three files from that folder
//! instead, read at each request (no rebuild to see a change).

use super::error::WebError;
use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// The files of the page: name, content type, contents.
const FILES: [(&str, &str, &str); 3] = [
    ("index.html", "text/html; charset=utf-8", include_str!("../../web/index.html")),
    ("app.js", "text/javascript; charset=utf-8", include_str!("../../web/app.js")),
    ("style.css", "text/css; charset=utf-8", include_str!("../../web/style.css")),
];

/// The file `name` of the page, or a 404 answer.
pub fn page(name: &str) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((file, kind, text)) => {
            let body = match std::env::var_os("BONES_WEB_DIR") {
                Some(dir) => match std::fs::read(std::path::Path::new(&dir).join(file)) {
                    Ok(bytes) => Body::from(bytes),
                    Err(e) => {
                        return WebError::Internal(format!("cannot read {file} from BONES_WEB_DIR: {e}"))
                            .into_response()
                    }
                },
                None => Body::from(*text),
            };
            let mut r = Response::new(body);
            *r.status_mut() = StatusCode::OK;
            r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            r
        }
        None => WebError::Http {
            status: 404,
            message: format!("no such file: /{}", name.chars().take(60).collect::<String>()),
        }
        .into_response(),
    }
}
