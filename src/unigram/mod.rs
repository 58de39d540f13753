//! Unigram, SentencePiece style: text is cut at spaces into words that each
//! begin with "▁" (Hugging Face's `Metaspace` pre-tokenizer), and each word is
//! segmented into the pieces of highest total log-probability (Viterbi).
//! Training (`trainer`) learns the pieces and their scores with EM over the
//! segmentation lattice, pruning by loss. `sample` draws segmentations for
//! subword regularization. docs/spec.md, "Unigram", states every rule.

pub mod encoded;
pub mod hf_json;
pub mod metaspace;
pub mod model;
pub mod normalizer;
pub mod pretrained;
pub mod sample;
pub mod template;
pub mod trainer;
pub mod trie;

use rayon::prelude::*;

use crate::error::{Error, Quoted, Result};
use crate::pipeline::special_split::{self, Flags, SpecialSplitter};
use crate::threads;
use crate::tokenizer::analysis::{Analysis, Partial};
pub use encoded::Encoded;
use metaspace::{segments, white_space_runs, words, PreTokenizer, Prepend, REPLACEMENT};
pub use model::Model;
use model::{BestPath, Piece};
use normalizer::{Aligned, Normalizer};

/// The default special tokens: SentencePiece's unknown, begin and end pieces.
pub const DEFAULT_SPECIAL_TOKENS: [&str; 3] = ["<unk>", "<s>", "</s>"];

/// A Unigram tokenizer: the model and its special tokens (pieces that are
/// split out of the text before pre-tokenization, like Hugging Face's added
/// special tokens).
#[derive(Clone, Debug)]
pub struct UnigramTokenizer {
    model: Model,
    /// The special pieces' ids, in the order given.
    special: Vec<u32>,
    /// The ids `decode` skips when asked: the special ones and, in a
    /// vocabulary that lists a special token's piece more than once, its
    /// other ids too (Hugging Face skips a token by its text).
    skipped: Vec<u32>,
    /// The special pieces' texts, longest first (ties by id), to match in text.
    specials: SpecialSplitter,
    /// The `normalized` ones among them, by their normalized form, matched
    /// in the normalized text between the others; None when there are none.
    normalized_specials: Option<SpecialSplitter>,
    /// What `id_to_token` and `decode` give for an added token that is
    /// `normalized` where the normalizer changes it (its normalized form, as
    /// Hugging Face's do). Not an encoding's token: a match shows its text,
    /// and a piece the model finds shows the piece (`shown`).
    decoded_as: Vec<(u32, String)>,
    /// The normalizer of a tokenizer.json converted from SentencePiece, if any.
    normalizer: Option<Normalizer>,
    /// When the `Metaspace` pre-tokenizer puts a "▁" before a text.
    prepend: Prepend,
    /// The pre-tokenizer's shape (with or without `WhitespaceSplit` first).
    pre_tokenizer: PreTokenizer,
    /// The `TemplateProcessing` post-processor of a loaded file, if any.
    template: Option<template::Template>,
}

impl UnigramTokenizer {
    /// A tokenizer of `pieces`; `unk_token` and each of `special_tokens` must
    /// be among them.
    pub fn new(pieces: Vec<(String, f64)>, unk_token: &str, special_tokens: &[String]) -> Result<Self> {
        let unk_id = pieces
            .iter()
            .position(|(p, _)| p == unk_token)
            .ok_or_else(|| Error::invalid(format!("unk_token {} is not one of the pieces", Quoted(unk_token))))?;
        let model = Model::new(pieces, unk_id as u32)?;
        let mut special = Vec::with_capacity(special_tokens.len());
        for t in special_tokens {
            let id = model
                .id(t)
                .ok_or_else(|| Error::invalid(format!("special token {} is not one of the pieces", Quoted(t))))?;
            if !special.contains(&id) {
                special.push(id);
            }
        }
        Self::with_model(model, special)
    }

