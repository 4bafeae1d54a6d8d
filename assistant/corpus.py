"""Paper records and the parsers that turn source files into them.

Formats, recognised by content rather than by file name:
- listing pages (``.txt``/``.md``): abstracts separated by blank lines, optionally each
  preceded by a subject-area line and an author line; heading lines are skipped;
- the ICML virtual-site catalogue (a JSON list of events with ``type`` and ``speakers/authors``):
  posters become papers, other event types are counted as skipped;
- generic records in JSON, JSON Lines or CSV with a title and an abstract (or ``text``),
  optional ``id``/``doc_id``/``paper_id``, authors, area, url.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable

from assistant.sentences import split_sentences

LISTING_SUFFIXES = {".txt", ".md"}
RECORD_SUFFIXES = {".json", ".jsonl", ".ndjson", ".csv"}
MAX_FILE_BYTES = 200 * 1024 * 1024


@dataclass
class Paper:
    """One paper: the unit that search returns and answers cite."""

    paper_id: str
    title: str
    authors: list[str]
    area: str
    url: str
    abstract: str
    source: str = ""

    def content_hash(self) -> str:
        """Hash of everything that is indexed; re-ingest skips a paper whose hash is unchanged."""
        payload = json.dumps([self.title, self.authors, self.area, self.url, self.abstract], ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:24]

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (JSON-ready)."""
        return asdict(self)


@dataclass
class Rejected:
    """A file or record that could not be ingested, and why."""

    where: str
    reason: str


@dataclass
class ParseResult:
    """Everything parsed from a batch of files."""

    papers: list[Paper] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)  # catalogue events that are not papers, by type


def abstract_key(abstract: str) -> str:
    """Key that matches the same abstract across sources (whitespace-insensitive)."""
    return hashlib.sha1(" ".join(abstract.split()).encode("utf-8")).hexdigest()[:16]


def fallback_id(abstract: str) -> str:
    """Stable id for a paper whose source gives none: a hash of its abstract."""
    return "h" + abstract_key(abstract)[:12]


def readable_label(abstract: str, limit: int = 80) -> str:
    """A title for a paper that has none: its first sentence, shortened."""
    sentences = split_sentences(abstract)
    first = sentences[0].text if sentences else abstract.strip()
    first = " ".join(first.split())
    if len(first) > limit:
        first = first[:limit].rsplit(" ", 1)[0] + "…"
    return f"Untitled: {first}" if first else "Untitled paper"


