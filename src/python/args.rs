//! Converting and checking Python arguments, with errors that name the
//! argument: TypeError for a wrong type, ValueError for a wrong value. The
//! string values of keyword arguments (`truncation="only_second"`, ...) are
//! parsed here, into the core's typed options.

use std::num::NonZeroUsize;
use std::path::PathBuf;

use pyo3::exceptions::{PyAttributeError, PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyInt, PyIterator, PyList, PyMapping, PyMemoryView, PyString, PyTuple,
};

use super::errors::to_py;
use crate::encoding::ragged::RaggedFields;
use crate::encoding::Side;
use crate::error::Quoted;
use crate::pipeline::model::special_tokens::AddedToken;
use crate::pipeline::padding::{PadTo, Padding};
use crate::pipeline::truncation::{Strategy, Truncation};
use crate::tokenizer::options::{
    validate_special_tokens, Decoding, EncodeOptions, Options, PostProcessing, DEFAULT_SPECIAL_TOKENS,
};

/// The name of an argument's type, for errors: `int`, `NoneType`, `Odd`; a
/// type named as a builtin type but defined elsewhere has its module too
/// (`numpy.bool`, not `bool`, for a numpy bool scalar).
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    let t = obj.get_type();
    let Ok(name) = t.name().map(|n| n.to_string()) else { return "object".into() };
    let module = t.module().map(|m| m.to_string()).unwrap_or_default();
    let builtin = || obj.py().import("builtins").and_then(|b| b.hasattr(name.as_str())).unwrap_or(false);
    if !module.is_empty() && module != "builtins" && builtin() {
        format!("{module}.{name}")
    } else {
        name
    }
}

/// A `str` argument's text, as UTF-8, held alive with it. Derefs to `str`.
///
/// The UTF-8 is the str's own (`PyUnicode_AsUTF8AndSize`: for an ASCII str
/// its very bytes, for others a copy Python keeps with the str), so an
/// ASCII text costs no copy. That function is exported by every CPython
/// since 3.3 but in the stable ABI only from 3.10 on: Windows, whose
/// `python3.dll` lists only the stable ABI, takes the `bytes` of
/// `str.encode()` instead (the wheel supports 3.9).
pub struct Text<'py> {
    _owner: Bound<'py, PyAny>,
    utf8: *const u8,
    len: usize,
}

#[cfg(not(windows))]
extern "C" {
    fn PyUnicode_AsUTF8AndSize(unicode: *mut pyo3::ffi::PyObject, size: *mut pyo3::ffi::Py_ssize_t) -> *const u8;
}

impl std::ops::Deref for Text<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        // SAFETY: `len` bytes of strict UTF-8 made by Python (a lone
        // surrogate is an error instead), owned by `_owner`, which this
        // holds alive and which is immutable.
        unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(self.utf8, self.len)) }
    }
}

/// A `str` argument as UTF-8. Lone surrogates cannot be encoded: ValueError.
pub fn text<'py>(obj: &Bound<'py, PyAny>, what: &dyn Fn() -> String) -> PyResult<Text<'py>> {
    let s = obj
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err(format!("{} must be str, not {}", what(), type_name(obj))))?;
    let surrogate = |e: PyErr| {
        let py = obj.py();
        if !e.is_instance_of::<pyo3::exceptions::PyUnicodeEncodeError>(py) {
            // No room for the UTF-8 (Python keeps it with the str).
            let n = s.len().unwrap_or(0);
            return super::ints::named_memory_error(py, e, format_args!("the UTF-8 of {} ({n} characters)", what()));
        }
        let at = e.value(py).getattr("start").and_then(|v| v.extract::<usize>()).unwrap_or(0);
        PyValueError::new_err(format!(
            "{} contains a lone surrogate at index {at}, which is not valid Unicode text",
            what()
        ))
    };
    #[cfg(not(windows))]
    {
        let mut len: pyo3::ffi::Py_ssize_t = 0;
        // SAFETY: `s` is a live str (checked above, the GIL held); the
        // result, if not null, points at `len` bytes the str owns.
        let utf8 = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut len) };
        if utf8.is_null() {
            return Err(surrogate(PyErr::fetch(obj.py())));
        }
        Ok(Text { _owner: obj.clone(), utf8, len: len as usize })
    }
    #[cfg(windows)]
    {
        let bytes = s.encode_utf8().map_err(surrogate)?;
        let (utf8, len) = (bytes.as_bytes().as_ptr(), bytes.as_bytes().len());
        Ok(Text { _owner: bytes.into_any(), utf8, len })
    }
}

/// An optional argument as the caller gave it, None when left out: a None
/// passed is then checked like any other value (a TypeError where the
/// argument is an int), while a missing one takes its default.
pub struct Given<'py>(pub Option<Bound<'py, PyAny>>);

impl<'a, 'py> FromPyObject<'a, 'py> for Given<'py> {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Given(Some(obj.to_owned())))
    }
}

/// A `vocab_size` argument that has a default: `default` when left out, else
/// a positive int ([`positive`]; None is a TypeError, as for any int).
pub fn vocab_size(given: &Given<'_>, default: usize) -> PyResult<usize> {
    given.0.as_ref().map_or(Ok(default), |v| positive(v, "vocab_size"))
}

/// An iterator over `sequences`, a batch of id sequences (`decode_batch`):
/// a TypeError naming it when it does not iterate.
pub fn sequences_iter<'py>(sequences: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyIterator>> {
    sequences.try_iter().map_err(|e| {
        unless_raised(e, || {
            PyTypeError::new_err(format!(
                "sequences must be an iterable of sequences of int, not {}",
                type_name(sequences)
            ))
        })
    })
}

/// Rejects the things that iterate but are not collections of texts.
pub fn reject_text_as_collection(obj: &Bound<'_, PyAny>, name: &str, of: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        return Err(PyTypeError::new_err(format!("{name} must be an iterable of {of}, not {}", type_name(obj))));
    }
    Ok(())
}

/// Class `name` of Python module `module`, imported (names made as strs
/// fallibly: pyo3's conversion of a `&str` panics when Python has no room,
/// where this is a MemoryError).
pub fn python_class<'py>(py: Python<'py>, module: &str, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import(super::ints::py_str(py, module)?)?.getattr(super::ints::py_str(py, name)?)
}

/// A corpus that is a mapping (a dict, a dataset's batch) or word counts
/// is a TypeError: iterating it would read its keys (words) as the texts.
pub fn reject_mapping_corpus(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<()> {
    let py = obj.py();
    if obj.is_instance(&python_class(py, "fast_wordpiece", "WordCounts")?)? {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an iterable of texts, not word counts (WordCounts): pass them to train_from_counts"
        )));
    }
    reject_mapping(obj, name)
}

