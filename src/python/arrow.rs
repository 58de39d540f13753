//! Arrow string arrays as texts, read in place through the Arrow C data
//! interface (`__arrow_c_array__` for an array, `__arrow_c_stream__` for a
//! stream of them such as a chunked array: the Arrow PyCapsule interface of
//! pyarrow, polars, nanoarrow, ...): the texts are borrowed from the arrays'
//! offsets and data buffers, with no Python object per text.

use std::ffi::{c_char, c_void, CStr};

use pyo3::exceptions::{PyImportError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyTuple};

/// `struct ArrowSchema` of the Arrow C data interface.
#[repr(C)]
struct ArrowSchema {
    format: *const c_char,
    name: *const c_char,
    metadata: *const c_char,
    flags: i64,
    n_children: i64,
    children: *mut *mut ArrowSchema,
    dictionary: *mut ArrowSchema,
    release: Option<unsafe extern "C" fn(*mut ArrowSchema)>,
    private_data: *mut c_void,
}

/// `struct ArrowArray` of the Arrow C data interface.
#[repr(C)]
struct ArrowArray {
    length: i64,
    null_count: i64,
    offset: i64,
    n_buffers: i64,
    n_children: i64,
    buffers: *mut *const c_void,
    children: *mut *mut ArrowArray,
    dictionary: *mut ArrowArray,
    release: Option<unsafe extern "C" fn(*mut ArrowArray)>,
    private_data: *mut c_void,
}

/// `struct ArrowArrayStream` of the Arrow C stream interface.
#[repr(C)]
struct ArrowArrayStream {
    get_schema: Option<unsafe extern "C" fn(*mut ArrowArrayStream, *mut ArrowSchema) -> i32>,
    get_next: Option<unsafe extern "C" fn(*mut ArrowArrayStream, *mut ArrowArray) -> i32>,
    get_last_error: Option<unsafe extern "C" fn(*mut ArrowArrayStream) -> *const c_char>,
    release: Option<unsafe extern "C" fn(*mut ArrowArrayStream)>,
    private_data: *mut c_void,
}

/// An `ArrowSchema` this code owns (got from a stream): released when dropped.
struct OwnedSchema(ArrowSchema);

impl Drop for OwnedSchema {
    fn drop(&mut self) {
        if let Some(release) = self.0.release {
            // SAFETY: a schema the producer filled in, released once.
            unsafe { release(&mut self.0) };
        }
    }
}

/// An `ArrowArray` this code owns (a chunk of a stream): released when dropped.
pub(super) struct OwnedArray(ArrowArray);

impl Drop for OwnedArray {
    fn drop(&mut self) {
        if let Some(release) = self.0.release {
            // SAFETY: an array the producer filled in, released once.
            unsafe { release(&mut self.0) };
        }
    }
}

/// An empty (released) struct, for a producer to fill in.
fn empty_schema() -> ArrowSchema {
    ArrowSchema {
        format: std::ptr::null(),
        name: std::ptr::null(),
        metadata: std::ptr::null(),
        flags: 0,
        n_children: 0,
        children: std::ptr::null_mut(),
        dictionary: std::ptr::null_mut(),
        release: None,
        private_data: std::ptr::null_mut(),
    }
}

fn empty_array() -> ArrowArray {
    ArrowArray {
        length: 0,
        null_count: 0,
        offset: 0,
        n_buffers: 0,
        n_children: 0,
        buffers: std::ptr::null_mut(),
        children: std::ptr::null_mut(),
        dictionary: std::ptr::null_mut(),
        release: None,
        private_data: std::ptr::null_mut(),
    }
}

/// The offsets of a string array: 32-bit (`string`) or 64-bit (`large_string`).
enum Offsets<'a> {
    Small(&'a [i32]),
    Large(&'a [i64]),
}

impl Offsets<'_> {
    fn get(&self, i: usize) -> i64 {
        match self {
            Offsets::Small(o) => o[i].into(),
            Offsets::Large(o) => o[i],
        }
    }
}

/// The capsules of an object's `__arrow_c_array__()`, kept alive while its
/// buffers are borrowed (the capsules release the array when dropped).
pub(super) struct ArrowCapsules<'py> {
    schema: Bound<'py, PyCapsule>,
    array: Bound<'py, PyCapsule>,
}

