//! The byte-level BPE model: a vocabulary, merges by rank, and encoding by
//! merge rank (the lowest-ranked adjacent pair first, the leftmost of equal
//! ones), exactly as Hugging Face's `BPE` model with the `ByteLevel`
//! pre-tokenizer (GPT-2 style) encodes.

use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::bytes::{byte_char, token_bytes};
use super::pre_tokenizer::pieces;
use crate::error::{Error, Quoted, Result};
use crate::pipeline::special_split::{Flags, Piece, SpecialSplitter};
use crate::tokenizer::analysis::{Analysis, Partial};

/// Pieces longer than this (in bytes) are not cached.
const CACHED_PIECE: usize = 64;
/// A cache holds at most this many pieces; then it starts over.
const CACHE_CAPACITY: usize = 1 << 16;
/// Room for `n` more ids in `out` (growing at least twofold, as a `Vec`
/// does), or `Error::Memory`.
fn room_for(out: &mut Vec<u32>, n: usize) -> Result<()> {
    out.try_reserve(n)
        .map_err(|_| Error::memory(format_args!("an encoding of {} tokens", out.len() as u128 + n as u128)))
}

/// `String::from_utf8_lossy` of `bytes` (each invalid sequence one U+FFFD),
/// or `Error::Memory` when there is no room for it.
fn lossy(bytes: &[u8]) -> Result<String> {
    let size = bytes.utf8_chunks().fold(0usize, |n, c| {
        let invalid = if c.invalid().is_empty() { 0 } else { char::REPLACEMENT_CHARACTER.len_utf8() };
        n.saturating_add(c.valid().len() + invalid)
    });
    let mut text = Error::room_for_text(size)?;
    for c in bytes.utf8_chunks() {
        text.push_str(c.valid());
        if !c.invalid().is_empty() {
            text.push(char::REPLACEMENT_CHARACTER);
        }
    }
    Ok(text)
}

/// Pieces of at most this many symbols merge by scanning for the lowest
/// rank; longer ones through a heap.
const SCAN_LIMIT: usize = 32;

#[derive(Clone, Debug)]
pub struct Bpe {
    vocab: Vec<String>,
    ids: FxHashMap<String, u32>,
    merges: Vec<(u32, u32)>,
    /// `(left, right)` -> `(rank, merged id)`.
    ranks: FxHashMap<(u32, u32), (u32, u32)>,
    /// Each byte's token id, or None when its byte character is not in the vocabulary.
    byte_ids: [Option<u32>; 256],
    unk: Option<u32>,
    /// Tokens matched in the text before pre-tokenization.
    specials: SpecialSplitter,
    /// The ids of those of them whose `special` is false (sorted): split out
    /// of the text as the others, kept by `decode` with `skip_special_tokens`.
    plain: Vec<u32>,
    /// Those of them that are `normalized`, matched in the text between the
    /// others (there is no normalizer); None when there are none.
    normalized: Option<SpecialSplitter>,
    /// The file's `ByteLevel` post-processor: whether it trims the spaces
    /// at either end of a token from its offsets (`trim_offsets`), and
    /// whether it then keeps a first token's single leading space
    /// (`add_prefix_space`). Encoding does not depend on them.
    trim_offsets: bool,
    trim_keeps_prefix_space: bool,
    /// RoBERTa's template (the file's `RobertaProcessing`): the ids of the
    /// tokens before and after each text, `<s> A </s>`.
    template: Option<(u32, u32)>,
    /// The file's `padding` section, read, and kept as it is to be written back.
    padding: Option<(Padding, serde_json::Value)>,
}

/// A file's `padding` section, as Hugging Face's `encode` and `encode_batch` apply it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Padding {
    /// `{"Fixed": n}`: every encoding padded to `n` tokens; None: `BatchLongest`.
    pub length: Option<usize>,
    pub pad_to_multiple_of: Option<usize>,
    /// `direction` `Left`.
    pub left: bool,
    pub pad_id: u32,
    pub pad_type_id: u32,
    pub pad_token: String,
}