/// A batch of texts (`encode_batch`'s `inputs`, `analyze`'s `texts`, a
/// corpus) that is a mapping (a dict, a `collections.UserDict` such as a
/// `BatchEncoding`, any `collections.abc.Mapping`: a dataset's batch) is a
/// TypeError naming it: iterating it would read its keys as the texts. So
/// is a pandas or polars DataFrame ([`dataframe_error`]), not a mapping but
/// as much a trap.
pub fn reject_mapping(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<()> {
    if obj.is_exact_instance_of::<PyList>() || obj.is_exact_instance_of::<PyTuple>() {
        return Ok(()); // the common case, asked nothing more
    }
    let py = obj.py();
    if obj.is_instance_of::<PyDict>() || obj.is_instance(&python_class(py, "collections.abc", "Mapping")?)? {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an iterable of texts, not a mapping ({}): its keys would be read as the texts; pass \
             its column of texts (batch[\"text\"])",
            type_name(obj)
        )));
    }
    match dataframe_error(obj, &|| format!("{name} must be an iterable of texts")) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A mapping given where a list of tokens is expected (`special_tokens`) is
/// a TypeError: iterating it would read its keys as the tokens.
pub fn reject_token_mapping(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<()> {
    reject_mapping_of(obj, name, "str", "tokens")
}

/// A mapping given as `name`, an iterable of `expected` items, is a
/// TypeError: iterating it would read its keys as the `items`.
pub fn reject_mapping_of(obj: &Bound<'_, PyAny>, name: &str, expected: &str, items: &str) -> PyResult<()> {
    if obj.is_exact_instance_of::<PyList>() || obj.is_exact_instance_of::<PyTuple>() {
        return Ok(());
    }
    if obj.is_instance_of::<PyDict>() || obj.is_instance(&python_class(obj.py(), "collections.abc", "Mapping")?)? {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an iterable of {expected}, not a mapping ({}): its keys would be read as the {items}",
            type_name(obj)
        )));
    }
    Ok(())
}

/// For a pandas or polars DataFrame (an instance of a class named
/// `DataFrame` from either library, subclasses too; neither is imported),
/// the TypeError that says so after `must`: iterating a DataFrame goes
/// over its columns (pandas' names, polars' Series), not its rows, so its
/// column names would be read as the texts.
pub fn dataframe_error(obj: &Bound<'_, PyAny>, must: &dyn Fn() -> String) -> Option<PyErr> {
    for class in obj.get_type().mro().iter() {
        // A class whose name or module is odd (not a str, not UTF-8) is no DataFrame.
        let Ok(class) = class.cast_into::<pyo3::types::PyType>() else { continue };
        let (Ok(name), Ok(module)) = (class.name(), class.module()) else { continue };
        if !name.to_cow().is_ok_and(|n| n == "DataFrame") {
            continue;
        }
        let library = match module.to_cow() {
            Ok(m) if m == "pandas" || m.starts_with("pandas.") => "pandas",
            Ok(m) if m == "polars" || m.starts_with("polars.") => "polars",
            _ => continue,
        };
        return Some(PyTypeError::new_err(format!(
            "{}, not a {library} DataFrame: iterating it goes over its columns, not its rows; pass its column of \
             texts (df[\"text\"])",
            must()
        )));
    }
    None
}

/// The texts of a corpus item that is not a str: an iterator over them when
/// it is a batch of texts (a list, a tuple or another iterable, as the
/// batches of a `train_from_iterator` generator are), else the TypeError
/// that names it as a text (`corpus[3] must be str, not int`). bytes (a
/// bytearray or memoryview too: they iterate as ints), a mapping (a
/// dataset's row) and an Arrow array (`__arrow_c_array__`, which
/// `count_words` reads as such) are not batches, nor is a pandas or polars
/// DataFrame ([`dataframe_error`]); a pandas or polars Series of str is one.
pub fn text_batch<'py>(item: &Bound<'py, PyAny>, what: &dyn Fn() -> String) -> PyResult<Bound<'py, PyIterator>> {
    let not_text = || PyTypeError::new_err(format!("{} must be str, not {}", what(), type_name(item)));
    if item.is_exact_instance_of::<PyList>() || item.is_exact_instance_of::<PyTuple>() {
        return item.try_iter();
    }
    if item.is_instance_of::<PyString>()
        || item.is_instance_of::<PyBytes>()
        || item.is_instance_of::<PyByteArray>()
        || item.is_instance_of::<PyMemoryView>()
        || item.cast::<PyMapping>().is_ok()
        || item.hasattr("__arrow_c_array__")?
    {
        return Err(not_text());
    }
    if let Some(e) = dataframe_error(item, &|| format!("{} must be str or a batch of texts", what())) {
        return Err(e);
    }
    item.try_iter().map_err(|e| unless_raised(e, not_text))
}

