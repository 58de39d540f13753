//! `WordCounts` and `count_words`: the counting that training does, as a
//! value that merges, pickles (the bytes of its file format) and is saved
//! to and loaded from `.fwc` files. Heavy work runs with the GIL released.

use std::sync::{Arc, RwLock};

use pyo3::exceptions::{PyKeyError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyIterator, PyList, PyString, PyTuple};

use super::args::{self, text, type_name, Text};
use super::arrow;
use super::errors::{guard, to_py, Signals};
use super::ints::{self, py_int, set_str_item};
use crate::error::Quoted;
use crate::tokenizer::options::Options;
use crate::training::{counts_file, CountOptions, Progress, Utf8Errors, WordCounter, WordCounts};

/// Texts pulled from a Python iterable per batch, so that a generator over a
/// huge corpus streams through bounded memory. At two threads each batch
/// ends with a thread idle while the last tasks finish: 32,768 rather than
/// 8,192 short lines made `count_words` on GCIDE 5-7% faster (0.953 and
/// 0.932, medians of 10 processes each).
const BATCH_TEXTS: usize = 32768;
const BATCH_BYTES: usize = 8 << 20;
/// Arrow chunks of an iterable are gathered to at least this many texts (or
/// `ARROW_CHUNKS` chunks) before they are counted; an Arrow array is counted
/// this many texts at a time, between which progress moves and a signal
/// handler may stop the work.
const ARROW_TEXTS: usize = 65536;
const ARROW_CHUNKS: usize = 64;