impl Padding {
    /// The length encodings of at most `longest` tokens are padded to.
    pub fn target(&self, longest: usize) -> usize {
        let n = self.length.unwrap_or(longest);
        match self.pad_to_multiple_of {
            Some(m) if m > 0 && n % m != 0 => n.saturating_add(m - n % m),
            _ => n,
        }
    }

    /// `ids` padded to `target` (left alone when as long already);
    /// `Error::Memory` when there is no room.
    pub fn pad(&self, ids: &mut Vec<u32>, target: usize) -> Result<()> {
        let Some(more) = target.checked_sub(ids.len()).filter(|&n| n > 0) else {
            return Ok(());
        };
        room_for(ids, more)?;
        if self.left {
            ids.splice(0..0, std::iter::repeat_n(self.pad_id, more));
        } else {
            ids.resize(target, self.pad_id);
        }
        Ok(())
    }
}

impl PartialEq for Bpe {
    fn eq(&self, other: &Self) -> bool {
        self.vocab == other.vocab
            && self.merges == other.merges
            && self.unk == other.unk
            && self.specials == other.specials
            && self.plain == other.plain
            && self.trim_offsets == other.trim_offsets
            && self.trim_keeps_prefix_space == other.trim_keeps_prefix_space
            && self.template == other.template
            && self.padding_json() == other.padding_json()
    }
}

/// Per-caller memory of encoded pieces: piece bytes -> a range of `ids`.
#[derive(Default)]
pub struct Cache {
    map: FxHashMap<Box<[u8]>, (u32, u32)>,
    ids: Vec<u32>,
    symbols: Vec<u32>,
}

impl Cache {
    fn clear_if_full(&mut self) {
        if self.map.len() >= CACHE_CAPACITY {
            self.map.clear();
            self.ids.clear();
        }
    }
}

impl Bpe {
    /// A model from the vocabulary in id order, the merges in rank order, the
    /// unknown token (for bytes whose character is not in the vocabulary;
    /// without one they are left out) and the special tokens (each in the
    /// vocabulary; matched in the text as they are).
    pub fn new(
        vocab: Vec<String>,
        merges: &[(String, String)],
        unk_token: Option<&str>,
        special_tokens: &[String],
    ) -> Result<Self> {
        let mut ids: FxHashMap<String, u32> = FxHashMap::default();
        if vocab.len() >= u32::MAX as usize {
            return Err(Error::invalid("the vocabulary has too many tokens"));
        }
        for (id, token) in vocab.iter().enumerate() {
            if ids.insert(token.clone(), id as u32).is_some() {
                return Err(Error::invalid(format!("token {} is twice in the vocabulary", Quoted(token))));
            }
        }
        let id_of = |t: &str, what: &str| {
            ids.get(t).copied().ok_or_else(|| Error::invalid(format!("{what} {} is not in the vocabulary", Quoted(t))))
        };
        let mut ranks = FxHashMap::default();
        let mut merge_ids = Vec::with_capacity(merges.len());
        let mut joined = String::new();
        for (rank, (a, b)) in merges.iter().enumerate() {
            let (x, y) = (id_of(a, "merge token")?, id_of(b, "merge token")?);
            joined.clear();
            joined.push_str(a);
            joined.push_str(b);
            let z = id_of(&joined, "merged token")?;
            ranks.insert((x, y), (rank as u32, z));
            merge_ids.push((x, y));
        }
        // A merge listed twice takes the rank of its last place, as in
        // Hugging Face's (whose file then lists it there, once).
        if ranks.len() < merge_ids.len() {
            let mut ranked: Vec<_> = ranks.iter().map(|(&m, &(rank, _))| (rank, m)).collect();
            ranked.sort_unstable();
            merge_ids = ranked.into_iter().map(|(_, m)| m).collect();
        }
        let mut byte_ids = [None; 256];
        let mut s = String::new();
        for (b, slot) in byte_ids.iter_mut().enumerate() {
            s.clear();
            s.push(byte_char(b as u8));
            *slot = ids.get(&s).copied();
        }
        let unk = unk_token.map(|t| id_of(t, "unk_token")).transpose()?;
        let mut specials = Vec::with_capacity(special_tokens.len());
        for t in special_tokens {
            if t.is_empty() {
                return Err(Error::invalid("a special token must not be empty"));
            }
            if !specials.iter().any(|(s, _)| s == t) {
                specials.push((t.clone(), id_of(t, "special token")?));
            }
        }
        // By id: the order given changes no split, and equal tokenizers
        // (one read back from its file, which lists them by id) hold them alike.
        specials.sort_unstable_by_key(|s| s.1);
        let specials = SpecialSplitter::new(specials)?;
        Ok(Bpe {
            vocab,
            ids,
            merges: merge_ids,
            ranks,
            byte_ids,
            unk,
            specials,
            plain: Vec::new(),
            normalized: None,
            trim_offsets: false,
            trim_keeps_prefix_space: false,
            template: None,
            padding: None,
        })
    }

