//! The tokenizer: the pipeline's stages chained, normalizer → pre-tokenizer →
//! WordPiece → post-processor, and decoding back. `batch` adds truncation,
//! padding and parallel batches; `serialization` the tokenizer file;
//! `options` holds what a tokenizer is made with and what an encode asks for.

pub mod analysis;
pub mod batch;
pub mod chunk_cache;
pub mod hf_json;
pub mod objective;
pub mod options;
pub mod pretrained;
pub mod serialization;
pub mod template;

use std::cell::RefCell;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::encoding::scratch::Scratch;
use crate::encoding::Encoding;
use crate::error::{Error, Quoted, Result};
use crate::pipeline::ascii::AsciiPath;
use crate::pipeline::decoder;
use crate::pipeline::model::special_tokens::{AddedToken, SpecialTokenMatcher};
use crate::pipeline::model::vocab::Vocab;
use crate::pipeline::model::word_cache;
use crate::pipeline::model::wordpiece::{Piece, WordPiece};
use crate::pipeline::normalizer::Normalized;
use crate::pipeline::padding::Padding;
use crate::pipeline::post_processor::PostProcessor;
use crate::pipeline::truncation::Truncation;
use crate::tokenizer::chunk_cache::{CacheSwitch, ChunkCache};
use crate::tokenizer::objective::Objective;
use crate::tokenizer::options::{validate_special_tokens, EncodeOptions, Options, PostProcessing};

/// Buffers reused by every encode on a thread.
#[derive(Default)]
struct Workspace {
    text: TextBuffers,
    /// Chunks about to be looked up in the chunk cache.
    chunks: Vec<chunk_cache::Key>,
    /// The same, when only their ids are wanted (see `encode_chunk_ids`).
    ahead: Vec<Ahead>,
    /// Where a chunk missing from the cache is encoded in full when the
    /// output keeps ids only (the cache keeps every column for every caller).
    side: Scratch,
}

/// The buffers of `Tokenizer::encode_uncached`: apart from the
/// workspace's others, so that a chunk is encoded into `Workspace::side`
/// in place (not moved out and back, a copy of the scratch each way).
#[derive(Default)]
struct TextBuffers {
    normalized: Normalized,
    pieces: Vec<Piece>,
    /// The normalized bytes of an ASCII segment.
    ascii: Vec<u8>,
}

/// A chunk about to be looked up for its ids: its bounds in its text and,
/// when it has at most `chunk_cache::SHORT_KEY` bytes, its short key and
/// that key's hash (else key 0).
#[derive(Clone, Copy, Debug, Default)]
struct Ahead {
    key: u128,
    hash: u64,
    start: usize,
    end: usize,
}

thread_local! {
    /// The thread's workspace, and the scratch holding the ids and offsets
    /// of the encoding being assembled (see `PostProcessor::assemble`): one
    /// thread-local, so one look-up and one borrow per text.
    static BUFFERS: RefCell<(Workspace, Scratch)> = RefCell::new(Default::default());
}

/// See [`Tokenizer`]'s `history`.
#[derive(Clone, Debug, Default)]
struct History {
    specials: Vec<String>,
    normalized: Vec<String>,
}

/// One text of an input: as written, or already split into words (as
/// `is_split_into_words` gives it). Each given word is then normalized and
/// pre-tokenized on its own; all its tokens get its number as their word
/// (an empty word gives no token but keeps its number), and their offsets
/// are into the word itself.
#[derive(Clone, Copy, Debug)]
pub enum Sequence<'a> {
    Text(&'a str),
    Words(&'a [&'a str]),
}

impl Sequence<'_> {
    /// Bytes of text, to cut batches into chunks of about equal work.
    pub fn len_bytes(&self) -> usize {
        match self {
            Sequence::Text(t) => t.len(),
            Sequence::Words(words) => words.iter().map(|w| w.len() + 1).sum(),
        }
    }
}

/// A WordPiece tokenizer: a vocabulary, the merges that made it (empty for a
/// loaded `vocab.txt`), and the pipeline's options.
#[derive(Clone, Debug)]
pub struct Tokenizer {
    vocab: Vocab,
    options: Options,
    /// The given special tokens that are in the vocabulary, in the given order.
    special_tokens: Vec<String>,
    special_ids: FxHashSet<u32>,
    merges: Vec<(String, String)>,
    /// The training objective that made the vocabulary (None: not trained here).
    objective: Option<Objective>,
    model: WordPiece,
    /// The special tokens and the added tokens matched in the raw text.
    matcher: SpecialTokenMatcher,
    /// Added tokens other than the special tokens given to `new` (see
    /// [`Self::with_added_tokens`]).
    added: Vec<AddedToken>,
    /// The added tokens matched in the normalized text.
    normalized_matcher: Option<SpecialTokenMatcher>,
    /// What `decode` shows for a `normalized` added token that the
    /// normalizer changes: its normalized form (as Hugging Face does).
    decoded_as: FxHashMap<u32, String>,
    /// What earlier `add_tokens` calls left behind, as in Hugging Face's
    /// added vocabulary: contents once added as special (still special for
    /// decoding and `split_special_tokens`), and once added `normalized`
    /// (still decoded in their normalized form). Not saved in files.
    history: History,
    /// The template of the special tokens (without them when
    /// `missing_specials`: BERT's `[CLS]` or `[SEP]` is not in the vocabulary).
    post_processor: PostProcessor,
    missing_specials: bool,
    /// The ids the template adds that are holes of the vocabulary, with the
    /// template's token of each: encodings show it, `decode` leaves the id
    /// out, `id_to_token` has none (as in Hugging Face).
    unassigned: FxHashMap<u32, String>,
    ascii: AsciiPath,
    /// Truncation and padding for calls that give none (a Hugging Face
    /// file's `truncation` and `padding`).
    truncation: Option<Truncation>,
    padding: Option<Padding>,
    /// Whether chunks already encoded are taken from the chunk cache (see
    /// `chunk_cache`), and this tokenizer's owner number there.
    cache: CacheSwitch,
}

impl PartialEq for Tokenizer {
    fn eq(&self, other: &Self) -> bool {
        self.vocab == other.vocab
            && self.options == other.options
            && self.merges == other.merges
            && self.compared_specials() == other.compared_specials()
            && self.truncation == other.truncation
            && self.padding == other.padding
            && self.objective == other.objective
    }
}

