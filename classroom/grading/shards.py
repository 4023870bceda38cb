"""Grading past one machine: each machine grades a range of the students, one merges.

`--shard K/N` grades the K-th of N contiguous ranges of the sorted student ids and leaves its
results in shards/K-of-N/results.json without touching the gradebook; `--merge` applies every
shard's results to the course gradebook, as one run would have.
"""

from __future__ import annotations

import json
from pathlib import Path

from classroom.grading import records, staging, state
from classroom.grading.plan import RunFacts
from classroom.grading.results import Result
from classroom.grading.staging import GradeError

SHARDS = "shards"
RESULTS_NAME = "results.json"


def shard_of(students: list[str], k: int, n: int) -> set[str]:
    """The K-th of N contiguous ranges of the sorted student ids (sizes differ by one at most)."""
    ordered = sorted(set(students))
    start, end = (k - 1) * len(ordered) // n, k * len(ordered) // n
    return set(ordered[start:end])


def folder(root: Path, shard: tuple[int, int]) -> Path:
    return root / SHARDS / f"{shard[0]}-of-{shard[1]}"


def save(root: Path, shard: tuple[int, int], results: list[Result], facts: RunFacts) -> Path:
    """Write one shard's results where --merge finds them."""
    target = folder(root, shard)
    target.mkdir(parents=True, exist_ok=True)
    facts = json.loads(json.dumps(facts.as_dict(), default=str))
    key = state.course_key(root)
    signed = [state.sign(key, json.loads(json.dumps(r.as_dict(), default=str))) for r in results]
    payload = {"shard": list(shard), "facts": facts, "results": signed}
    (target / RESULTS_NAME).write_text(json.dumps(payload, indent=1), encoding="utf-8")
    return target


def _load(root: Path) -> tuple[int, list[dict]]:
    """(N, the payload of each of the N shards), or GradeError naming what is missing."""
    found = sorted((root / SHARDS).glob("*-of-*"))
    if not found:
        raise GradeError(f"no shard results in {root / SHARDS}")
    counts = {int(f.name.split("-of-")[1]) for f in found}
    if len(counts) != 1:
        raise GradeError(f"shards of different splits in {root / SHARDS}: {sorted(counts)}")
    n = counts.pop()
    paths = [folder(root, (k, n)) / RESULTS_NAME for k in range(1, n + 1)]
    missing = [k for k, path in enumerate(paths, start=1) if not path.is_file()]
    if missing:
        raise GradeError(f"shards {missing} of {n} have no {RESULTS_NAME} yet")
    return n, [json.loads(path.read_text("utf-8")) for path in paths]


def merge(root: Path, config, staging_dir: Path) -> tuple[list[Result], RunFacts]:
    """Put the results of every shard in shards/ into the gradebook."""
    from nbgrader.api import Gradebook

    n, payloads = _load(root)
    signing_key = state.course_key(root)
    results, problems, unassigned, seen = [], [], [], {}
    for k, payload in enumerate(payloads, start=1):
        forged = [r for r in payload["results"] if not state.verified(signing_key, r)]
        if forged:
            raise GradeError(
                f"shard {k} of {n} holds {len(forged)} results that fail the integrity check "
                f"(changed since the shard wrote them?): grade that shard again"
            )
        problems += payload["facts"].get("problems", [])
        unassigned += payload["facts"].get("unassigned", [])
        for result in map(Result.from_dict, payload["results"]):
            if result.key in seen:
                raise GradeError(
                    f"{result.student} ({result.lesson}) was graded in shards {seen[result.key]}"
                    f" and {k}"
                )
            seen[result.key] = k
            results.append(result)
    lessons = sorted({r.lesson for r in results})
    first = RunFacts.from_dict(payloads[0]["facts"])  # the course and limits: the first's
    facts = RunFacts(
        input=f"{n} shards in {root / SHARDS} (first: {first.input})",
        problems=problems,
        unassigned=unassigned,
        course=first.course,
        lessons=lessons,
        workers=first.workers,
        cell_timeout=first.cell_timeout,
        notebook_timeout=first.notebook_timeout,
    )
    main_db = staging.course_db(root, config)
    _, failed = staging.prepare(root, staging_dir, lessons, main_db)
    if failed:
        raise GradeError(f"cannot register {sorted(failed)} in the gradebook: {failed}")
    with Gradebook(main_db, config.CourseDirectory.course_id) as gb:
        refused = records.record_many(gb, sorted(results, key=lambda r: r.key))
    records.said_refused(refused, facts.problems)  # the others are written all the same
    return results, facts