    /// The model with each added token's [`Flags`] and whether it is
    /// special (`(token, flags, special)`, as Hugging Face's added tokens
    /// have them; a token named twice takes its last entry's); the others
    /// keep no flags and stay special. A token that is not special is split
    /// out of the text as the others, and kept by `decode` with
    /// `skip_special_tokens`.
    pub fn with_added_flags(mut self, added: &[(String, Flags, bool)]) -> Self {
        let specials = std::mem::take(&mut self.specials);
        let tokens = specials.tokens().to_vec();
        // the last entry of each token
        let last: FxHashMap<&str, (Flags, bool)> = added.iter().map(|(t, f, s)| (t.as_str(), (*f, *s))).collect();
        let flags = tokens.iter().map(|(t, _)| last.get(t.as_str()).map_or(Flags::default(), |a| a.0)).collect();
        let plain = tokens.iter().filter(|(t, _)| last.get(t.as_str()).is_some_and(|a| !a.1));
        self.plain = plain.map(|(_, id)| *id).collect();
        self.plain.sort_unstable();
        self.specials = SpecialSplitter::with_flags(tokens, flags).expect("the same tokens");
        self.normalized = self.specials.normalized(str::to_string);
        self
    }

    /// The added tokens (the special tokens and those that are not), each
    /// with its [`Flags`] and whether it is special, in the order of their ids.
    pub fn added_tokens(&self) -> Vec<(String, Flags, bool)> {
        let mut s: Vec<_> = self.specials.tokens().iter().zip(self.specials.flags()).collect();
        s.sort_by_key(|x| x.0 .1);
        s.into_iter().map(|((t, id), f)| (t.clone(), f, self.plain.binary_search(id).is_err())).collect()
    }

    /// The model with RoBERTa's template: each text encoded as `cls`, its
    /// tokens, then `sep` (unless `add_special_tokens` is false).
    pub fn with_template(mut self, template: Option<(u32, u32)>) -> Self {
        self.template = template;
        self
    }

    /// The ids RoBERTa's template puts before and after each text, or None.
    pub fn template(&self) -> Option<(u32, u32)> {
        self.template
    }

    /// The model with a file's `padding` section, read and as written
    /// (written back by `to_hf_json`).
    pub fn with_padding(mut self, padding: Option<(Padding, serde_json::Value)>) -> Self {
        self.padding = padding;
        self
    }

    /// The `padding` section of the file the model was read from, or None.
    pub fn padding(&self) -> Option<&Padding> {
        self.padding.as_ref().map(|p| &p.0)
    }

    /// The `padding` section as the file has it, or None.
    pub fn padding_json(&self) -> Option<&serde_json::Value> {
        self.padding.as_ref().map(|p| &p.1)
    }