impl Tokenizer {
    /// What equality compares of the special and added tokens: only what
    /// tokenizes differently. The plain special tokens are matched together
    /// whatever their order, so they are sorted. Of the added tokens, the
    /// order they were added in decides only between tokens that match the
    /// same text (the same content in the raw text, or the same normalized
    /// form in the normalized text): they are sorted by what they match,
    /// stably. A tokenizer saved and read back (its file lists the added
    /// tokens in id order) is then equal to the original unless two of its
    /// added tokens match the same text in another order.
    fn compared_specials(&self) -> (Vec<String>, Vec<(bool, String, &AddedToken)>) {
        let mut plain = self.plain_special_tokens();
        plain.sort_unstable();
        let mut added: Vec<_> = self
            .added
            .iter()
            .map(|a| {
                let matched =
                    if a.normalized { self.options.normalizer.normalize(&a.content) } else { a.content.clone() };
                (a.normalized, matched, a)
            })
            .collect();
        added.sort_by(|x, y| (x.0, &x.1).cmp(&(y.0, &y.1)));
        (plain, added)
    }

    pub fn new(
        vocab: Vocab,
        merges: Vec<(String, String)>,
        special_tokens: &[String],
        options: Options,
    ) -> Result<Self> {
        options.validate()?;
        validate_special_tokens(special_tokens)?;
        let vocab = vocab.with_prefix(&options.continuing_subword_prefix);
        let unk_id = vocab.id(&options.unk_token).ok_or_else(|| {
            Error::invalid(format!("unk_token {} is not in the vocabulary", Quoted(&options.unk_token)))
        })?;
        let present: Vec<(String, u32)> =
            special_tokens.iter().filter_map(|t| vocab.id(t).map(|id| (t.clone(), id))).collect();
        let (post_processor, missing_specials, unassigned) = match &options.post_processor {
            PostProcessing::Off => (PostProcessor::plain(), false, Vec::new()),
            PostProcessing::Bert => match (vocab.id(&options.cls_token), vocab.id(&options.sep_token)) {
                (Some(cls_id), Some(sep_id)) => (PostProcessor::bert(cls_id, sep_id), false, Vec::new()),
                _ => (PostProcessor::plain(), true, Vec::new()),
            },
            PostProcessing::Template(t) => {
                let (processor, unassigned) = t.compile(&vocab, "post_processor")?;
                (processor, false, unassigned)
            }
        };
        Ok(Self {
            model: WordPiece { unk_id, max_input_chars_per_word: options.max_input_chars_per_word },
            special_tokens: present.iter().map(|(t, _)| t.clone()).collect(),
            special_ids: present.iter().map(|&(_, id)| id).collect(),
            matcher: SpecialTokenMatcher::new(present),
            added: Vec::new(),
            normalized_matcher: None,
            decoded_as: Default::default(),
            history: History::default(),
            ascii: AsciiPath::new(&options.normalizer, options.pre_tokenizer),
            vocab,
            options,
            merges,
            objective: None,
            post_processor,
            missing_specials,
            unassigned: unassigned.into_iter().collect(),
            truncation: None,
            padding: None,
            cache: CacheSwitch::new(true),
        })
    }

    /// This tokenizer, truncating and padding by default as given (for the
    /// calls that give no truncation or padding of their own).
    pub fn with_defaults(mut self, truncation: Option<Truncation>, padding: Option<Padding>) -> Result<Self> {
        if let Some(t) = truncation {
            t.validate(self.added_tokens_count(false))?;
        }
        self.truncation = truncation;
        self.padding = padding;
        Ok(self)
    }

    /// This tokenizer padding with `pad_token` (transformers' `pad_token`
    /// setter): the vocabulary does not change.
    pub fn with_pad_token(&self, pad_token: &str) -> Result<Self> {
        let options = Options { pad_token: pad_token.to_owned(), ..self.options.clone() };
        options.validate()?;
        Ok(Self { options, ..self.clone() })
    }

    /// This tokenizer with more added tokens (Hugging Face's `added_tokens`
    /// other than plain special tokens): each must be in the vocabulary; a
    /// `normalized` one is matched in the normalized text by its normalized
    /// form. Special ones join `special_tokens`.
    pub fn with_added_tokens(mut self, tokens: Vec<AddedToken>) -> Result<Self> {
        let mut seen: FxHashSet<String> =
            self.special_tokens.iter().chain(self.added.iter().map(|a| &a.content)).cloned().collect();
        for t in &tokens {
            let id = self.vocab.id(&t.content).ok_or_else(|| {
                Error::invalid(format!("added token {} is not in the vocabulary", Quoted(&t.content)))
            })?;
            if t.content.is_empty() || !seen.insert(t.content.clone()) {
                return Err(Error::invalid(format!("added token {} is empty or listed twice", Quoted(&t.content))));
            }
            if t.special {
                self.special_ids.insert(id);
            }
            self.added.push(t.clone());
        }
        // The matchers change: chunks cached before are not this tokenizer's.
        self.cache = CacheSwitch::new(self.cache.enabled());
        for t in &self.history.specials {
            self.special_ids.insert(self.vocab.id(t).expect("added tokens stay in the vocabulary"));
        }
        // In the order they were added (a file's order when read): of two
        // tokens that match the same text, the first one added wins, as in
        // Hugging Face's added vocabulary.
        let id = |t: &String| self.vocab.id(t).expect("checked above");
        let added: FxHashSet<&str> = self.added.iter().map(|a| a.content.as_str()).collect();
        self.special_tokens.retain(|t| !added.contains(t.as_str()));
        self.special_tokens.extend(self.added.iter().filter(|a| a.special).map(|a| a.content.clone()));
        let plain = self.special_tokens.iter().filter(|t| !self.added.iter().any(|a| &a.content == *t));
        let plain = plain.map(|t| (t.clone(), id(t), Default::default()));
        let raw = self.added.iter().filter(|a| !a.normalized).map(|a| (a.content.clone(), id(&a.content), a.flags()));
        self.matcher = SpecialTokenMatcher::with_flags(plain.chain(raw).collect::<Vec<_>>());
        let normalized: Vec<_> = self
            .added
            .iter()
            .filter(|a| a.normalized)
            .map(|a| (self.options.normalizer.normalize(&a.content), id(&a.content), a.flags()))
            .collect();
        let once_normalized = self.history.normalized.iter().map(|t| (self.options.normalizer.normalize(t), id(t)));
        self.decoded_as = normalized
            .iter()
            .map(|(n, id, _)| (n.clone(), *id))
            .chain(once_normalized)
            .filter(|(n, id)| self.vocab.token(*id) != Some(n.as_str()))
            .map(|(n, id)| (id, n))
            .collect();
        self.normalized_matcher = (!normalized.is_empty()).then(|| SpecialTokenMatcher::with_flags(normalized));
        Ok(self)
    }

