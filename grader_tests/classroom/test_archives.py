"""An LMS download unpacked without trusting the learners' zips inside it: a zipped notebook is
read as if handed in unzipped; a zip bomb, a corrupt zip, a zip too deep, a name outside the
folder are each left and said in one line, and the rest of the download is read."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from classroom.grading import archives, download

LESSON = "01-world-as-text"


def zipped(members: dict[str, bytes]) -> bytes:
    """A zip (deflated) holding members {name: bytes}."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def lms_download(tmp_path: Path, members: dict[str, bytes]) -> Path:
    path = tmp_path / "submissions.zip"
    path.write_bytes(zipped(members))
    return path


def unpacked(tmp_path: Path, members: dict[str, bytes]) -> tuple[archives.Unpacked, dict]:
    """(what unpacking said, {relative path: bytes} of what it left)."""
    target = tmp_path / "download"
    said = archives.unpack(lms_download(tmp_path, members), target)
    files = target.rglob("*")
    return said, {p.relative_to(target).as_posix(): p.read_bytes() for p in files if p.is_file()}


@pytest.fixture
def small_limit(monkeypatch):
    monkeypatch.setattr(archives, "LEARNER_LIMIT", 1 * archives.MiB)


def test_a_zipped_notebook_is_read_as_if_handed_in_unzipped(tmp_path):
    inner = zipped({f"{LESSON}.ipynb": b"{}", "data/points.csv": b"1,2\n"})
    said, files = unpacked(tmp_path, {"ada/work.zip": inner, f"bo/{LESSON}.ipynb": b"{}"})
    assert files == {
        f"ada/work/{LESSON}.ipynb": b"{}",
        "ada/work/data/points.csv": b"1,2\n",
        f"bo/{LESSON}.ipynb": b"{}",
    }
    assert said.refused == []


def test_a_zip_bomb_is_left_packed_and_said(tmp_path, small_limit):
    bomb = zipped({"zeros.bin": bytes(2 * archives.MiB)})
    assert len(bomb) < 10_000, "the fixture is a bomb: small packed, large unpacked"
    said, files = unpacked(tmp_path, {"ada/bomb.zip": bomb, f"bo/{LESSON}.ipynb": b"{}"})
    assert set(files) == {"ada/bomb.zip", f"bo/{LESSON}.ipynb"}, "no half-unpacked folder"
    assert said.refused == [
        "ada/bomb.zip: unpacks to more than 1 MB (a zip bomb?): left packed, not graded"
    ]


def test_many_empty_members_count_against_the_limit(tmp_path, small_limit):
    crowd = zipped({f"empty-{n}.txt": b"" for n in range(300)})  # 300 x 4 KiB > 1 MiB
    said, _ = unpacked(tmp_path, {"ada/crowd.zip": crowd})
    assert len(said.refused) == 1 and "ada/crowd.zip: unpacks to more than" in said.refused[0]


def test_the_zips_inside_a_learners_zip_share_its_limit(tmp_path, small_limit):
    half = zipped({"zeros.bin": bytes(600 * 1024)})
    said, files = unpacked(tmp_path, {"ada/both.zip": zipped({"a.zip": half, "b.zip": half})})
    assert said.refused == [
        "ada/both/b.zip: unpacks to more than 1 MB (a zip bomb?): left packed, not graded"
    ]
    assert "ada/both/a/zeros.bin" in files and "ada/both/b.zip" in files


def test_a_corrupt_zip_is_left_as_it_is_and_the_rest_is_read(tmp_path):
    said, files = unpacked(tmp_path, {"ada/broken.zip": b"PK\x03\x04 not really", "bo/x.txt": b"x"})
    assert set(files) == {"ada/broken.zip", "bo/x.txt"}
    (line,) = said.refused
    assert line.startswith("ada/broken.zip: does not unpack (") and "\n" not in line


def test_a_zip_too_deep_is_left_packed(tmp_path):
    deepest = zipped({f"{LESSON}.ipynb": b"{}"})
    nested = zipped({"two.zip": zipped({"three.zip": deepest})})
    said, files = unpacked(tmp_path, {"ada/one.zip": nested})
    assert set(files) == {"ada/one/two/three.zip"}
    assert said.refused == ["ada/one/two/three.zip: a zip 3 zips deep: left packed, not graded"]


def test_a_name_outside_the_folder_is_not_written_and_said(tmp_path):
    said, files = unpacked(tmp_path, {"../escaped.txt": b"x", "ada/ok.txt": b"ok"})
    assert set(files) == {"ada/ok.txt"} and not (tmp_path / "escaped.txt").exists()
    assert said.refused == ["submissions.zip: '../escaped.txt' names a place outside the zip"]


def test_a_zip_beside_a_folder_of_its_name_never_touches_that_folder(tmp_path, small_limit):
    bomb = zipped({"zeros.bin": bytes(2 * archives.MiB)})
    said, files = unpacked(tmp_path, {"ada/work.zip": bomb, "ada/work/notes.txt": b"mine"})
    assert files["ada/work/notes.txt"] == b"mine"
    assert "ada/work.zip" in files and len(said.refused) == 1


def test_the_download_says_each_line_and_grades_the_rest(tmp_path, small_limit):
    """Through read_download, as the grading command reads it."""
    bomb = zipped({f"{LESSON}.ipynb": bytes(2 * archives.MiB)})
    path = lms_download(tmp_path, {"ada/bomb.zip": bomb, f"bo/{LESSON}.ipynb": b"{}"})
    read = download.read_download(path, [LESSON], tmp_path / "work")
    assert "ada/bomb.zip: unpacks to more than 1 MB (a zip bomb?): left packed, not graded" in (
        read.warnings
    )
    assert {student for student, _ in read.groups} == {"ada", "bo"}