    /// The model with its offsets trimmed as Hugging Face's `ByteLevel`
    /// post-processor with `trim_offsets` and `add_prefix_space` does
    /// (`keeps_prefix_space` counts only with `trim`).
    pub fn with_trim_offsets(mut self, trim: bool, keeps_prefix_space: bool) -> Self {
        self.trim_offsets = trim;
        self.trim_keeps_prefix_space = trim && keeps_prefix_space;
        self
    }

    /// Whether offsets leave out the spaces at either end of a token.
    pub fn trim_offsets(&self) -> bool {
        self.trim_offsets
    }

    /// Whether trimmed offsets keep a first token's single leading space.
    pub fn trim_keeps_prefix_space(&self) -> bool {
        self.trim_keeps_prefix_space
    }

    pub fn vocab(&self) -> &[String] {
        &self.vocab
    }

    pub fn vocab_size(&self) -> usize {
        self.vocab.len()
    }

    pub fn token_to_id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    pub fn id_to_token(&self, id: u32) -> Option<&str> {
        self.vocab.get(id as usize).map(String::as_str)
    }

    /// The merges in rank order, as token strings.
    pub fn merges(&self) -> Vec<(String, String)> {
        self.merges.iter().map(|&(a, b)| (self.vocab[a as usize].clone(), self.vocab[b as usize].clone())).collect()
    }

    pub fn unk_token(&self) -> Option<&str> {
        self.unk.map(|id| self.vocab[id as usize].as_str())
    }

    /// The special tokens (not the added tokens whose `special` is false), in the order of their ids.
    pub fn special_tokens(&self) -> Vec<String> {
        let specials = self.specials.tokens().iter();
        let mut s: Vec<_> = specials.filter(|(_, id)| self.plain.binary_search(id).is_err()).collect();
        s.sort_by_key(|x| x.1);
        s.into_iter().map(|x| x.0.clone()).collect()
    }

    /// Whether `id` is an added token (split out of the text before the
    /// model), special or not.
    pub fn is_added(&self, id: u32) -> bool {
        self.specials.tokens().iter().any(|s| s.1 == id)
    }

    /// Whether `id` is a special token: an added token whose `special` is
    /// not false (`decode` leaves it out with `skip_special_tokens`).
    pub fn is_special(&self, id: u32) -> bool {
        self.is_added(id) && self.plain.binary_search(&id).is_err()
    }

    /// The ids of `text`, appended to `out`, and to `spans` the byte span of
    /// each token split out of the text as an added token (with the
    /// whitespace its `lstrip` or `rstrip` took in), None for each token of
    /// the model; `Error::Memory` (with some of the ids appended) when there is no room
    /// for them, or for the merges of a piece (a long one needs room in
    /// proportion). `out` grows piece by piece, fallibly.
    pub fn encode_into(
        &self,
        text: &str,
        cache: &mut Cache,
        out: &mut Vec<u32>,
        spans: Option<&mut Vec<Option<(u32, u32)>>>,
    ) -> Result<()> {
        let mut spans = spans;
        let mut short = Ok(());
        self.specials.split_both(self.normalized.as_ref(), text, |piece| match piece {
            _ if short.is_err() => {}
            Piece::Special { id, start, end } => {
                short = room_for(out, 1);
                if short.is_err() {
                    return;
                }
                out.push(id);
                if let Some(spans) = spans.as_deref_mut() {
                    spans.push(Some((start as u32, end as u32)));
                }
            }
            Piece::Text { text: segment, .. } => {
                for (a, b) in pieces(segment) {
                    let n = out.len();
                    short = self.encode_piece(&segment.as_bytes()[a..b], cache, out);
                    if short.is_err() {
                        return;
                    }
                    if let Some(spans) = spans.as_deref_mut() {
                        spans.resize(spans.len() + out.len() - n, None);
                    }
                }
            }
        });
        short
    }

