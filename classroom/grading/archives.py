"""Unpacking an LMS download, and the learners' own zips inside it, without trusting them.

The download is the instructor's (the LMS wrote it): it is unpacked whole, but no member
lands outside the folder (an absolute name or ".." is left out and said). A zip inside it is a
learner's, who may have zipped their notebook, or sent a corrupt zip, or a zip bomb: it is
unpacked in place (into a folder of its name) when it opens, unpacks to at most
`LEARNER_LIMIT` bytes together with the zips inside it, and lies at most `LEARNER_DEPTH` zips
deep. Otherwise it is left packed (its student's row then says what was found instead of a
notebook) and said in one line; one learner's zip no longer stops the whole download.
"""

from __future__ import annotations

import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

MiB = 1024 * 1024
LEARNER_LIMIT = 200 * MiB  # bytes a learner's zip, with the zips in it, may unpack to
LEARNER_DEPTH = 2  # a zip in a learner's zip is unpacked too; one deeper is left packed
MEMBER_COST = 4096  # bytes charged for each member besides its own (a million empty files)
UTF8_FLAG = 0x800  # a zip member's "name is UTF-8" flag (APPNOTE 4.4.4, bit 11)


class NotAZip(ValueError):
    """The download itself does not open as a zip."""


@dataclass
class Unpacked:
    """What unpacking said: the names read as UTF-8 without the zip's flag, and one line for
    each member or learner's zip left out."""

    repaired: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


class _TooLarge(Exception):
    pass


@dataclass
class _Budget:
    """Bytes a learner's zip may still unpack to."""

    left: int

    def charge(self, size: int) -> None:
        self.left -= size
        if self.left < 0:
            raise _TooLarge


def unpack(archive: Path, target: Path) -> Unpacked:
    """Unpack the download `archive` into target, and the learners' zips inside it (each
    into a folder of its name, then removed); NotAZip when the download is not a zip."""
    said = Unpacked()
    try:
        _unpack_zip(archive, target, said, budget=None)
    except zipfile.BadZipFile:
        raise NotAZip(f"{archive} is not a zip file (is it the LMS's download?)") from None
    _unpack_learners_zips(target, target, said, depth=1, budget=None)
    return said


def member_name(member: zipfile.ZipInfo) -> tuple[str, bool]:
    """A zip member's name, and whether it was repaired: a name stored as UTF-8 without the
    zip's UTF-8 flag (zipfile then reads it as cp437, "garc├¡a") is read as UTF-8."""
    name = member.filename
    if member.flag_bits & UTF8_FLAG or name.isascii():
        return name, False
    try:
        return name.encode("cp437").decode("utf-8"), True
    except UnicodeError:  # truly cp437 (an old Windows zip): keep it
        return name, False


def _unpack_zip(archive: Path, target: Path, said: Unpacked, budget: _Budget | None) -> None:
    """Every member of archive under target (none outside it); _TooLarge past the budget."""
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive) as zf:
        for member in zf.infolist():
            text, fixed = member_name(member)
            if fixed:
                said.repaired.append(text)
            name = PurePosixPath(text)
            if name.is_absolute() or ".." in name.parts:
                said.refused.append(f"{archive.name}: {text!r} names a place outside the zip")
                continue
            if member.is_dir():
                continue
            destination = target.joinpath(*name.parts)
            destination.parent.mkdir(parents=True, exist_ok=True)
            if budget is not None:
                budget.charge(MEMBER_COST)
            with zf.open(member) as source, open(destination, "wb") as out:
                while chunk := source.read(1 << 20):
                    if budget is not None:
                        budget.charge(len(chunk))  # what it holds, not what it declares
                    out.write(chunk)


def _unpack_learners_zips(
    folder: Path, root: Path, said: Unpacked, depth: int, budget: _Budget | None
) -> None:
    """Each zip under folder unpacked into a folder of its name and removed, or left packed
    and said; the zips inside it in turn, one level deeper, from the same budget."""
    for inner in sorted(folder.rglob("*.zip")):
        where = inner.relative_to(root).as_posix()
        if depth > LEARNER_DEPTH:
            said.refused.append(f"{where}: a zip {depth} zips deep: left packed, not graded")
            continue
        own = budget if budget is not None else _Budget(LEARNER_LIMIT)
        unpacked = _new_folder(inner.with_suffix(""))
        try:
            _unpack_zip(inner, unpacked, said, own)
        except _TooLarge:
            shutil.rmtree(unpacked, ignore_errors=True)
            said.refused.append(
                f"{where}: unpacks to more than {LEARNER_LIMIT // MiB} MB (a zip bomb?): "
                "left packed, not graded"
            )
            continue
        except Exception as exc:  # noqa: BLE001 - corrupt, encrypted, a method zipfile lacks
            shutil.rmtree(unpacked, ignore_errors=True)
            said.refused.append(f"{where}: does not unpack ({exc}): left as it is, not graded")
            continue
        inner.unlink()
        _unpack_learners_zips(unpacked, root, said, depth + 1, own)


def _new_folder(wanted: Path) -> Path:
    """wanted, or wanted with a number, whichever does not exist yet (a zip's folder never
    merges into a folder that was there, nor is one removed with it)."""
    folder, number = wanted, 1
    while folder.exists():
        number += 1
        folder = wanted.with_name(f"{wanted.name}-{number}")
    return folder
