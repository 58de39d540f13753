//! `PyTokenizer.train`, `train_from_files` and `train_from_counts`: word
//! counting and the merge loop run with the GIL released, progress on stderr,
//! Ctrl-C stops them.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::args::{self, type_name, Given};
use super::counts::{count_texts, utf8_errors, PyWordCounts};
use super::errors::{guard, to_py, Signals};
use super::tokenizer::PyTokenizer;
use crate::error::Quoted;
use crate::tokenizer::options::Options;
use crate::training::{check_prefix, train_tokenizer, CountOptions, Objective, Progress, TrainerConfig, WordCounter};

fn objective(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Objective> {
    match obj {
        None => Ok(Objective::default()),
        Some(o) if o.is_none() => Ok(Objective::default()),
        Some(o) => {
            if !o.is_instance_of::<PyString>() {
                return Err(PyTypeError::new_err(format!("objective must be a str, not {}", type_name(o))));
            }
            // A lone surrogate: the ValueError naming it, as for every str option.
            Objective::parse(&args::text(o, &|| "objective".to_owned())?).map_err(to_py)
        }
    }
}

/// `vocab_size` when left out, as in Hugging Face's `WordPieceTrainer`.
const DEFAULT_VOCAB_SIZE: usize = 30000;

/// `initial_alphabet`: an iterable of one-character str (None: empty), none
/// of them whitespace (as a counted word holds none).
fn initial_alphabet(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<char>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(Vec::new()) };
    args::reject_text_as_collection(obj, "initial_alphabet", "one-character str")?;
    args::reject_mapping_of(obj, "initial_alphabet", "one-character str", "characters")?;
    let iter = obj.try_iter().map_err(|e| {
        args::unless_raised(e, || {
            PyTypeError::new_err(format!(
                "initial_alphabet must be an iterable of one-character str, not {}",
                type_name(obj)
            ))
        })
    })?;
    args::collect(iter, "initial_alphabet", 0, |i, item| {
        let what = || format!("initial_alphabet[{i}]");
        let text = args::text(&item, &what)?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_whitespace() => {
                Err(PyValueError::new_err(format!("{} is whitespace, which no pre-tokenizer leaves in a word", what())))
            }
            (Some(c), None) => Ok(c),
            _ => Err(PyValueError::new_err(format!("{} must be one character, not {}", what(), Quoted(&text)))),
        }
    })
}

/// Training's `**options`: the pipeline's, and a continuation prefix
/// without whitespace.
fn training_options(kwargs: Option<&Bound<'_, PyDict>>, function: &str) -> PyResult<Options> {
    let options = args::options(kwargs, function)?;
    check_prefix(&options.continuing_subword_prefix).map_err(to_py)?;
    Ok(options)
}

/// The training arguments that are not `**options`.
struct Training<'a, 'py> {
    vocab_size: &'a Given<'py>,
    min_frequency: Option<&'a Bound<'py, PyAny>>,
    special_tokens: Option<&'a Bound<'py, PyAny>>,
    objective: Option<&'a Bound<'py, PyAny>>,
    limit_alphabet: Option<&'a Bound<'py, PyAny>>,
    initial_alphabet: Option<&'a Bound<'py, PyAny>>,
}

fn trainer_config(given: &Training<'_, '_>) -> PyResult<TrainerConfig> {
    let Training { vocab_size, min_frequency, special_tokens, objective: objective_name, limit_alphabet, .. } = *given;
    Ok(TrainerConfig {
        vocab_size: args::vocab_size(vocab_size, DEFAULT_VOCAB_SIZE)?,
        min_frequency: min_frequency.map_or(Ok(2), |m| args::count(m, "min_frequency"))?,
        special_tokens: args::special_tokens(special_tokens)?,
        objective: objective(objective_name)?,
        limit_alphabet: match limit_alphabet {
            Some(l) if !l.is_none() => Some(args::positive(l, "limit_alphabet")?),
            _ => None,
        },
        initial_alphabet: initial_alphabet(given.initial_alphabet)?,
        ..TrainerConfig::new(0, 0, Vec::new())
    })
}