impl ArrowCapsules<'_> {
    /// The array's texts (see [`texts`]).
    pub(super) fn texts(&self, what: &str) -> PyResult<Vec<&str>> {
        let schema = self.schema.pointer_checked(Some(c"arrow_schema"))?.cast::<ArrowSchema>();
        let array = self.array.pointer_checked(Some(c"arrow_array"))?.cast::<ArrowArray>();
        // SAFETY: the capsules named "arrow_schema" and "arrow_array" hold valid
        // ArrowSchema / ArrowArray structs (the PyCapsule interface), alive as
        // long as the capsules, which `self` holds.
        let (schema, array) = unsafe { (schema.as_ref(), array.as_ref()) };
        texts(schema, array, what)
    }

    /// The array's length (its strings, nulls included), or 0 for an array
    /// that breaks the format ([`Self::texts`] then tells what is wrong).
    pub(super) fn len(&self) -> usize {
        let Ok(array) = self.array.pointer_checked(Some(c"arrow_array")) else { return 0 };
        // SAFETY: as in `texts`.
        let array = unsafe { array.cast::<ArrowArray>().as_ref() };
        usize::try_from(array.length).unwrap_or(0)
    }
}

/// What an object exports of the Arrow PyCapsule interface.
pub(super) enum ArrowInput<'py> {
    Array(ArrowCapsules<'py>),
    Stream(ArrowStream<'py>),
}

/// What `obj.method()` returns (an Arrow export), None if `obj` has no such
/// method, or if the method raises ImportError and `obj` is iterable: a
/// pandas Series exports Arrow only through pyarrow, and without pyarrow
/// is read as the iterable of str it also is.
fn export<'py>(obj: &Bound<'py, PyAny>, method: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    if !obj.hasattr(method)? {
        return Ok(None);
    }
    match obj.call_method0(method) {
        Ok(exported) => Ok(Some(exported)),
        Err(e) if e.is_instance_of::<PyImportError>(obj.py()) && obj.hasattr("__iter__")? => Ok(None),
        Err(e) => Err(e),
    }
}

/// An item of an iterable that exports Arrow strings: an array, or a stream
/// (a chunked array, a polars Series) with its chunks read.
pub(super) enum ArrowItem<'py> {
    Array(ArrowCapsules<'py>),
    Stream(ArrowStream<'py>, Vec<OwnedArray>),
}

impl ArrowItem<'_> {
    /// The item exported by `obj` (the stream read whole), None if it
    /// exports neither an array nor a stream (see [`export`]).
    pub(super) fn of<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Option<ArrowItem<'py>>> {
        Ok(match input(obj, what)? {
            None => None,
            Some(ArrowInput::Array(capsules)) => Some(ArrowItem::Array(capsules)),
            Some(ArrowInput::Stream(mut stream)) => {
                let mut chunks = Vec::new();
                while let Some(chunk) = stream.next()? {
                    chunks.push(chunk);
                }
                Some(ArrowItem::Stream(stream, chunks))
            }
        })
    }

    /// Its strings, nulls included (0 for an array that breaks the format).
    pub(super) fn len(&self) -> usize {
        match self {
            ArrowItem::Array(capsules) => capsules.len(),
            ArrowItem::Stream(_, chunks) => chunks.iter().map(|c| usize::try_from(c.0.length).unwrap_or(0)).sum(),
        }
    }

    /// Its texts, nulls skipped (see [`texts`]).
    pub(super) fn texts(&self, what: &str) -> PyResult<Vec<&str>> {
        match self {
            ArrowItem::Array(capsules) => capsules.texts(what),
            ArrowItem::Stream(stream, chunks) => {
                let mut all = Vec::new();
                for chunk in chunks {
                    all.extend(texts(&stream.schema.0, &chunk.0, what)?);
                }
                Ok(all)
            }
        }
    }
}

/// The capsules of `obj` if it exports an Arrow array, None if it does not.
pub(super) fn capsules<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Option<ArrowCapsules<'py>>> {
    let Some(pair) = export(obj, "__arrow_c_array__")? else { return Ok(None) };
    let bad = || PyTypeError::new_err(format!("{what}.__arrow_c_array__() must return two PyCapsules"));
    let pair = pair.cast::<PyTuple>().map_err(|_| bad())?;
    if pair.len() != 2 {
        return Err(bad());
    }
    let schema = pair.get_item(0)?.cast_into::<PyCapsule>().map_err(|_| bad())?;
    let array = pair.get_item(1)?.cast_into::<PyCapsule>().map_err(|_| bad())?;
    Ok(Some(ArrowCapsules { schema, array }))
}