    pub(crate) fn with_model(model: Model, special: Vec<u32>) -> Result<Self> {
        let texts = special.iter().map(|&id| (model.pieces()[id as usize].0.clone(), id)).collect();
        let mut skipped = special.clone();
        if model.has_duplicates() {
            let special_texts: std::collections::HashSet<&str> =
                special.iter().map(|&id| model.pieces()[id as usize].0.as_str()).collect();
            let pieces = model.pieces().iter().enumerate();
            let others =
                pieces.filter(|(id, (p, _))| special_texts.contains(p.as_str()) && !special.contains(&(*id as u32)));
            skipped.extend(others.map(|(id, _)| id as u32));
        }
        Ok(UnigramTokenizer {
            specials: SpecialSplitter::new(texts)?,
            normalized_specials: None,
            decoded_as: Vec::new(),
            model,
            special,
            skipped,
            normalizer: None,
            prepend: Prepend::Always,
            pre_tokenizer: PreTokenizer::Metaspace,
            template: None,
        })
    }

    /// The tokenizer with each added token's flags, in the order of
    /// `special_ids` (a file's added tokens), and whether each is special
    /// (one that is not is kept by `decode` with `skip_special_tokens`), as
    /// Hugging Face's added tokens have them.
    pub(crate) fn with_added_flags(mut self, flags: Vec<Flags>, special: &[bool]) -> Self {
        let tokens = self.specials.tokens().to_vec();
        self.specials = SpecialSplitter::with_flags(tokens, flags).expect("the same tokens");
        let plain: Vec<u32> = self.special.iter().zip(special).filter(|(_, s)| !**s).map(|(id, _)| *id).collect();
        let texts: Vec<&str> = plain.iter().map(|&id| self.model.pieces()[id as usize].0.as_str()).collect();
        let pieces = self.model.pieces();
        self.skipped.retain(|&id| !texts.contains(&pieces[id as usize].0.as_str()));
        self.refresh_normalized()
    }

    /// Each added token's flags, in the order of `special_ids`.
    pub fn added_flags(&self) -> Vec<Flags> {
        self.specials.flags()
    }

    /// Whether added token `id` is special (dropped by `decode` with
    /// `skip_special_tokens`).
    pub fn is_special(&self, id: u32) -> bool {
        self.skipped.contains(&id)
    }

