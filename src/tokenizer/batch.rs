//! Encoding for a model: truncation to `max_length` (with overflowing
//! windows) and padding of a batch to one length, with Hugging Face's rules,
//! and batches encoded in parallel. `Tokenizer::encode` is the special case
//! of one input without truncation and padding.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::encoding::ragged::{RaggedFields, RaggedPart};
use crate::encoding::Encoding;
use crate::error::{Error, Quoted, Result};
use crate::memory::Watch;
use crate::threads;
use crate::tokenizer::chunk_cache;
use crate::tokenizer::options::EncodeOptions;
use crate::tokenizer::{Sequence, Tokenizer};

/// An input of a batch: a text or a pair of texts, each as written (a
/// `(&str, Option<&str>)`) or as given (a pair of [`Sequence`]s).
pub trait BatchInput: Sync {
    fn sequences(&self) -> (Sequence<'_>, Option<Sequence<'_>>);
}

impl BatchInput for (&str, Option<&str>) {
    fn sequences(&self) -> (Sequence<'_>, Option<Sequence<'_>>) {
        (Sequence::Text(self.0), self.1.map(Sequence::Text))
    }
}

impl BatchInput for (Sequence<'_>, Option<Sequence<'_>>) {
    fn sequences(&self) -> (Sequence<'_>, Option<Sequence<'_>>) {
        *self
    }
}

impl BatchInput for &str {
    fn sequences(&self) -> (Sequence<'_>, Option<Sequence<'_>>) {
        (Sequence::Text(self), None)
    }
}

/// The inputs of a batch with their bytes of text, summed once: what picks
/// the threads a batch runs on, the share of its text each of them takes,
/// and (in a binding) whether to release the GIL.
#[derive(Debug)]
pub struct Batch<'a, I> {
    inputs: &'a [I],
    bytes: usize,
}

// Not derived: those would need `I: Clone`, and a batch only borrows.
impl<I> Clone for Batch<'_, I> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I> Copy for Batch<'_, I> {}

impl<'a, I: BatchInput> Batch<'a, I> {
    /// `inputs`, their bytes of text summed.
    pub fn new(inputs: &'a [I]) -> Self {
        Self { inputs, bytes: inputs.iter().map(input_bytes).sum() }
    }