/// The array or the stream `obj` exports (`__arrow_c_array__` first), None
/// if it exports neither.
pub(super) fn input<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Option<ArrowInput<'py>>> {
    if let Some(capsules) = capsules(obj, what)? {
        return Ok(Some(ArrowInput::Array(capsules)));
    }
    let Some(capsule) = export(obj, "__arrow_c_stream__")? else { return Ok(None) };
    let capsule = capsule
        .cast_into::<PyCapsule>()
        .map_err(|_| PyTypeError::new_err(format!("{what}.__arrow_c_stream__() must return a PyCapsule")))?;
    let stream = capsule.pointer_checked(Some(c"arrow_array_stream"))?.cast::<ArrowArrayStream>();
    // SAFETY: the capsule named "arrow_array_stream" holds a valid stream,
    // alive as long as the capsule (whose destructor releases it).
    let raw = unsafe { stream.as_ref() };
    let (Some(get_schema), Some(get_next), Some(_)) = (raw.get_schema, raw.get_next, raw.release) else {
        return Err(PyValueError::new_err(format!("{what}: the Arrow stream was already released")));
    };
    let mut schema = OwnedSchema(empty_schema());
    // SAFETY: a live stream; `schema` is an empty struct it fills in.
    let code = unsafe { get_schema(stream.as_ptr(), &mut schema.0) };
    let stream = ArrowStream { schema, raw: stream.as_ptr(), get_next, what: what.to_owned(), _capsule: capsule };
    if code != 0 {
        return Err(stream.error(code));
    }
    string_format(&stream.schema.0, what)?;
    Ok(Some(ArrowInput::Stream(stream)))
}

/// An Arrow stream of string arrays (a chunked array, ...), read chunk by chunk.
pub(super) struct ArrowStream<'py> {
    /// Released before the stream (fields drop in order), though the C
    /// stream interface lets it outlive the stream.
    schema: OwnedSchema,
    raw: *mut ArrowArrayStream,
    get_next: unsafe extern "C" fn(*mut ArrowArrayStream, *mut ArrowArray) -> i32,
    what: String,
    /// Keeps the stream alive (its destructor releases it).
    _capsule: Bound<'py, PyCapsule>,
}

impl ArrowStream<'_> {
    /// The stream's error for a nonzero return `code`.
    fn error(&self, code: i32) -> PyErr {
        let raw = self.raw;
        // SAFETY: a live stream; its last error, when there is one, is a
        // NUL-terminated string valid until the next call.
        let message = unsafe {
            match (*raw).get_last_error.map(|f| f(raw)) {
                Some(p) if !p.is_null() => CStr::from_ptr(p).to_string_lossy().into_owned(),
                _ => format!("error code {code}"),
            }
        };
        PyValueError::new_err(format!("{}: the Arrow stream failed: {message}", self.what))
    }

    /// The next chunk, None at the end of the stream.
    pub(super) fn next(&mut self) -> PyResult<Option<OwnedArray>> {
        let mut array = OwnedArray(empty_array());
        // SAFETY: a live stream; `array` is an empty struct it fills in.
        let code = unsafe { (self.get_next)(self.raw, &mut array.0) };
        if code != 0 {
            return Err(self.error(code));
        }
        Ok(array.0.release.is_some().then_some(array))
    }

    /// A chunk's texts (see [`texts`]).
    pub(super) fn texts<'a>(&'a self, chunk: &'a OwnedArray) -> PyResult<Vec<&'a str>> {
        texts(&self.schema.0, &chunk.0, &self.what)
    }
}

/// The format string of a schema, None when it has none.
fn schema_format(schema: &ArrowSchema) -> Option<std::borrow::Cow<'_, str>> {
    if schema.format.is_null() {
        return None;
    }
    // SAFETY: `format` is a non-null NUL-terminated string (the C data interface).
    Some(unsafe { CStr::from_ptr(schema.format) }.to_string_lossy())
}

/// How a string array lays out its texts.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// `string`: 32-bit offsets into one data buffer.
    Small,
    /// `large_string`: 64-bit offsets.
    Large,
    /// `string_view` (polars' strings): 16 bytes per text, the text itself
    /// when it has at most 12 bytes, else where it is in one of the
    /// array's data buffers.
    View,
}

/// The layout of a schema's strings; TypeError naming what to pass for any
/// other type.
fn string_format(schema: &ArrowSchema, what: &str) -> PyResult<Layout> {
    let Some(format) = schema_format(schema) else {
        return Err(PyValueError::new_err(format!("{what}: invalid Arrow schema (no format)")));
    };
    match &*format {
        "u" => Ok(Layout::Small),
        "U" => Ok(Layout::Large),
        "vu" => Ok(Layout::View),
        "+s" => Err(PyTypeError::new_err(format!(
            "{what} must be an Arrow string, large_string or string_view array, not a struct (a table or record \
             batch): pass its column of texts, e.g. table[\"text\"]"
        ))),
        other => Err(PyTypeError::new_err(format!(
            "{what} must be an Arrow string, large_string or string_view array, not one of {}",
            other_type(schema, other)
        ))),
    }
}

