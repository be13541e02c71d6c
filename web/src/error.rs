//! The API's answers: [`json_response`] for every JSON body, and why a request
//! failed, [`WebError`], answered as `{"error":"…"}` with a 4xx status (5xx
//! only for a full server or a failure of the server itself).

use axum::body::Body;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// A JSON answer.
pub fn json_response(status: StatusCode, body: &Value) -> Response {
    let mut r = Response::new(Body::from(body.to_string()));
    *r.status_mut() = status;
    r.headers_mut().insert(header::CONTENT_TYPE, header::HeaderValue::from_static("application/json"));
    r.headers_mut().insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
    r
}

/// A request's text as it may be echoed in an error: its first `max`
/// characters, control characters shown as `?`, and `…` when cut.
pub fn shown(text: &str, max: usize) -> String {
    let mut s: String = text.chars().take(max).map(|c| if c.is_control() { '?' } else { c }).collect();
    if text.chars().count() > max {
        s.push('…');
    }
    s
}

/// Why a request of the web API failed. The message names what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    /// The body is not JSON.
    #[error("malformed JSON: {0}")]
    Json(String),
    /// The body is JSON but not a valid request (a key unknown, missing or of a bad value).
    #[error("{0}")]
    Request(String),
    /// The game, its rules or its player count cannot be built.
    #[error("{0}")]
    Game(String),
    /// An agent spec is unknown or does not play the game.
    #[error("`{key}`: {message}")]
    Agent {
        /// The request key (`opponents`, `partner`).
        key: &'static str,
        /// What was wrong.
        message: String,
    },
    /// The action is not a legal move now.
    #[error("{0}")]
    Action(String),
    /// The move comes out of turn: another seat is to move, or the game has
    /// moved on since the state the move was chosen from.
    #[error("out of turn: {0}")]
    OutOfTurn(String),
    /// The game is over.
    #[error("the game is over: there is nothing to play (start a new game)")]
    Over,
    /// The game is over, and the request wants a game in progress (a hint).
    #[error("the game is over: {0} (start a new game)")]
    Finished(String),
    /// What the request asks for comes later (the review of a hand not yet over).
    #[error("{0}")]
    NotYet(String),
    /// This server keeps no history (`--db none`).
    #[error("this server keeps no game history (it was started with --db none)")]
    NoHistory,
    /// The history failed.
    #[error("{0}")]
    History(String),
    /// No open game has this id.
    #[error("unknown game id `{0}` (games left idle are dropped)")]
    UnknownId(String),
    /// The body is over the size limit.
    #[error("request body over {0} bytes")]
    TooLarge(usize),
    /// Another problem with the HTTP request (reading the body, the path).
    #[error("{message}")]
    Http {
        /// The status to answer.
        status: u16,
        /// What was wrong.
        message: String,
    },
    /// As many games are open as the server allows.
    #[error("too many open games ({0}): try again once idle games are dropped")]
    Full(usize),
    /// This client has as many games open as the server allows one address.
    #[error("too many open games from your address ({0}): finish or drop one (DELETE /api/games/ID) first")]
    ClientFull(usize),
    /// The bots are busy: the request waited too long or found the queue full.
    #[error("the bots are busy ({why}): try again in {retry_after} s")]
    Busy {
        /// Why it was refused.
        why: String,
        /// The seconds to wait (the answer's `Retry-After`).
        retry_after: u64,
    },
    /// This client sent more requests than the server takes from one address.
    #[error("too many requests from your address (at most {per_s} a second): try again in {retry_after} s")]
    RateLimited {
        /// The requests a second allowed.
        per_s: u32,
        /// The seconds to wait (the answer's `Retry-After`).
        retry_after: u64,
    },
    /// A bot failed (panicked, or its model failed): its game is ended.
    #[error("a bot failed and this game is ended: {0}")]
    BotFailed(String),
    /// A failure of the server itself.
    #[error("internal error: {0}")]
    Internal(String),
}

impl WebError {
    /// The HTTP status of the answer.
    pub fn status(&self) -> StatusCode {
        match self {
            WebError::Json(_) | WebError::Request(_) | WebError::Game(_) | WebError::Agent { .. } => {
                StatusCode::BAD_REQUEST
            }
            WebError::Action(_) => StatusCode::BAD_REQUEST,
            WebError::OutOfTurn(_) | WebError::Over | WebError::Finished(_) | WebError::NotYet(_) => {
                StatusCode::CONFLICT
            }
            WebError::NoHistory => StatusCode::NOT_FOUND,
            WebError::History(_) => StatusCode::INTERNAL_SERVER_ERROR,
            WebError::UnknownId(_) => StatusCode::NOT_FOUND,
            WebError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::Http { status, .. } => StatusCode::from_u16(*status).unwrap_or(StatusCode::BAD_REQUEST),
            WebError::Full(_) | WebError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            WebError::ClientFull(_) | WebError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            WebError::BotFailed(_) | WebError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The seconds a client should wait before trying again, where waiting helps.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            WebError::Busy { retry_after, .. } | WebError::RateLimited { retry_after, .. } => Some(*retry_after),
            WebError::Full(_) => Some(60),
            _ => None,
        }
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let mut r = json_response(self.status(), &json!({ "error": self.to_string() }));
        if let Some(s) = self.retry_after() {
            r.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from(s));
        }
        // A refusal that leaves the request's body unread ends the connection,
        // and says so: the client opens a new one for its next request.
        if matches!(self, WebError::RateLimited { .. } | WebError::TooLarge(_))
            || matches!(self, WebError::Http { status: 408, .. })
        {
            r.headers_mut().insert(header::CONNECTION, header::HeaderValue::from_static("close"));
        }
        r
    }
}