    /// The inputs.
    pub fn inputs(&self) -> &'a [I] {
        self.inputs
    }

    /// The bytes of text of the inputs (a word of a pre-split sequence
    /// counts one byte more, as if followed by a space).
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Tokenizer {
    /// Encodes many inputs in parallel (`encode_batch_with` without truncation
    /// or padding; `RAYON_NUM_THREADS` sets the threads).
    pub fn encode_batch<I: BatchInput>(&self, inputs: &[I], add_special_tokens: bool) -> Result<Vec<Encoding>> {
        self.encode_batch_with(inputs, &EncodeOptions { add_special_tokens, ..EncodeOptions::default() })
    }

    /// Encodes `text` (or the pair) with truncation and padding.
    pub fn encode_with(&self, text: &str, pair: Option<&str>, options: &EncodeOptions) -> Result<Encoding> {
        self.encode_sequences_with(Sequence::Text(text), pair.map(Sequence::Text), options)
    }

    /// [`Tokenizer::encode_with`] for a text and pair each as written or
    /// split into words.
    pub fn encode_sequences_with(
        &self,
        text: Sequence<'_>,
        pair: Option<Sequence<'_>>,
        options: &EncodeOptions,
    ) -> Result<Encoding> {
        options.validate(self.added_tokens_count(false))?;
        let pad_id = self.pad_id(options)?;
        let mut batch = [self.encode_truncated(text, pair, options)?];
        if let (Some(padding), Some(pad_id)) = (options.padding, pad_id) {
            padding.apply(&mut batch, pad_id)?;
        }
        let [encoding] = batch;
        Ok(encoding)
    }

    /// Encodes many inputs in parallel with truncation, then pads them
    /// together. An input that cannot be truncated is an error naming it.
    pub fn encode_batch_with<I: BatchInput>(&self, inputs: &[I], options: &EncodeOptions) -> Result<Vec<Encoding>> {
        self.encode_batch_until(Batch::new(inputs), options, || false)
    }

    /// [`Tokenizer::encode_batch_with`], asking `stop` after each chunk of
    /// the batch (see [`Tokenizer::encode_batch_streamed`]) whether to give
    /// up: [`Error::Interrupted`] if it says so.
    pub fn encode_batch_until<I: BatchInput>(
        &self,
        batch: Batch<'_, I>,
        options: &EncodeOptions,
        mut stop: impl FnMut() -> bool,
    ) -> Result<Vec<Encoding>> {
        options.validate(self.added_tokens_count(false))?;
        let pad_id = self.pad_id(options)?;
        let num_threads = options.num_threads;
        let n = batch.inputs.len();
        let mut slots: Vec<Option<Encoding>> =
            Error::room_for(n, format_args!("the encodings of a batch of {n} inputs"))?;
        slots.resize_with(n, || None);
        let mut stopped = false;
        self.encode_batch_streamed(
            batch,
            &EncodeOptions { padding: None, num_threads, ..*options },
            |start, chunk| {
                for (slot, encoding) in slots[start..].iter_mut().zip(chunk) {
                    *slot = Some(encoding);
                }
                stopped = stop();
                !stopped
            },
        )?;
        if stopped {
            return Err(Error::Interrupted);
        }
        let mut encodings: Vec<Encoding> =
            slots.into_iter().map(|slot| slot.expect("a batch that was not stopped has every encoding")).collect();
        if let (Some(padding), Some(pad_id)) = (options.padding, pad_id) {
            if threads_for(batch.bytes, num_threads)? == 1 {
                // Here: handing a small batch to a pool costs a round trip
                // between threads, more than its padding.
                let length = padding.target_length(&encodings)?;
                for e in &mut encodings {
                    e.pad(length, padding.side, pad_id)?;
                }
            } else {
                // On our pool, not rayon's global one (see `threads`).
                threads::install(num_threads, || padding.apply(&mut encodings, pad_id))??;
            }
        }
        Ok(encodings)
    }

    /// Encodes `batch` like [`Tokenizer::encode_batch_with`] without padding,
    /// in chunks of consecutive inputs, and hands each finished chunk to
    /// `consume` on the calling thread together with the index of its first
    /// input; chunks arrive in the order they finish.
    ///
    /// The calling thread is one of the `options.num_threads`: it runs `consume`
    /// on each chunk as soon as one is done, and encodes chunks itself when
    /// none is waiting, while the other threads (a pool) only encode. So a
    /// binding's serial work on the results (making Python lists) overlaps
    /// the encoding instead of following it, and no more threads run than
    /// were asked for. On one thread, chunks are encoded and consumed in turn.
    ///
    /// `consume` returning false stops the batch: chunks not yet started are
    /// skipped and the call returns `Ok(())`. An input that cannot be
    /// encoded stops it too, and is the error.
    pub fn encode_batch_streamed<I: BatchInput>(
        &self,
        batch: Batch<'_, I>,
        options: &EncodeOptions,
        consume: impl FnMut(usize, Vec<Encoding>) -> bool,
    ) -> Result<()> {
        if options.padding.is_some() {
            return Err(Error::invalid("padding needs the whole batch: use encode_batch_with"));
        }
        options.validate(self.added_tokens_count(false))?;
        self.post_processor(options.add_special_tokens)?;
        // Into a vector made at its size: collecting through `Result` loses
        // the size hint, and the vector would regrow, copying encodings.
        let n = batch.inputs.len();
        let what = || format!("encoding a batch of {n} inputs");
        let encode = |chunk: Chunk| -> Result<Vec<Encoding>> {
            self.expect_chunks(chunk.share);
            let mut encodings =
                Error::room_for(chunk.end - chunk.start, format_args!("encoding a batch of {n} inputs"))?;
            for (i, input) in batch.inputs.iter().enumerate().take(chunk.end).skip(chunk.start) {
                encodings.push(self.encode_input(i, input, options)?);
                chunk.watch.check(what)?;
            }
            Ok(encodings)
        };
        run_chunks(batch, options.num_threads, (Watch::start(), &what()), encode, consume)
    }

    /// Encodes `batch` like [`Tokenizer::encode_batch_with`] without padding
    /// into flat columns (the ids, and the `fields` asked for), one
    /// [`RaggedPart`] per chunk of consecutive inputs, in the inputs' order.
    /// Only each input's own encoding is a row (truncation's overflowing
    /// windows are dropped). `stop` is asked after each chunk whether to give
    /// up: [`Error::Interrupted`] if it says so. With the ids alone (no
    /// `fields`), the parts are merged as they come into one, whose ids are
    /// int64 (see [`RaggedPart::merged`]).
    pub fn encode_batch_ragged<I: BatchInput>(
        &self,
        batch: Batch<'_, I>,
        options: &EncodeOptions,
        fields: RaggedFields,
        mut stop: impl FnMut() -> bool,
    ) -> Result<Vec<RaggedPart>> {
        if options.padding.is_some() {
            return Err(Error::invalid("flat columns are for a batch without padding"));
        }
        options.validate(self.added_tokens_count(false))?;
        self.post_processor(options.add_special_tokens)?;
        let n = batch.inputs.len();
        let what = || format!("encoding a batch of {n} inputs");
        let encode = |Chunk { start, end, share, watch }: Chunk| -> Result<RaggedPart> {
            self.expect_chunks(share);
            let inputs = &batch.inputs[start..end];
            let mut part = RaggedPart::with_capacity(token_room(inputs), inputs.len(), fields)?;
            // Only the ids asked for: written straight into the part.
            let ids_only = fields == RaggedFields::default();
            if ids_only && options.truncation.is_none() {
                let rows = inputs.iter().map(BatchInput::sequences);
                self.encode_ids_rows(rows, options.add_special_tokens, &mut part.ids, &mut part.lengths)?;
                return Ok(part);
            }
            for (i, input) in inputs.iter().enumerate() {
                if options.truncation.is_some() {
                    part.push(&self.encode_input(start + i, input, options)?, fields)
                        .map_err(|e| e.for_input(start + i))?;
                    continue;
                }
                // Without truncation, straight from the scratch: no encoding.
                let (text, pair) = input.sequences();
                self.with_encoded_as(text, pair, options.add_special_tokens, ids_only, |s| {
                    part.push_scratch(s, fields)
                })
                .map_err(|e| e.for_input(start + i))?;
                watch.check(what)?;
            }
            Ok(part)
        };
        // Ids only: each part is widened into one as soon as the parts
        // before it are in (on one thread, straight after its encoding, its
        // ids still in the cache; on more, on the calling thread while the
        // others encode), and that part's int64 ids become the array.
        let rows = batch.inputs.len();
        let merge = fields == RaggedFields::default() && rows > 0;
        let mut merged = if merge { RaggedPart::merged(batch.token_room(), rows)? } else { RaggedPart::default() };
        // Parts that came before those ahead of them, by first input.
        let mut waiting: BTreeMap<usize, RaggedPart> = BTreeMap::new();
        let mut parts: Vec<(usize, RaggedPart)> = Vec::new();
        let mut stopped = false;
        let mut failed = Ok(());
        run_chunks(batch, options.num_threads, (Watch::start(), &what()), encode, |start, part| {
            if merge {
                if start == merged.rows() {
                    failed = merged.absorb(&part);
                    while let (Ok(()), Some(next)) = (&failed, waiting.remove(&merged.rows())) {
                        failed = merged.absorb(&next);
                    }
                    if failed.is_err() {
                        return false;
                    }
                } else {
                    waiting.insert(start, part);
                }
            } else {
                parts.push((start, part));
            }
            stopped = stop();
            !stopped
        })?;
        failed?;
        if stopped {
            return Err(Error::Interrupted);
        }
        if merge {
            debug_assert!(waiting.is_empty() && merged.rows() == rows);
            return Ok(vec![merged]);
        }
        parts.sort_unstable_by_key(|&(start, _)| start);
        Ok(parts.into_iter().map(|(_, part)| part).collect())
    }

    /// Readies this thread's chunk cache, when this tokenizer uses it, for
    /// the chunks of `share` bytes of text, a thread's share of a batch (see
    /// `chunk_cache::reserve`): a batch's first chunk of work grows it once,
    /// to its size, rather than by doubling as it fills; later ones find it
    /// ready.
    fn expect_chunks(&self, share: usize) {
        if self.uses_chunk_cache() {
            chunk_cache::reserve(self.cache.owner(), share);
        }
    }

    /// The id of the pad token when padding (an error if it is missing), else None.
    fn pad_id(&self, options: &EncodeOptions) -> Result<Option<u32>> {
        if options.padding.is_none() {
            return Ok(None);
        }
        let pad = &self.options().pad_token;
        self.vocab()
            .id(pad)
            .map(Some)
            .ok_or_else(|| Error::invalid(format!("padding needs {} in the vocabulary", Quoted(pad))))
    }

    /// Input `i` of a batch, truncated and post-processed; an invalid input's
    /// error is [`Error::Input`].
    fn encode_input(&self, i: usize, input: &impl BatchInput, options: &EncodeOptions) -> Result<Encoding> {
        let (text, pair) = input.sequences();
        self.encode_truncated(text, pair, options).map_err(|e| e.for_input(i))
    }

    /// One input, truncated and post-processed (not padded).
    fn encode_truncated(
        &self,
        text: Sequence<'_>,
        pair: Option<Sequence<'_>>,
        options: &EncodeOptions,
    ) -> Result<Encoding> {
        let Some(truncation) = options.truncation else {
            return self.encode_sequences(text, pair, options.add_special_tokens);
        };
        let (processor, specials) = self.post_processor(options.add_special_tokens)?;
        let mut a = self.encode_sequences(text, None, false)?;
        let mut b = pair.map(|p| self.encode_sequences(p, None, false)).transpose()?;
        let added = if specials { processor.added(b.is_some()) } else { 0 };
        truncation.apply(&mut a, b.as_mut(), added)?;
        processor.process_windows(specials, a, b)
    }
}