/// Learns the vocabulary from word counts with the GIL released; `counted`:
/// the words were made by counting or checked already (a `WordCounts`).
/// `(word, count)` pairs sorted by word, a word given more than once summed
/// (a sum beyond 2**64 - 1 is a ValueError).
fn summed(mut pairs: Vec<(String, u64)>) -> PyResult<Vec<(String, u64)>> {
    pairs.sort_unstable();
    let mut words: Vec<(String, u64)> = Vec::with_capacity(pairs.len());
    for (word, n) in pairs {
        match words.last_mut() {
            Some(last) if last.0 == word => {
                last.1 = last.1.checked_add(n).ok_or_else(|| {
                    PyValueError::new_err(format!("the counts of {} add up to more than 2**64 - 1", Quoted(&word)))
                })?
            }
            _ => words.push((word, n)),
        }
    }
    Ok(words)
}

fn learn(
    py: Python<'_>,
    counts: Vec<(String, u64)>,
    counted: bool,
    config: TrainerConfig,
    options: Options,
    show_progress: bool,
) -> PyResult<PyTokenizer> {
    let signals = Signals::default();
    let stop = || signals.stop();
    let trained = py.detach(|| {
        let mut progress = Progress::new(show_progress, Some(&stop));
        guard(|| train_tokenizer(counts, counted, &config, options, &mut progress))
    });
    signals.result(trained).map(PyTokenizer::wrap)
}

/// The counting of the family's trainers (`count`, given the hook that its
/// chunks call with the number of texts counted so far) as phase `phase` of
/// `progress`, `total` units: the hook advances the progress and asks `stop`
/// (Python's signal handlers, after every chunk) whether to give up.
pub(super) fn counting<T>(
    progress: &mut Progress,
    phase: &'static str,
    unit: &'static str,
    total: usize,
    stop: &dyn Fn() -> bool,
    count: impl FnOnce(&mut dyn FnMut(usize) -> bool) -> crate::error::Result<T>,
) -> crate::error::Result<T> {
    progress.start(phase, unit, Some(total as u64));
    let mut last = 0;
    let counted = count(&mut |done| {
        // A progress without an interrupt hook never fails.
        let _ = progress.advance(done.saturating_sub(last) as u64);
        last = done;
        stop()
    });
    progress.finish();
    counted
}

#[pymethods]
impl PyTokenizer {
    /// Trains a tokenizer on `corpus`, an iterable of str (a list or a
    /// generator, pulled in batches) or of batches of str (a list, tuple or
    /// other iterable of str is read as its texts, as Hugging Face's
    /// `train_from_iterator` reads it), to `vocab_size` tokens (default
    /// 30,000, as Hugging Face's `WordPieceTrainer`).
    ///
    /// `objective` ranks the merges (spec section 4): `"likelihood"` (the
    /// default) the gain in unigram likelihood, `"pmi"` the score
    /// `freq(ab) / (freq(a) * freq(b))`, `"frequency"` the pair frequency.
    /// Pairs seen fewer than `min_frequency` times are never merged (None:
    /// 2, as Hugging Face's `WordPieceTrainer`).
    /// `initial_alphabet` (an iterable of one-character str, as Hugging
    /// Face's, but no whitespace) puts those characters in the alphabet as
    /// word-initial tokens, seen in the corpus or not. `limit_alphabet=n` keeps n characters, the
    /// `initial_alphabet` ones (all of them, even beyond n) and then the most
    /// frequent others, and trains without the words that hold any other.
    /// The continuation tokens get the prefix `continuing_subword_prefix`
    /// (an option, default `"##"`; Hugging Face's `wordpieces_prefix`), which
    /// the trained tokenizer encodes and decodes with (no whitespace; a
    /// prefix other than `"##"` is saved in tokenizer.json, not vocab.txt). The
    /// vocabulary starts with `special_tokens`, then the alphabet; if those
    /// alone exceed `vocab_size`, they are all kept. A corpus without a word
    /// (empty, or a used-up iterator) is a ValueError. Progress goes to
    /// stderr unless `show_progress=False`, counting texts (a list or tuple
    /// of batches: their texts, the total too); Ctrl-C stops training.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (corpus, vocab_size = Given(None), min_frequency = None, *, special_tokens = None, objective = None, limit_alphabet = None, initial_alphabet = None, show_progress = true, **options), text_signature = "(corpus, vocab_size=30000, min_frequency=None, *, special_tokens=None, objective=None, limit_alphabet=None, initial_alphabet=None, show_progress=True, **options)")]
    fn train(
        py: Python<'_>,
        corpus: &Bound<'_, PyAny>,
        vocab_size: Given<'_>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        objective: Option<&Bound<'_, PyAny>>,
        limit_alphabet: Option<&Bound<'_, PyAny>>,
        initial_alphabet: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let given = Training {
            vocab_size: &vocab_size,
            min_frequency,
            special_tokens,
            objective,
            limit_alphabet,
            initial_alphabet,
        };
        args::reject_text_as_collection(corpus, "corpus", "str")?;
        args::reject_mapping_corpus(corpus, "corpus")?;
        let iter = corpus.try_iter().map_err(|e| {
            args::unless_raised(e, || {
                PyTypeError::new_err(format!("corpus must be an iterable of str, not {}", type_name(corpus)))
            })
        })?;
        let config = trainer_config(&given)?;
        let options = training_options(options, "train")?;
        let mut counter = WordCounter::new(&options);
        count_texts(py, corpus, iter, "corpus", false, &mut counter, show_progress)?;
        let counts = guard(|| counter.into_counts())?;
        learn(py, counts, true, config, options, show_progress)
    }