    /// The splitter of the `normalized` tokens and what they show, for
    /// the current normalizer.
    fn refresh_normalized(mut self) -> Self {
        let normalize = |t: &str| match &self.normalizer {
            None => t.to_string(),
            // (a token's text, short: no room for it is no room at all)
            Some(n) => match Aligned::new(t, 0) {
                Ok(mut a) => match n.normalize(&mut a) {
                    Ok(()) => a.chars.iter().collect(),
                    Err(_) => t.to_string(),
                },
                Err(_) => t.to_string(),
            },
        };
        self.normalized_specials = self.specials.normalized(normalize);
        self.decoded_as = match &self.normalized_specials {
            None => Vec::new(),
            Some(n) => {
                let pieces = self.model.pieces();
                n.tokens()
                    .iter()
                    .filter(|(t, id)| pieces[*id as usize].0 != *t)
                    .map(|(t, id)| (*id, t.clone()))
                    .collect()
            }
        };
        self
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    pub fn vocab_size(&self) -> usize {
        self.model.len()
    }

    pub fn unk_token(&self) -> &str {
        &self.model.pieces()[self.model.unk_id() as usize].0
    }

    pub fn special_ids(&self) -> &[u32] {
        &self.special
    }

    pub fn special_tokens(&self) -> Vec<String> {
        let special = self.special.iter().filter(|&&id| self.skipped.contains(&id));
        special.map(|&id| self.model.pieces()[id as usize].0.clone()).collect()
    }

    pub fn token_to_id(&self, token: &str) -> Option<u32> {
        self.model.id(token)
    }

    /// The token of `id`: an added `normalized` token the normalizer
    /// changes in its normalized form, as Hugging Face gives it.
    pub fn id_to_token(&self, id: u32) -> Option<&str> {
        if let Some((_, shown)) = self.decoded_as.iter().find(|(i, _)| *i == id) {
            return Some(shown);
        }
        self.model.piece(id)
    }

    /// `text`, a special token `id`'s match (with the whitespace its
    /// `lstrip` or `rstrip` took in, or a `normalized` token's normalized
    /// text), when it is not the token's piece: what the encoding shows for
    /// it, as Hugging Face does. Every other token shows its piece, even one
    /// whose `id_to_token` is its normalized form: the model found it.
    pub(crate) fn shown<'a>(&self, id: u32, text: &'a str) -> Option<&'a str> {
        (self.model.piece(id) != Some(text)).then_some(text)
    }

    /// The normalizer, if any.
    pub fn normalizer(&self) -> Option<&Normalizer> {
        self.normalizer.as_ref()
    }

    /// When a "▁" is put before a text.
    pub fn prepend(&self) -> Prepend {
        self.prepend
    }

    /// The pre-tokenizer's shape in a file.
    pub fn pre_tokenizer(&self) -> PreTokenizer {
        self.pre_tokenizer
    }

    /// The tokenizer with the pre-tokenizer `pre_tokenizer`.
    pub fn with_pre_tokenizer(mut self, pre_tokenizer: PreTokenizer) -> Self {
        self.pre_tokenizer = pre_tokenizer;
        self
    }

    /// The template that puts special tokens around a text, if any.
    pub fn template(&self) -> Option<&template::Template> {
        self.template.as_ref()
    }

    /// The tokenizer with the post-processor `template`.
    pub fn with_template(mut self, template: Option<template::Template>) -> Self {
        self.template = template;
        self
    }

    /// `a` (and `b`) with the template's special tokens (when
    /// `add_special_tokens`) and type ids ([`template::process`]).
    pub fn post_process(
        &self,
        a: Encoded,
        b: Option<Encoded>,
        add_special_tokens: bool,
    ) -> Result<template::Processed> {
        template::process(self.template.as_ref(), [Some(a), b], add_special_tokens)
    }

    /// The tokenizer with `normalizer` and the prepend scheme `prepend`.
    pub fn with_pipeline(mut self, normalizer: Option<Normalizer>, prepend: Prepend) -> Self {
        self.normalizer = normalizer;
        self.prepend = prepend;
        self.refresh_normalized()
    }

    /// Calls `on_word(text, spans)` for every word of `text` in order, and
    /// `on_special(id, char_start, char_end, text)` for every special token found
    /// in it. The text between special tokens is normalized, its spaces
    /// become "▁", a "▁" is put before it as the prepend scheme says, and it
    /// is cut before every "▁" (Hugging Face's `Metaspace`); `text` of a word
    /// is its normalized text and `spans` the original characters each of
    /// its characters stands for. `Error::Memory`, calling neither for what
    /// follows, when there is no room for a piece of the text's copy.
    pub(crate) fn walk(
        &self,
        text: &str,
        buffer: &mut String,
        mut on_word: impl FnMut(&str, Spans<'_>),
        mut on_special: impl FnMut(u32, u32, u32, &str),
    ) -> Result<()> {
        let mut short = None;
        // Without a normalizer, the `normalized` added tokens are matched in
        // the text itself (between the others); with one, in its output.
        let in_text = if self.normalizer.is_none() { self.normalized_specials.as_ref() } else { None };
        let in_normalized = if self.normalizer.is_some() { self.normalized_specials.as_ref() } else { None };
        segments(text, &self.specials, in_text, |segment| match segment {
            _ if short.is_some() => {}
            metaspace::Segment::Special { id, chars, text } => on_special(id, chars.0, chars.1, text),
            metaspace::Segment::Text { text: seg, char_start }
                if self.normalizer.is_none()
                    && self.prepend == Prepend::Always
                    && self.pre_tokenizer != PreTokenizer::Punctuation =>
            {
                // The common case, without a copy of the text: each character
                // stands for itself, and a prepended "▁" for the first one.
                let mut word_at = |word: &str, virtual_prefix: bool, start: u32| {
                    if short.is_some() {
                        return;
                    }
                    buffer.clear();
                    if buffer.try_reserve(word.len() + REPLACEMENT.len_utf8()).is_err() {
                        short = Some(Error::memory(format_args!("the text of a word of {} bytes", word.len())));
                        return;
                    }
                    if virtual_prefix {
                        buffer.push(REPLACEMENT);
                        buffer.push_str(word);
                    } else if let Some(rest) = word.strip_prefix(' ') {
                        buffer.push(REPLACEMENT);
                        buffer.push_str(rest);
                    } else {
                        buffer.push_str(word);
                    }
                    on_word(buffer, Spans::Own { start, prefix: virtual_prefix });
                };
                if self.pre_tokenizer == PreTokenizer::WhitespaceSplit {
                    // Each run has no space: `words` puts a "▁" before it
                    // unless it starts with one, and cuts it before each "▁".
                    white_space_runs(seg, |run, at| words(run, |w, v, o| word_at(w, v, char_start + at + o)));
                } else {
                    words(seg, |w, v, o| word_at(w, v, char_start + o));
                }
            }
            metaspace::Segment::Text { text: seg, char_start } => {
                let mut a = match Aligned::new(seg, char_start) {
                    Ok(a) => a,
                    Err(e) => {
                        short = Some(e);
                        return;
                    }
                };
                if let Some(n) = &self.normalizer {
                    if let Err(e) = n.normalize(&mut a) {
                        short = Some(e);
                        return;
                    }
                }
                // The `normalized` added tokens matched in the normalized
                // text (characters `lo..hi`, with their text), and the text
                // between them.
                let n = a.chars.len();
                let mut ranges = vec![(0, n, None)];
                if let Some(splitter) = in_normalized {
                    let normalized: String = a.chars.iter().collect();
                    ranges.clear();
                    // A byte of `normalized` and its character (a match may
                    // start before the end of the previous one, `rstrip`).
                    let (mut byte, mut chars) = (0usize, 0usize);
                    let mut char_of = |b: usize| {
                        if b >= byte {
                            chars += normalized[byte..b].chars().count();
                        } else {
                            chars -= normalized[b..byte].chars().count();
                        }
                        byte = b;
                        chars
                    };
                    splitter.split(&normalized, |piece| {
                        let (from, to, id) = match piece {
                            special_split::Piece::Text { text, start } => (start, start + text.len(), None),
                            special_split::Piece::Special { id, start, end } => (start, end, Some(id)),
                        };
                        let (lo, hi) = (char_of(from), char_of(to));
                        ranges.push((lo, hi, id.map(|id| (id, normalized[from..to].to_string()))));
                    });
                }
                let white_space_split = self.pre_tokenizer == PreTokenizer::WhitespaceSplit;
                let punctuation = self.pre_tokenizer == PreTokenizer::Punctuation;
                if !white_space_split {
                    for c in &mut a.chars {
                        if *c == ' ' {
                            *c = REPLACEMENT;
                        }
                    }
                }
                for (lo, n, special) in ranges {
                    if let Some((id, shown)) = special {
                        on_special(id, a.align[lo].0, a.align[n - 1].1, &shown);
                        continue;
                    }
                    // The parts Metaspace sees: the text, its runs of
                    // characters other than White_Space (no space left in them),
                    // or each punctuation character and each run of other
                    // characters ("▁" is not punctuation).
                    let mut at = lo;
                    while at < n {
                        let (from, to) = if white_space_split {
                            let Some(k) = a.chars[at..n].iter().position(|c| !c.is_whitespace()) else {
                                break;
                            };
                            let from = at + k;
                            (from, a.chars[from..n].iter().position(|c| c.is_whitespace()).map_or(n, |k| from + k))
                        } else if punctuation {
                            let run = if metaspace::is_punctuation(a.chars[at]) {
                                1
                            } else {
                                a.chars[at..n].iter().position(|&c| metaspace::is_punctuation(c)).unwrap_or(n - at)
                            };
                            (at, at + run)
                        } else {
                            (lo, n)
                        };
                        at = to;
                        let (part, align) = (&a.chars[from..to], &a.align[from..to]);
                        // "first": only before a part whose first normalized
                        // character stands for the text's first one (Hugging
                        // Face's split that starts at original offset 0): not
                        // after a special token, nor when the normalizer removed
                        // the first characters.
                        let prepend = match self.prepend {
                            Prepend::Always => true,
                            Prepend::First => align[0].0 == 0,
                            Prepend::Never => false,
                        } && part[0] != REPLACEMENT;
                        // The part is cut before every "▁" (the prepended one
                        // joins the first word, standing for its first character).
                        let mut start = 0;
                        while start < part.len() {
                            let end = part[start + 1..]
                                .iter()
                                .position(|&c| c == REPLACEMENT)
                                .map_or(part.len(), |k| start + 1 + k);
                            let prefix = prepend && start == 0;
                            buffer.clear();
                            let bytes: usize = part[start..end].iter().map(|c| c.len_utf8()).sum::<usize>()
                                + if prefix { REPLACEMENT.len_utf8() } else { 0 };
                            if buffer.try_reserve(bytes).is_err() {
                                short = Some(Error::memory(format_args!("the text of a word of {bytes} bytes")));
                                return;
                            }
                            if prefix {
                                buffer.push(REPLACEMENT);
                            }
                            buffer.extend(&part[start..end]);
                            let spans = &align[start..end];
                            on_word(buffer, if prefix { Spans::Prefixed(spans) } else { Spans::Mapped(spans) });
                            start = end;
                        }
                    }
                }
            }
        });
        match short {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The Viterbi encoding of `text`; `Error::Memory` when there is no
    /// room for it (the columns grow word by word, fallibly).
    pub fn encode(&self, text: &str) -> Result<Encoded> {
        self.encode_into(text, None)
    }

    /// [`encode`](Self::encode), with the index of the word each token
    /// comes from (Hugging Face's word ids: each word of the pre-tokenizer,
    /// and each special token found in the text, is the next word).
    pub fn encode_words(&self, text: &str) -> Result<(Encoded, Vec<u32>)> {
        let mut words = Vec::new();
        let e = self.encode_into(text, Some(&mut words))?;
        Ok((e, words))
    }

    fn encode_into(&self, text: &str, words: Option<&mut Vec<u32>>) -> Result<Encoded> {
        let mut out = Encoded::default();
        // The next word's index, and each token's word when asked for.
        let index = std::cell::Cell::new(0u32);
        let words = std::cell::RefCell::new(words);
        let no_room_for_words = |n: usize| {
            let mut w = words.borrow_mut();
            w.as_mut().is_some_and(|w| w.try_reserve(n).is_err())
        };
        let mut buffer = String::new();
        let mut best: Vec<BestPath> = Vec::new();
        let mut pieces: Vec<Piece> = Vec::new();
        let model = &self.model;
        // The size that room could not be had for, if any: the words after
        // it are skipped.
        let short = std::cell::RefCell::new(None);
        // `walk` borrows `out` through both closures: collect into a shared cell.
        let out_cell = std::cell::RefCell::new(&mut out);
        let walked = self.walk(
            text,
            &mut buffer,
            |word, spans| {
                if short.borrow().is_some() {
                    return;
                }
                // The lattice of a long word is as long as the word.
                best.clear();
                if best.try_reserve_exact(word.len() + 1).is_err() {
                    *short.borrow_mut() = Some(format!("the lattice of a word of {} bytes", word.len()));
                    return;
                }
                pieces.clear();
                model.viterbi(word, &mut best, &mut pieces);
                let mut o = out_cell.borrow_mut();
                if !o.room(pieces.len()) {
                    *short.borrow_mut() = Some(format!("an encoding of {} tokens", o.ids.len() + pieces.len()));
                    return;
                }
                if no_room_for_words(pieces.len()) {
                    *short.borrow_mut() = Some(format!("the word ids of {} tokens", o.ids.len() + pieces.len()));
                    return;
                }
                if let Err(what) = push_pieces(&mut o, word, &pieces, spans, model.unk_id()) {
                    *short.borrow_mut() = Some(what);
                }
                if let Some(w) = words.borrow_mut().as_mut() {
                    w.extend(std::iter::repeat_n(index.get(), pieces.len()));
                }
                index.set(index.get() + 1);
            },
            |id, s, e, shown| {
                let mut o = out_cell.borrow_mut();
                let mut short = short.borrow_mut();
                if short.is_some() {
                    return;
                }
                if no_room_for_words(1) || !o.push_special(id, (s, e), self.shown(id, shown)) {
                    *short = Some(format!("an encoding of {} tokens", o.ids.len() + 1));
                    return;
                }
                if let Some(w) = words.borrow_mut().as_mut() {
                    w.push(index.get());
                }
                index.set(index.get() + 1);
            },
        );
        walked?;
        match short.into_inner() {
            Some(what) => Err(Error::memory(what)),
            None => Ok(out),
        }
    }

    /// `encode` for every text, in parallel on `num_threads` threads.
    pub fn encode_batch<S: AsRef<str> + Sync>(&self, texts: &[S], num_threads: Option<usize>) -> Result<Vec<Encoded>> {
        threads::install(num_threads, || texts.par_iter().map(|t| self.encode(t.as_ref())).collect())?
    }

    /// The text of `ids`: pieces joined, "▁" read as a space, and the first
    /// piece's "▁"s dropped unless the prepend scheme is "never" (Hugging
    /// Face's `Metaspace` decoder).
    /// `Error::Memory` when there is no room for the text (reserved at
    /// once: a piece's text is at most its bytes).
    pub fn decode(&self, ids: &[u32], skip_special_tokens: bool) -> Result<String> {
        // A `normalized` token the normalizer changes shows its normalized
        // form, skipped only when that is a special token's text (Hugging
        // Face skips by the text shown).
        let shown = |id: u32| self.decoded_as.iter().find(|(i, _)| *i == id).map(|(_, t)| t.as_str());
        let pieces = self.model.pieces();
        let skipped = |id: u32| {
            skip_special_tokens
                && match shown(id) {
                    None => self.skipped.contains(&id),
                    Some(text) => self.skipped.iter().any(|&s| pieces[s as usize].0 == text),
                }
        };
        let mut size = 0usize;
        for &id in ids {
            let Some(piece) = self.model.piece(id) else {
                return Err(Error::invalid(format!(
                    "id {id} is not below the vocabulary size ({})",
                    self.vocab_size()
                )));
            };
            if !skipped(id) {
                size = size.saturating_add(shown(id).unwrap_or(piece).len());
            }
        }
        let mut out = Error::room_for_text(size)?;
        let mut first = true;
        for &id in ids {
            let piece = shown(id).unwrap_or(&self.model.pieces()[id as usize].0);
            if skipped(id) {
                continue;
            }
            // The first token's "▁"s are dropped, all of them (unless
            // nothing is put before a text), as Hugging Face's decoder does.
            let drop = first && self.prepend != Prepend::Never;
            first = false;
            for c in piece.chars() {
                match c {
                    REPLACEMENT if drop => {}
                    REPLACEMENT => out.push(' '),
                    c => out.push(c),
                }
            }
        }
        Ok(out)
    }

    /// Encodes every text and counts what came out, as the rest of the
    /// family counts it: words are the runs of non-whitespace characters and
    /// characters the texts' code points (not pre-tokenization's, whose "▁"
    /// is no character of the text). `Error::Memory` when a text's tokens
    /// do not fit in memory.
    pub fn analyze<S: AsRef<str> + Sync>(&self, texts: &[S]) -> Result<Analysis> {
        let part = |chunk: &[S]| self.analyze_part(chunk);
        Analysis::in_chunks_until(texts, self.vocab_size(), None, part, || false)
    }

    /// The counts of [`UnigramTokenizer::analyze`] for a chunk of the texts.
    pub fn analyze_part<S: AsRef<str>>(&self, texts: &[S]) -> Result<Partial> {
        let unk = Some(self.model.unk_id());
        Analysis::part_of(texts, self.vocab_size(), unk, |t, ids| {
            ids.extend(self.encode(t)?.ids);
            Ok(())
        })
    }
}

/// The original characters each character of a word stands for.
#[derive(Clone, Copy)]
pub(crate) enum Spans<'a> {
    /// Each character stands for itself, from character `start` of the
    /// text on; with `prefix`, a "▁" put before the first one stands for it
    /// too (the common case: no normalizer, no copy of the spans).
    Own { start: u32, prefix: bool },
    /// One span per character (a normalized text).
    Mapped(&'a [(u32, u32)]),
    /// A "▁" put before the characters of `Mapped`, with the first one's span.
    Prefixed(&'a [(u32, u32)]),
}

impl Spans<'_> {
    /// The span of the word's character `k`.
    #[inline]
    fn of(&self, k: usize) -> (u32, u32) {
        match *self {
            Spans::Own { start, prefix } => {
                let at = start + (k - usize::from(prefix && k > 0)) as u32;
                (at, at + 1)
            }
            Spans::Mapped(spans) => spans[k],
            Spans::Prefixed(spans) => spans[k.saturating_sub(1)],
        }
    }
}

/// Appends a word's pieces with character offsets into the original text:
/// a piece spans from where its first character's span starts to where its
/// last one's ends (`spans`: one per character of `word`). `out` has room
/// for the ids and offsets (see [`Encoded::room`]); the texts of unknown
/// tokens are kept fallibly: when there is no room for them, what did not
/// fit (and `out` then holds part of the word).
pub(crate) fn push_pieces(
    out: &mut Encoded,
    word: &str,
    pieces: &[Piece],
    spans: Spans<'_>,
    unk_id: u32,
) -> std::result::Result<(), String> {
    let mut k = 0usize;
    for p in pieces {
        let n = word[p.start..p.end].chars().count();
        let (start, end) = match n {
            0 => (0, 0),
            _ => (spans.of(k).0, spans.of(k + n - 1).1),
        };
        k += n;
        if p.id == unk_id {
            let unknown = &word[p.start..p.end];
            if out.unknown.try_reserve(1).is_err() || out.unknown_text.try_reserve(unknown.len()).is_err() {
                return Err(format!("the texts of {} unknown tokens of an encoding", out.unknown.len() + 1));
            }
            out.unknown_text.push_str(unknown);
            out.unknown.push((out.ids.len() as u32, out.unknown_text.len()));
        }
        out.ids.push(p.id);
        out.offsets.push((start, end));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analyze_counts_the_texts_words_and_characters_as_the_family_does() {
        let pieces = [("<unk>", 0.0), ("<s>", 0.0), ("▁ab", -1.0), ("▁", -2.0), ("a", -3.0), ("b", -3.0)];
        let pieces = pieces.iter().map(|(p, s)| (p.to_string(), *s)).collect();
        let t = UnigramTokenizer::new(pieces, "<unk>", &["<unk>".into(), "<s>".into()]).unwrap();
        // Two runs of non-whitespace; 10 code points; the prepended "▁" is
        // none of them, and "<s>" is one token inside the second run.
        let texts = ["ab  ab<s>z"];
        let ids: Vec<u32> = t.encode(texts[0]).unwrap().ids;
        let a = t.analyze(&texts).unwrap();
        assert_eq!((a.texts, a.words, a.characters), (1, 2, 10));
        assert_eq!(a.tokens, ids.len() as u64);
        assert_eq!(a.unknown, ids.iter().filter(|&&i| i == 0).count() as u64);
        assert_eq!(a.unknown, 1);
        assert_eq!(t.analyze::<&str>(&[]).unwrap().tokens, 0);
    }

    #[test]
    fn word_ids_count_the_pre_tokenizers_words_and_the_special_tokens() {
        let pieces = [("<unk>", 0.0), ("<s>", 0.0), ("▁ab", -1.0), ("▁", -2.0), ("a", -3.0), ("b", -3.0)];
        let pieces = pieces.iter().map(|(p, s)| (p.to_string(), *s)).collect();
        let t = UnigramTokenizer::new(pieces, "<unk>", &["<unk>".into(), "<s>".into()]).unwrap();
        // "▁ab", "▁", "▁ab" are words 0, 1, 2; "<s>" word 3; "▁" and "z" (unknown) word 4
        let (e, words) = t.encode_words("ab  ab<s>z").unwrap();
        assert_eq!(e, t.encode("ab  ab<s>z").unwrap());
        assert_eq!(e.ids.len(), words.len());
        assert_eq!(words, [0, 1, 2, 3, 4, 4]);
        let t = t.with_pre_tokenizer(PreTokenizer::WhitespaceSplit);
        // no "▁" alone for the spaces: one word fewer
        assert_eq!(t.encode_words("ab  ab<s>z").unwrap().1, [0, 1, 2, 3, 3]);
    }

    #[test]
    fn punctuation_is_a_part_of_its_own_with_its_own_replacement() {
        let pieces = [("<unk>", 0.0), ("▁ab", -1.0), ("▁", -2.0), ("a", -3.0), ("b", -3.0), (",", -3.0)];
        let pieces = pieces.iter().map(|(p, s)| (p.to_string(), *s)).collect();
        let t = UnigramTokenizer::new(pieces, "<unk>", &["<unk>".into()]).unwrap();
        let t = t.with_pre_tokenizer(PreTokenizer::Punctuation);
        // "ab, ab" is "▁ab", "▁,", "▁ab": words 0, 1 ("▁" then ","), 2
        let (e, words) = t.encode_words("ab, ab").unwrap();
        let tokens: Vec<&str> = e.ids.iter().map(|&id| t.id_to_token(id).unwrap()).collect();
        assert_eq!(tokens, ["▁ab", "▁", ",", "▁ab"]);
        assert_eq!(words, [0, 1, 1, 2]);
        assert_eq!(e.offsets, [(0, 2), (2, 3), (2, 3), (3, 6)]);
        assert_eq!(t.decode(&e.ids, false).unwrap(), "ab , ab");
    }
}
