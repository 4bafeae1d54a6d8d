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
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar, overload

from assistant.errors import AssistantError
from assistant.text import split_sentences

LISTING_SUFFIXES = {".txt", ".md"}
RECORD_SUFFIXES = {".json", ".jsonl", ".ndjson", ".csv"}
MAX_FILE_BYTES = 200 * 1024 * 1024
# Five times the longest abstract in the ICML 2024 catalogue (3,878 characters): a longer one is a
# whole paper or a broken file, and would hold the ingest lock for minutes while it is chunked.
MAX_ABSTRACT_CHARS = 20_000
# C0 control characters (NUL included) and DEL never belong in a title or an abstract.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass(kw_only=True)
class Paper:
    """One paper: the unit that search returns and answers cite."""

    paper_id: str
    title: str = ""
    authors: list[str] = field(default_factory=list)
    area: str = ""
    url: str = ""
    abstract: str  # kw_only: a field without a default may follow defaults, so to_dict keeps this order
    source: str = ""

    def content_hash(self) -> str:
        """Hash of everything that is indexed; re-ingest skips a paper whose hash is unchanged."""
        payload = json.dumps([self.title, self.authors, self.area, self.url, self.abstract], ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:24]

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (JSON-ready)."""
        return asdict(self)

    def header(self) -> dict[str, Any]:
        """The fields a hit or a citation shows before its text, in their JSON order."""
        return {
            "paper_id": self.paper_id,
            "title": self.title,
            "authors": list(self.authors),
            "area": self.area,
            "url": self.url,
        }

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> Paper:
        """The paper a ``to_dict`` (or a registry record) describes; missing optional fields are empty."""
        return cls(
            paper_id=record["paper_id"],
            title=record.get("title", ""),
            authors=list(record.get("authors", [])),
            area=record.get("area", ""),
            url=record.get("url", ""),
            abstract=record["abstract"],
            source=record.get("source", ""),
        )


T = TypeVar("T")


class PaperField(Generic[T]):
    """A read-only attribute of a record that holds a ``paper``: the paper's field of the same name."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, record: None, owner: type) -> PaperField[T]: ...
    @overload
    def __get__(self, record: OfPaper, owner: type) -> T: ...
    def __get__(self, record: OfPaper | None, owner: type) -> PaperField[T] | T:
        return self if record is None else getattr(record.paper, self.name)

    def __set__(self, record: OfPaper, value: T) -> None:
        raise AttributeError(f"{self.name} belongs to the paper: replace the paper instead")


class OfPaper:
    """Read-only access to the fields of the ``paper`` a record holds (a hit, a citation)."""

    paper: Paper
    paper_id = PaperField[str]()
    title = PaperField[str]()
    authors = PaperField[list[str]]()
    area = PaperField[str]()
    url = PaperField[str]()
    abstract = PaperField[str]()


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


class BadRecord(AssistantError, ValueError):
    """One record cannot be used; its message is the one-line reason."""


def clean(text: str) -> str:
    """Text without control characters, whitespace collapsed to single spaces."""
    return " ".join(CONTROL.sub(" ", text).split())


def check_abstract(abstract: str) -> str:
    """The abstract, or BadRecord when it is longer than MAX_ABSTRACT_CHARS."""
    if len(abstract) > MAX_ABSTRACT_CHARS:
        raise BadRecord(f"abstract is {len(abstract):,} characters; the limit is {MAX_ABSTRACT_CHARS:,}")
    return abstract


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
        return [a for a in (clean(str(a)) for a in value) if a]
    text = clean(str(value))
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
            pending.append(clean(block))
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
        pending, seen_abstract = [], True
        abstract = clean(block)
        try:
            check_abstract(abstract)
        except BadRecord as exc:
            result.rejected.append(Rejected(f"{source} (paragraph starting {abstract[:40]!r})", str(exc)))
            continue
        result.papers.append(
            Paper(paper_id=fallback_id(abstract), authors=authors, area=area, abstract=abstract, source=source)
        )
    return result


# ---------------------------------------------------------------- records


def is_catalogue(records: list[Any]) -> bool:
    """True for the ICML virtual-site event listing."""
    return (
        bool(records)
        and all(isinstance(r, dict) for r in records[:5])
        and all("type" in r and "speakers/authors" in r for r in records[:5])
    )