/// `len(obj)` as a size hint: None when `obj` has no length or its
/// `__len__` fails with an `Exception` (the twin and Hugging Face never ask
/// it, so a stream whose `__len__` raises still trains); a `BaseException`
/// that is not one (`KeyboardInterrupt`, `SystemExit`: a signal handler's)
/// comes back.
pub fn size_hint(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    match obj.len() {
        Ok(n) => Ok(Some(n)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyException>(obj.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The texts of `obj`, a corpus: an iterable of str and of batches of str
/// ([`text_batch`]), flattened. Errors name the item (`corpus[3]`) or the
/// text of a batch (`corpus[3][2]`). Python may run its signal handlers
/// every 4,096 texts, and more texts than memory is a MemoryError.
pub fn corpus_texts<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Vec<Text<'py>>> {
    reject_text_as_collection(obj, name, "str")?;
    reject_mapping_corpus(obj, name)?;
    let iter = obj.try_iter().map_err(|e| {
        unless_raised(e, || PyTypeError::new_err(format!("{name} must be an iterable of str, not {}", type_name(obj))))
    })?;
    let py = obj.py();
    let mut out: Vec<Text<'py>> = Vec::new();
    let _ = out.try_reserve_exact(size_hint(obj)?.unwrap_or(0)); // a hint too large is no error
    let mut push = |t: Text<'py>| {
        if out.len() == out.capacity() {
            out.try_reserve(out.len().max(8))
                .map_err(|_| PyMemoryError::new_err(format!("{name}: more texts than there is memory for")))?;
        }
        out.push(t);
        if out.len() % CHECK_SIGNALS_EVERY == 0 {
            py.check_signals()?;
        }
        Ok::<(), PyErr>(())
    };
    for (i, item) in iter.enumerate() {
        let item = item?;
        if item.is_instance_of::<PyString>() {
            push(text(&item, &|| format!("{name}[{i}]"))?)?;
            continue;
        }
        for (j, t) in text_batch(&item, &|| format!("{name}[{i}]"))?.enumerate() {
            push(text(&t?, &|| format!("{name}[{i}][{j}]"))?)?;
        }
    }
    Ok(out)
}

/// A text given as words (`is_split_into_words`, `is_pretokenized`): a list
/// or tuple of str, each as UTF-8.
pub fn words<'py>(list: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Text<'py>>> {
    // The list's or tuple's own size, a hint that asks no `__len__` (a
    // subclass's may fail: a length is only a hint); its words as it
    // iterates, as the twin reads them.
    let n = match (list.cast::<PyList>(), list.cast::<PyTuple>()) {
        (Ok(l), _) => l.len(),
        (_, Ok(t)) => t.len(),
        _ => {
            return Err(PyTypeError::new_err(format!("{what} must be a list of words (str), not {}", type_name(list))))
        }
    };
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| too_many_words(n, what))?;
    for (j, word) in list.try_iter()?.enumerate() {
        out.push(text(&word?, &|| format!("{what}[{j}]"))?);
    }
    Ok(out)
}

/// The MemoryError of a list of `n` words (`what`) there is no room to hold.
#[cold]
fn too_many_words(n: usize, what: &str) -> PyErr {
    to_py(crate::error::Error::memory(format_args!("a list of {n} words ({what})")))
}

/// The words that [`words`] read from `what`, as `&str`; a MemoryError
/// naming `what` when there is no room for them.
pub fn word_strs<'a>(words: &'a [Text<'_>], what: &dyn Fn() -> String) -> PyResult<Vec<&'a str>> {
    let mut out = Vec::new();
    out.try_reserve_exact(words.len()).map_err(|_| too_many_words(words.len(), &what()))?;
    out.extend(words.iter().map(|w| &**w));
    Ok(out)
}

/// A merge given as two str: a tuple or a list of exactly two (a
/// tokenizer.json's merges are JSON arrays, which `json.load` gives as
/// lists). None for anything else, which the caller names in its TypeError;
/// a str with a lone surrogate is a ValueError naming it (`<what>[1]`).
pub fn str_pair(obj: &Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<Option<(String, String)>> {
    match two_items(obj) {
        Some((a, b)) if a.is_instance_of::<PyString>() && b.is_instance_of::<PyString>() => {
            let a = text(&a, &|| format!("{}[0]", what()))?.to_owned();
            let b = text(&b, &|| format!("{}[1]", what()))?.to_owned();
            Ok(Some((a, b)))
        }
        _ => Ok(None),
    }
}

/// The two items of a tuple or a list of exactly two; None for anything else.
fn two_items<'py>(obj: &Bound<'py, PyAny>) -> Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    match (obj.cast::<PyTuple>(), obj.cast::<PyList>()) {
        (Ok(t), _) if t.len() == 2 => Some((t.get_item(0).ok()?, t.get_item(1).ok()?)),
        (_, Ok(l)) if l.len() == 2 => Some((l.get_item(0).ok()?, l.get_item(1).ok()?)),
        _ => None,
    }
}

/// A merge of `PyTokenizer`: a tuple or a list of exactly two str. Other
/// shapes are a TypeError (`merges[3] must be a pair of str`); an item
/// that is not a str is named with its place (`merges[3][1] must be str,
/// not int`), a lone surrogate is a ValueError and no room for the UTF-8
/// a MemoryError, as for every text argument.
pub fn text_pair(obj: &Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<(String, String)> {
    let (a, b) = two_items(obj).ok_or_else(|| PyTypeError::new_err(format!("{} must be a pair of str", what())))?;
    let a = text(&a, &|| format!("{}[0]", what()))?.to_owned();
    let b = text(&b, &|| format!("{}[1]", what()))?.to_owned();
    Ok((a, b))
}

/// Whether `obj` is a numpy bool scalar.
fn is_numpy_bool(obj: &Bound<'_, PyAny>) -> bool {
    let t = obj.get_type();
    t.module().is_ok_and(|m| m == "numpy") && t.name().is_ok_and(|n| matches!(n.to_string().as_str(), "bool" | "bool_"))
}

/// The int an integer argument stands for: an int, or an object that
/// converts to one as an index does (`operator.index`: numpy's integer
/// scalars, a 0-d integer array). A bool, a numpy bool, a float or a str is
/// a TypeError naming the argument; an exception `__index__` raises (other
/// than a TypeError: an AttributeError too, as `operator.index` lets it
/// through) comes back unchanged.
pub fn index<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyInt>> {
    let wrong = || PyTypeError::new_err(format!("{name} must be int, not {}", type_name(obj)));
    if obj.is_instance_of::<PyBool>() || is_numpy_bool(obj) {
        return Err(wrong());
    }
    if let Ok(int) = obj.cast::<PyInt>() {
        return Ok(int.clone());
    }
    match number_index(obj) {
        Ok(int) => int.cast_into::<PyInt>().map_err(|_| wrong()),
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Err(wrong()),
        Err(e) => Err(e),
    }
}

/// `operator.index(obj)`: the int it gives, or the exception it raises.
fn number_index<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: the GIL is held (`obj` is bound); PyNumber_Index gives a new
    // reference or NULL with an error set.
    unsafe { Bound::from_owned_ptr_or_err(obj.py(), pyo3::ffi::PyNumber_Index(obj.as_ptr())) }
}

/// The float a float argument (`alpha`, `shrinking_factor`) stands for: a
/// float, an int, or an object that converts to one as Python's `float`
/// converts a number (`__float__`, else `__index__`: numpy's float and
/// integer scalars). A bool or a numpy bool (a flag, not a number) and a
/// str are a TypeError naming the argument, an int too large for a float a
/// ValueError `"<name> is too large"`, never an OverflowError; an exception
/// `__float__` raises (other than a TypeError or AttributeError) comes back
/// unchanged.
pub fn real(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    let wrong = || PyTypeError::new_err(format!("{name} must be float, not {}", type_name(obj)));
    if obj.is_instance_of::<PyBool>() || is_numpy_bool(obj) {
        return Err(wrong());
    }
    obj.extract::<f64>().map_err(|e| {
        if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) {
            PyValueError::new_err(format!("{name} is too large"))
        } else {
            unless_raised(e, wrong)
        }
    })
}

/// An integer argument ([`index`]) from `minimum` to 2**64 - 1; out of that
/// range (however large) is a ValueError naming the argument.
fn integer(obj: &Bound<'_, PyAny>, name: &str, minimum: u64) -> PyResult<u64> {
    let int = index(obj, name)?;
    let below =
        |shown: &dyn std::fmt::Display| PyValueError::new_err(format!("{name} must be >= {minimum}, got {shown}"));
    let too_large = || PyValueError::new_err(format!("{name} is too large"));
    match int.extract::<i128>() {
        Ok(value) if value < i128::from(minimum) => Err(below(&value)),
        Ok(value) => u64::try_from(value).map_err(|_| too_large()),
        Err(_) if int.lt(0)? => Err(below(&int)),
        Err(_) => Err(too_large()),
    }
}

/// A non-negative integer argument ([`integer`]).
pub fn count(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    integer(obj, name, 0)
}

/// A positive integer argument ([`integer`]).
pub fn positive(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    let value = integer(obj, name, 1)?;
    usize::try_from(value).map_err(|_| PyValueError::new_err(format!("{name} is too large")))
}

/// A bool argument: a `bool` or a numpy bool scalar (not an int or anything
/// else truthy).
pub fn flag(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(b.is_true());
    }
    if is_numpy_bool(obj) {
        return obj.is_truthy();
    }
    Err(PyTypeError::new_err(format!("{name} must be bool, not {}", type_name(obj))))
}

/// An argument read as Python's `if` reads it (transformers' way with
/// `skip_special_tokens` in `convert_ids_to_tokens`): absent is false; an
/// exception `__bool__` raises (numpy's for an array of several values)
/// comes back unchanged.
pub fn truthy(obj: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    obj.map_or(Ok(false), |o| o.is_truthy())
}

/// The bool the keyword argument `key` of `kwargs` gives (false when it is
/// not given); None when its value is not a bool, which [`flag`] refuses.
pub fn given_flag(kwargs: Option<&Bound<'_, PyDict>>, key: &str) -> Option<bool> {
    match kwargs.map(|k| k.get_item(key)) {
        None | Some(Ok(None)) => Some(false),
        Some(Ok(Some(value))) => flag(&value, key).ok(),
        Some(Err(_)) => None,
    }
}

/// Converters for `#[pyo3(from_py_with = ...)]`, one per argument name, so
/// that a wrong type's error names the argument, as [`flag`] and [`text`]
/// do (PyO3's own conversion errors do not), while the signature keeps its
/// default (`show_progress = true`) and so its text signature.
pub mod named {
    use pyo3::prelude::*;

    use crate::python::args::{flag, text};

    macro_rules! converters {
        ($($name:ident),* $(,)?) => {
            $(
                #[doc = concat!("The `", stringify!($name), "` argument.")]
                pub fn $name<T: Converted>(obj: &Bound<'_, PyAny>) -> PyResult<T> {
                    T::convert(obj, stringify!($name))
                }
            )*
        };
    }

    /// What an argument converts to: a bool ([`flag`]), a str ([`text`]), or
    /// an optional one (None or a bool, None or a str).
    pub trait Converted: Sized {
        fn convert(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Self>;
    }

    impl Converted for bool {
        fn convert(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
            flag(obj, name)
        }
    }

