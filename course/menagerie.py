"""Real robots from MuJoCo Menagerie, loaded through the `mujoco_menagerie` package.

The `mujoco-menagerie` package holds the list of models, not the models: it downloads each
one once, on first use, into its cache (MENAGERIE_CACHE_DIR, or ~/.cache/mujoco_menagerie on
Linux); MENAGERIE_ROOT may point at a local checkout instead. A model is looked for on disk
first, offline: a checkout, the cache's copy for this version of the package, then a copy an
earlier version of the package published in the same cache (its models are the same robots at
another Menagerie revision). They illustrate a lesson and nothing graded depends on them, so a
model that cannot be had (never downloaded and no internet, nbgrader grading) makes
`load_model` print one line and return None, and the notebook goes on.

`model_summary` counts what a model holds. Whether a body's inertia was written in the file
or inferred from its geoms cannot be read from a compiled MjModel, so for that part the
summary needs the parsed model (an MjSpec, MJCF text or a file path).
"""

from __future__ import annotations

import os
import re
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import TYPE_CHECKING

import mujoco_menagerie

from course.runtime import in_grader

if TYPE_CHECKING:
    import pathlib

    import mujoco

__all__ = ["load_model", "load_spec", "model_summary"]

# Seconds to wait for the download server before calling the machine offline. The package
# itself retries three times with a 60 s timeout each, which is minutes behind a firewall
# that drops packets.
NETWORK_PROBE_TIMEOUT = 5.0

_NOT_GRADED = "Nothing graded depends on it."

# The file mujoco_menagerie writes last into a model's cache folder, once it is complete (its
# private _cache.SENTINEL; grader_tests/course/test_menagerie.py checks they agree).
_PUBLISHED = ".complete"


def load_model(
    name: str, entry: str | None = None, *, check_network: bool = True
) -> mujoco.MjModel | None:
    """Compile a Menagerie model; None (after one printed line) when it cannot be had.

    Args:
      name: the Menagerie directory name, e.g. "robotstudio_so101".
      entry: an entry point of that model (e.g. "scene" or the robot file's name); None is
        the default scene, else the default robot.
      check_network: before a first download, test for 5 s whether the download server
        answers, so an offline machine gets its message at once instead of after the
        package's retries (about 8 s, or minutes when packets are dropped).

    Returns None without touching the network while nbgrader grades, and None when the
    model is neither cached nor downloadable, or fails to compile. Raises
    mujoco_menagerie.UnknownRobotError / UnknownEntryPointError for a misspelt name: that is
    a bug in the calling cell, and the error suggests the right spelling.
    """
    import mujoco

    return _read(name, entry, check_network, mujoco.MjModel.from_xml_path, "did not compile")


def load_spec(
    name: str, entry: str | None = None, *, check_network: bool = True
) -> mujoco.MjSpec | None:
    """Parse a Menagerie model into a mujoco.MjSpec (not compiled); None as for `load_model`.

    Give the result to `model_summary` to learn which bodies state their inertia explicitly.
    """
    import mujoco

    return _read(name, entry, check_network, mujoco.MjSpec.from_file, "could not be parsed")


def _read(name: str, entry: str | None, check_network: bool, reader, failure: str):
    """reader(path of the model's XML), or None after one line saying why."""
    xml = _model_xml(name, entry, check_network)
    if xml is None:
        return None
    try:
        return reader(str(xml))
    except ValueError as exc:
        print(f"Menagerie model {name!r} {failure}: {_first_line(exc)} {_NOT_GRADED}")
        return None


def _model_xml(name: str, entry: str | None, check_network: bool) -> pathlib.Path | None:
    """The entry point's XML file on disk, downloading it if needed; None after a message."""
    robot = mujoco_menagerie.get(name)  # unknown name: raise, with a suggestion
    robot.entry(entry)  # unknown entry point: raise before any download
    if in_grader():
        print(f"Menagerie model {name!r} skipped while grading. {_NOT_GRADED}")
        return None
    cache = mujoco_menagerie.Cache()
    if cache.root is None and not cache.is_cached(robot):
        earlier = _earlier_copy(robot, entry, cache)
        if earlier is not None:
            return earlier
    size = f"{robot.download_size / 1e6:.1f} MB, " if robot.download_size else ""
    # The package holds the list of models, not the models: say so, as "installed" misleads.
    offline = (
        f"Menagerie model {name!r} is not available offline: the mujoco-menagerie package "
        f"downloads each model on first use, so this cell needs internet access once (or "
        f"MENAGERIE_ROOT pointing at a checkout). {_NOT_GRADED}"
    )
    if check_network and cache.root is None and not cache.is_cached(robot):
        if not _server_answers(cache.base_url):
            print(offline)
            return None
        # Announced only once the server answered, so an offline attempt prints one line.
        print(f"Downloading Menagerie model {name!r} ({size}once) into {cache.dir} ...")
    try:
        return robot.xml(entry, cache)
    except mujoco_menagerie.DownloadError as exc:
        cause = exc.__cause__
        if isinstance(cause, OSError) and not isinstance(cause, urllib.error.HTTPError):
            print(offline)  # no DNS, no route, timed out: the usual offline failures
        else:  # the server answered with an error, or the archive did not match its digest
            print(
                f"Menagerie model {name!r} could not be downloaded: {_first_line(exc)}. "
                f"{_NOT_GRADED}"
            )
        return None
    except mujoco_menagerie.MenagerieError as exc:  # e.g. not under MENAGERIE_ROOT
        print(f"Menagerie model {name!r} could not be loaded: {_first_line(exc)}. {_NOT_GRADED}")
        return None