/// What [`Pull`] hands over: str items as UTF-8 (their own, held alive
/// with them), or Arrow arrays (and the index of each).
enum Unit<'py> {
    Texts(Vec<Text<'py>>),
    Arrow(Vec<(arrow::ArrowItem<'py>, usize)>),
}

/// Pulls the items of an iterable of str, batches of str (lists of them) and
/// Arrow string arrays in units: up to a batch of str (the texts of the
/// items and of the batch items), or Arrow arrays up to `ARROW_TEXTS` texts. A str is
/// converted to UTF-8 as it is pulled, not in a pass of its own (a lone
/// surrogate is the ValueError that names its index).
struct Pull<'py, 'a> {
    iter: std::iter::Enumerate<Bound<'py, PyIterator>>,
    /// Whether items may be Arrow arrays (`count_words`) or only str (training).
    arrow: bool,
    /// An item pulled that belongs to the next unit.
    held: Option<(usize, Bound<'py, PyAny>)>,
    /// The texts of a batch item (a list of str) being pulled: the item's
    /// index, the index of its next text and its iterator.
    batch: Option<(usize, usize, Bound<'py, PyIterator>)>,
    /// Whether a batch item came: the texts then outnumber the items.
    batched: bool,
    name: &'a str,
}

impl<'py> Pull<'py, '_> {
    fn next(&mut self) -> PyResult<Option<Unit<'py>>> {
        let (mut items, mut bytes) = (Vec::new(), 0);
        let (mut arrays, mut rows) = (Vec::new(), 0);
        loop {
            if let Some((i, j, batch)) = &mut self.batch {
                // A batch is taken up only when no Arrow array waits.
                match batch.next() {
                    Some(t) => {
                        let utf8 = text(&t?, &|| format!("{}[{i}][{j}]", self.name))?;
                        *j += 1;
                        bytes += utf8.len();
                        items.push(utf8);
                        if items.len() >= BATCH_TEXTS || bytes >= BATCH_BYTES {
                            break;
                        }
                    }
                    None => self.batch = None,
                }
                continue;
            }
            let (i, item) = match self.held.take() {
                Some(held) => held,
                None => match self.iter.next() {
                    Some((i, item)) => (i, item?),
                    None => break,
                },
            };
            if item.is_instance_of::<PyString>() {
                if !arrays.is_empty() {
                    self.held = Some((i, item));
                    break;
                }
                let utf8 = text(&item, &|| format!("{}[{i}]", self.name))?;
                bytes += utf8.len();
                items.push(utf8);
                if items.len() >= BATCH_TEXTS || bytes >= BATCH_BYTES {
                    break;
                }
            } else if self.arrow && (item.hasattr("__arrow_c_array__")? || item.hasattr("__arrow_c_stream__")?) {
                if !items.is_empty() {
                    self.held = Some((i, item));
                    break;
                }
                // (A DataFrame exports a stream of structs: its column is what to pass.)
                if let Some(e) =
                    args::dataframe_error(&item, &|| format!("{}[{i}] must be str or a batch of texts", self.name))
                {
                    return Err(e);
                }
                match arrow::ArrowItem::of(&item, &format!("{}[{i}]", self.name))? {
                    Some(array) => {
                        rows += array.len();
                        arrays.push((array, i));
                        if rows >= ARROW_TEXTS || arrays.len() >= ARROW_CHUNKS {
                            break;
                        }
                    }
                    // Iterable, its Arrow export needs a module that is missing.
                    None if !arrays.is_empty() => {
                        self.held = Some((i, item));
                        break;
                    }
                    None => {
                        // (not `text_batch`, which refuses what exports Arrow)
                        self.batch = Some((i, 0, item.try_iter()?));
                        self.batched = true;
                    }
                }
            } else if !arrays.is_empty() {
                self.held = Some((i, item));
                break;
            } else {
                // A batch of texts (pulled into this unit), or the TypeError
                // that names the item.
                let batch = args::text_batch(&item, &|| format!("{}[{i}]", self.name))?;
                self.batch = Some((i, 0, batch));
                self.batched = true;
            }
        }
        Ok(if !items.is_empty() {
            Some(Unit::Texts(items))
        } else if !arrays.is_empty() {
            Some(Unit::Arrow(arrays))
        } else {
            None
        })
    }
}

/// Counts the words of `corpus` (`iter` its iterator): str items and, if
/// `arrow`, Arrow string arrays (read in place), pulled in units and counted
/// with the GIL released. While a unit is counted the next is pulled: str
/// units on the pool's threads, which the calling thread joins once it has
/// pulled (with one thread, a unit is counted, then the next pulled); Arrow
/// arrays on a thread of their own (a generator reading them from a socket
/// or a file keeps reading).
pub(super) fn count_texts(
    py: Python<'_>,
    corpus: &Bound<'_, PyAny>,
    iter: Bound<'_, PyIterator>,
    name: &str,
    arrow: bool,
    counter: &mut WordCounter,
    show_progress: bool,
) -> PyResult<()> {
    let mut progress = Progress::new(show_progress, None);
    let (total, exact) = texts_total(corpus)?;
    progress.start("counting words", "texts", total);
    let mut pull = Pull { iter: iter.enumerate(), arrow, held: None, batch: None, batched: false, name };
    let threads = crate::threads::default_threads();
    let mut next = pull.next()?;
    while let Some(unit) = next.take() {
        let counted = match unit {
            Unit::Texts(items) if threads > 1 => {
                // The pool counts while this thread pulls the next unit,
                // then this thread counts too, with the GIL released.
                let texts = super::args::strs(&items)?;
                let pulled =
                    guard(|| counter.add_texts_meanwhile(&texts, threads, || pull.next(), |count| py.detach(count)))?;
                next = pulled?;
                texts.len()
            }
            Unit::Texts(items) => {
                let texts = super::args::strs(&items)?;
                py.detach(|| guard(|| counter.add_texts(&texts)))?;
                next = pull.next()?;
                texts.len()
            }
            Unit::Arrow(arrays) => {
                let mut texts = Vec::new();
                for (array, i) in &arrays {
                    texts.extend(array.texts(&format!("{name}[{i}]"))?);
                }
                let counter = &mut *counter;
                let (counted, pulled) = std::thread::scope(|scope| {
                    let worker = scope.spawn(|| guard(|| counter.add_texts(&texts)));
                    let pulled = pull.next();
                    (worker.join(), pulled)
                });
                counted.map_err(|_| PyRuntimeError::new_err("counting words failed"))??;
                next = pulled?;
                texts.len()
            }
        };
        py.check_signals()?;
        if pull.batched && !exact {
            progress.forget_total(); // the count of items is not the count of texts
        }
        progress.advance(counted as u64).map_err(to_py)?;
    }
    progress.finish();
    Ok(())
}

/// The number of texts of `corpus` (the progress's total) when it is cheap
/// to know, and whether it is exact: a list or tuple of batches (lists or
/// tuples of str, or str; its first or last item a batch) sums the lengths
/// of its items, one call per item (none per text of a batch); any other
/// sized corpus gives its length, a total that a batch among its items
/// turns out wrong (the counting then forgets it); a corpus without a
/// length, or a list of batches one of which is of another kind (a
/// generator, an array), has no total. A `KeyboardInterrupt` or
/// `SystemExit` a `__len__` raises comes back (see `args::size_hint`).
fn texts_total(corpus: &Bound<'_, PyAny>) -> PyResult<(Option<u64>, bool)> {
    let Some(len) = args::size_hint(corpus)? else { return Ok((None, false)) };
    let items = if let Ok(list) = corpus.cast::<PyList>() {
        list.as_sequence().clone()
    } else if let Ok(tuple) = corpus.cast::<PyTuple>() {
        tuple.as_sequence().clone()
    } else {
        return Ok((Some(len as u64), false));
    };
    // An item (a subclass's `__getitem__` may raise): None past the end or
    // when it fails with an `Exception`.
    let item = |i: usize| match items.get_item(i) {
        Ok(item) => Ok(Some(item)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyException>(corpus.py()) => Ok(None),
        Err(e) => Err(e),
    };
    let text = |i: usize| -> PyResult<bool> { Ok(item(i)?.is_some_and(|item| item.is_instance_of::<PyString>())) };
    if len == 0 || (text(0)? && text(len - 1)?) {
        return Ok((Some(len as u64), false)); // texts (or empty)
    }
    let mut total = 0u64;
    for i in 0..len {
        let Some(item) = item(i)? else { return Ok((None, false)) };
        total += if item.is_instance_of::<PyString>() {
            1
        } else if item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>() {
            match args::size_hint(&item)? {
                Some(n) => n as u64,
                None => return Ok((None, false)),
            }
        } else {
            return Ok((None, false));
        };
    }
    Ok((Some(total), true))
}

/// Counts `texts` (of one Arrow array) with the GIL released, in slices of
/// up to `ARROW_TEXTS` texts and `BATCH_BYTES` bytes, advancing `progress`
/// (whose hook may stop the work) after each.
fn count_arrow_texts(counter: &mut WordCounter, texts: &[&str], progress: &mut Progress) -> crate::error::Result<()> {
    let mut rest = texts;
    while !rest.is_empty() {
        let (mut n, mut bytes) = (0, 0);
        while n < rest.len() && n < ARROW_TEXTS && (n == 0 || bytes < BATCH_BYTES) {
            bytes += rest[n].len();
            n += 1;
        }
        let (slice, tail) = rest.split_at(n);
        counter.add_texts(slice)?;
        progress.advance(slice.len() as u64)?;
        rest = tail;
    }
    Ok(())
}

/// The `errors` argument of the functions that read text files.
pub(super) fn utf8_errors(errors: &str) -> PyResult<Utf8Errors> {
    match errors {
        "strict" => Ok(Utf8Errors::Strict),
        "replace" => Ok(Utf8Errors::Replace),
        other => Err(PyValueError::new_err(format!("errors must be \"strict\" or \"replace\", not {}", Quoted(other)))),
    }
}

/// The pipeline options of keyword arguments that may hold only counting
/// options (those of the normalizer and the pre-tokenizer).
fn count_options(kwargs: Option<&Bound<'_, PyDict>>, function: &str) -> PyResult<Options> {
    if let Some(kwargs) = kwargs {
        for key in kwargs.keys() {
            let key: String = key.extract()?;
            if !CountOptions::NAMES.contains(&key.as_str()) {
                return Err(PyTypeError::new_err(format!(
                    "{function}() got an unexpected keyword argument {} (word counting takes {})",
                    pyo3::types::PyString::new(kwargs.py(), &key).repr()?,
                    CountOptions::NAMES.join(", ")
                )));
            }
        }
    }
    args::options(kwargs, function)
}

/// Words (normalized and pre-tokenized, as training counts them) and their
/// counts, with the pipeline options they were counted with.
///
/// `WordCounts(counts=None, **options)` makes one from a mapping `{word: count}`
/// or an iterable of `(word, count)` pairs (a count of 0 adds nothing: a word
/// counted 0 times is left out, as training ignores it); `count_words` and `from_files`
/// count texts. `a + b` and `a.update(b)` add counts made with the same options
/// (ValueError naming the option otherwise). Pickling and `save` use the
/// versioned `.fwc` format of docs/spec.md section 13.
///
/// It reads like a dict of word to count: `len(counts)` is the number of
/// distinct words, `counts[word]` a word's count (KeyError if it was not
/// counted), `word in counts`, and iterating gives the words in code point
/// order.
#[pyclass(frozen, name = "WordCounts", module = "fast_wordpiece")]
pub struct PyWordCounts {
    /// Read through [`Self::counts`]; `update` and `prune` change it under
    /// the write lock (a copy first if a reader still holds the old counts),
    /// so that every thread sees whole counts and `a.update(a)` doubles them.
    inner: RwLock<Arc<WordCounts>>,
}

fn wrap(inner: WordCounts) -> PyWordCounts {
    PyWordCounts { inner: RwLock::new(Arc::new(inner)) }
}

impl PyWordCounts {
    /// The counts as they are now.
    pub(super) fn counts(&self) -> Arc<WordCounts> {
        Arc::clone(&self.inner.read().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// Changes the counts, in place unless a reader still holds them. The
    /// GIL stays held: every thread takes the lock with the GIL, so none
    /// waits for another that lacks it, and `fork()` never copies it taken.
    fn change<T>(&self, f: impl FnOnce(&mut WordCounts) -> T) -> T {
        let mut slot = self.inner.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        f(Arc::make_mut(&mut slot))
    }
}

fn other_counts(other: &Bound<'_, PyAny>, what: &str) -> PyResult<Arc<WordCounts>> {
    let counts = other
        .cast::<PyWordCounts>()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be a WordCounts, not {}", type_name(other))))?;
    Ok(counts.get().counts())
}

#[pymethods]
impl PyWordCounts {
    #[new]
    #[pyo3(signature = (counts = None, **options))]
    fn new(py: Python<'_>, counts: Option<&Bound<'_, PyAny>>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let options = CountOptions::of(&count_options(options, "WordCounts")?);
        let mut pairs = Vec::new();
        if let Some(counts) = counts.filter(|c| !c.is_none()) {
            pairs = args::text_counts(counts, "counts", args::TEXT_COUNTS, 0)?;
        }
        py.detach(|| guard(|| WordCounts::from_pairs(options, pairs))).map(wrap)
    }

    /// Counts the words of text files, streamed in chunks of whole lines, as
    /// `PyTokenizer.train_from_files` does (`errors` likewise).
    #[staticmethod]
    #[pyo3(signature = (paths, *, errors = String::from("strict"), show_progress = false, **options), text_signature = "(paths, *, errors='strict', show_progress=False, **options)")]
    fn from_files(
        py: Python<'_>,
        paths: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::named::errors)] errors: String,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let paths = args::paths(paths)?;
        let errors = utf8_errors(&errors)?;
        let options = count_options(options, "from_files")?;
        let signals = Signals::default();
        let stop = || signals.stop();
        let counts = py.detach(|| {
            let mut progress = Progress::new(show_progress, Some(&stop));
            guard(|| WordCounts::count_files(&options, &paths, errors, &mut progress))
        });
        signals.result(counts).map(wrap)
    }

    /// Reads a `.fwc` file: OSError if it cannot be read, ValueError if it is
    /// not a valid word counts file of a version this release reads.
    #[staticmethod]
    fn load(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Self> {
        let path = args::path(path, "path")?;
        // Ctrl-C (or another signal handler's exception) stops the wait
        // for a FIFO's writer.
        let signals = Signals::default();
        let loaded = py.detach(|| guard(|| counts_file::load(&path, &|| signals.stop())));
        signals.result(loaded).map(wrap)
    }

    /// Writes a `.fwc` file atomically (never half-written).
    fn save(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = args::path(path, "path")?;
        let counts = self.counts();
        py.detach(|| guard(|| counts_file::save(&counts, &path)))
    }

    /// The bytes of the `.fwc` file (MemoryError when they do not fit).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let counts = self.counts();
        let bytes = py.detach(|| guard(|| counts_file::to_bytes(&counts)))?;
        ints::py_bytes(py, &bytes)
    }

    /// Word counts from the bytes of a `.fwc` file (what `to_bytes` gives):
    /// TypeError unless `data` is bytes, ValueError if they are not a valid
    /// word counts file of a version this release reads.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = data
            .cast::<PyBytes>()
            .map_err(|_| PyTypeError::new_err(format!("data must be bytes, not {}", type_name(data))))?;
        let bytes = data.as_bytes();
        py.detach(|| counts_file::from_bytes(bytes))
            .map(wrap)
            .map_err(|message| PyValueError::new_err(format!("word counts data: {message}")))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let bytes = slf.get().to_bytes(py)?;
        Ok((py.get_type::<Self>().getattr("from_bytes")?, (bytes,)))
    }

    /// The counting options, as keyword arguments.
    #[getter]
    pub(super) fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let o = *self.counts().options();
        let dict = ints::new_dict(py)?;
        let flag = |on: bool| pyo3::types::PyBool::new(py, on).to_owned().into_any();
        set_str_item(&dict, "clean_text", flag(o.clean_text))?;
        set_str_item(&dict, "handle_chinese_chars", flag(o.handle_chinese_chars))?;
        set_str_item(&dict, "lowercase", flag(o.lowercase))?;
        set_str_item(&dict, "strip_accents", o.strip_accents.map_or_else(|| py.None().into_bound(py), flag))?;
        set_str_item(&dict, "strip_all_marks", flag(o.strip_all_marks))?;
        set_str_item(&dict, "pre_tokenizer", ints::py_str(py, &o.pre_tokenizer.to_string())?.into_any())?;
        Ok(dict)
    }

    /// The sum of the counts: the words of the corpus.
    #[getter]
    fn total<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_int(py, self.counts().total())
    }

    /// The number of distinct words.
    fn __len__(&self) -> usize {
        self.counts().len()
    }

    /// The count of `word`; KeyError if it was not counted.
    fn __getitem__<'py>(&self, word: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let w = text(word, &|| "a word".into())?;
        let n = self.counts().get(&w).ok_or_else(|| PyKeyError::new_err(word.clone().unbind()))?;
        py_int(word.py(), n)
    }

    fn __contains__(&self, word: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(match text(word, &|| "a word".into()) {
            Ok(w) => self.counts().get(&w).is_some(),
            Err(_) => false,
        })
    }

    /// The count of `word`, or `default` (None) if it was not counted.
    #[pyo3(signature = (word, default = None))]
    fn get<'py>(&self, word: &Bound<'py, PyAny>, default: Option<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let py = word.py();
        let w = text(word, &|| "a word".into())?;
        Ok(match self.counts().get(&w) {
            Some(n) => py_int(py, n)?,
            None => default.unwrap_or_else(|| py.None().into_bound(py)),
        })
    }

    /// The words, in code point order.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let counts = self.counts();
        let words = counts.words();
        ints::new_str_list(py, words.len(), |i| words[i].0.as_str())
    }

    /// The counts, in code point order of their words.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let counts = self.counts();
        let words = counts.words();
        ints::list_with(py, words.len(), |i| py_int(py, words[i].1))
    }

    /// `(word, count)` pairs, in code point order of the words.
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let counts = self.counts();
        word_count_list(py, counts.words())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.keys(py)?.try_iter()?.into_any())
    }

    /// The `n` most common words and their counts (all when `n` is None),
    /// ties in code point order.
    #[pyo3(signature = (n = None))]
    fn most_common<'py>(&self, py: Python<'py>, n: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyList>> {
        let n = match n {
            Some(n) if !n.is_none() => Some(args::count(n, "n")? as usize),
            _ => None,
        };
        word_count_list(py, &self.counts().most_common(n))
    }

    /// Drops the words counted fewer than `min_count` times, then keeps only
    /// the `max_words` most common. Approximate: training on pruned counts may
    /// give another vocabulary (spec section 13).
    #[pyo3(signature = (min_count = None, *, max_words = None))]
    fn prune(&self, min_count: Option<&Bound<'_, PyAny>>, max_words: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let min_count = match min_count {
            Some(m) if !m.is_none() => args::count(m, "min_count")?,
            _ => 1,
        };
        let max_words = match max_words {
            Some(m) if !m.is_none() => Some(args::count(m, "max_words")? as usize),
            _ => None,
        };
        self.change(|counts| counts.prune(min_count, max_words));
        Ok(())
    }

    /// `n` WordCounts that add up to these: word `w` goes to part
    /// `zlib.crc32(w.encode()) % n`, on every machine alike.
    fn split<'py>(&self, py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let n = args::positive(n, "n")?;
        let counts = self.counts();
        let parts = py.detach(|| guard(|| WordCounts::clone(&counts).split(n)))?;
        let parts = parts.into_iter().map(|p| Bound::new(py, wrap(p))).collect::<PyResult<Vec<_>>>()?;
        ints::list(py, parts)
    }

    /// Adds `other`'s counts to these.
    fn update(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let other = other_counts(other, "other")?;
        self.change(|counts| guard(|| counts.merge(WordCounts::clone(&other))))
    }

    fn __add__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let Ok(other) = other.cast::<PyWordCounts>() else {
            return Ok(py.NotImplemented());
        };
        let (mine, other) = (self.counts(), other.get().counts());
        let sum = py.detach(|| {
            let mut sum = WordCounts::clone(&mine);
            guard(|| sum.merge(WordCounts::clone(&other))).map(|()| sum)
        })?;
        Ok(Py::new(py, wrap(sum))?.into_any())
    }

    fn __iadd__(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.update(other)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyWordCounts>().is_ok_and(|o| {
            let (a, b) = (self.counts(), o.get().counts());
            a.options().differing(b.options()).is_none() && a.words() == b.words()
        })
    }

    fn __repr__(&self) -> String {
        let counts = self.counts();
        format!("WordCounts({} distinct words, {} in all)", counts.len(), counts.total())
    }
}