    impl Converted for String {
        fn convert(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
            Ok(text(obj, &|| name.to_owned())?.to_owned())
        }
    }

    impl Converted for Option<bool> {
        fn convert(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
            if obj.is_none() {
                return Ok(None);
            }
            flag(obj, name).map(Some)
        }
    }

    impl Converted for Option<String> {
        fn convert(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
            if obj.is_none() {
                return Ok(None);
            }
            String::convert(obj, name).map(Some)
        }
    }

    converters! {
        add_special_tokens,
        already_has_special_tokens,
        clean_text,
        cleanup,
        errors,
        handle_chinese_chars,
        is_pair,
        is_pretokenized,
        is_split_into_words,
        lowercase,
        name,
        padding,
        pair,
        prefix,
        pretty,
        replace_extra_special_tokens,
        return_overflowing_tokens,
        show_progress,
        skip_special_tokens,
        spaces_between_special_tokens,
        special_tokens,
        strip_accents,
        strip_all_marks,
        unk_token,
        with_added_tokens,
    }
}

/// How often [`collect`] lets Python run its signal handlers, in items.
const CHECK_SIGNALS_EVERY: usize = 1 << 12;

/// The items of an argument's iterator, each made by `f(index, item)`, in a
/// vector first sized for `expected` items (a hint: `len()`, 0 if unknown).
/// Every 4,096 items Python may run its signal handlers, so an endless
/// iterator stops at Ctrl-C or with a handler's exception; and the vector
/// grows fallibly: more items than memory is a MemoryError, not an abort
/// (as is memory running out in what `f` makes, seen every 4,096 items: see
/// `crate::memory`).
pub fn collect<'py, T>(
    iter: Bound<'py, PyIterator>,
    name: &str,
    expected: usize,
    mut f: impl FnMut(usize, Bound<'py, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    let py = iter.py();
    let mut out = Vec::new();
    let _ = out.try_reserve_exact(expected); // a hint too large is no error
    let watch = crate::memory::Watch::start();
    for (i, item) in iter.enumerate() {
        if i % CHECK_SIGNALS_EVERY == CHECK_SIGNALS_EVERY - 1 {
            py.check_signals()?;
            watch.check(|| format!("a list of more than {i} items ({name})")).map_err(to_py)?;
        }
        let value = f(i, item?)?;
        if out.len() == out.capacity() {
            out.try_reserve(out.len().max(8)).map_err(|_| {
                to_py(crate::error::Error::memory(format_args!("a list of {} items ({name})", 2 * out.len().max(8))))
            })?;
        }
        out.push(value);
    }
    watch.check(|| format!("a list of {} items ({name})", out.len())).map_err(to_py)?;
    Ok(out)
}

/// What [`text_counts`] takes.
pub const TEXT_COUNTS: &str = "a mapping of str to int or an iterable of (str, int) pairs";

/// Counts given as `name`: a mapping of str to int (anything with `items()`)
/// or an iterable of `(str, int)` pairs; anything else is a TypeError saying
/// that `name` must be `expected`. The pairs in their order (a word may come
/// more than once), each count an integer ([`index`]) from `minimum` to
/// 2**64 - 1. The errors name the pair (`counts[3]`), its word (`the word of
/// counts[3]`) or its count (`the count of "abc"`); an exception raised by
/// `items()` or the iterator comes back unchanged.
pub fn text_counts(obj: &Bound<'_, PyAny>, name: &str, expected: &str, minimum: u64) -> PyResult<Vec<(String, u64)>> {
    // The method's name made fallibly: pyo3's conversion of a &str panics when Python has no room.
    let items = match obj.call_method0(super::ints::py_str(obj.py(), "items")?) {
        Ok(items) => items,
        Err(e) if !e.is_instance_of::<PyAttributeError>(obj.py()) => return Err(e), // raised by items()
        Err(_) => {
            reject_text_as_collection(obj, name, "(str, int) pairs")?;
            obj.clone()
        }
    };
    let iter = items.try_iter().map_err(|e| {
        unless_raised(e, || PyTypeError::new_err(format!("{name} must be {expected}, not {}", type_name(obj))))
    })?;
    collect(iter, name, 0, |i, pair| {
        let (word, count): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair.extract().map_err(|_| {
            PyTypeError::new_err(format!("{name}[{i}] must be a (str, int) pair, not {}", type_name(&pair)))
        })?;
        let word = text(&word, &|| format!("the word of {name}[{i}]"))?;
        // Copied fallibly: a word may be as long as a text.
        let mut owned = String::new();
        owned.try_reserve_exact(word.len()).map_err(|_| {
            to_py(crate::error::Error::memory(format_args!("the text of a word of {} bytes", word.len())))
        })?;
        owned.push_str(&word);
        // The count's name (the word, quoted) made only for an error.
        let n = match count.extract::<u64>() {
            Ok(n) if n >= minimum && count.is_exact_instance_of::<PyInt>() => n,
            _ => integer(&count, &format!("the count of {}", Quoted(&owned)), minimum)?,
        };
        Ok((owned, n))
    })
}

/// The error for an argument of the wrong kind: `ours` (naming it) when
/// Python's own error `e` says the object lacks what was asked of it (a
/// TypeError or AttributeError), else `e` unchanged: an exception that its
/// `__iter__`, `items` or `__fspath__` raised, or a signal handler's.
pub fn unless_raised(e: PyErr, ours: impl FnOnce() -> PyErr) -> PyErr {
    Python::attach(|py| {
        if e.is_instance_of::<PyTypeError>(py) || e.is_instance_of::<PyAttributeError>(py) {
            ours()
        } else {
            e
        }
    })
}

/// The special tokens argument: a list or tuple of distinct non-empty str.
pub fn special_tokens(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(obj) = obj else {
        return Ok(DEFAULT_SPECIAL_TOKENS.iter().map(|t| t.to_string()).collect());
    };
    reject_text_as_collection(obj, "special_tokens", "str")?;
    reject_token_mapping(obj, "special_tokens")?;
    let iter = obj.try_iter().map_err(|e| {
        unless_raised(e, || {
            PyTypeError::new_err(format!("special_tokens must be an iterable of str, not {}", type_name(obj)))
        })
    })?;
    let mut tokens = Vec::new();
    for (i, item) in iter.enumerate() {
        let item = item?;
        tokens.push(text(&item, &|| format!("special_tokens[{i}]"))?.to_owned());
    }
    validate_special_tokens(&tokens).map_err(to_py)?;
    Ok(tokens)
}

/// The names of the pipeline options, in the order they are checked in (the
/// order of the twin's `Options` fields).
const OPTION_NAMES: [&str; 16] = [
    "clean_text",
    "handle_chinese_chars",
    "strip_accents",
    "lowercase",
    "strip_all_marks",
    "pre_tokenizer",
    "unk_token",
    "cls_token",
    "sep_token",
    "pad_token",
    "max_input_chars_per_word",
    "continuing_subword_prefix",
    "decoder_cleanup",
    "post_processor",
    "split_special_tokens",
    "decoder",
];

/// The pipeline options, given as keyword arguments: an unexpected keyword
/// first (the first in the call's order, as Python binds arguments), then
/// each option on its own (its type, then its value) in the order of
/// [`OPTION_NAMES`], whatever the call's order.
pub fn options(kwargs: Option<&Bound<'_, PyDict>>, function: &str) -> PyResult<Options> {
    let mut o = Options::default();
    let Some(kwargs) = kwargs else { return Ok(o) };
    for name in kwargs.keys() {
        if !OPTION_NAMES.contains(&&*name.extract::<String>()?) {
            return Err(unexpected(function, &name));
        }
    }
    let token = |v: &Bound<'_, PyAny>, key: &str| -> PyResult<String> {
        let t = text(v, &|| key.to_owned())?.to_owned();
        if t.is_empty() {
            return Err(PyValueError::new_err(format!("{key} must not be empty")));
        }
        Ok(t)
    };
    for key in OPTION_NAMES {
        let Some(value) = kwargs.get_item(key)? else { continue };
        let v = &value;
        match key {
            "lowercase" => o.normalizer.lowercase = flag(v, key)?,
            "strip_accents" => o.normalizer.strip_accents = if v.is_none() { None } else { Some(flag(v, key)?) },
            "clean_text" => o.normalizer.clean_text = flag(v, key)?,
            "strip_all_marks" => o.normalizer.strip_all_marks = flag(v, key)?,
            "handle_chinese_chars" => o.normalizer.handle_chinese_chars = flag(v, key)?,
            "pre_tokenizer" => o.pre_tokenizer = text(v, &|| key.into())?.parse().map_err(to_py)?,
            "unk_token" => o.unk_token = token(v, key)?,
            "cls_token" => o.cls_token = token(v, key)?,
            "sep_token" => o.sep_token = token(v, key)?,
            "pad_token" => o.pad_token = token(v, key)?,
            "max_input_chars_per_word" => o.max_input_chars_per_word = positive(v, key)?,
            "continuing_subword_prefix" => o.continuing_subword_prefix = text(v, &|| key.into())?.to_owned(),
            "decoder_cleanup" => o.decoder_cleanup = flag(v, key)?,
            "split_special_tokens" => o.split_special_tokens = flag(v, key)?,
            "post_processor" => o.post_processor = post_processing(v)?,
            "decoder" => o.decoder = Decoding::parse(&text(v, &|| key.into())?).map_err(to_py)?,
            _ => return Err(unexpected(function, PyString::new(kwargs.py(), key).as_any())),
        }
    }
    o.validate().map_err(to_py)?;
    Ok(o)
}