    /// The ids of `text`; `Error::Memory` when there is no room for them.
    pub fn encode(&self, text: &str, cache: &mut Cache) -> Result<Vec<u32>> {
        let mut out = Vec::new();
        self.encode_into(text, cache, &mut out, None)?;
        Ok(out)
    }

    /// The ids of `text`, in the template when there is one and
    /// `add_special_tokens`; `Error::Memory` when there is no room for them.
    pub fn encode_with(&self, text: &str, cache: &mut Cache, add_special_tokens: bool) -> Result<Vec<u32>> {
        let mut out = Vec::new();
        match self.template.filter(|_| add_special_tokens) {
            Some((cls, sep)) => {
                out.push(cls);
                self.encode_into(text, cache, &mut out, None)?;
                room_for(&mut out, 1)?;
                out.push(sep);
            }
            None => self.encode_into(text, cache, &mut out, None)?,
        }
        Ok(out)
    }

    /// The ids of `text` and, when there is one, of `pair`: in the template
    /// when there is one and `add_special_tokens` (`<s> A </s></s> B </s>`
    /// for a pair), otherwise one after the other, as Hugging Face encodes
    /// a pair; `Error::Memory` when there is no room for them.
    pub fn encode_pair_with(
        &self,
        text: &str,
        pair: Option<&str>,
        cache: &mut Cache,
        add_special_tokens: bool,
    ) -> Result<Vec<u32>> {
        let mut out = self.encode_with(text, cache, add_special_tokens)?;
        if let Some(pair) = pair {
            match self.template.filter(|_| add_special_tokens) {
                Some((_, sep)) => {
                    room_for(&mut out, 1)?;
                    out.push(sep);
                    self.encode_into(pair, cache, &mut out, None)?;
                    room_for(&mut out, 1)?;
                    out.push(sep);
                }
                None => self.encode_into(pair, cache, &mut out, None)?,
            }
        }
        Ok(out)
    }

    /// The tokens of `text` and of `pair` when given, in the template when
    /// there is one and `add_special_tokens`, as Hugging Face's encoding
    /// shows them: a special token split out of the text as the text it
    /// was split out of, with the whitespace its `lstrip` or `rstrip` took
    /// in; `Error::Memory` when there is no room for them.
    pub fn tokens(
        &self,
        text: &str,
        pair: Option<&str>,
        cache: &mut Cache,
        add_special_tokens: bool,
    ) -> Result<Vec<String>> {
        let template = self.template.filter(|_| add_special_tokens);
        let mut out = Vec::new();
        for (i, t) in std::iter::once(text).chain(pair).enumerate() {
            let (mut ids, mut spans) = (Vec::new(), Vec::new());
            self.encode_into(t, cache, &mut ids, Some(&mut spans))?;
            let room = |out: &mut Vec<String>| {
                out.try_reserve(ids.len() + 3)
                    .map_err(|_| Error::memory(format_args!("an encoding of {} tokens", out.len() + ids.len())))
            };
            room(&mut out)?;
            if let Some((cls, sep)) = template {
                out.push(self.vocab[if i == 0 { cls } else { sep } as usize].clone());
            }
            for (&id, span) in ids.iter().zip(&spans) {
                // A token split out of the text as an added token is shown as
                // the text it was split out of, as Hugging Face's split has it:
                // with the whitespace its lstrip or rstrip took in, and from
                // the end of the previous match where its lstrip starts it
                // there, inside its own text; a token of the model (also one
                // whose id is an added token's), as the vocabulary has it.
                let vocab = self.vocab[id as usize].as_str();
                let token = match span.and_then(|(start, end)| t.get(start as usize..end as usize)) {
                    Some(shown) => shown,
                    None => vocab,
                };
                out.push(token.to_string());
            }
            if let Some((_, sep)) = template {
                out.push(self.vocab[sep as usize].clone());
            }
        }
        Ok(out)
    }