/// The Arrow types a non-string array most often has, by their format
/// (the C data interface's), named as pyarrow names them.
const TYPE_NAMES: [(&str, &str); 18] = [
    ("n", "null"),
    ("b", "bool"),
    ("c", "int8"),
    ("C", "uint8"),
    ("s", "int16"),
    ("S", "uint16"),
    ("i", "int32"),
    ("I", "uint32"),
    ("l", "int64"),
    ("L", "uint64"),
    ("e", "halffloat"),
    ("f", "float"),
    ("g", "double"),
    ("z", "binary"),
    ("Z", "large_binary"),
    ("vz", "binary_view"),
    ("tdD", "date32[day]"),
    ("tdm", "date64[ms]"),
];

/// What an array of a type other than the string ones holds, for its
/// TypeError: `type int64` (pyarrow's name, [`TYPE_NAMES`]), `type
/// dictionary` for a dictionary-encoded array (whose format is its
/// indices'), else its format (`Arrow format "+l"`, a list).
fn other_type(schema: &ArrowSchema, format: &str) -> String {
    if !schema.dictionary.is_null() {
        return "type dictionary".to_owned();
    }
    match TYPE_NAMES.iter().find(|(f, _)| *f == format) {
        Some((_, name)) => format!("type {name}"),
        None => format!("Arrow format {}", crate::error::Quoted(format)),
    }
}

/// The texts of an Arrow `string`, `large_string` or `string_view` array,
/// nulls skipped, borrowed from its buffers. TypeError for another type,
/// ValueError for an array that breaks the format (offsets out of order,
/// invalid UTF-8).
fn texts<'a>(schema: &'a ArrowSchema, array: &'a ArrowArray, what: &str) -> PyResult<Vec<&'a str>> {
    if schema.release.is_none() || array.release.is_none() {
        return Err(PyValueError::new_err(format!("{what}: the Arrow array was already released")));
    }
    let layout = string_format(schema, what)?;
    let bad = |why: &str| PyValueError::new_err(format!("{what}: invalid Arrow string array ({why})"));
    let (Ok(offset), Ok(len)) = (usize::try_from(array.offset), usize::try_from(array.length)) else {
        return Err(bad("negative offset or length"));
    };
    let buffers = match (layout, usize::try_from(array.n_buffers)) {
        _ if array.buffers.is_null() => return Err(bad("no buffers")),
        // (no more buffer pointers than fit in memory: a larger count lies)
        (Layout::View, Ok(n)) if (3..isize::MAX as usize / 8).contains(&n) => n,
        (Layout::View, _) => return Err(bad("fewer than 3 buffers")),
        (_, Ok(3)) => 3,
        _ => return Err(bad("not 3 buffers")),
    };
    if len == 0 {
        return Ok(Vec::new());
    }
    let end = offset.checked_add(len).ok_or_else(|| bad("offset + length overflows"))?;
    // No buffer of offsets or views is longer than isize::MAX bytes: a larger
    // length lies.
    if end >= isize::MAX as usize / 16 {
        return Err(bad("offset + length too large"));
    }
    // SAFETY: `buffers` buffers, as the array says it has.
    let buffers = unsafe { std::slice::from_raw_parts(array.buffers, buffers) };
    let validity = buffers[0].cast::<u8>();
    let validity: Option<&[u8]> = if array.null_count == 0 || validity.is_null() {
        None
    } else {
        // SAFETY: the validity bitmap holds a bit per string, `offset + length` in all.
        Some(unsafe { std::slice::from_raw_parts(validity, end.div_ceil(8)) })
    };
    let valid = |i: usize| validity.is_none_or(|bits| bits[i / 8] >> (i % 8) & 1 == 1);
    if layout == Layout::View {
        return view_texts(buffers, offset..end, valid, bad);
    }
    let (offsets_ptr, data_ptr) = (buffers[1], buffers[2].cast::<u8>());
    if offsets_ptr.is_null() {
        return Err(bad("no offsets buffer"));
    }
    let offsets = if layout == Layout::Large {
        let ptr = offsets_ptr.cast::<i64>();
        if !ptr.is_aligned() {
            return Err(bad("misaligned offsets"));
        }
        // SAFETY: the offsets buffer of an array of `offset + length` strings
        // holds `offset + length + 1` offsets; aligned, checked above.
        Offsets::Large(unsafe { std::slice::from_raw_parts(ptr, end + 1) })
    } else {
        let ptr = offsets_ptr.cast::<i32>();
        if !ptr.is_aligned() {
            return Err(bad("misaligned offsets"));
        }
        // SAFETY: as above, with 32-bit offsets.
        Offsets::Small(unsafe { std::slice::from_raw_parts(ptr, end + 1) })
    };
    let (first, last) = (offsets.get(offset), offsets.get(end));
    if first < 0 || last < first {
        return Err(bad("offsets out of order"));
    }
    let data: &[u8] = if last == 0 {
        &[]
    } else if data_ptr.is_null() {
        return Err(bad("no data buffer"));
    } else {
        // SAFETY: the data buffer holds at least the bytes up to the last offset.
        unsafe { std::slice::from_raw_parts(data_ptr, last as usize) }
    };
    let text = std::str::from_utf8(&data[first as usize..])
        .map_err(|e| bad(&format!("invalid UTF-8 at byte {}", first as usize + e.valid_up_to())))?;
    let mut texts = Vec::with_capacity(len);
    let mut start = first;
    for i in offset..end {
        let stop = offsets.get(i + 1);
        if stop < start || stop > last {
            return Err(bad("offsets out of order"));
        }
        if valid(i) {
            let (a, b) = ((start - first) as usize, (stop - first) as usize);
            texts.push(text.get(a..b).ok_or_else(|| bad("a string that splits a UTF-8 character"))?);
        }
        start = stop;
    }
    Ok(texts)
}

