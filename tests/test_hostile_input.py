"""Hostile and careless input, from real files and the real command line: one bad file or record
is refused alone with a one-line reason, the rest is ingested, and nothing prints a traceback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from assistant.answer import _turns
from assistant.cli import UserError, _request
from assistant.config import PROJECT_ROOT, Settings
from assistant import corpus
from assistant.corpus import parse_file
from assistant.embedding import HashEmbedder
from assistant.index import Index
from assistant.ingest import ingest
from assistant.store import StoreError
from tests.conftest import quiet

ENV = {**os.environ, "ASSISTANT_EMBED_MODEL": "hash"}
ABSTRACT = ("We introduce Quokka, a method for counting marsupials in aerial photographs. "
            "Quokka reaches 97.5% accuracy on 12 islands. It runs on a laptop.")


def cli(data_dir: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`assistant ARGS --data-dir DATA_DIR` with the model-free embedder."""
    return subprocess.run([sys.executable, "-m", "assistant", *args, "--data-dir", str(data_dir)], cwd=PROJECT_ROOT,
                          env=ENV, input=stdin, capture_output=True, text=True, timeout=300)


def record(pid: object, title: str = "Quokka", abstract: object = ABSTRACT, **extra: object) -> dict:
    return {"id": pid, "title": title, "abstract": abstract, **extra}