    /// Pads encodings as the file's `padding` section says, as Hugging
    /// Face's `encode_batch` (or its `encode`, for one text) pads them;
    /// `Error::Memory` when there is no room.
    pub fn pad_all(&self, rows: &mut [Vec<u32>]) -> Result<()> {
        if let Some(p) = self.padding() {
            let target = p.target(rows.iter().map(Vec::len).max().unwrap_or(0));
            for row in rows {
                p.pad(row, target)?;
            }
        }
        Ok(())
    }

    /// Appends the tokens of one pre-tokenized piece; `Error::Memory`,
    /// appending nothing, when there is no room for them or for its merges.
    fn encode_piece(&self, piece: &[u8], cache: &mut Cache, out: &mut Vec<u32>) -> Result<()> {
        if piece.len() <= CACHED_PIECE {
            if let Some(&(s, n)) = cache.map.get(piece) {
                room_for(out, n as usize)?;
                out.extend_from_slice(&cache.ids[s as usize..(s + n) as usize]);
                return Ok(());
            }
        }
        let merges = || Error::memory(format_args!("the merges of a piece of {} bytes of text", piece.len()));
        let mut symbols = std::mem::take(&mut cache.symbols);
        symbols.clear();
        // A symbol per byte (an id, or none): a long piece's are many.
        if symbols.try_reserve(piece.len()).is_err() {
            return Err(merges());
        }
        for &b in piece {
            match self.byte_ids[b as usize] {
                Some(id) => symbols.push(id),
                None => symbols.extend(self.unk),
            }
        }
        if symbols.len() <= SCAN_LIMIT {
            self.merge_by_scan(&mut symbols);
        } else if !self.merge_by_heap(&mut symbols) {
            cache.symbols = symbols;
            return Err(merges());
        }
        if let Err(e) = room_for(out, symbols.len()) {
            cache.symbols = symbols;
            return Err(e);
        }
        out.extend_from_slice(&symbols);
        if piece.len() <= CACHED_PIECE {
            cache.clear_if_full();
            let s = cache.ids.len() as u32;
            cache.ids.extend_from_slice(&symbols);
            cache.map.insert(piece.into(), (s, symbols.len() as u32));
        }
        cache.symbols = symbols;
        Ok(())
    }

    /// Merges the lowest-ranked pair (the leftmost of equal ones) until none
    /// is left, by scanning: for short pieces.
    fn merge_by_scan(&self, symbols: &mut Vec<u32>) {
        loop {
            let mut best: Option<(u32, usize, u32)> = None;
            for i in 0..symbols.len().saturating_sub(1) {
                if let Some(&(rank, z)) = self.ranks.get(&(symbols[i], symbols[i + 1])) {
                    if best.is_none_or(|(r, _, _)| rank < r) {
                        best = Some((rank, i, z));
                    }
                }
            }
            let Some((_, i, z)) = best else { return };
            symbols[i] = z;
            symbols.remove(i + 1);
        }
    }