/// The threads a batch of `bytes` bytes of text is encoded on: one below
/// [`MIN_CHUNK_BYTES`] (waking a pool costs more than it saves there, much
/// more on a busy machine; the environment is not even read), else
/// `threads`, or the default number. A `threads` out of range is an error
/// either way.
pub fn threads_for(bytes: usize, threads: Option<usize>) -> Result<usize> {
    if bytes < MIN_CHUNK_BYTES {
        if threads.is_some() {
            threads::checked(threads)?;
        }
        return Ok(1);
    }
    threads::checked(threads)
}

/// A piece of a batch's work: its inputs `start..end`, and `share`, about
/// the bytes of text each of the threads working on the batch takes.
#[derive(Clone, Copy, Debug)]
struct Chunk {
    start: usize,
    end: usize,
    share: usize,
    /// The work's watch on memory (see `crate::memory`), for checks between
    /// inputs.
    watch: Watch,
}

/// Cuts `batch` into chunks of consecutive inputs (see [`chunk_bounds`]),
/// runs `work` on each on `threads` threads (see [`threads_for`]: a batch
/// smaller than a chunk is one chunk, on the calling thread), and hands each
/// result to `consume` on the calling thread together with the index of the
/// chunk's first input; results arrive in the order they finish.
///
/// The calling thread is one of the `threads`: it runs `consume` on each
/// result as soon as one is done, and works on chunks itself when none is
/// waiting, while the other threads (a pool) only work. So a binding's serial
/// work on the results (making Python lists) overlaps the work instead of
/// following it, and no more threads run than were asked for. On one thread,
/// chunks are worked on and consumed in turn.
///
/// `consume` returning false stops the batch: chunks not yet started are
/// skipped and the call returns `Ok(())`. A chunk whose work fails stops it
/// too, and its error is the result; so does running out of memory since
/// `watch` started (a MemoryError naming `what`, e.g. "encoding a batch of 3
/// inputs"), checked after each chunk.
fn run_chunks<I: BatchInput, T: Send>(
    batch: Batch<'_, I>,
    threads: Option<usize>,
    (watch, what): (Watch, &str),
    work: impl Fn(Chunk) -> Result<T> + Sync,
    mut consume: impl FnMut(usize, T) -> bool,
) -> Result<()> {
    let threads = threads_for(batch.bytes, threads)?;
    watch.check(|| what.to_owned())?;
    let share = batch.bytes / threads;
    // A small batch on one thread is one chunk: its text is in the cache
    // anyway, and each chunk costs a hand-over (and, for flat columns, a
    // part to merge).
    let bounds = match batch.inputs.len() {
        n if n > 0 && batch.bytes < MIN_CHUNK_BYTES => vec![0, n],
        _ => chunk_bounds(batch, threads),
    };
    // No more threads than chunks: a thread with nothing to do still costs a wake-up.
    let threads = threads.min(bounds.len() - 1).max(1);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // The next chunk nobody has started, unless the batch has stopped.
    let claim = || {
        let k = if stop.load(Ordering::Relaxed) { bounds.len() } else { next.fetch_add(1, Ordering::Relaxed) };
        bounds.get(k + 1).map(|&end| (bounds[k], end))
    };
    let run = |(start, end): (usize, usize)| {
        let done = work(Chunk { start, end, share, watch });
        (start, done.and_then(|t| watch.check(|| what.to_owned()).map(|()| t)))
    };
    let mut failure = None;
    let mut take = |(start, done): (usize, Result<T>)| match done {
        _ if stop.load(Ordering::Relaxed) => {}
        Ok(done) => stop.store(!consume(start, done), Ordering::Relaxed),
        Err(e) => {
            failure = Some(e);
            stop.store(true, Ordering::Relaxed);
        }
    };
    if threads == 1 {
        while let Some(chunk) = claim() {
            take(run(chunk));
        }
    } else {
        let (sender, receiver) = mpsc::channel();
        threads::pool_for(Some(threads - 1))?.in_place_scope(|scope| {
            for _ in 1..threads {
                let (sender, claim, run) = (sender.clone(), &claim, &run);
                scope.spawn(move |_| {
                    while let Some(chunk) = claim() {
                        // The receiver outlives the scope; a send cannot fail.
                        let _ = sender.send(run(chunk));
                    }
                });
            }
            drop(sender);
            loop {
                let done = match receiver.try_recv() {
                    Ok(done) => done,
                    Err(mpsc::TryRecvError::Empty) => match claim() {
                        Some(chunk) => run(chunk),
                        // All started: wait for the pool (or its panic,
                        // which the scope then passes on).
                        None => match receiver.recv() {
                            Ok(done) => done,
                            Err(_) => break,
                        },
                    },
                    Err(mpsc::TryRecvError::Disconnected) => break,
                };
                take(done);
            }
        });
    }
    failure.map_or(Ok(()), Err)
}