    /// Trains on text files, streamed in chunks of whole lines (a file larger
    /// than memory is fine). Every file is opened before work starts.
    /// `errors="strict"` fails on bytes that are not UTF-8, naming the file and
    /// offset; `errors="replace"` replaces them with U+FFFD.
    #[staticmethod]
    #[pyo3(signature = (paths, vocab_size = Given(None), min_frequency = None, *, errors = String::from("strict"), special_tokens = None, objective = None, limit_alphabet = None, initial_alphabet = None, show_progress = true, **options), text_signature = "(paths, vocab_size=30000, min_frequency=None, *, errors='strict', special_tokens=None, objective=None, limit_alphabet=None, initial_alphabet=None, show_progress=True, **options)")]
    #[allow(clippy::too_many_arguments)]
    fn train_from_files(
        py: Python<'_>,
        paths: &Bound<'_, PyAny>,
        vocab_size: Given<'_>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::errors)] errors: String,
        special_tokens: Option<&Bound<'_, PyAny>>,
        objective: Option<&Bound<'_, PyAny>>,
        limit_alphabet: Option<&Bound<'_, PyAny>>,
        initial_alphabet: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let given = Training {
            vocab_size: &vocab_size,
            min_frequency,
            special_tokens,
            objective,
            limit_alphabet,
            initial_alphabet,
        };
        let paths = args::paths(paths)?;
        let errors = utf8_errors(&errors)?;
        let config = trainer_config(&given)?;
        let options = training_options(options, "train_from_files")?;
        let signals = Signals::default();
        let stop = || signals.stop();
        let counts = py.detach(|| {
            let mut progress = Progress::new(show_progress, Some(&stop));
            let mut counter = WordCounter::new(&options);
            guard(|| counter.add_files(&paths, errors, &mut progress).and_then(|()| counter.into_counts()))
        });
        let counts = signals.result(counts)?;
        learn(py, counts, true, config, options, show_progress)
    }