/// `post_processor`: `"bert"`, `"none"`, or a dict that is Hugging Face's
/// `TemplateProcessing` object (as `json.loads` gives it).
fn post_processing(value: &Bound<'_, PyAny>) -> PyResult<PostProcessing> {
    if value.is_instance_of::<PyDict>() {
        let json = value.py().import("json")?.call_method1("dumps", (value,)).map_err(|_| {
            PyTypeError::new_err("post_processor: a TemplateProcessing dict must hold only JSON values")
        })?;
        let value: serde_json::Value = serde_json::from_str(&json.extract::<String>()?)
            .map_err(|e| PyValueError::new_err(format!("post_processor: {e}")))?;
        return PostProcessing::from_value(&value).map_err(to_py);
    }
    PostProcessing::parse(&text(value, &|| "post_processor".into())?).map_err(to_py)
}

/// Whether `obj` is one path: a str, bytes or an `os.PathLike`.
fn is_path(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Ok(true);
    }
    obj.is_instance(&python_class(obj.py(), "os", "PathLike")?)
}

/// One path, or an iterable of paths (each as [`path`] takes it).
pub fn paths(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    let not_paths = || PyTypeError::new_err(format!("paths must be a path or a list of paths, not {}", type_name(obj)));
    if is_path(obj)? {
        return Ok(vec![named_path(obj, &|| "paths".into())?]);
    }
    // A bytearray or memoryview is no path (nor is it to Python's open), and iterates as ints.
    if obj.is_instance_of::<PyByteArray>() || obj.is_instance_of::<PyMemoryView>() {
        return Err(not_paths());
    }
    let iter = obj.try_iter().map_err(|e| unless_raised(e, not_paths))?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        out.push(named_path(&item?, &|| format!("paths[{i}]"))?);
    }
    Ok(out)
}

