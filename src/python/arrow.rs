//! Arrow string arrays as texts, read in place through the Arrow C data
//! interface (`__arrow_c_array__`, the Arrow PyCapsule interface of pyarrow,
//! polars, nanoarrow, ...): the texts are borrowed from the array's offsets
//! and data buffers, with no Python object per text.

use std::ffi::{c_char, c_void, CStr};

use pyo3::exceptions::{PyTypeError, PyValueError};
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

/// The capsules of `obj` if it exports an Arrow array, None if it does not.
pub(super) fn capsules<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Option<ArrowCapsules<'py>>> {
    if !obj.hasattr("__arrow_c_array__")? {
        return Ok(None);
    }
    let pair = obj.call_method0("__arrow_c_array__")?;
    let bad = || PyTypeError::new_err(format!("{what}.__arrow_c_array__() must return two PyCapsules"));
    let pair = pair.cast::<PyTuple>().map_err(|_| bad())?;
    if pair.len() != 2 {
        return Err(bad());
    }
    let schema = pair.get_item(0)?.cast_into::<PyCapsule>().map_err(|_| bad())?;
    let array = pair.get_item(1)?.cast_into::<PyCapsule>().map_err(|_| bad())?;
    Ok(Some(ArrowCapsules { schema, array }))
}

/// The texts of an Arrow `string` or `large_string` array, nulls skipped,
/// borrowed from its buffers. TypeError for another type, ValueError for an
/// array that breaks the format (offsets out of order, invalid UTF-8).
pub(super) fn texts<'a>(capsules: &'a ArrowCapsules<'_>, what: &str) -> PyResult<Vec<&'a str>> {
    let schema = capsules.schema.pointer_checked(Some(c"arrow_schema"))?.cast::<ArrowSchema>();
    let array = capsules.array.pointer_checked(Some(c"arrow_array"))?.cast::<ArrowArray>();
    // SAFETY: the capsules named "arrow_schema" and "arrow_array" hold valid
    // ArrowSchema / ArrowArray structs (the PyCapsule interface), alive as
    // long as the capsules, which `capsules` borrows for 'a.
    let (schema, array): (&'a ArrowSchema, &'a ArrowArray) = unsafe { (schema.as_ref(), array.as_ref()) };
    if schema.release.is_none() || array.release.is_none() {
        return Err(PyValueError::new_err(format!("{what}: the Arrow array was already released")));
    }
    if schema.format.is_null() {
        return Err(PyValueError::new_err(format!("{what}: invalid Arrow schema (no format)")));
    }
    // SAFETY: `format` is a non-null NUL-terminated string (the C data interface).
    let format = unsafe { CStr::from_ptr(schema.format) }.to_string_lossy();
    let large = match &*format {
        "u" => false,
        "U" => true,
        other => {
            return Err(PyTypeError::new_err(format!(
                "{what} must be an Arrow string or large_string array, not one of format {other:?}"
            )))
        }
    };
    let bad = |why: &str| PyValueError::new_err(format!("{what}: invalid Arrow string array ({why})"));
    let (Ok(offset), Ok(len)) = (usize::try_from(array.offset), usize::try_from(array.length)) else {
        return Err(bad("negative offset or length"));
    };
    if array.n_buffers != 3 || array.buffers.is_null() {
        return Err(bad("not 3 buffers"));
    }
    if len == 0 {
        return Ok(Vec::new());
    }
    let end = offset.checked_add(len).ok_or_else(|| bad("offset + length overflows"))?;
    // No buffer of offsets is longer than isize::MAX bytes: a larger length lies.
    if end >= isize::MAX as usize / 8 {
        return Err(bad("offset + length too large"));
    }
    // SAFETY: a string array has 3 buffers (validity, offsets, data).
    let buffers = unsafe { std::slice::from_raw_parts(array.buffers, 3) };
    let (validity, offsets_ptr, data_ptr) = (buffers[0].cast::<u8>(), buffers[1], buffers[2].cast::<u8>());
    if offsets_ptr.is_null() {
        return Err(bad("no offsets buffer"));
    }
    let offsets = if large {
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
    let validity: Option<&[u8]> = if array.null_count == 0 || validity.is_null() {
        None
    } else {
        // SAFETY: the validity bitmap holds a bit per string, `offset + length` in all.
        Some(unsafe { std::slice::from_raw_parts(validity, end.div_ceil(8)) })
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
        if validity.is_none_or(|bits| bits[i / 8] >> (i % 8) & 1 == 1) {
            let (a, b) = ((start - first) as usize, (stop - first) as usize);
            texts.push(text.get(a..b).ok_or_else(|| bad("a string that splits a UTF-8 character"))?);
        }
        start = stop;
    }
    Ok(texts)
}