    /// Trains on precomputed word counts: a `WordCounts` (training takes its
    /// counting options; an explicit option that differs is a ValueError), a
    /// mapping `{word: count}` or an iterable of `(word, count)` pairs (words
    /// already normalized and pre-tokenized; a word given twice is summed; a
    /// count of 0 is a word not seen).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (counts, vocab_size = Given(None), min_frequency = None, *, special_tokens = None, objective = None, limit_alphabet = None, initial_alphabet = None, show_progress = true, **options), text_signature = "(counts, vocab_size=30000, min_frequency=None, *, special_tokens=None, objective=None, limit_alphabet=None, initial_alphabet=None, show_progress=True, **options)")]
    fn train_from_counts(
        py: Python<'_>,
        counts: &Bound<'_, PyAny>,
        vocab_size: Given<'_>,
        min_frequency: Option<&Bound<'_, PyAny>>,
        special_tokens: Option<&Bound<'_, PyAny>>,
        objective: Option<&Bound<'_, PyAny>>,
        limit_alphabet: Option<&Bound<'_, PyAny>>,
        initial_alphabet: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::named::show_progress)] show_progress: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let given = Training {
            vocab_size: &vocab_size,
            min_frequency,
            special_tokens,
            objective,
            limit_alphabet,
            initial_alphabet,
        };
        if let Ok(counted) = counts.cast::<PyWordCounts>() {
            let config = trainer_config(&given)?;
            let (counted, counts) = (counted.get(), counted.get().counts());
            // The counts' options, then the explicit ones over them.
            let made_with = *counts.options();
            let merged = counted.options(py)?;
            if let Some(kwargs) = options {
                merged.update(kwargs.as_mapping())?;
            }
            let options = training_options(Some(&merged), "train_from_counts")?;
            let given = CountOptions::of(&options);
            if let Some(name) = made_with.differing(&given) {
                return Err(PyValueError::new_err(format!(
                    "the word counts were made with {name}={}, not {name}={}",
                    made_with.show(name),
                    given.show(name)
                )));
            }
            let words = counts.words().to_vec();
            drop(counts);
            return learn(py, words, true, config, options, show_progress);
        }
        let expected = format!("a WordCounts, {}", args::TEXT_COUNTS);
        let words = summed(args::text_counts(counts, "counts", &expected, 0)?)?;
        let config = trainer_config(&given)?;
        let options = training_options(options, "train_from_counts")?;
        learn(py, words, false, config, options, show_progress)
    }
}

#[pymethods]
impl PyTokenizer {
    /// transformers' `train_new_from_iterator`: a new tokenizer with this
    /// one's pipeline, special tokens and call settings, its vocabulary
    /// learned by `train` (ours, not Hugging Face's `WordPieceTrainer`'s) on
    /// `text_iterator`, to `vocab_size` tokens. The special tokens come
    /// first (renamed by `special_tokens_map`): the special added tokens and
    /// the named ones that are none (a tokenizer.json without added tokens),
    /// in the order of their ids, as transformers' `added_tokens_decoder`
    /// has them; then `new_special_tokens`; the
    /// other added tokens come back after the vocabulary (as transformers'
    /// `AutoTokenizer` has them); the post-processor takes the new ids.
    /// `kwargs`: `min_frequency` (default 0, as `WordPieceTrainer`'s),
    /// `limit_alphabet`, `initial_alphabet`, `show_progress`,
    /// `continuing_subword_prefix`, `objective`; any other is a TypeError.
    /// `length` is ignored (progress counts the texts read). A corpus
    /// without a word gives the special tokens only (and `initial_alphabet`),
    /// as transformers does, where `train` raises a ValueError. Python code
    /// shared with the twin: `fast_wordpiece.train_new`.
    #[pyo3(signature = (text_iterator, vocab_size, length = None, new_special_tokens = None, special_tokens_map = None, **kwargs), text_signature = "($self, text_iterator, vocab_size, length=None, new_special_tokens=None, special_tokens_map=None, **kwargs)")]
    fn train_new_from_iterator<'py>(
        slf: &Bound<'py, Self>,
        text_iterator: &Bound<'py, PyAny>,
        vocab_size: &Bound<'py, PyAny>,
        length: Option<&Bound<'py, PyAny>>,
        new_special_tokens: Option<&Bound<'py, PyAny>>,
        special_tokens_map: Option<&Bound<'py, PyAny>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let f = py.import("fast_wordpiece.train_new")?.getattr("train_new_from_iterator")?;
        let none = py.None().into_bound(py);
        let or_none = |o: Option<&Bound<'py, PyAny>>| o.cloned().unwrap_or_else(|| none.clone());
        let args = (
            slf.clone(),
            text_iterator.clone(),
            vocab_size.clone(),
            or_none(length),
            or_none(new_special_tokens),
            or_none(special_tokens_map),
        );
        f.call(args, kwargs)
    }
}