def test_deeply_nested_json_file_is_rejected_alone(tmp_path: Path) -> None:
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "a_deep.json").write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    (batch / "b_deep.jsonl").write_text(json.dumps(record("L1")) + "\n" + "[" * 200_000 + "]" * 200_000 + "\n",
                                        encoding="utf-8")
    (batch / "c_good.json").write_text(json.dumps([record("G1"), record("G2", "Wallaby")]), encoding="utf-8")
    done = cli(tmp_path / "data", "ingest", str(batch), "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    assert report["papers"]["added"] == 3  # L1, G1, G2
    reasons = {Path(r["where"]).name: r["reason"] for r in report["rejected"]}
    assert reasons == {"a_deep.json": "JSON nested too deeply to read (no paper record is nested like this)",
                       "b_deep.jsonl:2": "JSON nested too deeply to read (no paper record is nested like this)"}


def test_blank_id_is_rejected_alone_and_the_index_stays_consistent(tmp_path: Path) -> None:
    settings = Settings.from_env({}, data_dir=tmp_path / "data")
    source = tmp_path / "papers.json"
    source.write_text(json.dumps([record("P1"), record(" ", "Blank"), record("\t\x00", "Control only"),
                                  record("P3", "Wallaby")]), encoding="utf-8")
    report = ingest([source], settings, embedder_factory=HashEmbedder, log=quiet)
    assert report.papers["added"] == 2
    assert [(r.where.rsplit("/", 1)[-1], r.reason) for r in report.rejected] == [
        ("papers.json[1]", "field 'id' is blank"), ("papers.json[2]", "field 'id' is blank")]
    status = Index.open(settings, log=quiet).status()
    assert status["consistent"] and status["dense"] == {"papers": 2, "chunks": 2}


def test_wrong_types_nul_bytes_and_one_huge_csv_field(tmp_path: Path) -> None:
    path = tmp_path / "typed.json"
    path.write_text(json.dumps([record(["x"]), record("A", abstract=["not", "text"]), record({"n": 1}),
                                record("B", title=["T"]), record("C", authors=[{"name": "X"}]),
                                record("D", title="Nul\x00 title", abstract="Nul\x00 " + ABSTRACT, area="A\x00rea"),
                                record(7, authors="Ann One; Bob\x00 Two")]), encoding="utf-8")
    result = parse_file(path)
    reasons = [r.reason for r in result.rejected]
    assert reasons == ["field 'id' must be a string or a whole number, not a list",
                       "field 'abstract' must be text, not a list",
                       "field 'id' must be a string or a whole number, not an object",
                       "field 'title' must be text, not a list",
                       "field 'authors' must be a list of names or one string"]
    d, seven = result.papers
    assert (d.paper_id, d.title, d.area) == ("D", "Nul title", "A rea") and "\x00" not in d.abstract
    assert d.abstract.startswith("Nul We introduce")
    assert seven.paper_id == "7" and seven.authors == ["Ann One", "Bob Two"]

    big = tmp_path / "big.csv"
    huge = "word " * 40_000  # 200,000 characters: over csv's own 128 KB field limit and ours
    big.write_text(f'id,title,abstract\nR1,Good,"{ABSTRACT}"\nR2,Huge,"{huge}"\nR3,Also good,"{ABSTRACT}"\n',
                   encoding="utf-8")
    result = parse_file(big)
    assert [p.paper_id for p in result.papers] == ["R1", "R3"]
    assert [r.reason for r in result.rejected] == [
        f"abstract is 199,999 characters; the limit is {corpus.MAX_ABSTRACT_CHARS:,}"]


def test_null_in_stdin_history_is_not_the_text_none() -> None:
    line = json.dumps({"question": "Who wrote it?", "history": [
        None, {"question": None}, {"question": "What is ReadAgent?", "focus": [
            {"paper_id": "34161", "title": None}, {"paper_id": None, "title": "Ghost"}]}]})
    question, history = _request(line)
    turns = _turns(history)
    texts = [t.question for t in turns] + [str(p) for t in turns for p in t.focus + t.cited]
    assert question == "Who wrote it?" and len(turns) == 1 and len(turns[0].focus) == 1
    assert not any("None" in text for text in texts), texts
    for bad in ([3], [["x"]], [{"question": ["x"]}]):
        try:
            _request(json.dumps({"question": "q", "history": bad}))
        except UserError as exc:
            assert "history" in str(exc)
        else:
            raise AssertionError(f"history {bad!r} was accepted")


def test_numeric_settings_out_of_range_are_one_line_errors(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for args, words in [(["search", "x", "--rrf-k", "-1"], "rrf_k"), (["search", "x", "-k", "-1"], "-k must be at least 1"),
                        (["search", "x", "-k", "0"], "-k must be at least 1"), (["search", "x", "--top-k", "-3"], "top_k"),
                        (["search", "x", "--max-query-chars", "0"], "max_query_chars"),
                        (["ask", "x", "--max-tokens", "-5"], "max_tokens"), (["ask", "x", "--llm-timeout", "nan"], "finite"),
                        (["serve", "--port", "99999"], "from 1 to 65535")]:
        done = cli(data, *args)
        assert done.returncode != 0, args
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
    assert not data.exists()  # refused before anything was opened or created


def test_serve_start_up_errors_are_one_line_before_serving(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        busy = str(holder.getsockname()[1])
        runs = [(["serve", "--port", busy], {}, "already in use")]
        runs += [(["serve", "--port", busy], {"ASSISTANT_AUTH": value}, "must look like user:password")
                 for value in ("nopassword", ":", "user:", ":pw", " :pw")]
        for args, env, words in runs:
            done = subprocess.run([sys.executable, "-m", "assistant", *args, "--data-dir", str(data)], cwd=PROJECT_ROOT,
                                  env={**ENV, **env}, capture_output=True, text=True, timeout=120)
            assert done.returncode != 0 and "Serving" not in done.stdout, (env, done.stdout)
            assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
            assert "nopassword" not in done.stderr  # a password is never echoed


def test_missing_or_empty_index_says_so_and_ingest_of_nothing_fails(tmp_path: Path) -> None:
    data = tmp_path / "typo"
    for args in (["search", "decoding"], ["ask", "What is ReadAgent?"], ["status"]):
        done = cli(data, *args)
        assert done.returncode != 0 and done.stderr.count("\n") == 1, done.stderr
        assert "no papers are indexed yet; run `assistant ingest`" in done.stderr and str(data) in done.stderr
    assert not data.exists()  # a mistyped --data-dir creates nothing

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([record(" ")]), encoding="utf-8")
    data = tmp_path / "data"
    for paths, reason in (([bad], "every input was rejected or missing"),
                          ([tmp_path / "nope.json"], "every input was rejected or missing")):
        done = cli(data, "ingest", *map(str, paths))
        assert done.returncode != 0 and f"error: nothing was ingested: {reason}" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    for args in (["search", "decoding"], ["ask", "What is ReadAgent?"]):  # the index exists, and is empty
        done = cli(data, *args)
        assert done.returncode != 0 and done.stderr == "error: no papers are indexed yet; run `assistant ingest`\n"
    assert cli(data, "status").returncode == 0


def test_chat_on_an_empty_index_says_so(tmp_path: Path) -> None:
    from assistant.ui import build_app

    settings = Settings.from_env({}, data_dir=tmp_path / "data", embed_model="hash")
    respond = next(f.fn for f in build_app(settings).fns.values() if f.api_name == "chat")
    *_, (chat, *_rest) = respond("What is ReadAgent?", [], [])
    assert "no papers are indexed yet; run `assistant ingest`" in chat[-1]["content"].replace("\\", "")


class Interrupted(Exception):
    """Stands for a kill in the middle of an ingest."""


def named_embedder(name: str, dimension: int, fail_after: int | None = None) -> HashEmbedder:
    """A hashing embedder with its own model name; it raises Interrupted after ``fail_after`` batches."""
    embedder = HashEmbedder(dimension)
    embedder.name = name
    calls = iter(range(10**6))
    embed = embedder.embed

    def interrupted_embed(texts):  # type: ignore[no-untyped-def]
        if fail_after is not None and next(calls) >= fail_after:
            raise Interrupted
        return embed(texts)

    embedder.embed = interrupted_embed  # type: ignore[method-assign]
    return embedder


def test_model_is_recorded_before_the_first_vector(tmp_path: Path) -> None:
    settings = Settings.from_env({}, data_dir=tmp_path / "data")
    source = tmp_path / "many.jsonl"
    source.write_text("".join(json.dumps(record(f"M{n}", f"Paper {n}", f"{ABSTRACT} Variant {n}.")) + "\n"
                              for n in range(200)), encoding="utf-8")  # two batches of papers
    try:
        ingest([source], settings, embedder_factory=lambda: named_embedder("model-a", 64, fail_after=1), log=quiet)
    except Interrupted:
        pass
    assert Index.open(settings, log=quiet).store.counts()["papers"] == 128  # the first batch was committed
    for other in (named_embedder("model-b", 32), named_embedder("model-c", 64)):  # other size; same size
        try:
            ingest([source], settings, embedder_factory=lambda: other, log=quiet)
        except StoreError as exc:
            assert f"built with the embedding model 'model-a', not '{other.name}'" in str(exc)
        else:
            raise AssertionError(f"{other.name} was mixed into an index of model-a")
    # An index left so by an older version, with no model on record: the vectors' size still tells.
    Index.open(settings, log=quiet).store.meta.delete(ids=["index"])
    try:
        ingest([source], settings, embedder_factory=lambda: named_embedder("model-b", 32), log=quiet)
    except StoreError as exc:
        assert "vectors of 64 dimensions from another embedding model" in str(exc)
    else:
        raise AssertionError("vectors of two sizes were mixed")
    report = ingest([source], settings, embedder_factory=lambda: named_embedder("model-a", 64), log=quiet)
    assert report.papers["added"] == 72 and report.papers["unchanged"] == 128


def test_oversized_abstracts_and_files_are_refused_with_progress(tmp_path: Path) -> None:
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "one_line.txt").write_text("lorem ipsum " * 500_000 + ".", encoding="utf-8")  # 6 MB, one paragraph
    (batch / "long.json").write_text(json.dumps([record("L1", abstract="word " * 5_000), record("G1")]),
                                     encoding="utf-8")
    with open(batch / "huge.jsonl", "wb") as huge:  # sparse: over the file limit without writing it
        huge.truncate(corpus.MAX_FILE_BYTES + 1)
    done = cli(tmp_path / "data", "ingest", str(batch), "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    assert report["papers"]["added"] == 1
    reasons = {Path(r["where"].split(" (")[0].split("[")[0]).name: r["reason"] for r in report["rejected"]}
    limit = f"the limit is {corpus.MAX_ABSTRACT_CHARS:,}"
    assert reasons == {"huge.jsonl": "file is larger than 200 MB", "long.json": f"abstract is 24,999 characters; {limit}",
                       "one_line.txt": f"abstract is 6,000,001 characters; {limit}"}
    assert "reading " in done.stderr and "huge.jsonl" in done.stderr  # a big file is announced
    assert "1 papers (1 chunks) to embed" in done.stderr and "embedded 1/1 papers" in done.stderr