/// The text [`chunks_until`] hands to [`run_chunks`] at a time: its chunks
/// are then at most a `LARGEST`-th of this per worker (128 KiB on two
/// threads), so that the caller is asked whether to stop every few
/// milliseconds of work however large the texts are. Each round ends
/// with its threads finishing together (the last chunks of a round are
/// small), which costs little next to this much text.
const ROUND_BYTES: usize = 4 << 20;

/// Runs `work` on chunks of consecutive `texts`, cut and spread over
/// `threads` threads as a batch's chunks are (see [`run_chunks`]), and hands
/// each result to `consume` on the calling thread with the index of the
/// chunk's first text (in the order they finish), then asks `stop`, also on
/// the calling thread, whether to give up: [`Error::Interrupted`] if it says
/// so. A chunk whose work fails stops the rest, and its error is the result.
/// This is how long work over many texts (the family's batches, analyses
/// and training counts) stays stoppable by a binding (Ctrl-C).
pub fn chunks_until<'a, S: AsRef<str> + Sync, T: Send>(
    texts: &'a [S],
    threads: Option<usize>,
    work: impl Fn(&'a [S]) -> Result<T> + Sync,
    mut consume: impl FnMut(usize, T),
    mut stop: impl FnMut() -> bool,
) -> Result<()> {
    let n = texts.len();
    let mut strs: Vec<&str> = Error::room_for(n, format_args!("a batch of {n} texts"))?;
    let (watch, what) = (Watch::start(), format!("the work on a batch of {n} texts"));
    strs.extend(texts.iter().map(AsRef::as_ref));
    if strs.is_empty() {
        // Still an error for a thread count out of range.
        threads_for(0, threads)?;
    }
    let mut start = 0;
    while start < strs.len() {
        let mut end = start;
        let mut bytes = 0;
        while end < strs.len() && (end == start || bytes + strs[end].len() <= ROUND_BYTES) {
            bytes += strs[end].len();
            end += 1;
        }
        let mut stopped = false;
        let run = |c: Chunk| work(&texts[start + c.start..start + c.end]);
        run_chunks(Batch::new(&strs[start..end]), threads, (watch, &what), run, |first, done| {
            consume(start + first, done);
            stopped = stop();
            !stopped
        })?;
        if stopped {
            return Err(Error::Interrupted);
        }
        start = end;
    }
    Ok(())
}