/// What `count_words` reads: an Arrow array, an Arrow stream, or an iterable.
enum Corpus<'py> {
    Array(arrow::ArrowCapsules<'py>),
    Stream(arrow::ArrowStream<'py>),
    Iter(Bound<'py, PyIterator>),
}

/// Counts the words of `texts` as training does: normalized and
/// pre-tokenized with the pipeline `options`. `texts` is an iterable of str
/// (pulled in batches), of batches of str (a list of str is read as its
/// texts) and of Arrow string arrays or streams of them, an Arrow array,
/// or an Arrow stream of them such as a chunked array or a pandas or polars
/// Series (`__arrow_c_stream__`); Arrow texts are read in place, nulls
/// skipped. An object whose Arrow export raises ImportError (a pandas Series
/// without pyarrow) is read as the iterable of str it is.
#[pyfunction]
#[pyo3(signature = (texts, *, show_progress = false, **options))]
pub fn count_words(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyWordCounts> {
    args::reject_text_as_collection(texts, "texts", "str")?;
    args::reject_mapping_corpus(texts, "texts")?;
    // Texts that are not iterable are named before the options (as `train` does).
    let input = match arrow::input(texts, "texts")? {
        Some(arrow::ArrowInput::Array(capsules)) => Corpus::Array(capsules),
        Some(arrow::ArrowInput::Stream(stream)) => Corpus::Stream(stream),
        None => Corpus::Iter(texts.try_iter().map_err(|e| {
            args::unless_raised(e, || {
                PyTypeError::new_err(format!(
                    "texts must be an iterable of str or Arrow string arrays, or an Arrow string array or chunked \
                     array, not {}",
                    type_name(texts)
                ))
            })
        })?),
    };
    let options = count_options(options, "count_words")?;
    let mut counter = WordCounter::new(&options);
    let signals = Signals::default();
    let stop = || signals.stop();
    match input {
        Corpus::Array(capsules) => {
            let texts = capsules.texts("texts")?;
            let counted = py.detach(|| {
                let mut progress = Progress::new(show_progress, Some(&stop));
                progress.start("counting words", "texts", Some(texts.len() as u64));
                let counted = guard(|| count_arrow_texts(&mut counter, &texts, &mut progress));
                progress.finish();
                counted
            });
            signals.result(counted)?;
        }
        Corpus::Stream(mut stream) => {
            let mut progress = Progress::new(show_progress, Some(&stop));
            progress.start("counting words", "texts", None);
            let mut count_chunks = || -> PyResult<()> {
                while let Some(chunk) = stream.next()? {
                    let texts = stream.texts(&chunk)?;
                    py.detach(|| guard(|| count_arrow_texts(&mut counter, &texts, &mut progress)))?;
                }
                Ok(())
            };
            let counted = count_chunks();
            progress.finish();
            drop(progress);
            signals.result(counted)?;
        }
        Corpus::Iter(iter) => {
            count_texts(py, texts, iter, "texts", true, &mut counter, show_progress)?;
        }
    }
    let counts = py.detach(|| WordCounts::from_counter(&options, counter)).map_err(to_py)?;
    Ok(wrap(counts))
}

/// `[(word, count), ...]`; a MemoryError, not a panic, when Python has no
/// room for the list or an item.
fn word_count_list<'py, S: AsRef<str>>(py: Python<'py>, pairs: &[(S, u64)]) -> PyResult<Bound<'py, PyList>> {
    ints::list_with(py, pairs.len(), |i| {
        let (word, count) = &pairs[i];
        Ok(ints::pair(py, ints::py_str(py, word.as_ref())?.into_any(), py_int(py, *count)?)?.into_any())
    })
}