    /// Hugging Face's `add_tokens` / `add_special_tokens`: this tokenizer
    /// with `tokens` added, and how many of them count as added (all but the
    /// empty ones and those already added with the same flags). A token
    /// the vocabulary lacks gets the next id, outside the model; one it has
    /// keeps its id. A token added again takes the new flags; if it was
    /// special it stays special for decoding and `split_special_tokens`,
    /// and if it was `normalized` it is still decoded in its normalized
    /// form (Hugging Face's added vocabulary forgets neither).
    pub fn add_tokens(&self, tokens: &[AddedToken]) -> Result<(Self, usize)> {
        let mut history = self.history.clone();
        let mut added = self.added.clone();
        let mut plain = self.plain_special_tokens();
        let mut appended: Vec<String> = Vec::new();
        let mut count = 0;
        for t in tokens {
            if t.content.is_empty() {
                continue;
            }
            let at = added.iter().position(|a| a.content == t.content);
            let current = match at {
                Some(i) => Some(added[i].clone()),
                None => plain.contains(&t.content).then(|| AddedToken {
                    content: t.content.clone(),
                    special: true,
                    ..AddedToken::default()
                }),
            };
            if current.as_ref() == Some(t) {
                continue;
            }
            count += 1;
            if self.vocab.id(&t.content).is_none() && !appended.contains(&t.content) {
                appended.push(t.content.clone());
            }
            if let Some(c) = current {
                if c.special && !history.specials.contains(&c.content) {
                    history.specials.push(c.content.clone());
                }
                if c.normalized && !history.normalized.contains(&c.content) {
                    history.normalized.push(c.content);
                }
            }
            let t = t.clone();
            match at {
                Some(i) => added[i] = t,
                None => {
                    plain.retain(|p| *p != t.content);
                    added.push(t);
                }
            }
        }
        if count == 0 {
            return Ok((self.clone(), 0));
        }
        let vocab = if appended.is_empty() { self.vocab.clone() } else { self.vocab.with_appended(&appended)? };
        let tokenizer = Tokenizer::new(vocab, self.merges.clone(), &plain, self.options.clone())?
            .with_defaults(self.truncation, self.padding)?
            .with_objective(self.objective)
            .with_history(history)
            .with_added_tokens(added)?;
        tokenizer.set_word_cache(self.word_cache());
        Ok((tokenizer, count))
    }

    /// This tokenizer with other pipeline options: the same vocabulary,
    /// special and added tokens (normalized ones matched by what the new
    /// normalizer makes of them), default truncation and padding.
    pub fn with_options(&self, options: Options) -> Result<Self> {
        let tokenizer = Tokenizer::new(self.vocab.clone(), self.merges.clone(), &self.plain_special_tokens(), options)?
            .with_defaults(self.truncation, self.padding)?
            .with_objective(self.objective)
            .with_history(self.history.clone())
            .with_added_tokens(self.added.clone())?;
        tokenizer.set_word_cache(self.word_cache());
        Ok(tokenizer)
    }

    fn with_history(mut self, history: History) -> Self {
        self.history = history;
        self
    }

    /// The added tokens other than the special tokens given to `new`.
    pub fn added_tokens(&self) -> &[AddedToken] {
        &self.added
    }

    /// The special tokens given to `new` that are in the vocabulary (those
    /// of `special_tokens` that are not added tokens).
    pub fn plain_special_tokens(&self) -> Vec<String> {
        self.special_tokens.iter().filter(|t| !self.added.iter().any(|a| &a.content == *t)).cloned().collect()
    }

    /// Whether chunks of text already encoded (the bytes between two
    /// whitespace bytes) are taken from the calling thread's chunk cache
    /// (see `chunk_cache`). The output is the same either way.
    pub fn word_cache(&self) -> bool {
        self.cache.enabled()
    }

    /// Turns the chunk cache on or off, for every holder of this tokenizer.
    pub fn set_word_cache(&self, on: bool) {
        self.cache.set_enabled(on);
    }

    /// The default truncation (see [`Self::with_defaults`]).
    pub fn truncation(&self) -> Option<Truncation> {
        self.truncation
    }

    /// The default padding (see [`Self::with_defaults`]).
    pub fn padding(&self) -> Option<Padding> {
        self.padding
    }

    /// `options`, with the default truncation and padding where it has none.
    pub fn defaults_for(&self, options: EncodeOptions) -> EncodeOptions {
        EncodeOptions {
            truncation: options.truncation.or(self.truncation),
            padding: options.padding.or(self.padding),
            ..options
        }
    }

    /// A copy of this tokenizer whose special tokens written in the text are
    /// plain text (`on`) or matched (transformers' per-call
    /// `split_special_tokens`). Its chunk cache is its own, as any clone's.
    pub fn with_split_special_tokens(&self, on: bool) -> Self {
        let mut copy = self.clone();
        copy.options.split_special_tokens = on;
        copy
    }

    /// The same tokenizer, recorded as trained with `objective`.
    pub fn with_objective(mut self, objective: Option<Objective>) -> Self {
        self.objective = objective;
        self
    }

    pub fn objective(&self) -> Option<Objective> {
        self.objective
    }

    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn special_tokens(&self) -> &[String] {
        &self.special_tokens
    }

    pub fn merges(&self) -> &[(String, String)] {
        &self.merges
    }

    /// The post-processor's template, and whether its special tokens are
    /// added (`add_special_tokens`); an error if BERT's `[CLS]` or `[SEP]`
    /// is not in the vocabulary and they should be.
    pub(crate) fn post_processor(&self, add_special_tokens: bool) -> Result<(&PostProcessor, bool)> {
        if add_special_tokens && self.missing_specials {
            return Err(Error::MissingSpecialTokens {
                cls_token: self.options.cls_token.clone(),
                sep_token: self.options.sep_token.clone(),
            });
        }
        Ok((&self.post_processor, add_special_tokens))
    }

    /// BERT's `[CLS]` or `[SEP]` (the `cls_token` or `sep_token` option)
    /// when BERT's post-processing adds it and the vocabulary lacks it.
    pub fn missing_special_token(&self) -> Option<&str> {
        let missing = |t: &String| self.vocab.id(t).is_none();
        let (cls, sep) = (&self.options.cls_token, &self.options.sep_token);
        self.missing_specials.then(|| if missing(cls) { cls.as_str() } else { sep.as_str() })
    }