def parse_catalogue(records: list[dict[str, Any]], source: str) -> ParseResult:
    """Posters become papers; every other event type is counted as skipped."""
    result = ParseResult()
    for i, rec in enumerate(records):
        kind = str(rec.get("type", "")).strip()
        if kind != "Poster":
            result.skipped[kind or "unknown"] += 1
            continue
        abstract = clean(str(rec.get("abstract") or ""))
        title = clean(str(rec.get("name") or ""))
        url = clean(str(rec.get("virtualsite_url") or "")).replace("//virtual", "/virtual")
        if not abstract:
            result.rejected.append(Rejected(f"{source}[{i}]", "poster has no abstract"))
            continue
        try:
            check_abstract(abstract)
        except BadRecord as exc:
            result.rejected.append(Rejected(f"{source}[{i}]", str(exc)))
            continue
        pid = poster_id(url) or fallback_id(abstract)
        authors = split_authors(rec.get("speakers/authors"))
        result.papers.append(
            Paper(paper_id=pid, title=title, authors=authors, url=url, abstract=abstract, source=source)
        )
    return result


def parse_records(records: Iterable[Any], source: str) -> ParseResult:
    """Generic records: title + abstract (or text), optional id, authors, area, url.

    A record with a field of the wrong type, a blank id or an oversized abstract is rejected
    alone, with the reason; the others are kept.
    """
    result = ParseResult()
    for i, rec in enumerate(records):
        try:
            result.papers.append(_record_paper(rec, source))
        except BadRecord as exc:
            result.rejected.append(Rejected(f"{source}[{i}]", str(exc)))
    return result


def _record_paper(rec: Any, source: str) -> Paper:
    """One generic record as a Paper; BadRecord says why it cannot be one."""
    if not isinstance(rec, dict):
        raise BadRecord(f"record is a {type(rec).__name__}, not an object")
    lowered = {str(k).strip().lower(): v for k, v in rec.items() if k is not None}
    abstract = _first(lowered, "abstract", "text")
    if abstract is not None and not isinstance(abstract, str):
        raise BadRecord(f"field 'abstract' must be text, not {_kind(abstract)}")
    abstract = clean(abstract or "")
    if not abstract:
        raise BadRecord("missing field 'abstract' (or 'text')")
    check_abstract(abstract)
    title = _scalar(lowered, "title", "name")
    area = _scalar(lowered, "area", "subject_area")
    url = _scalar(lowered, "url", "virtualsite_url")
    authors = _first(lowered, "authors", "speakers/authors")
    if isinstance(authors, (list, tuple)) and not all(_is_scalar(a) for a in authors):
        raise BadRecord("field 'authors' must be a list of names or one string")
    if not (authors is None or isinstance(authors, (list, tuple)) or _is_scalar(authors)):
        raise BadRecord(f"field 'authors' must be a list of names or one string, not {_kind(authors)}")
    return Paper(
        paper_id=_record_id(lowered, abstract),
        title=title,
        authors=split_authors(authors),
        area=area,
        url=url,
        abstract=abstract,
        source=source,
    )


def _record_id(lowered: dict[str, Any], abstract: str) -> str:
    """The record's own id, else a hash of its abstract; a blank or non-scalar id is refused
    (Chroma refuses an empty id, and would fail the whole batch the paper is written in)."""
    for key in ("id", "doc_id", "paper_id"):
        value = lowered.get(key)
        if value is None or value == "":
            continue
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise BadRecord(f"field '{key}' must be a string or a whole number, not {_kind(value)}")
        pid = CONTROL.sub("", str(value)).strip()
        if not pid:
            raise BadRecord(f"field '{key}' is blank")
        return pid
    return fallback_id(abstract)


def _first(lowered: dict[str, Any], *names: str) -> Any:
    """The first of ``names`` with a non-empty value (None when none has one)."""
    return next((lowered[n] for n in names if lowered.get(n) not in (None, "", [], ())), None)


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    return {"list": "a list", "dict": "an object", "bool": "true/false"}.get(type(value).__name__, type(value).__name__)


def _scalar(lowered: dict[str, Any], *names: str) -> str:
    """A text field (a number is taken as its text); a list or an object is refused, not stored as its repr."""
    value = _first(lowered, *names)
    if value is None:
        return ""
    if not _is_scalar(value):
        raise BadRecord(f"field '{next(n for n in names if lowered.get(n) is value)}' must be text, not {_kind(value)}")
    return clean(str(value))


# ---------------------------------------------------------------- files

NESTED = "JSON nested too deeply to read (no paper record is nested like this)"


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
        raise ValueError(f"not UTF-8 text (byte {exc.start}: {data[exc.start : exc.start + 1]!r})") from None
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
            if not result.papers and not result.rejected:
                result.rejected.append(
                    Rejected(source, "no abstracts found (expected paragraphs separated by blank lines)")
                )
            return result
        if suffix == ".csv":
            # The file is at most MAX_FILE_BYTES, so no field is cut: one long field is then one
            # record refused for its size, not csv's 128 KB limit failing every row of the file.
            csv.field_size_limit(max(csv.field_size_limit(), MAX_FILE_BYTES))
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
    except RecursionError:
        return ParseResult(rejected=[Rejected(source, NESTED)])
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
        except RecursionError:
            bad.append(Rejected(f"{source}:{lineno}", NESTED))
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