def _earlier_copy(robot, entry: str | None, cache) -> pathlib.Path | None:
    """The entry point's XML in a copy of `robot` that another version of the package
    published in `cache` (complete, holding that file), the newest first; None if there is
    none. The package names each copy <name>-<first 16 digits of its oid> and marks it
    complete with a sentinel file last, so a half-written copy is never taken."""
    copies = [
        folder
        for folder in (cache.dir / "models").glob(f"{robot.name}-*")
        if re.fullmatch(rf"{re.escape(robot.name)}-[0-9a-f]{{16}}", folder.name)
        and (folder / _PUBLISHED).is_file()
        and (folder / robot.entry(entry).file).is_file()
    ]
    if not copies:
        return None
    newest = max(copies, key=lambda folder: (folder / _PUBLISHED).stat().st_mtime)
    return newest / robot.entry(entry).file


def _server_answers(base_url: str) -> bool:
    """Whether a TCP connection to the download server opens within the probe timeout.

    Behind a proxy the direct connection says nothing, so the download is simply tried.
    """
    parts = urllib.parse.urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return True  # file:// or another scheme: let the package decide
    proxies = urllib.request.getproxies()
    if parts.scheme in proxies or "all" in proxies:
        return True
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=NETWORK_PROBE_TIMEOUT):
            return True
    except OSError:  # no DNS, no route, refused, timed out
        return False


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


_JOINT_TYPE_NAMES = ("free", "ball", "slide", "hinge")  # mjtJoint values 0..3


def model_summary(
    source: mujoco.MjModel | mujoco.MjSpec | str | os.PathLike,
) -> dict:
    """Count what a model holds.

    Args:
      source: a compiled mujoco.MjModel, a parsed mujoco.MjSpec, MJCF text (a string
        containing "<"), or the path of an MJCF file.

    Returns a dict with:
      "bodies": number of bodies, counting the world body;
      "joints": {"free": n, "ball": n, "slide": n, "hinge": n};
      "dofs": degrees of freedom (model.nv);
      "actuators": number of actuators;
      "geoms": number of geoms;
      "total_mass": sum of all body masses, in kg;
      "explicit_inertial": names of the bodies whose mass and inertia come from an
        <inertial> element in the file (an unnamed body is "body <id>"), in body-id order.
        With <compiler inertiafromgeom="true"> MuJoCo ignores those elements, so the list is
        empty. None when `source` is an MjModel: compiling forgets where inertia came from.
    """
    import mujoco

    spec = None
    if isinstance(source, mujoco.MjModel):
        model = source
    else:
        if isinstance(source, mujoco.MjSpec):
            spec = source
        elif isinstance(source, str) and "<" in source:
            spec = mujoco.MjSpec.from_string(source)
        else:
            spec = mujoco.MjSpec.from_file(os.fspath(source))
        model = spec.compile()

    joints = dict.fromkeys(_JOINT_TYPE_NAMES, 0)
    for joint_type in model.jnt_type:
        joints[_JOINT_TYPE_NAMES[int(joint_type)]] += 1

    explicit = None
    if spec is not None:
        explicit = []
        from_geoms = (
            spec.compiler.inertiafromgeom == mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_TRUE
        )
        if not from_geoms:
            # After compile each spec body knows its id in the model; the world is id 0.
            stated = sorted((body.id, body.name) for body in spec.bodies if body.explicitinertial)
            explicit = [name or f"body {body_id}" for body_id, name in stated if body_id > 0]

    return {
        "bodies": int(model.nbody),
        "joints": joints,
        "dofs": int(model.nv),
        "actuators": int(model.nu),
        "geoms": int(model.ngeom),
        "total_mass": float(model.body_mass.sum()),
        "explicit_inertial": explicit,
    }