    /// The number of special tokens post-processing adds to one text or a
    /// pair (Hugging Face's `num_special_tokens_to_add`; 0 when BERT's
    /// `[CLS]` or `[SEP]` is missing).
    pub fn added_tokens_count(&self, pair: bool) -> usize {
        if self.missing_specials {
            0
        } else {
            self.post_processor.added(pair)
        }
    }

    /// Encodes `text`, or the pair (`text`, `pair`).
    pub fn encode(&self, text: &str, pair: Option<&str>, add_special_tokens: bool) -> Result<Encoding> {
        self.encode_sequences(Sequence::Text(text), pair.map(Sequence::Text), add_special_tokens)
    }

    /// Encodes `text`, or the pair (`text`, `pair`), each as written or
    /// split into words.
    pub fn encode_sequences(
        &self,
        text: Sequence<'_>,
        pair: Option<Sequence<'_>>,
        add_special_tokens: bool,
    ) -> Result<Encoding> {
        self.with_encoded(text, pair, add_special_tokens, |scratch| {
            let mut encoding = scratch.to_encoding()?;
            encoding.set_pair(pair.is_some());
            Ok(encoding)
        })
    }

    /// [`Self::encode_sequences`], giving `f` the tokens where they were
    /// assembled (the thread's scratch) instead of an encoding.
    pub(crate) fn with_encoded<R>(
        &self,
        text: Sequence<'_>,
        pair: Option<Sequence<'_>>,
        add_special_tokens: bool,
        f: impl FnOnce(&Scratch) -> Result<R>,
    ) -> Result<R> {
        self.with_encoded_as(text, pair, add_special_tokens, false, f)
    }

    /// [`Self::with_encoded`], the scratch keeping only the ids when
    /// `ids_only` (see `Scratch::set_ids_only`): the same ids, faster.
    /// `Error::Memory` when the tokens do not fit in memory (or what `f`
    /// makes of them does not), the thread's scratch then let go.
    pub(crate) fn with_encoded_as<R>(
        &self,
        text: Sequence<'_>,
        pair: Option<Sequence<'_>>,
        add_special_tokens: bool,
        ids_only: bool,
        f: impl FnOnce(&Scratch) -> Result<R>,
    ) -> Result<R> {
        let (processor, specials) = self.post_processor(add_special_tokens)?;
        BUFFERS.with(|buffers| {
            let (ws, scratch) = &mut *buffers.borrow_mut();
            scratch.set_ids_only(ids_only);
            processor.fill(specials, pair.is_some(), scratch, |out, k| {
                self.encode_sequence(if k == 0 { Some(text) } else { pair }, ws, out)
            });
            let result = scratch.check().and_then(|()| f(scratch));
            if let Err(Error::Memory(_)) = result {
                *scratch = Scratch::default();
            }
            result
        })
    }