/// A path argument: a str, bytes, or an `os.PathLike` whose `__fspath__`
/// gives either, as Python's `open` takes them; bytes are decoded as
/// `os.fsdecode` does (on POSIX, bytes that are not in the filesystem
/// encoding are kept as they are). Anything else is a TypeError, a NUL
/// character a ValueError, naming the argument (a path cannot hold one:
/// Python's `open` says `embedded null byte`).
pub fn path(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<PathBuf> {
    named_path(obj, &|| name.to_owned())
}

/// [`path`], the argument named by `what`.
fn named_path(obj: &Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<PathBuf> {
    let py = obj.py();
    if !is_path(obj)? {
        let message = format!("{} must be str, bytes or os.PathLike, not {}", what(), type_name(obj));
        return Err(PyTypeError::new_err(message));
    }
    // os.fsdecode: a str as it is, bytes decoded, an os.PathLike's __fspath__ read (an
    // exception it raises comes back unchanged, as does Python's TypeError for one that
    // gives neither str nor bytes).
    let decoded =
        py.import(super::ints::py_str(py, "os")?)?.call_method1(super::ints::py_str(py, "fsdecode")?, (obj,))?;
    // A str, encoded back as os.fsencode does (on POSIX, the bytes given).
    let path: PathBuf = decoded.extract()?;
    if path.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(PyValueError::new_err(format!("{}: embedded null byte", what())));
    }
    Ok(path)
}

/// Token ids: ints in `0..vocab_size`; anything else is named in the error.
pub fn ids(obj: &Bound<'_, PyAny>, name: &str, vocab_size: usize) -> PyResult<Vec<u32>> {
    reject_text_as_collection(obj, name, "int")?;
    let iter = obj.try_iter().map_err(|e| {
        unless_raised(e, || PyTypeError::new_err(format!("{name} must be an iterable of int, not {}", type_name(obj))))
    })?;
    collect(iter, name, 0, |i, item| id(&item, &|| format!("{name}[{i}]"), vocab_size))
}

/// A sequence of ids as [`ids`] reads it, each any token id ([`any_id`]).
pub fn any_ids(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<u32>> {
    reject_text_as_collection(obj, name, "int")?;
    let iter = obj.try_iter().map_err(|e| {
        unless_raised(e, || PyTypeError::new_err(format!("{name} must be an iterable of int, not {}", type_name(obj))))
    })?;
    collect(iter, name, 0, |i, item| any_id(&item, &|| format!("{name}[{i}]")))
}

/// Whether `obj` is one id rather than a sequence of them: an int (a bool
/// too, which [`id`] then rejects) or, but for a list or a tuple, what
/// `operator.index` takes (numpy's `int64`, a 0-d integer array, an object
/// with `__index__`), as the twin tells. A TypeError from it means not an
/// id; any other exception the caller's `__index__` raises comes back
/// unchanged, never turned into our TypeError for a wrong type.
pub fn is_one_id(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if obj.is_instance_of::<PyInt>() {
        return Ok(true);
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return Ok(false);
    }
    match number_index(obj) {
        Ok(_) => Ok(true),
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Ok(false),
        Err(e) => Err(e),
    }
}

/// One id ([`is_one_id`]) as a list of it, or a sequence of ids ([`ids`]).
pub fn one_or_more_ids(obj: &Bound<'_, PyAny>, name: &str, vocab_size: usize) -> PyResult<Vec<u32>> {
    if is_one_id(obj)? {
        Ok(vec![id(obj, &|| name.to_owned(), vocab_size)?])
    } else {
        ids(obj, name, vocab_size)
    }
}

/// One token id: an int in `0..vocab_size`.
pub fn id(item: &Bound<'_, PyAny>, name: &dyn Fn() -> String, vocab_size: usize) -> PyResult<u32> {
    let why = || format!("is out of range for a vocabulary of {vocab_size} tokens");
    id_below(item, name, vocab_size as u64, &why)
}

/// Any id a token could have, in or out of the vocabulary: an int from 0 to
/// 2**32 - 1, as transformers' `convert_ids_to_tokens` takes (it gives None
/// for one no token has, and an obscure OverflowError past these bounds).
pub fn any_id(item: &Bound<'_, PyAny>, name: &dyn Fn() -> String) -> PyResult<u32> {
    id_below(item, name, 1 << 32, &|| "is not a token id (one from 0 to 4294967295)".to_owned())
}

/// One id as [`id`] reads it: an int in `0..limit`; out of it, a ValueError
/// `"<name> = <id> <why>"`.
fn id_below(item: &Bound<'_, PyAny>, name: &dyn Fn() -> String, limit: u64, why: &dyn Fn() -> String) -> PyResult<u32> {
    if item.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{} must be int, not bool", name())));
    }
    let out_of_range = |id: &dyn std::fmt::Display| PyValueError::new_err(format!("{} = {id} {}", name(), why()));
    if item.is_instance_of::<PyInt>() {
        let mut overflow = 0;
        // SAFETY: the GIL is held and `item` is an int. The stable ABI's i64
        // read, which sets no error when the value fits (`overflow` says when it
        // does not): pyo3's i128 extraction under abi3 shifts the int in two
        // halves through `PyNumber_Rshift`, two-thirds of decoding short ids.
        let id = unsafe { pyo3::ffi::PyLong_AsLongLongAndOverflow(item.as_ptr(), &mut overflow) };
        if id == -1 {
            if let Some(e) = PyErr::take(item.py()) {
                return Err(e);
            }
        }
        if overflow == 0 {
            return match u32::try_from(id) {
                Ok(id) if u64::from(id) < limit => Ok(id),
                _ => Err(out_of_range(&id)),
            };
        }
    }
    let id: i128 = match item.extract() {
        Ok(id) => id,
        Err(_) if item.is_instance_of::<PyInt>() => return Err(out_of_range(item)), // beyond 128 bits
        // An integer only through `__index__` (slower: not the common case).
        Err(_) => {
            let int = index(item, &name())?;
            int.extract().map_err(|_| out_of_range(&int))?
        }
    };
    if id < 0 || id >= i128::from(limit) {
        return Err(out_of_range(&id));
    }
    Ok(id as u32)
}

/// The TypeError for a keyword argument `function` does not take, naming it
/// as Python does (`got an unexpected keyword argument 'foo'`, the name's
/// `repr`).
fn unexpected(function: &str, key: &Bound<'_, PyAny>) -> PyErr {
    match key.repr() {
        Ok(name) => PyTypeError::new_err(format!("{function}() got an unexpected keyword argument {name}")),
        Err(e) => e,
    }
}

/// Checks the keyword arguments that PyO3 left to a function's `**kwargs`:
/// a keyword it does not take is Python's TypeError. One of its own
/// parameters (`known`) lands there only when PyO3 could not read its name:
/// under the stable ABI before Python 3.10 it reads each keyword's name into
/// a new bytes object, and takes a failure to allocate that for a name it
/// does not know (its TypeError, `got an unexpected keyword argument`).
/// That is a MemoryError, as for any other allocation the call makes.
pub fn no_other_keywords(kwargs: Option<&Bound<'_, PyDict>>, function: &str, known: &[&str]) -> PyResult<()> {
    let Some((key, _)) = kwargs.and_then(|k| k.iter().next()) else {
        return Ok(());
    };
    let py = key.py();
    let name = match key.extract::<String>() {
        Ok(name) => name,
        Err(e) if e.is_instance_of::<PyMemoryError>(py) => return Err(e),
        Err(_) => return Err(unexpected(function, &key)), // not valid Unicode: no name of ours
    };
    if known.contains(&name.as_str()) {
        return Err(PyMemoryError::new_err(format!(
            "{function}(): no memory to read the name of the keyword argument '{name}'"
        )));
    }
    Err(unexpected(function, &key))
}

/// What a call to `encode` or `encode_batch` asks for beyond its options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// `truncation=False` (or `"do_not_truncate"`): no truncation, not even
    /// the tokenizer's default.
    pub no_truncation: bool,
    /// `is_pretokenized=True`: each text is a list of words.
    pub pretokenized: bool,
}

impl Asked {
    /// `options` with the tokenizer's defaults (`defaults`: its
    /// `defaults_for`) where the call gives none, and no truncation at all
    /// when the call turns it off.
    pub fn resolve(
        self,
        options: EncodeOptions,
        defaults: impl FnOnce(EncodeOptions) -> EncodeOptions,
    ) -> EncodeOptions {
        let options = defaults(options);
        if self.no_truncation {
            EncodeOptions { truncation: None, ..options }
        } else {
            options
        }
    }
}

/// The TypeError `encode` gives for transformers' `return_tensors`.
fn encode_return_tensors() -> PyErr {
    PyTypeError::new_err(
        "encode() got an unexpected keyword argument 'return_tensors': encode returns a tokenizers-style \
         Encoding; call the tokenizer, tok(text, return_tensors=...), for transformers' arrays",
    )
}

/// The keyword arguments of `encode`, in the order of its signature (the
/// order they are checked in).
const ENCODE_KEYWORDS: [&str; 8] = [
    "is_pretokenized",
    "max_length",
    "truncation",
    "stride",
    "truncation_side",
    "padding",
    "pad_to_multiple_of",
    "padding_side",
];

/// The keyword arguments `encode_batch` takes after `encode`'s, in the order
/// of its signature.
const BATCH_KEYWORDS: [&str; 5] =
    ["return_tensors", "num_threads", "return_offsets", "return_token_type_ids", "return_special_tokens_mask"];

/// The keyword arguments a call gave, by name, or the TypeError for the
/// first one (in the call's order) that is not among `names`, as Python
/// reports an unexpected keyword before any value is looked at. `skip` says
/// which others are nonetheless fine (and ignored), or raises their error.
fn given_keywords<'py>(
    kwargs: Option<&Bound<'py, PyDict>>,
    function: &str,
    names: &[&'static str],
    skip: impl Fn(&str, &Bound<'py, PyAny>) -> PyResult<bool>,
) -> PyResult<Vec<(&'static str, Bound<'py, PyAny>)>> {
    let mut given = Vec::new();
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        let name: String = key.extract()?;
        match names.iter().find(|n| **n == name) {
            Some(n) => given.push((*n, value)),
            None if skip(&name, &value)? => {}
            None => return Err(unexpected(function, &key)),
        }
    }
    Ok(given)
}

/// The value given for keyword `name`, if any.
fn keyword<'a, 'py>(given: &'a [(&'static str, Bound<'py, PyAny>)], name: &str) -> Option<&'a Bound<'py, PyAny>> {
    given.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
}

/// The keyword arguments of `encode`: truncation, padding and
/// `is_pretokenized`. An unexpected keyword is reported first, then each
/// argument in the order of the signature, then what they ask together.
/// `model_max_length` gives the length `truncation=True` without
/// `max_length` truncates to (None: the tokenizer's default truncation, if
/// any); it is asked only then.
pub fn encode_options(
    add_special_tokens: bool,
    kwargs: Option<&Bound<'_, PyDict>>,
    model_max_length: impl FnOnce() -> Option<u64>,
) -> PyResult<(EncodeOptions, Asked)> {
    let given = given_keywords(kwargs, "encode", &ENCODE_KEYWORDS, |key, value| {
        if key != "return_tensors" {
            return Ok(false);
        }
        // transformers' default, None, asks for nothing.
        if value.is_none() {
            Ok(true)
        } else {
            Err(encode_return_tensors())
        }
    })?;
    let shared = EncodeKwargs::read(&given)?;
    shared.finish(add_special_tokens, model_max_length)
}

