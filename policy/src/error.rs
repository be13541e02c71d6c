//! Why a model or checkpoint folder could not be written or read (the error
//! of [`crate::folder`] and [`crate::manifest`]).

use std::path::Path;

/// Why a model or checkpoint folder could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// File system trouble.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// burn could not write or read the weights or optimizer state.
    #[error("checkpoint {path}: {message}")]
    Record {
        /// The path.
        path: String,
        /// What burn said.
        message: String,
    },
    /// A file is not what a checkpoint holds.
    #[error("checkpoint {path}: {message}")]
    Format {
        /// The path.
        path: String,
        /// What was wrong.
        message: String,
    },
    /// A file is not as the folder's manifest says it was written.
    #[error("damaged checkpoint file {path}: {message}")]
    Damaged {
        /// The file.
        path: String,
        /// How it differs.
        message: String,
    },
}

/// The error of an I/O failure at `path`.
pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CheckpointError + '_ {
    move |source| CheckpointError::Io { path: path.display().to_string(), source }
}
