//! The core's error type. The Python bindings map each variant to a specific
//! Python exception (ValueError, OSError, MemoryError, KeyboardInterrupt) in one place,
//! `python::errors`.

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An argument has an invalid value (ValueError in Python).
    #[error("{0}")]
    InvalidArgument(String),
    /// A file could not be read or written (OSError in Python).
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    /// A file was read but its content is not valid (ValueError in Python).
    #[error("{path}: {message}")]
    InvalidFile { path: PathBuf, message: String },
    /// Special tokens were asked for, but the tokenizer's `[CLS]` or `[SEP]`
    /// token is not in its vocabulary (ValueError in Python).
    #[error(
        "cannot add special tokens: {} and {} must both be in the vocabulary",
        Quoted(cls_token),
        Quoted(sep_token)
    )]
    MissingSpecialTokens { cls_token: String, sep_token: String },
    /// Input `index` of a batch could not be encoded; `source` says why.
    #[error("inputs[{index}]: {source}")]
    Input { index: usize, source: Box<Error> },
    /// Training or a batch was stopped by the caller (KeyboardInterrupt in
    /// Python, unless the bindings kept the exception that stopped it).
    #[error("interrupted")]
    Interrupted,
    /// Memory for a size an argument asked for could not be reserved
    /// (MemoryError in Python): the allocation failed, or the size is beyond
    /// what any allocation can be.
    #[error("{0}")]
    Memory(String),
}

pub type Result<T> = std::result::Result<T, Error>;

/// A word or token as messages quote it: in double quotes, with `"`, `\\` and
/// the control characters below U+0020 escaped as JSON escapes them (what
/// Python's `json.dumps(word, ensure_ascii=False)` writes), every other
/// character as it is; so the twin quotes alike.
pub struct Quoted<'a>(pub &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                '\u{8}' => f.write_str("\\b")?,
                '\u{c}' => f.write_str("\\f")?,
                c if c < ' ' => write!(f, "\\u{:04x}", c as u32)?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

impl Error {
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::InvalidArgument(message.into())
    }

    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io { path: path.to_path_buf(), source }
    }

    pub fn invalid_file(path: &Path, message: impl Into<String>) -> Self {
        Error::InvalidFile { path: path.to_path_buf(), message: message.into() }
    }

    /// `Memory`: `what` (e.g. "padding 2 texts to 1099511627776 tokens") needs
    /// more memory than can be reserved.
    pub fn memory(what: impl std::fmt::Display) -> Self {
        Error::Memory(format!("{what} needs more memory than can be reserved"))
    }

    /// `Memory` for the token ids of a text of `bytes` bytes: a token is at
    /// least a byte of text, so that many ids is the room an encoding needs
    /// at most, reserved at once.
    pub fn room_for_ids(bytes: usize) -> Result<Vec<u32>> {
        let mut ids = Vec::new();
        ids.try_reserve_exact(bytes).map_err(|_| Error::memory(format_args!("the ids of a text of {bytes} bytes")))?;
        Ok(ids)
    }

    /// An empty vector with room for `n` values, reserved at once, or
    /// `Memory` naming `what` (e.g. "a batch of 3 texts").
    pub fn room_for<T>(n: usize, what: impl std::fmt::Display) -> Result<Vec<T>> {
        let mut values = Vec::new();
        values.try_reserve_exact(n).map_err(|_| Error::memory(what))?;
        Ok(values)
    }

    /// An empty text with room for `bytes` bytes, reserved at once, or
    /// `Memory` for a decoded text of that size.
    pub fn room_for_text(bytes: usize) -> Result<String> {
        let mut text = String::new();
        text.try_reserve_exact(bytes).map_err(|_| Error::memory(format_args!("a decoded text of {bytes} bytes")))?;
        Ok(text)
    }

    /// This error, as the error of input `index` of a batch.
    pub fn for_input(self, index: usize) -> Self {
        Error::Input { index, source: Box::new(self) }
    }
}