/// What `encode_batch(..., return_tensors=...)` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReturnTensors {
    /// A list of `Encoding`.
    List,
    /// A dict of int64 numpy arrays.
    Numpy,
}

/// The keyword arguments of `encode_batch`: `encode`'s, then
/// `return_tensors`, `num_threads` and the `return_*` flags, checked as
/// `encode`'s are (see [`encode_options`]).
pub fn encode_batch_options(
    add_special_tokens: bool,
    kwargs: Option<&Bound<'_, PyDict>>,
    model_max_length: impl FnOnce() -> Option<u64>,
) -> PyResult<(EncodeOptions, ReturnTensors, RaggedFields, Asked)> {
    let names: Vec<&'static str> = ENCODE_KEYWORDS.iter().chain(&BATCH_KEYWORDS).copied().collect();
    let given = given_keywords(kwargs, "encode_batch", &names, |_, _| Ok(false))?;
    let shared = EncodeKwargs::read(&given)?;
    let return_tensors = match keyword(&given, "return_tensors") {
        None => ReturnTensors::List,
        Some(value) if value.is_none() => ReturnTensors::List,
        Some(value) if &*text(value, &|| "return_tensors".into())? == "np" => ReturnTensors::Numpy,
        Some(value) => {
            return Err(PyValueError::new_err(format!("return_tensors must be None or \"np\", not {}", value.repr()?)))
        }
    };
    let num_threads = match keyword(&given, "num_threads") {
        None => None,
        Some(value) => optional(value, |v| positive(v, "num_threads"))?,
    };
    if let Some(n) = num_threads {
        crate::threads::checked(Some(n)).map_err(to_py)?;
    }
    let flag_of = |name: &str| keyword(&given, name).map_or(Ok(false), |v| flag(v, name));
    let fields = RaggedFields {
        offsets: flag_of("return_offsets")?,
        type_ids: flag_of("return_token_type_ids")?,
        special_tokens_mask: flag_of("return_special_tokens_mask")?,
    };
    let (options, asked) = shared.finish(add_special_tokens, model_max_length)?;
    if fields != RaggedFields::default() && return_tensors != ReturnTensors::Numpy {
        return Err(PyValueError::new_err(
            "return_offsets, return_token_type_ids and return_special_tokens_mask are for return_tensors=\"np\" \
             (an Encoding holds every field)",
        ));
    }
    Ok((EncodeOptions { num_threads, ..options }, return_tensors, fields, asked))
}

/// The keyword arguments `encode` and `encode_batch` share, each checked on
/// its own by [`EncodeKwargs::read`] in the order of the signature, then
/// together by [`EncodeKwargs::finish`].
struct EncodeKwargs {
    pretokenized: bool,
    /// None: no truncation, and no `padding="max_length"`.
    max_length: Option<usize>,
    /// transformers' bool (True: `"longest_first"`, to `model_max_length`
    /// without `max_length`; False: `"do_not_truncate"`), if one was given.
    truncation_bool: Option<bool>,
    /// The strategy; None: `"do_not_truncate"`.
    strategy: Option<Strategy>,
    stride: usize,
    truncation_side: Side,
    /// `"longest"` or `"max_length"`; None: no padding.
    padding: Option<PadName>,
    pad_to_multiple_of: Option<NonZeroUsize>,
    padding_side: Side,
}

/// A `padding` value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PadName {
    Longest,
    MaxLength,
}

/// The `truncation` value that turns truncation off.
const DO_NOT_TRUNCATE: &str = "do_not_truncate";

impl EncodeKwargs {
    /// Each argument `given`, checked on its own (its type, then its value)
    /// in the order of the signature; every error names an argument.
    fn read(given: &[(&'static str, Bound<'_, PyAny>)]) -> PyResult<Self> {
        let get = |name: &str| keyword(given, name).filter(|v| !v.is_none());
        let pretokenized = keyword(given, "is_pretokenized").map_or(Ok(false), |v| flag(v, "is_pretokenized"))?;
        let max_length = get("max_length").map(|v| count(v, "max_length")).transpose()?.map(|n| n as usize);
        let (truncation_bool, strategy) = match get("truncation") {
            None => (None, Some(Strategy::LongestFirst)),
            // transformers' bools: True is "longest_first", False "do_not_truncate".
            Some(value) if value.is_instance_of::<PyBool>() || is_numpy_bool(value) => {
                let on = value.is_truthy()?;
                (Some(on), on.then_some(Strategy::LongestFirst))
            }
            Some(value) if !value.is_instance_of::<PyString>() => {
                return Err(PyTypeError::new_err(format!(
                    "truncation must be bool, str or None, not {}",
                    type_name(value)
                )))
            }
            Some(value) => {
                let name = text(value, &|| "truncation".into())?;
                (None, if &*name == DO_NOT_TRUNCATE { None } else { Some(strategy(&name)?) })
            }
        };
        let stride = match keyword(given, "stride") {
            None => 0,
            Some(value) => count(value, "stride")? as usize,
        };
        let side_of = |name: &str| match keyword(given, name) {
            None => Ok(Side::Right),
            Some(value) => side(&text(value, &|| name.to_owned())?, name),
        };
        let truncation_side = side_of("truncation_side")?;
        let padding = match get("padding") {
            None => None,
            Some(value) => match &*text(value, &|| "padding".into())? {
                "longest" => Some(PadName::Longest),
                "max_length" => Some(PadName::MaxLength),
                other => {
                    return Err(PyValueError::new_err(format!(
                        "padding must be None, \"longest\" or \"max_length\", not {}",
                        Quoted(other)
                    )))
                }
            },
        };
        let pad_to_multiple_of = get("pad_to_multiple_of")
            .map(|v| positive(v, "pad_to_multiple_of"))
            .transpose()?
            .and_then(NonZeroUsize::new);
        let padding_side = side_of("padding_side")?;
        Ok(EncodeKwargs {
            pretokenized,
            max_length,
            truncation_bool,
            strategy,
            stride,
            truncation_side,
            padding,
            pad_to_multiple_of,
            padding_side,
        })
    }

    /// The options the arguments ask for together; an error names the
    /// arguments that do not go together. `model_max_length`: see
    /// [`encode_options`].
    fn finish(
        &self,
        add_special_tokens: bool,
        model_max_length: impl FnOnce() -> Option<u64>,
    ) -> PyResult<(EncodeOptions, Asked)> {
        // transformers' truncation=True without max_length: the model's
        // maximum, when it has one.
        let max_length = match (self.max_length, self.truncation_bool) {
            (None, Some(true)) => model_max_length().map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            (given, _) => given,
        };
        let truncation = match (max_length, self.strategy) {
            (Some(max_length), Some(strategy)) => {
                // The stride is checked by the tokenizer, which knows how
                // many special tokens its post-processor adds.
                Some(Truncation { max_length, strategy, stride: self.stride, side: self.truncation_side })
            }
            _ if self.stride > 0 => {
                return Err(PyValueError::new_err(
                    "stride needs max_length (and a truncation other than \"do_not_truncate\")",
                ))
            }
            _ => None,
        };
        let to = match self.padding {
            None => None,
            Some(PadName::Longest) => Some(PadTo::Longest),
            Some(PadName::MaxLength) => Some(PadTo::Fixed(
                max_length.ok_or_else(|| PyValueError::new_err("padding=\"max_length\" needs max_length"))?,
            )),
        };
        let padding = match (to, self.pad_to_multiple_of) {
            (None, Some(_)) => {
                return Err(PyValueError::new_err(
                    "pad_to_multiple_of needs padding=\"longest\" or padding=\"max_length\"",
                ))
            }
            (None, None) => None,
            (Some(to), multiple_of) => Some(Padding { to, multiple_of, side: self.padding_side }),
        };
        let asked = Asked { no_truncation: self.strategy.is_none(), pretokenized: self.pretokenized };
        Ok((EncodeOptions { add_special_tokens, truncation, padding, num_threads: None }, asked))
    }
}

