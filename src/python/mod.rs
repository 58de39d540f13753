//! The Python bindings, and nothing else: argument conversion, the mapping of
//! core errors to Python exceptions, and releasing the GIL around heavy work.

mod analyze;
mod args;
mod arrays;
mod arrow;
mod bpe;
mod call;
mod chars;
mod compat;
mod counts;
mod defaults;
mod encode;
mod encoding;
mod errors;
mod family;
mod ints;
mod paths;
mod pretrained;
mod serialization;
mod stages;
mod tokenizer;
mod train;
mod unigram;

use pyo3::prelude::*;

use crate::tokenizer::options::DEFAULT_SPECIAL_TOKENS;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<tokenizer::PyTokenizer>()?;
    m.add_class::<bpe::PyBpe>()?;
    m.add_class::<chars::PyChars>()?;
    m.add_class::<encoding::PyEncoding>()?;
    m.add_class::<counts::PyWordCounts>()?;
    m.add_class::<unigram::PyUnigramTokenizer>()?;
    m.add_class::<unigram::PyUnigramEncoding>()?;
    m.add_class::<stages::PyNormalizer>()?;
    m.add_class::<stages::PyDecoder>()?;
    m.add_class::<stages::PyPreTokenizer>()?;
    m.add_function(wrap_pyfunction!(counts::count_words, m)?)?;
    // A class not in the module is made on its first use, where failing to
    // make it (no memory) is a panic: made here, that is an ImportError.
    <encoding::BatchOwner as pyo3::impl_::pyclass::PyClassImpl>::lazy_type_object().get_or_try_init(m.py())?;
    m.add("DEFAULT_SPECIAL_TOKENS", pyo3::types::PyTuple::new(m.py(), DEFAULT_SPECIAL_TOKENS)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Lazy state paid at import rather than by the first encode_batch.
    ints::prepare(m.py())?;
    // The spare that turns running out of memory late into a MemoryError.
    crate::memory::arm();
    Ok(())
}

/// The engine's own memory (not Python's) comes from mimalloc. A batch's
/// encodings are made on the pool's threads and freed on the thread that
/// drops them, holding the GIL; glibc's malloc takes the owning thread's
/// arena lock for each such free (about 190 ns each, five per encoding),
/// where mimalloc hands the block back without a lock. Measured on 2 MB of
/// English: freeing a batch's 2,000 encodings went from 2.0 ms to 0.5 ms.
///
/// It is built with `no_thp` (Cargo.toml): mimalloc then does not ask for
/// transparent huge pages, whose first touch zeroes 2 MB at a time. In
/// training on GCIDE (40 MB, vocab 30,000) the kernel's page zeroing took
/// ~15% of the samples with them and ~1.5% without; CPU 1.44 -> 1.40 s,
/// peak RSS 276 -> 257 MB. Python's own memory is left as it is.
///
/// Wrapped in `memory::Reserve`: a small allocation that fails frees a spare
/// and is tried again, and the work under way then ends in a MemoryError
/// (see `crate::memory`).
#[global_allocator]
static GLOBAL: crate::memory::Reserve<mimalloc::MiMalloc> = crate::memory::Reserve(mimalloc::MiMalloc);