    /// Encodes each input, a text and its pair if any (post-processed as
    /// `add_special_tokens` says, not truncated), for its ids alone: appends
    /// them to `ids`, row after row, and each row's number of tokens to
    /// `lengths`. The same ids as [`Self::with_encoded_as`] with `ids_only`,
    /// written where they go.
    pub(crate) fn encode_ids_rows<'s>(
        &self,
        inputs: impl IntoIterator<Item = (Sequence<'s>, Option<Sequence<'s>>)>,
        add_special_tokens: bool,
        ids: &mut Vec<u32>,
        lengths: &mut Vec<u32>,
    ) -> Result<()> {
        let (processor, specials) = self.post_processor(add_special_tokens)?;
        BUFFERS.with(|buffers| {
            let (ws, scratch) = &mut *buffers.borrow_mut();
            scratch.begin_rows(std::mem::take(ids));
            for (text, pair) in inputs {
                processor.fill(specials, pair.is_some(), scratch, |out, k| {
                    self.encode_sequence(if k == 0 { Some(text) } else { pair }, ws, out)
                });
                if scratch.failed() {
                    break;
                }
                lengths.push(scratch.next_row() as u32);
            }
            let failed = scratch.check();
            *ids = scratch.end_rows();
            if failed.is_err() {
                *ids = Vec::new();
                *scratch = Scratch::default();
            }
            failed
        })
    }

    /// Appends the tokens of one sequence of an input (if any) to `out`.
    #[inline]
    fn encode_sequence(&self, sequence: Option<Sequence<'_>>, ws: &mut Workspace, out: &mut Scratch) {
        match sequence {
            Some(Sequence::Text(t)) => self.encode_text_into(t, ws, out),
            Some(Sequence::Words(words)) => {
                for (i, word) in words.iter().enumerate() {
                    let mark = out.mark();
                    self.encode_text_into(word, ws, out);
                    out.make_word_since(mark, i as u32);
                }
            }
            None => {}
        }
    }

    /// Appends the ids and offsets of one text's tokens to `out`
    /// (post-processing fills in the masks).
    fn encode_text_into(&self, text: &str, ws: &mut Workspace, out: &mut Scratch) {
        // `done`: the end of the last kept match (`chars` characters in);
        // `pos`: where to look next.
        let (mut pos, mut done, mut chars) = (0usize, 0usize, 0u32);
        while let Some(m) = self.matcher.next_kept(text, &mut pos, done, |id| self.is_split(id)) {
            if done <= m.start {
                let segment = &text[done..m.start];
                self.encode_segment(segment, chars, ws, out);
                chars += segment.chars().count() as u32;
            } else {
                // It starts in the whitespace the last one took (`rstrip`).
                chars -= text[m.start..done].chars().count() as u32;
            }
            let matched = &text[m.start..m.end];
            let len = matched.chars().count() as u32;
            self.push_added(out, m.id, (chars, chars + len), matched);
            out.end_word();
            chars += len;
            done = m.end;
        }
        self.encode_segment(&text[done..], chars, ws, out);
    }

    /// Normalizes, pre-tokenizes and WordPiece-encodes text that holds no
    /// special token; `base` is its character offset in the original text.
    fn encode_segment(&self, segment: &str, base: u32, ws: &mut Workspace, out: &mut Scratch) {
        if self.uses_chunk_cache() {
            if out.ids_only() {
                self.encode_chunk_ids(segment, ws, out);
            } else {
                self.encode_chunks(segment, base, ws, out);
            }
        } else {
            self.encode_uncached(segment, base, &mut ws.text, out);
        }
    }

    /// Whether text is encoded through the thread's chunk cache: when it is
    /// on and no added token is to be matched in normalized text (such text
    /// is normalized whole, not chunk by chunk).
    fn uses_chunk_cache(&self) -> bool {
        self.cache.enabled() && self.normalized_matcher.is_none()
    }

    /// `encode_segment` chunk by chunk (see `chunk_cache`), each taken from
    /// the thread's cache or encoded and cached.
    fn encode_chunks(&self, segment: &str, base: u32, ws: &mut Workspace, out: &mut Scratch) {
        /// Chunks looked up together: their slots are read in parallel.
        const AHEAD: usize = 64;
        chunk_cache::with(self.cache.owner(), |cache| {
            let bytes = segment.as_bytes();
            let mut chunks = chunk_cache::Chunks::new(bytes);
            let mut batch = std::mem::take(&mut ws.chunks);
            // `done`: the end of the last chunk encoded, at character `chars`.
            let (mut done, mut chars) = (0usize, base);
            loop {
                batch.clear();
                for (start, end) in chunks.by_ref().take(AHEAD) {
                    let key = chunk_cache::Key::new(bytes, start, end);
                    cache.prefetch(&key);
                    batch.push(key);
                }
                for key in &batch {
                    // Separators are ASCII: one character each, and the
                    // chunks' ends are characters' ends.
                    chars += (key.start() - done) as u32;
                    chars += match cache.replay(bytes, key, chars, out) {
                        Some(n) => n,
                        None => self.encode_missed(cache, &segment[key.start()..key.end()], key, chars, ws, out),
                    };
                    done = key.end();
                }
                if batch.len() < AHEAD {
                    ws.chunks = batch;
                    return;
                }
            }
        })
    }

    /// `encode_chunks` for a scratch that keeps ids only: no offsets, so
    /// no characters to count. A chunk of at most `chunk_cache::SHORT_KEY`
    /// bytes (nearly every one) is looked up by its short key alone, and
    /// the ids of a batch of such chunks gather in a buffer on the stack,
    /// appended at once; a chunk missing is encoded in full, to be cached
    /// for every caller.
    fn encode_chunk_ids(&self, segment: &str, ws: &mut Workspace, out: &mut Scratch) {
        /// Chunks looked up together: their slots are read in parallel.
        const AHEAD: usize = 64;
        chunk_cache::with(self.cache.owner(), |cache| {
            let bytes = segment.as_bytes();
            let mut chunks = chunk_cache::Chunks::new(bytes);
            let mut ahead = std::mem::take(&mut ws.ahead);
            ahead.resize(AHEAD, Ahead::default());
            // The ids of the short chunks found, not yet appended.
            let mut found = [0u32; 4 * AHEAD];
            const { assert!(chunk_cache::SHORT_KEY <= 4 * AHEAD && chunk_cache::SHORT_TOKENS <= 4 * AHEAD) };
            loop {
                let batch = &mut ahead[..AHEAD];
                let mut n = 0;
                let mut table = cache.short_table();
                while n < AHEAD {
                    let Some((start, end)) = chunks.next() else { break };
                    let (mut key, mut hash) = (0, 0);
                    if end - start <= chunk_cache::SHORT_KEY {
                        key = chunk_cache::short_key(bytes, start, end);
                        hash = chunk_cache::short_hash(key);
                        table.prefetch(hash);
                    }
                    batch[n] = Ahead { key, hash, start, end };
                    n += 1;
                }
                let mut k = 0;
                for a in &batch[..n] {
                    if a.key != 0 {
                        match table.ids_into(a.key, a.hash, &mut found, &mut k) {
                            chunk_cache::Looked::Written => continue,
                            chunk_cache::Looked::NoRoom => {
                                out.extend_ids_from(&found[..k]);
                                k = 0;
                                // A short chunk (at most `SHORT_KEY` bytes, a
                                // token per byte at most) fits in the emptied
                                // buffer: the retry writes it. Were it not to,
                                // the full lookup below would still be right.
                                let again = table.ids_into(a.key, a.hash, &mut found, &mut k);
                                debug_assert_eq!(again, chunk_cache::Looked::Written);
                                if again == chunk_cache::Looked::Written {
                                    continue;
                                }
                            }
                            chunk_cache::Looked::Missing => {}
                        }
                    }
                    // Not cached (`ids_into` reads the short table in full).
                    out.extend_ids_from(&found[..k]);
                    k = 0;
                    let key = if a.key != 0 {
                        // The short key and hash at hand: `Key::new` of the chunk.
                        chunk_cache::Key::from_short(a.key, a.hash, a.start, a.end)
                    } else {
                        let key = chunk_cache::Key::new(bytes, a.start, a.end);
                        if cache.replay_ids(bytes, &key, out) {
                            continue;
                        }
                        key
                    };
                    self.encode_missed_ids(cache, &segment[a.start..a.end], &key, ws, out);
                    // The insert may have grown the table.
                    table = cache.short_table();
                }
                out.extend_ids_from(&found[..k]);
                if n < AHEAD {
                    ws.ahead = ahead;
                    return;
                }
            }
        })
    }

    /// Encodes `chunk`, missing from the cache (its key `key`), from
    /// character `chars` into `out`, caches it, and gives its characters.
    /// Inlined: measured fewer instructions for hits and misses than out of
    /// line (unlike `encode_missed_ids`).
    #[inline]
    fn encode_missed(
        &self,
        cache: &mut ChunkCache,
        chunk: &str,
        key: &chunk_cache::Key,
        chars: u32,
        ws: &mut Workspace,
        out: &mut Scratch,
    ) -> u32 {
        let mark = out.mark();
        let n = self.encode_chunk(chunk, chars, &mut ws.text, out);
        // Not a chunk whose tokens were dropped for want of room.
        if chunk.len() <= chunk_cache::MAX_CHUNK && !out.failed() {
            cache.insert(chunk.as_bytes(), key, n, chars, out, mark);
        }
        n
    }

    /// `encode_missed` for a scratch that keeps ids only: the chunk is
    /// encoded in full on the side (in place: not moved out of the
    /// workspace and back), cached, and its ids appended to `out`.
    #[inline(never)]
    fn encode_missed_ids(
        &self,
        cache: &mut ChunkCache,
        chunk: &str,
        key: &chunk_cache::Key,
        ws: &mut Workspace,
        out: &mut Scratch,
    ) {
        let side = &mut ws.side;
        side.start_after(out);
        let mark = side.mark();
        let n = self.encode_chunk(chunk, 0, &mut ws.text, side);
        if chunk.len() <= chunk_cache::MAX_CHUNK && !side.failed() {
            cache.insert(chunk.as_bytes(), key, n, 0, side, mark);
        }
        out.append_ids(side);
    }

    /// `encode_uncached` of a chunk missing from the cache (no separator in
    /// it, see `chunk_cache`), giving its characters: an ASCII one (nearly
    /// every one) is checked for being ASCII once and goes straight to the
    /// ASCII path, as `encode_uncached` would send it (the cache is used
    /// only without a normalized-text matcher); one that path gives up on
    /// (a byte the normalizer drops) goes to `encode_uncached`, which tries
    /// it once more, then takes the general path.
    #[inline]
    fn encode_chunk(&self, chunk: &str, base: u32, ws: &mut TextBuffers, out: &mut Scratch) -> u32 {
        debug_assert!(self.normalized_matcher.is_none() && !chunk.is_empty());
        if chunk.is_ascii() {
            if !self.encode_ascii_segment(chunk, base, ws, out) {
                self.encode_uncached(chunk, base, ws, out);
            }
            return chunk.len() as u32;
        }
        self.encode_uncached(chunk, base, ws, out);
        chunk.chars().count() as u32
    }

    /// `encode_segment` without the chunk cache.
    fn encode_uncached(&self, segment: &str, base: u32, ws: &mut TextBuffers, out: &mut Scratch) {
        if segment.is_empty()
            || self.normalized_matcher.is_none()
                && segment.is_ascii()
                && self.encode_ascii_segment(segment, base, ws, out)
        {
            return;
        }
        let TextBuffers { normalized, pieces, .. } = ws;
        if self.options.normalizer.try_normalize_into(segment, normalized).is_err() {
            out.fail_normalizing(segment.len());
            return;
        }
        let text = normalized.text.as_str();
        let Some(matcher) = &self.normalized_matcher else {
            self.encode_words(normalized, (0, text.len()), 0, base, pieces, out);
            return;
        };
        // Added tokens matched in the normalized text, the rest between them.
        let (mut pos, mut done, mut chars) = (0usize, 0usize, 0usize);
        while let Some(m) = matcher.next_kept(text, &mut pos, done, |id| self.is_split(id)) {
            if done <= m.start {
                self.encode_words(normalized, (done, m.start), chars, base, pieces, out);
                chars += text[done..m.start].chars().count();
            } else {
                // It starts in the whitespace the last one took (`rstrip`).
                chars -= text[m.start..done].chars().count();
            }
            let len = text[m.start..m.end].chars().count();
            let (first, last) = (normalized.origin(chars), normalized.origin(chars + len - 1));
            self.push_added(out, m.id, (base + first, base + last + 1), &text[m.start..m.end]);
            out.end_word();
            chars += len;
            done = m.end;
        }
        self.encode_words(normalized, (done, text.len()), chars, base, pieces, out);
    }

    /// Appends added token `id` matched as `matched` (with the whitespace
    /// it strips, in the text it was matched in): Hugging Face shows that
    /// text as the token.
    #[inline]
    fn push_added(&self, out: &mut Scratch, id: u32, offsets: (u32, u32), matched: &str) {
        if self.vocab.token(id) == Some(matched) {
            out.push(id, offsets);
        } else {
            out.push_shown(id, offsets, matched);
        }
    }

    /// Whether a match of added token `id` is passed over as plain text
    /// (a special token, with `split_special_tokens`). As in Hugging Face,
    /// the search goes on after the match, so no shorter token inside it
    /// is found.
    #[inline]
    fn is_split(&self, id: u32) -> bool {
        self.options.split_special_tokens && self.special_ids.contains(&id)
    }

    /// Pre-tokenizes and WordPiece-encodes the normalized text's bytes
    /// `range`, which starts at normalized character `chars`.
    fn encode_words(
        &self,
        normalized: &Normalized,
        range: (usize, usize),
        chars: usize,
        base: u32,
        pieces: &mut Vec<Piece>,
        out: &mut Scratch,
    ) {
        let text = &normalized.text[range.0..range.1];
        self.options.pre_tokenizer.split(text, |word| {
            pieces.clear();
            let w = &text[word.bytes.0..word.bytes.1];
            self.model.tokenize(&self.vocab, w, pieces);
            for p in pieces.iter() {
                let first = normalized.origin(chars + word.chars.0 + p.start as usize);
                let last = normalized.origin(chars + word.chars.0 + p.end as usize - 1);
                out.push(p.id, (base + first, base + last + 1));
            }
            out.end_word();
        });
    }

    /// `encode_segment` for ASCII text, normalized and split in one pass with
    /// character offsets equal to byte offsets. Returns false, adding nothing,
    /// when the text needs the general path (a byte that normalization drops).
    fn encode_ascii_segment(&self, segment: &str, base: u32, ws: &mut TextBuffers, out: &mut Scratch) -> bool {
        let mark = out.mark();
        let TextBuffers { pieces, ascii, .. } = ws;
        let whole = self.ascii.split(segment, ascii, |bytes, start, end| {
            let at = base + start as u32;
            // The key is read from the padded buffer in one load.
            let key = word_cache::key_in(bytes, start, end);
            let len = end - start;
            if let Some(id) = key.and_then(|key| self.model.whole_ascii_word(&self.vocab, key, len)) {
                out.push(id, (at, at + len as u32));
                out.end_word();
                return;
            }
            pieces.clear();
            self.model.tokenize_ascii(&self.vocab, &bytes[start..end], pieces);
            for p in pieces.iter() {
                out.push(p.id, (at + p.start, at + p.end));
            }
            out.end_word();
        });
        if !whole {
            out.rewind(mark);
        }
        whole
    }

    /// The token of `id` as Hugging Face's `id_to_token` gives it (and
    /// `decode` reads it): an added token the normalizer changes in its
    /// normalized form, else the vocabulary's token; None past the vocabulary.
    pub fn id_to_token(&self, id: u32) -> Option<&str> {
        self.decoded_as.get(&id).map(String::as_str).or_else(|| self.vocab.token(id))
    }

    /// The token an encoding shows for `id`: the template's for an id it
    /// adds that no token has (see `unassigned`), else the vocabulary's.
    pub fn shown_token<'a>(&'a self, id: u32, vocab_token: &'a str) -> &'a str {
        if self.unassigned.is_empty() {
            return vocab_token;
        }
        self.unassigned.get(&id).map_or(vocab_token, String::as_str)
    }

    /// Whether `id` is one the template adds that no token has (see `unassigned`).
    pub fn is_unassigned(&self, id: u32) -> bool {
        !self.unassigned.is_empty() && self.unassigned.contains_key(&id)
    }

    /// Turns ids back into text. Ids outside the vocabulary are an error,
    /// but for the template's ids that no token has, which are left out (as
    /// Hugging Face does). `Error::Memory` when there is no room for the text.
    pub fn decode(&self, ids: &[u32], skip_special_tokens: bool) -> Result<String> {
        let mut tokens = Vec::new();
        if tokens.try_reserve_exact(ids.len()).is_err() {
            return Err(Error::memory(format_args!("decoding {} ids", ids.len())));
        }
        for &id in ids {
            let Some(token) = self.vocab.token(id) else {
                if self.is_unassigned(id) {
                    continue;
                }
                return Err(Error::invalid(no_token_message(id, self.vocab.len())));
            };
            // A special token shown in its normalized form is not skipped
            // (Hugging Face looks the shown string up among the special ones).
            match self.decoded_as.get(&id) {
                Some(shown) => tokens.push(shown.as_str()),
                None if skip_special_tokens && self.special_ids.contains(&id) => {}
                None => tokens.push(token),
            }
        }
        decoder::try_join(&tokens, self.options.joining())
    }
}