/// [`chunks_until`], the chunks' results in the texts' order.
pub fn map_chunks_until<'a, S: AsRef<str> + Sync, T: Send>(
    texts: &'a [S],
    threads: Option<usize>,
    work: impl Fn(&'a [S]) -> Result<T> + Sync,
    stop: impl FnMut() -> bool,
) -> Result<Vec<T>> {
    let mut done = Vec::new();
    chunks_until(texts, threads, work, |start, t| done.push((start, t)), stop)?;
    done.sort_unstable_by_key(|&(start, _)| start);
    Ok(done.into_iter().map(|(_, t)| t).collect())
}

/// Chunk sizes follow guided self-scheduling: each chunk is this fraction
/// of the text still to cut, per worker, so chunks shrink as the batch runs
/// out. The threads then finish close together, and the chunk encoded last,
/// whose objects are made after all encoding is done, is a small one.
const GUIDE: usize = 4;
/// The largest chunk, as a fraction of the batch per worker: the calling
/// thread takes finished chunks only between chunks of its own, so a large
/// one would keep the others' results waiting (and, on one thread, the
/// encodings of a chunk would leave the cache before their lists are made).
/// With `GUIDE` at 4, chunks start shrinking in the last quarter of a batch.
const LARGEST: usize = 16;
/// Text per chunk, at least, unless the batch is smaller than `GUIDE` such
/// chunks per worker: smaller chunks cost more to hand over than they save.
const MIN_CHUNK_BYTES: usize = 16 << 10;

/// The bytes of text of an input.
fn input_bytes<I: BatchInput>(input: &I) -> usize {
    let (a, b) = input.sequences();
    a.len_bytes() + b.map_or(0, |b| b.len_bytes())
}

/// Room for the tokens of `inputs`: one per 2 bytes of text and 3 special
/// tokens each, so that a column sized by it seldom regrows. One per 3
/// bytes is too few for the multilingual benchmark sets (1.01-1.05 tokens
/// per 3 bytes); English uses about half of this room. Denser text (runs of
/// punctuation) regrows; unused room is reserved but never written.
fn token_room<I: BatchInput>(inputs: &[I]) -> usize {
    inputs.iter().map(|i| input_bytes(i) / 2 + 3).sum()
}

impl<I: BatchInput> Batch<'_, I> {
    /// [`token_room`] for the whole batch, from its bytes (at most half a
    /// token per input more).
    fn token_room(&self) -> usize {
        self.bytes / 2 + 3 * self.inputs.len()
    }
}

