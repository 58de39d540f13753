#!/usr/bin/env python3
"""Quality of trained vocabularies: each objective against Hugging Face's trainer.

Training sets (scripts/corpora.py's cache):
  * English: all of GCIDE (decoded with errors="replace") + all of Shakespeare;
  * multilingual: the German, Russian and Chinese fortunes, interleaved, minus
    every 10th line, which is held out.
Held-out text: English, the licence texts in /usr/share/common-licenses and
the English fortunes; multilingual, the held-out tenth.

For vocab 8,000 and 30,000 (min_frequency 2) it trains ours with each
objective and with ``limit_alphabet=1000``, and HF's
``BertWordPieceTokenizer.train_from_iterator`` at its default
``limit_alphabet=1000`` and (multilingual) with no limit, then reports on the
held-out text: tokens per word, characters per token, [UNK] rate, share of
the vocabulary used, and the held-out token count relative to HF's trainer at
the same alphabet setting. bert-base-uncased's vocab.txt is a reference line
for English. Words and characters come from our ``analyze`` (HF's BERT
pipeline splits the same way); HF's tokens, [UNK]s and ids from its
``encode_batch`` without special tokens.

``--speed`` adds the training-speed line: ours (default objective) against
HF's trainer on all of GCIDE at vocab 30,000, 1 and 2 threads, each run in a
fresh process (benches/bench_python.py's child) with its peak RSS.

    python benches/bench_quality.py [--speed] [--plot docs/quality.png] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scripts"))
sys.path.insert(0, str(HERE))

import corpora  # noqa: E402

import fast_wordpiece  # noqa: E402

VOCABS = (8000, 30000)
OBJECTIVES = ("likelihood", "frequency", "pmi")
MIN_FREQUENCY = 2
LICENSES = Path("/usr/share/common-licenses")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def english() -> tuple[list[str], dict[str, list[str]]]:
    train = corpora.gcide_lines() + corpora.shakespeare_text().splitlines()
    licences = []
    for path in sorted(LICENSES.iterdir()):
        if path.is_file() and not path.is_symlink():
            licences += path.read_text(encoding="utf-8", errors="replace").splitlines()
    return train, {"licences": licences, "fortunes-en": corpora.fortune_lines("en")}


def multilingual() -> tuple[list[str], dict[str, list[str]]]:
    lines = corpora.multilingual_lines()
    train = [x for i, x in enumerate(lines) if i % 10 != 9]
    held = [x for i, x in enumerate(lines) if i % 10 == 9]
    return train, {"held-out tenth": held}


def hf_stats(tok: Any, texts: list[str], words: int, characters: int) -> dict[str, Any]:
    unk = tok.token_to_id("[UNK]")
    tokens = unknown = 0
    used: set[int] = set()
    for enc in tok.encode_batch(texts, add_special_tokens=False):
        tokens += len(enc.ids)
        unknown += enc.ids.count(unk)
        used.update(enc.ids)
    vocab_size = tok.get_vocab_size()
    return {
        "vocab_size": vocab_size,
        "tokens": tokens,
        "unknown": unknown,
        "tokens_per_word": tokens / words,
        "characters_per_token": characters / tokens,
        "unknown_rate": unknown / tokens,
        "vocab_used_share": len(used) / vocab_size,
    }


def train_ours(lines: list[str], vocab: int, objective: str, limit: int | None) -> tuple[Any, float]:
    t0 = time.perf_counter()
    tok = fast_wordpiece.PyTokenizer.train(
        lines, vocab, MIN_FREQUENCY, objective=objective, limit_alphabet=limit, show_progress=False
    )
    return tok, time.perf_counter() - t0


def train_hf(lines: list[str], vocab: int, limit: int | None) -> tuple[Any, float]:
    import tokenizers

    t0 = time.perf_counter()
    tok = tokenizers.BertWordPieceTokenizer()
    kwargs: dict[str, Any] = {"limit_alphabet": limit if limit is not None else 10**9}
    tok.train_from_iterator(lines, vocab_size=vocab, min_frequency=MIN_FREQUENCY, show_progress=False, **kwargs)
    return tok, time.perf_counter() - t0


def quality(corpus: str, lines: list[str], held: dict[str, list[str]], hf_unlimited: bool) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    ruler = fast_wordpiece.PyTokenizer.from_vocab_file(corpora.bert_vocab_path())
    base = {name: ruler.analyze(texts) for name, texts in held.items()}  # words and characters
    if corpus == "English":
        for name in held:
            rows.append({"corpus": corpus, "held_out": name, "vocab": 30522, "trainer": "bert-base-uncased vocab",
                         "alphabet": "-", "seconds": None, **base[name]})  # fmt: skip
    for vocab in VOCABS:
        runs: list[tuple[str, str, Any, float, bool]] = []
        for objective in OBJECTIVES:
            tok, s = train_ours(lines, vocab, objective, None)
            runs.append((f"ours, {objective}", "all", tok, s, False))
            log(f"{corpus} {vocab} {objective}: {s:.1f} s")
        tok, s = train_ours(lines, vocab, "likelihood", 1000)
        runs.append(("ours, likelihood", "1000", tok, s, False))
        tok, s = train_hf(lines, vocab, 1000)
        runs.append(("HF trainer", "1000", tok, s, True))
        log(f"{corpus} {vocab} HF: {s:.1f} s")
        if hf_unlimited:
            tok, s = train_hf(lines, vocab, None)
            runs.append(("HF trainer", "all", tok, s, True))
        for name, texts in held.items():
            w, c = base[name]["words"], base[name]["characters"]
            stats = {}
            for trainer, alphabet, tok, s, is_hf in runs:
                st = hf_stats(tok, texts, w, c) if is_hf else tok.analyze(texts)
                stats[(trainer, alphabet)] = st
                rows.append({"corpus": corpus, "held_out": name, "vocab": vocab, "trainer": trainer,
                             "alphabet": alphabet, "seconds": s, **st})  # fmt: skip
            for row in rows[-len(runs) :]:
                hf = stats.get(("HF trainer", row["alphabet"])) or stats[("HF trainer", "1000")]
                row["vs_hf"] = row["tokens"] / hf["tokens"]
                row["vs_hf_alphabet"] = "1000" if ("HF trainer", row["alphabet"]) not in stats else row["alphabet"]
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| corpus | held out | vocab | trainer | alphabet | tokens/word | chars/token | [UNK] | vocab used "
        "| held-out tokens | vs HF | train s |",
        "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        vs = f"{r['vs_hf']:.3f}× (HF {r['vs_hf_alphabet']})" if "vs_hf" in r else "-"
        secs = "-" if r["seconds"] is None else f"{r['seconds']:.1f}"
        out.append(
            f"| {r['corpus']} | {r['held_out']} | {r['vocab']:,} | {r['trainer']} | {r['alphabet']} "
            f"| {r['tokens_per_word']:.3f} | {r['characters_per_token']:.2f} | {100 * r['unknown_rate']:.2f}% "
            f"| {100 * r['vocab_used_share']:.1f}% | {r['tokens']:,} | {vs} | {secs} |"
        )
    return "\n".join(out)


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    top = 1.10
    groups = [("English", "licences"), ("English", "fortunes-en"), ("multilingual", "held-out tenth")]
    series = [("ours, likelihood", "all"), ("ours, likelihood", "1000"), ("ours, frequency", "all"),
              ("ours, pmi", "all")]  # fmt: skip
    fig, axes = plt.subplots(1, len(groups), figsize=(10, 3.2), sharey=True)
    for ax, (corpus, held) in zip(axes, groups):
        for i, (trainer, alphabet) in enumerate(series):
            xs, ys = [], []
            for j, vocab in enumerate(VOCABS):
                for r in rows:
                    if (r["corpus"], r["held_out"], r["vocab"], r["trainer"], r["alphabet"]) == (
                        corpus, held, vocab, trainer, alphabet,
                    ):  # fmt: skip
                        xs.append(j + (i - 1.5) * 0.18)
                        ys.append(r["vs_hf"])
            label = trainer if alphabet == "all" else f"{trainer}, limit_alphabet=1000"
            ax.bar(xs, [min(y, top) for y in ys], width=0.18, label=label)
            for x, y in zip(xs, ys):
                if y > top:
                    ax.text(x, top - 0.004, f"{y:.1f}×", ha="center", va="top", fontsize=7, rotation=90)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axhline(1.03, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(len(VOCABS)), [f"vocab {v // 1000}k" for v in VOCABS])
        ax.set_title(f"{corpus}: {held}", fontsize=9)
        ax.set_ylim(0.95, top)
    axes[0].set_ylabel("held-out tokens / HF trainer's")
    axes[0].legend(fontsize=7, loc="upper left")
    fig.suptitle("Held-out token count relative to Hugging Face's WordPiece trainer (lower is better; dashed: 1.03)",
                 fontsize=9)  # fmt: skip
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def replot(json_path: Path, path: Path) -> None:
    plot(json.loads(json_path.read_text()), path)


def speed() -> str:
    import bench_python

    lines_out = [
        "| threads | ours (likelihood) s | HF trainer s | HF / ours | ours peak RSS MB | HF peak RSS MB |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for threads in (1, 2):
        res = {}
        for impl in ("engine", "hf"):
            args = {"task": "train", "impl": impl, "source": "gcide", "bytes": None, "vocab_size": 30000,
                    "min_frequency": MIN_FREQUENCY}  # fmt: skip
            res[impl] = bench_python.run_child(args, threads=threads)
            log(f"speed {threads} threads {impl}: {res[impl]}")
        e, h = res["engine"], res["hf"]
        lines_out.append(
            f"| {threads} | {e['seconds']:.2f} | {h['seconds']:.2f} | {h['seconds'] / e['seconds']:.1f}× "
            f"| {e['peak_rss'] / 1e6:.0f} | {h['peak_rss'] / 1e6:.0f} |"
        )
    return "\n".join(lines_out)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--speed", action="store_true", help="also the training-speed line")
    p.add_argument("--no-quality", action="store_true", help="only the speed line")
    p.add_argument("--plot", type=Path, help="write the plot here (PNG)")
    p.add_argument("--json", type=Path, help="write every row here")
    p.add_argument("--replot", type=Path, help="only redraw the plot from a --json file")
    args = p.parse_args()
    if args.replot:
        replot(args.replot, args.plot)
        return 0
    if not args.no_quality:
        rows = []
        train, held = english()
        rows += quality("English", train, held, hf_unlimited=False)
        train, held = multilingual()
        rows += quality("multilingual", train, held, hf_unlimited=True)
        print(table(rows))
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1))
        if args.plot:
            plot(rows, args.plot)
    if args.speed:
        print()
        print(speed())
    return 0


if __name__ == "__main__":
    sys.exit(main())