/// A truncation strategy by its name.
fn strategy(name: &str) -> PyResult<Strategy> {
    match name {
        "longest_first" => Ok(Strategy::LongestFirst),
        "only_first" => Ok(Strategy::OnlyFirst),
        "only_second" => Ok(Strategy::OnlySecond),
        _ => Err(PyValueError::new_err(format!(
            "unknown truncation {}: expected one of \"longest_first\", \"only_first\", \"only_second\", \
             \"{DO_NOT_TRUNCATE}\"",
            Quoted(name)
        ))),
    }
}

/// `"left"` or `"right"`; `argument` names the argument in the error.
pub fn side(value: &str, argument: &str) -> PyResult<Side> {
    Side::from_name(value).ok_or_else(|| {
        PyValueError::new_err(format!("{argument} must be \"left\" or \"right\", not {}", Quoted(value)))
    })
}

/// None, or what `convert` makes of the value.
fn optional<T>(obj: &Bound<'_, PyAny>, convert: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>) -> PyResult<Option<T>> {
    if obj.is_none() {
        Ok(None)
    } else {
        convert(obj).map(Some)
    }
}

/// The tokens of `add_tokens` / `add_special_tokens` (`special`): a str, an
/// `AddedToken`, or a list of them, given to `function` (`add_tokens`,
/// `add_special_tokens`) as the argument `what`, both named in the errors
/// (`add_tokens: new_tokens must be ...`). A str is special only for
/// `add_special_tokens`, and normalized when not special; an `AddedToken`
/// made without `normalized` likewise. A dict is refused:
/// `add_special_tokens` reads its dict before.
pub fn added_tokens(obj: &Bound<'_, PyAny>, special: bool, function: &str, what: &str) -> PyResult<Vec<AddedToken>> {
    if obj.is_instance_of::<PyString>() || obj.hasattr("content")? {
        return Ok(vec![added_token(obj, special, &|| what.into())?]);
    }
    let refused = || {
        let expected = if what == "special_tokens_dict" {
            "a dict or a list of str or AddedToken"
        } else {
            "a list of str or AddedToken"
        };
        PyTypeError::new_err(format!("{function}: {what} must be {expected}, not {}", type_name(obj)))
    };
    // bytes iterate as ints, a dict as its keys: named as what they are
    if obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.is_instance_of::<PyMemoryView>()
        || obj.is_instance_of::<PyDict>()
    {
        return Err(refused());
    }
    let iter = obj.try_iter().map_err(|e| unless_raised(e, refused))?;
    iter.enumerate().map(|(i, item)| added_token(&item?, special, &|| format!("{what}[{i}]"))).collect()
}

pub fn added_token(obj: &Bound<'_, PyAny>, force_special: bool, what: &dyn Fn() -> String) -> PyResult<AddedToken> {
    if obj.is_instance_of::<PyString>() {
        let content = text(obj, what)?.to_owned();
        return Ok(AddedToken { content, special: force_special, normalized: !force_special, ..AddedToken::default() });
    }
    if !obj.hasattr("content")? {
        return Err(PyTypeError::new_err(format!("{} must be a str or an AddedToken, not {}", what(), type_name(obj))));
    }
    let field = |name: &str| -> PyResult<bool> {
        let v = obj.getattr(name)?;
        v.extract::<bool>().map_err(|_| PyTypeError::new_err(format!("{}.{name} must be a bool", what())))
    };
    let content = text(&obj.getattr("content")?, &|| format!("{}.content", what()))?.to_owned();
    let special = force_special || field("special")?;
    // Our AddedToken keeps whether `normalized` was given (`_normalized`).
    let given = if obj.hasattr("_normalized")? { obj.getattr("_normalized")? } else { obj.getattr("normalized")? };
    let normalized = if given.is_none() {
        !special
    } else {
        given.extract::<bool>().map_err(|_| PyTypeError::new_err(format!("{}.normalized must be a bool", what())))?
    };
    Ok(AddedToken {
        content,
        special,
        normalized,
        single_word: field("single_word")?,
        lstrip: field("lstrip")?,
        rstrip: field("rstrip")?,
    })
}

/// Texts held as UTF-8 (see `family::texts`) as `&str`, or a MemoryError naming the batch when there
/// is no room for them.
pub fn strs<'a>(held: &'a [Text<'_>]) -> PyResult<Vec<&'a str>> {
    let n = held.len();
    let mut strs = crate::error::Error::room_for(n, format_args!("a batch of {n} texts")).map_err(to_py)?;
    strs.extend(held.iter().map(|t| &**t));
    Ok(strs)
}

/// The number of dimensions of an array (numpy's, a torch tensor: its
/// `ndim`), 0 for anything else.
pub fn dimensions(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    if !obj.hasattr("ndim")? {
        return Ok(0);
    }
    Ok(obj.getattr("ndim")?.extract::<usize>().unwrap_or(0))
}

/// Whether `decode` was given a batch, as transformers 5 tells one once it
/// made arrays lists: a list or tuple whose first item is a list, a tuple,
/// an array or a row `is_row` knows (`PyTokenizer`'s `Encoding`), or an
/// array of two dimensions or more with a row (one without rows is an empty
/// sequence there).
pub fn is_batch(ids: &Bound<'_, PyAny>, is_row: impl Fn(&Bound<'_, PyAny>) -> bool) -> PyResult<bool> {
    if ids.is_instance_of::<PyList>() || ids.is_instance_of::<PyTuple>() {
        if ids.len()? == 0 {
            return Ok(false);
        }
        let first = ids.get_item(0)?;
        if first.is_instance_of::<pyo3::types::PyInt>() {
            return Ok(false); // one sequence of ids: the common case, asked nothing more
        }
        return Ok(first.is_instance_of::<PyList>()
            || first.is_instance_of::<PyTuple>()
            || is_row(&first)
            || dimensions(&first)? >= 1);
    }
    Ok(dimensions(ids)? >= 2 && ids.len()? > 0)
}

/// What transformers 5's `decode` reads of a dict or a `collections.UserDict`
/// (a `BatchEncoding` of one text): the ids under `"input_ids"`, named
/// `token_ids["input_ids"]`; None for anything else. A dict without them is
/// a ValueError (transformers: KeyError).
pub fn input_ids_of<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = obj.py();
    if !is_dict(obj)? {
        return Ok(None);
    }
    let key = pyo3::types::PyString::new(py, "input_ids");
    if !obj.contains(&key)? {
        return Err(PyValueError::new_err(format!(
            "token_ids: a {} without \"input_ids\" (decode takes ids, or the BatchEncoding of one text)",
            type_name(obj)
        )));
    }
    obj.get_item(key).map(Some)
}

/// Whether `obj` is a dict or a `collections.UserDict` (transformers'
/// `BatchEncoding`).
pub fn is_dict(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    static USER_DICT: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
    if obj.is_instance_of::<PyDict>() {
        return Ok(true);
    }
    let py = obj.py();
    let user_dict =
        USER_DICT.get_or_try_init(py, || py.import("collections")?.getattr("UserDict").map(Bound::unbind))?;
    obj.is_instance(user_dict.bind(py))
}