def split_authors(value: Any) -> list[str]:
    """Authors from a list, or a string separated by commas, semicolons or ' and '."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [str(a).strip() for a in value if str(a).strip()]
    text = str(value)
    parts = re.split(r"\s*;\s*|\s*,\s*|\s+and\s+", text)
    return [p.strip() for p in parts if p.strip()]


def poster_id(url: str) -> str:
    """Paper id from an ICML virtual-site URL (``.../poster/35005`` -> ``35005``)."""
    match = re.search(r"/(?:poster|oral|spotlight)/(\d+)", url or "")
    return match.group(1) if match else ""


# ---------------------------------------------------------------- listing pages

def _is_abstract_block(block: str) -> bool:
    # Abstracts are long prose; headings, areas and author lines are short single lines.
    return len(block) >= 200 or (len(block) >= 80 and "\n" not in block and block.rstrip().endswith("."))


def _looks_like_area(line: str) -> bool:
    return "·" in line or ("," not in line and len(line.split()) <= 8 and not line.endswith("."))


def parse_listing(text: str, source: str) -> ParseResult:
    """Parse a listing page: abstracts, each optionally preceded by area and author lines."""
    result = ParseResult()
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text.replace("\r\n", "\n")) if b.strip()]
    pending: list[str] = []
    seen_abstract = False
    for block in blocks:
        if not _is_abstract_block(block):
            pending.append(" ".join(block.split()))
            continue
        area, authors = "", []
        if len(pending) >= 2:
            area, authors = pending[-2], split_authors(pending[-1])
        elif len(pending) == 1 and seen_abstract:
            # One short line between abstracts: an author line has commas, an area line has a dot-separator.
            if _looks_like_area(pending[0]):
                area = pending[0]
            else:
                authors = split_authors(pending[0])
        # else: a lone short line at the top of the page is its heading, not metadata.
        abstract = " ".join(block.split())
        result.papers.append(Paper(fallback_id(abstract), "", authors, area, "", abstract, source))
        pending, seen_abstract = [], True
    return result


# ---------------------------------------------------------------- records

def is_catalogue(records: list[Any]) -> bool:
    """True for the ICML virtual-site event listing."""
    return bool(records) and all(isinstance(r, dict) for r in records[:5]) and all(
        "type" in r and "speakers/authors" in r for r in records[:5]
    )


def parse_catalogue(records: list[dict[str, Any]], source: str) -> ParseResult:
    """Posters become papers; every other event type is counted as skipped."""
    result = ParseResult()
    for i, rec in enumerate(records):
        kind = str(rec.get("type", "")).strip()
        if kind != "Poster":
            result.skipped[kind or "unknown"] += 1
            continue
        abstract = " ".join(str(rec.get("abstract") or "").split())
        title = " ".join(str(rec.get("name") or "").split())
        url = str(rec.get("virtualsite_url") or "").replace("//virtual", "/virtual")
        if not abstract:
            result.rejected.append(Rejected(f"{source}[{i}]", "poster has no abstract"))
            continue
        pid = poster_id(url) or fallback_id(abstract)
        result.papers.append(Paper(pid, title, split_authors(rec.get("speakers/authors")), "", url, abstract, source))
    return result


def parse_records(records: Iterable[Any], source: str) -> ParseResult:
    """Generic records: title + abstract (or text), optional id, authors, area, url."""
    result = ParseResult()
    for i, rec in enumerate(records):
        where = f"{source}[{i}]"
        if not isinstance(rec, dict):
            result.rejected.append(Rejected(where, f"record is a {type(rec).__name__}, not an object"))
            continue
        lowered = {str(k).strip().lower(): v for k, v in rec.items() if k is not None}
        abstract = lowered.get("abstract") or lowered.get("text") or ""
        if not isinstance(abstract, str) or not abstract.strip():
            result.rejected.append(Rejected(where, "missing field 'abstract' (or 'text')"))
            continue
        abstract = " ".join(abstract.split())
        raw_id = next((lowered[k] for k in ("id", "doc_id", "paper_id") if lowered.get(k) not in (None, "")), None)
        pid = str(raw_id).strip() if raw_id is not None else fallback_id(abstract)
        title = " ".join(str(lowered.get("title") or lowered.get("name") or "").split())
        authors = split_authors(lowered.get("authors") or lowered.get("speakers/authors"))
        area = " ".join(str(lowered.get("area") or lowered.get("subject_area") or "").split())
        url = str(lowered.get("url") or lowered.get("virtualsite_url") or "").strip()
        result.papers.append(Paper(pid, title, authors, area, url, abstract, source))
    return result


# ---------------------------------------------------------------- files

def read_text(path: Path) -> str:
    """Read a file as UTF-8 (a BOM is allowed); raises ValueError with a readable reason."""
    size = path.stat().st_size
    if size == 0:
        raise ValueError("file is empty")
    if size > MAX_FILE_BYTES:
        raise ValueError(f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text (byte {exc.start}: {data[exc.start:exc.start + 1]!r})") from None
    if not text.strip():
        raise ValueError("file has no text")
    return text


def parse_file(path: Path) -> ParseResult:
    """Parse one file; any problem becomes a ``Rejected`` entry instead of an exception."""
    source = str(path)
    suffix = path.suffix.lower()
    if suffix not in LISTING_SUFFIXES | RECORD_SUFFIXES:
        return ParseResult(rejected=[Rejected(source, f"unsupported file type '{suffix or path.name}'")])
    try:
        text = read_text(path)
        if suffix in LISTING_SUFFIXES:
            result = parse_listing(text, source)
            if not result.papers:
                result.rejected.append(Rejected(source, "no abstracts found (expected paragraphs separated by blank lines)"))
            return result
        if suffix == ".csv":
            return parse_records(csv.DictReader(io.StringIO(text)), source)
        if suffix == ".json":
            data = json.loads(text)
            if isinstance(data, dict):
                data = data.get("papers") or data.get("records") or data.get("data") or [data]
            if not isinstance(data, list):
                return ParseResult(rejected=[Rejected(source, "JSON must be a list of records or an object")])
            return parse_catalogue(data, source) if is_catalogue(data) else parse_records(data, source)
        return _parse_jsonl(text, source)
    except json.JSONDecodeError as exc:
        return ParseResult(rejected=[Rejected(source, f"invalid JSON at line {exc.lineno}: {exc.msg}")])
    except (ValueError, OSError, csv.Error) as exc:
        return ParseResult(rejected=[Rejected(source, str(exc))])


def _parse_jsonl(text: str, source: str) -> ParseResult:
    records: list[Any] = []
    bad: list[Rejected] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            bad.append(Rejected(f"{source}:{lineno}", f"invalid JSON: {exc.msg}"))
    result = parse_records(records, source)
    result.rejected = bad + result.rejected
    return result


def collect_files(paths: Iterable[Path]) -> tuple[list[Path], list[Rejected]]:
    """Expand folders (recursively, sorted) and report paths that do not exist."""
    files: list[Path] = []
    missing: list[Rejected] = []
    for path in paths:
        if path.is_dir():
            files.extend(p for p in sorted(path.rglob("*")) if p.is_file() and not p.name.startswith("."))
        elif path.is_file():
            files.append(path)
        else:
            missing.append(Rejected(str(path), "no such file or folder"))
    return files, missing