/// The bounds of the chunks `inputs` is cut into, by bytes of text:
/// `[0, .., inputs.len()]`, increasing, every chunk non-empty, sizes
/// shrinking from `total / (LARGEST * workers)` to `MIN_CHUNK_BYTES` (or,
/// for a small batch, to a `GUIDE`-th of its share per worker).
fn chunk_bounds<I: BatchInput>(batch: Batch<'_, I>, workers: usize) -> Vec<usize> {
    let inputs = batch.inputs;
    let size = |input: &I| input_bytes(input) + 1;
    let total = batch.bytes + inputs.len();
    let workers = workers.max(1);
    let largest = total / (LARGEST * workers);
    // A small batch still gets a few chunks per worker: its inputs may be
    // short texts that are slow to encode (pairs with many overflowing windows).
    let smallest = MIN_CHUNK_BYTES.min(total.div_ceil(GUIDE * workers));
    let target = |left: usize| (left / (GUIDE * workers)).min(largest).max(smallest);
    let mut bounds = vec![0];
    let (mut bytes, mut left) = (0, total);
    for (i, input) in inputs.iter().enumerate() {
        bytes += size(input);
        if bytes >= target(left) {
            bounds.push(i + 1);
            left -= bytes;
            bytes = 0;
        }
    }
    if *bounds.last().unwrap_or(&0) != inputs.len() {
        bounds.push(inputs.len());
    }
    bounds
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::*;
    use crate::encoding::Side;
    use crate::pipeline::model::vocab::Vocab;
    use crate::pipeline::padding::{PadTo, Padding};
    use crate::pipeline::truncation::{Strategy, Truncation};
    use crate::tokenizer::options::{Options, DEFAULT_SPECIAL_TOKENS};

    fn tokenizer() -> Tokenizer {
        let tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "c", "d", "e", "f", "g", "h"];
        let vocab = Vocab::new(tokens.iter().map(|t| t.to_string()).collect()).unwrap();
        let specials: Vec<String> = DEFAULT_SPECIAL_TOKENS.iter().map(|t| t.to_string()).collect();
        Tokenizer::new(vocab, vec![], &specials, Options::default()).unwrap()
    }

    fn truncation(max_length: usize, strategy: Strategy, stride: usize) -> Option<Truncation> {
        Some(Truncation { max_length, strategy, stride, side: Side::Right })
    }

    fn padding(to: PadTo, multiple_of: usize, side: Side) -> Option<Padding> {
        Some(Padding { to, multiple_of: NonZeroUsize::new(multiple_of), side })
    }

    fn longest() -> EncodeOptions {
        EncodeOptions { padding: padding(PadTo::Longest, 0, Side::Right), ..EncodeOptions::default() }
    }

    fn only_second(max_length: usize) -> EncodeOptions {
        EncodeOptions { truncation: truncation(max_length, Strategy::OnlySecond, 0), ..EncodeOptions::default() }
    }

    #[test]
    fn truncates_with_stride_and_pads_the_overflowing_windows() {
        let t = tokenizer();
        let o = EncodeOptions {
            truncation: truncation(6, Strategy::LongestFirst, 2),
            padding: padding(PadTo::Fixed(6), 4, Side::Right),
            ..EncodeOptions::default()
        };
        let e = t.encode_with("a b c d e f g", None, &o).unwrap();
        assert_eq!(e.ids(), [2, 5, 6, 7, 8, 3, 0, 0]);
        assert_eq!(e.attention_mask(), [1, 1, 1, 1, 1, 1, 0, 0]);
        let windows: Vec<&[u32]> = e.overflowing().iter().map(Encoding::ids).collect();
        assert_eq!(windows, [[2, 7, 8, 9, 10, 3, 0, 0], [2, 9, 10, 11, 3, 0, 0, 0]]);
    }

    #[test]
    fn batch_pads_to_the_longest_on_the_left() {
        let t = tokenizer();
        let o = EncodeOptions { padding: padding(PadTo::Longest, 0, Side::Left), ..EncodeOptions::default() };
        let batch = t.encode_batch_with(&[("a b c", None), ("d", Some("e"))], &o).unwrap();
        assert_eq!(batch[0].ids(), [2, 5, 6, 7, 3]);
        assert_eq!(batch[1].ids(), [2, 8, 3, 9, 3]);
        let batch = t.encode_batch_with(&[("a b c", None), ("d", None)], &o).unwrap();
        assert_eq!(batch[1].ids(), [0, 0, 2, 8, 3]);
        assert_eq!(batch[1].special_tokens_mask(), [1, 1, 1, 0, 1]);
        assert_eq!(batch[1].offsets()[..2], [(0, 0), (0, 0)]);
    }

    #[test]
    fn a_bad_input_is_named_by_its_index() {
        let err = tokenizer().encode_batch_with(&[("a", None), ("a b c d", None)], &only_second(5)).unwrap_err();
        let Error::Input { index: 1, source } = &err else { panic!("{err:?}") };
        assert!(matches!(**source, Error::InvalidArgument(_)), "{source:?}");
        assert!(err.to_string().starts_with("inputs[1]: truncation=\"only_second\" needs a pair"), "{err}");
    }

    #[test]
    fn options_are_checked_before_any_input() {
        let stride = EncodeOptions { truncation: truncation(6, Strategy::LongestFirst, 5), ..EncodeOptions::default() };
        let t = tokenizer();
        for err in [
            t.encode_with("a", None, &stride).unwrap_err(),
            t.encode_batch_with::<(&str, Option<&str>)>(&[], &stride).unwrap_err(),
        ] {
            assert!(err.to_string().starts_with("stride must be at most max_length minus the 2"), "{err}");
        }
        let unpadded = EncodeOptions { add_special_tokens: false, ..stride };
        assert!(t.encode_with("a", None, &unpadded).is_ok(), "5 < 6 without special tokens");
        // No room at all cuts no windows: every token overflows, whatever the stride.
        for (max_length, add_special_tokens) in [(2, true), (0, false)] {
            let none = EncodeOptions {
                add_special_tokens,
                truncation: truncation(max_length, Strategy::LongestFirst, 5),
                ..EncodeOptions::default()
            };
            let encoding = t.encode_with("a b", None, &none).unwrap();
            assert_eq!(encoding.len(), if add_special_tokens { 2 } else { 0 });
            assert_eq!(encoding.overflowing().len(), 1);
        }
    }

    /// Inputs long enough to make many chunks, with pairs among them.
    fn many_inputs() -> Vec<(String, Option<String>)> {
        (0..3000)
            .map(|i| {
                let text = "a b c d e f g h ".repeat(i % 13 + 1);
                (text, (i % 5 == 0).then(|| "e f g".to_string()))
            })
            .collect()
    }

    fn streamed(t: &Tokenizer, inputs: &[(&str, Option<&str>)], o: &EncodeOptions) -> (Vec<Encoding>, usize) {
        let mut slots = vec![None; inputs.len()];
        let mut chunks = 0;
        t.encode_batch_streamed(Batch::new(inputs), o, |start, chunk| {
            chunks += 1;
            for (k, e) in chunk.into_iter().enumerate() {
                assert!(slots[start + k].replace(e).is_none(), "input {} came twice", start + k);
            }
            true
        })
        .unwrap();
        (slots.into_iter().map(|e| e.expect("every input comes once")).collect(), chunks)
    }

    #[test]
    fn streamed_chunks_make_the_same_batch_on_any_number_of_threads() {
        let t = tokenizer();
        let owned = many_inputs();
        let inputs: Vec<(&str, Option<&str>)> = owned.iter().map(|(a, b)| (a.as_str(), b.as_deref())).collect();
        let windows =
            EncodeOptions { truncation: truncation(9, Strategy::LongestFirst, 2), ..EncodeOptions::default() };
        for o in [EncodeOptions::default(), windows] {
            let expected: Vec<Encoding> = inputs.iter().map(|&(a, b)| t.encode_with(a, b, &o).unwrap()).collect();
            for threads in [1, 2, 3, 5] {
                let o = EncodeOptions { num_threads: Some(threads), ..o };
                let (batch, chunks) = streamed(&t, &inputs, &o);
                assert!(chunks > threads, "{chunks} chunks on {threads} threads");
                assert!(batch == expected, "{threads} threads");
                assert!(t.encode_batch_with(&inputs, &o).unwrap() == expected, "{threads} threads, whole batch");
            }
        }
        assert_eq!(streamed(&t, &[], &EncodeOptions::default()).1, 0);
    }

    #[test]
    fn streamed_stops_when_told_and_names_a_bad_input() {
        let t = tokenizer();
        let owned = many_inputs();
        let inputs: Vec<(&str, Option<&str>)> = owned.iter().map(|(a, b)| (a.as_str(), b.as_deref())).collect();
        for threads in [1, 2, 4] {
            let o = EncodeOptions { num_threads: Some(threads), ..EncodeOptions::default() };
            let mut seen = 0;
            t.encode_batch_streamed(Batch::new(&inputs), &o, |_, _| {
                seen += 1;
                false
            })
            .unwrap();
            assert_eq!(seen, 1, "{threads} threads");
            let o = EncodeOptions { num_threads: Some(threads), ..only_second(5) };
            let err = t.encode_batch_streamed(Batch::new(&inputs), &o, |_, _| true).unwrap_err().to_string();
            assert!(err.starts_with("inputs[") && err.contains("only_second"), "{err}");
        }
        assert!(t.encode_batch_streamed(Batch::new(&inputs), &longest(), |_, _| true).is_err());
        let too_many = EncodeOptions { num_threads: Some(0), ..EncodeOptions::default() };
        assert!(t
            .encode_batch_streamed(Batch::new(&inputs), &too_many, |_, _| true)
            .unwrap_err()
            .to_string()
            .contains("num_threads"));
    }

    #[test]
    fn chunks_of_texts_come_back_in_order_and_stop_when_told() {
        // 6 MB of text: more than one round of chunks.
        let owned: Vec<String> = (0..20_000).map(|i| format!("{i} ").repeat(80)).collect();
        let texts: Vec<&str> = owned.iter().map(String::as_str).collect();
        for threads in [1, 2, 3] {
            let chunks = map_chunks_until(&texts, Some(threads), |c| Ok(c.to_vec()), || false).unwrap();
            assert!(chunks.len() > 2 * threads, "{} chunks on {threads} threads", chunks.len());
            assert!(chunks.concat() == texts, "{threads} threads");
            let (mut asked, mut worked) = (0, 0);
            let stopped = chunks_until(
                &texts,
                Some(threads),
                |c| Ok(c.len()),
                |_, n| worked += n,
                || {
                    asked += 1;
                    asked == 2
                },
            );
            assert!(matches!(stopped, Err(Error::Interrupted)), "{threads} threads");
            assert_eq!(asked, 2);
            assert!(worked < texts.len() / 2, "{worked} texts worked on before stopping");
        }
        let none: [&str; 0] = [];
        assert!(map_chunks_until(&none, None, |c| Ok(c.len()), || true).unwrap().is_empty());
        let err = map_chunks_until(&none, Some(0), |c| Ok(c.len()), || false).unwrap_err();
        assert!(err.to_string().contains("num_threads"), "{err}");
        let err = map_chunks_until(&texts, Some(2), |_| Err::<(), _>(Error::invalid("bad")), || false);
        assert!(err.unwrap_err().to_string().contains("bad"));
    }

    #[test]
    fn a_whole_batch_pads_together_and_can_be_stopped() {
        let t = tokenizer();
        let owned = many_inputs();
        let inputs: Vec<(&str, Option<&str>)> = owned.iter().map(|(a, b)| (a.as_str(), b.as_deref())).collect();
        for threads in [1, 2, 3] {
            let o = EncodeOptions { num_threads: Some(threads), ..longest() };
            let batch = t.encode_batch_with(&inputs, &o).unwrap();
            let longest = inputs.iter().map(|&(a, b)| t.encode(a, b, true).unwrap().len()).max().unwrap();
            assert!(batch.iter().all(|e| e.len() == longest), "{threads} threads");
            for (e, &(a, b)) in batch.iter().zip(&inputs) {
                let alone = t.encode(a, b, true).unwrap();
                assert_eq!(e.ids()[..alone.len()], alone.ids()[..], "{threads} threads");
                assert_eq!(e.attention_mask().iter().filter(|&&m| m == 1).count(), alone.len());
            }
            let mut asked = 0;
            let stopped = t.encode_batch_until(Batch::new(&inputs), &o, || {
                asked += 1;
                asked == 2
            });
            assert!(matches!(stopped, Err(Error::Interrupted)), "{threads} threads");
            assert_eq!(asked, 2, "asked after each chunk until told to stop");
        }
    }

    #[test]
    fn chunks_cover_the_inputs_in_order() {
        let owned = many_inputs();
        let inputs: Vec<(&str, Option<&str>)> = owned.iter().map(|(a, b)| (a.as_str(), b.as_deref())).collect();
        for n in [0, 1, 7, 100, inputs.len()] {
            for workers in [1, 2, 16] {
                let bounds = chunk_bounds(Batch::new(&inputs[..n]), workers);
                assert_eq!((bounds[0], *bounds.last().unwrap()), (0, n));
                assert!(bounds.windows(2).all(|w| w[0] < w[1]), "{bounds:?}");
            }
        }
        let big: Vec<(&str, Option<&str>)> = inputs.iter().cycle().take(4 * inputs.len()).copied().collect();
        let bounds = chunk_bounds(Batch::new(&big), 2);
        let bytes = |w: &[usize]| big[w[0]..w[1]].iter().map(|(a, b)| a.len() + b.map_or(0, str::len) + 1).sum();
        let sizes: Vec<usize> = bounds.windows(2).map(bytes).collect();
        assert!(sizes.len() > 2 * LARGEST, "{sizes:?}");
        // Guided: no chunk is larger than the first, the last ones are the smallest.
        let (first, last) = (sizes[0], sizes[sizes.len() - 1]);
        assert!(sizes.iter().all(|&s| s <= first + 256), "{sizes:?}");
        assert!(first > 2 * MIN_CHUNK_BYTES && last <= MIN_CHUNK_BYTES + 256, "{sizes:?}");
        // A small batch (here about 30 KB) still gets chunks for every worker.
        let small = &inputs[..250];
        for workers in [1, 2, 4] {
            let chunks = chunk_bounds(Batch::new(small), workers).len() - 1;
            assert!(chunks >= GUIDE * workers - 1, "{chunks} chunks for {workers} workers");
        }
    }

    #[test]
    fn a_batch_smaller_than_a_chunk_runs_on_the_calling_thread() {
        let owned = many_inputs();
        let inputs: Vec<(&str, Option<&str>)> = owned.iter().map(|(a, b)| (a.as_str(), b.as_deref())).collect();
        let here = std::thread::current().id();
        let on_caller_only = |inputs: &[(&str, Option<&str>)]| {
            let mut seen = Vec::new();
            let work = |_: Chunk| Ok(std::thread::current().id() == here);
            run_chunks(Batch::new(inputs), Some(4), (Watch::start(), "a test"), work, |_, mine| {
                seen.push(mine);
                true
            })
            .unwrap();
            seen.iter().all(|&mine| mine)
        };
        let mut end = 0;
        while inputs[..end].iter().map(input_bytes).sum::<usize>() < MIN_CHUNK_BYTES / 2 {
            end += 1;
        }
        assert!(end > 1 && on_caller_only(&inputs[..end]));
        assert!(on_caller_only(&inputs[..1]));
    }

    #[test]
    fn padding_needs_the_pad_token() {
        let vocab = Vocab::new(["[UNK]", "[CLS]", "[SEP]", "a"].iter().map(|t| t.to_string()).collect()).unwrap();
        let t = Tokenizer::new(vocab, vec![], &[], Options::default()).unwrap();
        assert!(t.encode_with("a", None, &longest()).unwrap_err().to_string().contains("\"[PAD]\""));
        // Before any input is encoded, even one that cannot be truncated.
        let cut = EncodeOptions { padding: longest().padding, ..only_second(5) };
        let err = t.encode_batch_with(&[("a", None), ("a a a a a a a", None)], &cut).unwrap_err().to_string();
        assert!(err.contains("\"[PAD]\"") && !err.contains("inputs["), "{err}");
    }

    #[test]
    fn padding_inserts_the_pad_token_of_the_options() {
        let vocab =
            Vocab::new(["[UNK]", "[CLS]", "[SEP]", "<pad>", "a"].iter().map(|t| t.to_string()).collect()).unwrap();
        let options = Options { pad_token: "<pad>".into(), ..Options::default() };
        let t = Tokenizer::new(vocab, vec![], &[], options).unwrap();
        let batch = t.encode_batch_with(&[("a", None), ("a a", None)], &longest()).unwrap();
        assert_eq!(batch[0].ids(), [1, 4, 2, 3]);
    }
}