/// The texts of a `string_view` array's strings `range` (those `valid`),
/// borrowed from its `buffers`: validity, views (16 bytes per string: its
/// length; then its bytes when at most 12, else their first 4, the index of
/// the data buffer that holds them and their offset there), the data
/// buffers, and last the data buffers' sizes (64-bit).
fn view_texts<'a>(
    buffers: &[*const c_void],
    range: std::ops::Range<usize>,
    valid: impl Fn(usize) -> bool,
    bad: impl Fn(&str) -> PyErr,
) -> PyResult<Vec<&'a str>> {
    let (views, sizes) = (buffers[1].cast::<u8>(), buffers[buffers.len() - 1].cast::<i64>());
    if views.is_null() {
        return Err(bad("no views buffer"));
    }
    // SAFETY: the views buffer holds 16 bytes per string, `range.end` in all.
    let views = unsafe { std::slice::from_raw_parts(views, range.end * 16) };
    let data_buffers = &buffers[2..buffers.len() - 1];
    let sizes: &[i64] = if data_buffers.is_empty() {
        &[]
    } else if sizes.is_null() || !sizes.is_aligned() {
        return Err(bad("no aligned buffer of data buffer sizes"));
    } else {
        // SAFETY: the last buffer holds one size per data buffer.
        unsafe { std::slice::from_raw_parts(sizes, data_buffers.len()) }
    };
    let mut data = Vec::with_capacity(data_buffers.len());
    for (&ptr, &size) in data_buffers.iter().zip(sizes) {
        let size = usize::try_from(size).map_err(|_| bad("a negative data buffer size"))?;
        data.push(match size {
            0 => &[][..],
            _ if ptr.is_null() => return Err(bad("no data buffer")),
            // SAFETY: a data buffer of `size` bytes, as the sizes buffer says.
            _ => unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), size) },
        });
    }
    let word = |view: &[u8], at: usize| i32::from_ne_bytes(view[at..at + 4].try_into().expect("4 bytes"));
    let mut texts = Vec::with_capacity(range.len());
    for i in range.filter(|&i| valid(i)) {
        let view = &views[i * 16..i * 16 + 16];
        let length = usize::try_from(word(view, 0)).map_err(|_| bad("a negative length"))?;
        let bytes = if length <= 12 {
            &view[4..4 + length]
        } else {
            let (Ok(buffer), Ok(at)) = (usize::try_from(word(view, 8)), usize::try_from(word(view, 12))) else {
                return Err(bad("a negative buffer index or offset"));
            };
            let buffer = data.get(buffer).ok_or_else(|| bad("a buffer index out of range"))?;
            buffer.get(at..at + length).ok_or_else(|| bad("a string beyond its data buffer"))?
        };
        texts.push(std::str::from_utf8(bytes).map_err(|e| bad(&format!("invalid UTF-8 in a string: {e}")))?);
    }
    Ok(texts)
}