    /// The same merges as [`Bpe::merge_by_scan`], through a heap of candidate
    /// pairs keyed by (rank, position), checked when popped: for long pieces.
    /// False, merging nothing, when there is no room for the heap and links
    /// (some 40 bytes per symbol).
    fn merge_by_heap(&self, symbols: &mut Vec<u32>) -> bool {
        let n = symbols.len();
        // Linked list over positions; a merged-away position has `alive` false.
        let (mut next, mut prev, mut alive) = (Vec::new(), Vec::new(), Vec::new());
        let mut heap = BinaryHeap::new();
        // Every pair at first, and a pair more per merge at most.
        let room = next.try_reserve_exact(n).is_ok()
            && prev.try_reserve_exact(n).is_ok()
            && alive.try_reserve_exact(n).is_ok()
            && heap.try_reserve_exact(2 * n).is_ok();
        if !room {
            return false;
        }
        next.extend(1..=n);
        prev.extend((0..n).map(|i| i.wrapping_sub(1)));
        alive.resize(n, true);
        let push =
            |heap: &mut BinaryHeap<std::cmp::Reverse<(u32, usize, u32)>>, symbols: &[u32], i: usize, j: usize| {
                if let Some(&(rank, z)) = self.ranks.get(&(symbols[i], symbols[j])) {
                    heap.push(std::cmp::Reverse((rank, i, z)));
                }
            };
        for i in 0..n.saturating_sub(1) {
            push(&mut heap, symbols, i, i + 1);
        }
        while let Some(std::cmp::Reverse((_, i, z))) = heap.pop() {
            if !alive[i] || next[i] >= n {
                continue;
            }
            let j = next[i];
            // Still the pair that was pushed? (Tokens only grow, so a pair
            // making the same token is the same pair.)
            if self.ranks.get(&(symbols[i], symbols[j])).is_none_or(|&(_, w)| w != z) {
                continue;
            }
            symbols[i] = z;
            alive[j] = false;
            next[i] = next[j];
            if next[j] < n {
                prev[next[j]] = i;
            }
            if prev[i] < n {
                push(&mut heap, symbols, prev[i], i);
            }
            if next[i] < n {
                push(&mut heap, symbols, i, next[i]);
            }
        }
        let mut k = 0;
        for i in 0..n {
            if alive[i] {
                symbols[k] = symbols[i];
                k += 1;
            }
        }
        symbols.truncate(k);
        true
    }

    /// The text of `ids`, as Hugging Face's `decode` with the `ByteLevel`
    /// decoder: each token's bytes, an added token's (special or not) as any
    /// other's (a token holding a character that shows no byte: its UTF-8
    /// text), the special tokens left out when `skip_special_tokens`,
    /// joined, then read as UTF-8 with each invalid sequence replaced by
    /// U+FFFD. `Error::Memory` when there is no room for the text (reserved
    /// at once: a token's bytes are at most its text's).
    pub fn decode(&self, ids: &[u32], skip_special_tokens: bool) -> Result<String> {
        let mut size = 0usize;
        for &id in ids {
            let Some(token) = self.vocab.get(id as usize) else {
                return Err(Error::invalid(format!("id {id} is not in the vocabulary (size {})", self.vocab.len())));
            };
            size = size.saturating_add(token.len());
        }
        let mut bytes = Error::room_for_text(size)?.into_bytes();
        for &id in ids {
            if skip_special_tokens && self.is_special(id) {
                continue;
            }
            let token = &self.vocab[id as usize];
            let n = bytes.len();
            if !token_bytes(token, &mut bytes) {
                bytes.truncate(n);
                bytes.extend_from_slice(token.as_bytes());
            }
        }
        match String::from_utf8(bytes) {
            Ok(text) => Ok(text),
            Err(e) => lossy(&e.into_bytes()),
        }
    }
}

impl Bpe {
    pub fn unk_id(&self) -> Option<u32> {
        self.unk
    }

    /// The ids of every text, in parallel on `threads` threads (each
    /// thread with its own cache).
    pub fn encode_batch<S: AsRef<str> + Sync>(&self, texts: &[S], threads: Option<usize>) -> Result<Vec<Vec<u32>>> {
        use rayon::prelude::*;
        crate::threads::install(threads, || {
            texts.par_iter().map_init(Cache::default, |cache, t| self.encode(t.as_ref(), cache)).collect::<Result<_>>()
        })?
    }

    /// [`Analysis`] of `texts`; `Error::Memory` when a text's tokens do
    /// not fit in memory.
    pub fn analyze<S: AsRef<str> + Sync>(&self, texts: &[S]) -> Result<Analysis> {
        let part = |chunk: &[S]| self.analyze_part(chunk);
        Analysis::in_chunks_until(texts, self.vocab_size(), None, part, || false)
    }

