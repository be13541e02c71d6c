//! The page: plain HTML, CSS and JavaScript from `web/page/`, compiled into
//! the binary (no build step, nothing fetched at run time). The script is a
//! set of ES modules that the browser loads itself (`<script type="module"
//! src="main.js">` and its `import`s; no bundler). For work on the page,
//! `BONES_WEB_DIR=web/page` serves the same files from that folder instead,
//! read at each request (no rebuild to see a change).

use super::error::WebError;
use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// The content type of the page's JavaScript modules (a browser runs a module
/// only when it is served as JavaScript).
const JS: &str = "text/javascript; charset=utf-8";

/// The files of the page: name, content type, contents. Every file of
/// `web/page/` is here (a unit test below says so).
const FILES: [(&str, &str, &str); 23] = [
    ("index.html", "text/html; charset=utf-8", include_str!("../page/index.html")),
    ("style.css", "text/css; charset=utf-8", include_str!("../page/style.css")),
    ("api.js", JS, include_str!("../page/api.js")),
    ("board.js", JS, include_str!("../page/board.js")),
    ("controls.js", JS, include_str!("../page/controls.js")),
    ("dom.js", JS, include_str!("../page/dom.js")),
    ("dominoes.js", JS, include_str!("../page/dominoes.js")),
    ("hints.js", JS, include_str!("../page/hints.js")),
    ("history.js", JS, include_str!("../page/history.js")),
    ("keys.js", JS, include_str!("../page/keys.js")),
    ("levels.js", JS, include_str!("../page/levels.js")),
    ("main.js", JS, include_str!("../page/main.js")),
    ("play.js", JS, include_str!("../page/play.js")),
    ("render.js", JS, include_str!("../page/render.js")),
    ("replay.js", JS, include_str!("../page/replay.js")),
    ("review.js", JS, include_str!("../page/review.js")),
    ("screens.js", JS, include_str!("../page/screens.js")),
    ("seats.js", JS, include_str!("../page/seats.js")),
    ("setup.js", JS, include_str!("../page/setup.js")),
    ("state.js", JS, include_str!("../page/state.js")),
    ("summary.js", JS, include_str!("../page/summary.js")),
    ("trick.js", JS, include_str!("../page/trick.js")),
    ("tricks.js", JS, include_str!("../page/tricks.js")),
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

#[cfg(test)]
mod tests {
    use super::FILES;
    use std::collections::BTreeSet;

    /// The modules a script imports (`import … from "./name.js";`).
    fn imports(script: &str) -> Vec<&str> {
        script
            .lines()
            .filter(|l| l.starts_with("import "))
            .filter_map(|l| l.split("from \"./").nth(1).and_then(|rest| rest.split('"').next()))
            .collect()
    }

    #[test]
    fn every_file_of_the_page_folder_is_compiled_in() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("page");
        let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
            .expect("web/page is readable")
            .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
            .collect();
        let served: BTreeSet<String> = FILES.iter().map(|(name, _, _)| name.to_string()).collect();
        assert_eq!(on_disk, served, "web/page and the FILES of assets.rs differ");
    }

    #[test]
    fn every_module_the_page_imports_is_served_as_javascript() {
        let mut seen = BTreeSet::new();
        let mut todo = vec!["main.js"];
        while let Some(name) = todo.pop() {
            if !seen.insert(name) {
                continue;
            }
            let (_, kind, text) = FILES
                .iter()
                .find(|(n, _, _)| *n == name)
                .unwrap_or_else(|| panic!("{name} is imported but not served"));
            assert!(kind.starts_with("text/javascript"), "{name}: {kind}");
            todo.extend(imports(text));
        }
        let modules: BTreeSet<&str> = FILES.iter().map(|(n, _, _)| *n).filter(|n| n.ends_with(".js")).collect();
        assert_eq!(seen, modules, "a module that main.js never reaches is served");
    }
}