/// Why `id` has no token in a vocabulary of ids `0..len`: past its end,
/// or in a hole (a file whose ids skip some, which Hugging Face keeps).
pub fn no_token_message(id: u32, len: usize) -> String {
    if (id as usize) < len {
        format!("id {id} is not in the vocabulary: no token has it (the vocabulary's {len} ids skip it)")
    } else {
        format!("id {id} is out of range for a vocabulary of {len} tokens")
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::options::DEFAULT_SPECIAL_TOKENS;

    fn tokenizer(tokens: &[&str]) -> Tokenizer {
        let vocab = Vocab::new(tokens.iter().map(|t| t.to_string()).collect()).unwrap();
        let specials: Vec<String> = DEFAULT_SPECIAL_TOKENS.iter().map(|t| t.to_string()).collect();
        Tokenizer::new(vocab, vec![], &specials, Options::default()).unwrap()
    }

    const VOCAB: [&str; 12] =
        ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "!", "##s", "h", "##e", "##llo"];

    #[test]
    fn encodes_like_bert() {
        let t = tokenizer(&VOCAB);
        let e = t.encode("Hello, WORLDS!", None, true).unwrap();
        assert_eq!(e.ids(), [2, 5, 1, 6, 8, 7, 3]);
        assert_eq!(e.offsets(), [(0, 0), (0, 5), (5, 6), (7, 12), (12, 13), (13, 14), (0, 0)]);
        assert_eq!(e.special_tokens_mask(), [1, 0, 0, 0, 0, 0, 1]);
    }

    #[test]
    fn literal_special_tokens_survive_with_their_span() {
        let t = tokenizer(&VOCAB);
        let e = t.encode("héllo[SEP]world", None, false).unwrap();
        assert_eq!(e.ids(), [5, 3, 6]);
        assert_eq!(e.offsets(), [(0, 5), (5, 10), (10, 15)]);
        assert_eq!(e.special_tokens_mask(), [0, 0, 0]);
    }

    #[test]
    fn the_chunk_cache_gives_what_encoding_gives() {
        let on = tokenizer(&VOCAB);
        assert!(on.word_cache(), "on by default");
        let off = on.clone();
        off.set_word_cache(false);
        assert_ne!(on.cache.owner(), off.cache.owner(), "a clone has its own cached chunks");
        // Enough distinct chunks to grow the table several times, chunks
        // longer than a slot's key, and chunks of more tokens than it holds.
        let many: String = (0..20_000).map(|i| format!("h{i}e hello{} ", "s".repeat(i % 40))).collect();
        let long = "hellohellohellohellohellohellohello! hello,world!hello,world!hello,world!hello,world!";
        let mut texts =
            vec!["Hello, WORLDS!  hello\tworld\n", "héllo[SEP]world hello\x0bworld", "中hello 中 \u{301}x", ""];
        texts.extend([many.as_str(), long]);
        for _ in 0..2 {
            for t in texts.iter().copied() {
                for pair in [None, Some("hello hello")] {
                    assert_eq!(on.encode(t, pair, true).unwrap(), off.encode(t, pair, true).unwrap(), "{t:?}");
                }
            }
        }
    }

    #[test]
    fn ids_only_gives_the_ids_of_every_column_with_the_cache_shared() {
        let many: String = (0..3_000).map(|i| format!("h{i}e hello{} ", "s".repeat(i % 40))).collect();
        let long = "hellohellohellohellohellohellohello! hello,world!hello,world!hello,world!hello,world!";
        let texts = ["Hello, WORLDS!  hello\tworld\n", "héllo[SEP]world hello\x0bworld", "中hello 中 \u{301}x", ""];
        let texts: Vec<&str> = texts.into_iter().chain([many.as_str(), long]).collect();
        let ids = |t: &Tokenizer, text: &str, pair: Option<&str>, ids_only: bool| {
            let (text, pair) = (Sequence::Text(text), pair.map(Sequence::Text));
            t.with_encoded_as(text, pair, true, ids_only, |s| Ok((s.ids().to_vec(), s.offsets().len()))).unwrap()
        };
        let off = tokenizer(&VOCAB);
        off.set_word_cache(false);
        // Each order of modes on a cache of its own, and without the cache.
        for (cache, ids_first) in [(true, true), (true, false), (false, true)] {
            let t = tokenizer(&VOCAB);
            t.set_word_cache(cache);
            for _ in 0..2 {
                for &text in &texts {
                    for pair in [None, Some("hello hello")] {
                        let expected = off.encode(text, pair, true).unwrap();
                        let full = || {
                            let (got, n) = ids(&t, text, pair, false);
                            assert_eq!((got.as_slice(), n), (expected.ids(), expected.len()), "{text:?}");
                            assert_eq!(t.encode(text, pair, true).unwrap(), expected, "{text:?}");
                        };
                        if !ids_first {
                            full();
                        }
                        let (got, n) = ids(&t, text, pair, true);
                        assert_eq!((got.as_slice(), n), (expected.ids(), 0), "{text:?}");
                        // As rows after other rows, written in place.
                        let (mut rows, mut lengths) = (vec![1, 2], vec![]);
                        let input =
                            [(text, pair), ("hello", None)].map(|(t, p)| (Sequence::Text(t), p.map(Sequence::Text)));
                        t.encode_ids_rows(input, true, &mut rows, &mut lengths).unwrap();
                        let hello = off.encode("hello", None, true).unwrap();
                        let all = [&[1, 2], expected.ids(), hello.ids()].concat();
                        assert_eq!((rows, lengths), (all, vec![expected.len() as u32, hello.len() as u32]));
                        full();
                    }
                }
            }
        }
    }

    #[test]
    fn decode_skips_special_tokens_and_rejects_unknown_ids() {
        let t = tokenizer(&VOCAB);
        assert_eq!(t.decode(&[2, 9, 10, 11, 6, 8, 7, 3], true).unwrap(), "hello worlds!");
        assert!(t.decode(&[99], false).unwrap_err().to_string().contains("out of range"));
    }

    /// One edit of a tokenizer file: delete, insert or replace the character
    /// at a position (taken modulo the length) with one that JSON cares about.
    fn edits() -> impl proptest::strategy::Strategy<Value = Vec<(u8, usize, char)>> {
        use proptest::prelude::*;
        let pieces: Vec<char> = "{}[]\",:0123456789e.\\u\u{301}a ".chars().collect();
        proptest::collection::vec((0u8..3, any::<usize>(), proptest::sample::select(pieces)), 1..4)
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(1500))]

        #[test]
        fn mutated_tokenizer_files_load_or_fail_never_panic(edits in edits()) {
            let mut text: Vec<char> = tokenizer(&VOCAB).to_json().chars().collect();
            for (kind, at, piece) in edits {
                let at = at % text.len();
                match kind {
                    0 => {
                        text.remove(at);
                    }
                    1 => text.insert(at, piece),
                    _ => text[at] = piece,
                }
            }
            let text: String = text.into_iter().collect();
            if let Ok(t) = Tokenizer::from_json(&text) {
                t.encode("hello worlds", Some("h"), false).unwrap();
            }
        }
    }

    /// Sizes from the smallest to beyond any memory.
    const SIZES: [usize; 9] = [0, 1, 2, 3, 5, 8, 13, usize::MAX / 2, usize::MAX];

    fn encode_options() -> impl proptest::strategy::Strategy<Value = crate::tokenizer::options::EncodeOptions> {
        use crate::encoding::Side;
        use crate::pipeline::padding::{PadTo, Padding};
        use crate::pipeline::truncation::{Strategy as Cut, Truncation};
        use crate::tokenizer::options::EncodeOptions;
        use proptest::prelude::*;
        use proptest::sample::select;
        use std::num::NonZeroUsize;

        let side = || select(vec![Side::Left, Side::Right]);
        let truncation = proptest::option::weighted(
            0.75,
            (
                select(SIZES.to_vec()),
                select(vec![Cut::LongestFirst, Cut::OnlyFirst, Cut::OnlySecond]),
                select(SIZES[..5].to_vec()),
                side(),
            )
                .prop_map(|(max_length, strategy, stride, side)| Truncation {
                    max_length,
                    strategy,
                    stride,
                    side,
                }),
        );
        let to = prop_oneof![Just(PadTo::Longest), select(SIZES.to_vec()).prop_map(PadTo::Fixed)];
        let padding =
            proptest::option::of((to, select(SIZES.to_vec()), side()).prop_map(|(to, multiple, side)| Padding {
                to,
                multiple_of: NonZeroUsize::new(multiple),
                side,
            }));
        (any::<bool>(), truncation, padding).prop_map(|(add_special_tokens, truncation, padding)| EncodeOptions {
            add_special_tokens,
            truncation,
            padding,
            num_threads: Some(1),
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(3000))]

        #[test]
        fn random_option_combinations_encode_or_fail_never_panic(
            options in encode_options(),
            a in proptest::sample::select(vec!["", "hello", "hello world! worlds hello", "h e l l o ! ! ! ! worlds"]),
            b in proptest::option::of(proptest::sample::select(vec!["", "hello", "hello world! worlds hello"])),
        ) {
            use crate::pipeline::padding::{PadTo, Padding};
            let t = tokenizer(&VOCAB);
            let one = t.encode_with(a, b, &options);
            let batch = t.encode_batch_with(&[(a, b), (b.unwrap_or("h"), None)], &options);
            if let (Ok(one), Ok(batch)) = (&one, &batch) {
                let longest = matches!(options.padding, Some(Padding { to: PadTo::Longest, .. }));
                proptest::prop_assert!(!longest || batch.iter().all(|e| e.len() == batch[0].len()));
                proptest::prop_assert!(one.len() <= 64 && batch[0].len() <= 64, "only the small sizes succeed");
            }
        }
    }

    #[test]
    fn added_tokens_are_matched_in_the_raw_or_the_normalized_text() {
        let added =
            |content: &str, normalized| AddedToken { content: content.into(), normalized, ..Default::default() };
        let t = tokenizer(&VOCAB).with_added_tokens(vec![added("world", true), added("!", false)]).unwrap();
        let e = t.encode("Hello, WORLDS!", None, false).unwrap();
        // "world" is found in the normalized text, so the "s" after it starts a word.
        assert_eq!(e.ids(), [5, 1, 6, 1, 7]);
        assert_eq!(e.offsets(), [(0, 5), (5, 6), (7, 12), (12, 13), (13, 14)]);
        let err = tokenizer(&VOCAB).with_added_tokens(vec![added("xyz", true)]).unwrap_err().to_string();
        assert!(err.contains("not in the vocabulary"), "{err}");
    }

    #[test]
    fn added_tokens_strip_whitespace_and_match_single_words() {
        let flagged = |content: &str, single_word, lstrip, rstrip| AddedToken {
            content: content.into(),
            single_word,
            lstrip,
            rstrip,
            ..Default::default()
        };
        let (t, n) = tokenizer(&VOCAB).add_tokens(&[flagged("<x>", false, true, true)]).unwrap();
        assert_eq!(n, 1);
        assert_eq!(t.vocab().id("<x>"), Some(VOCAB.len() as u32));
        let e = t.encode("hello  <x> world", None, false).unwrap();
        assert_eq!(e.ids(), [5, 12, 6]);
        assert_eq!(e.offsets(), [(0, 5), (5, 11), (11, 16)]);
        let (t, _) = tokenizer(&VOCAB).add_tokens(&[flagged("hello", true, false, false)]).unwrap();
        // Inside "xhello" the token is passed over; alone it is kept.
        let e = t.encode("xhello hello", None, false).unwrap();
        assert_eq!(e.ids(), [1, 5]);
        assert_eq!(e.offsets(), [(0, 6), (7, 12)]);
        // Adding the same token again adds nothing.
        let (_, n) = t.add_tokens(&[flagged("hello", true, false, false)]).unwrap();
        assert_eq!(n, 0);
    }

    #[test]
    fn missing_unk_token_is_an_error() {
        let vocab = Vocab::new(vec!["a".into()]).unwrap();
        let err = Tokenizer::new(vocab, vec![], &[], Options::default()).unwrap_err();
        assert!(err.to_string().contains("unk_token \"[UNK]\" is not in the vocabulary"));
    }
}