    /// The counts of [`Bpe::analyze`] for a chunk of the texts;
    /// `Error::Memory` when a piece's merges do not fit in memory.
    pub fn analyze_part<S: AsRef<str>>(&self, texts: &[S]) -> Result<Partial> {
        let mut cache = Cache::default();
        Analysis::part_of(texts, self.vocab_size(), self.unk, |t, ids| self.encode_into(t, &mut cache, ids, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpe::bytes::show_bytes;

    fn model(merges: &[(&str, &str)]) -> Bpe {
        let mut vocab: Vec<String> = (0..=255u8).map(|b| byte_char(b).to_string()).collect();
        let merges: Vec<(String, String)> = merges.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        for (a, b) in &merges {
            vocab.push(format!("{a}{b}"));
        }
        Bpe::new(vocab, &merges, None, &[]).unwrap()
    }

    fn tokens(m: &Bpe, text: &str) -> Vec<String> {
        m.encode(text, &mut Cache::default()).unwrap().iter().map(|&i| m.vocab[i as usize].clone()).collect()
    }

    #[test]
    fn merges_apply_by_rank_and_decode_restores_the_text() {
        let m = model(&[("Ġ", "t"), ("h", "e"), ("Ġt", "he")]);
        assert_eq!(tokens(&m, "the the"), ["t", "he", "Ġthe"]);
        let text = "héllo wörld 👋🏽 \r\n\t x";
        assert_eq!(m.decode(&m.encode(text, &mut Cache::default()).unwrap(), false).unwrap(), text);
    }

    #[test]
    fn scan_and_heap_agree_on_long_runs() {
        let m = model(&[("a", "a"), ("aa", "a"), ("aa", "aa"), ("a", "b")]);
        for n in [1, 2, 3, 5, 7, 31, 32, 33, 64, 101] {
            let mut text = "a".repeat(n);
            text.push('b');
            let mut shown = String::new();
            show_bytes(text.as_bytes(), &mut shown);
            let start: Vec<u32> = text.bytes().map(|b| m.byte_ids[b as usize].unwrap()).collect();
            let (mut x, mut y) = (start.clone(), start);
            m.merge_by_scan(&mut x);
            m.merge_by_heap(&mut y);
            assert_eq!(x, y, "n = {n}");
        }
    }

    #[test]
    fn added_tokens_decode_through_the_byte_level_decoder() {
        let mut vocab: Vec<String> = (0..=255u8).map(|b| byte_char(b).to_string()).collect();
        vocab.extend(["<s>aé</s>".to_string(), "Ã©".to_string(), "a b".to_string()]);
        let m = Bpe::new(vocab, &[], None, &["<s>aé</s>".into(), "Ã©".into(), "a b".into()]).unwrap();
        assert_eq!(m.decode(&[256], false).unwrap(), "<s>a\u{fffd}</s>");
        assert_eq!(m.decode(&[257, 258], false).unwrap(), "éa b");
        assert_eq!(m.decode(&[256, 257, 258], true).unwrap(), "");
    }

    #[test]
    fn a_merge_of_unknown_tokens_is_refused() {
        let vocab = vec!["a".to_string(), "b".to_string()];
        let err = Bpe::new(vocab, &[("a".to_string(), "b".to_string())], None, &[]).unwrap_err();
        assert!(err.to_string().contains("\"ab\""), "{err}");
    }

    #[test]
    fn a_pair_is_in_the_template_or_one_text_after_the_other() {
        let m = model(&[("a", "b")]);
        let ids = |m: &Bpe, add| m.encode_pair_with("ab", Some("b"), &mut Cache::default(), add).unwrap();
        assert_eq!(ids(&m, true), [256, 98]);
        let m = m.with_template(Some((1, 2)));
        assert_eq!(ids(&m, true), [1, 256, 2, 2, 98, 2]);
        assert_eq!(ids(&m, false), [256, 98]);
        assert_eq!(m.encode_pair_with("ab", None, &mut Cache::default(), true).unwrap(), [1, 256, 2]);
    }
}
