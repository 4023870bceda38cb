"""Code the grader runs inside each grading kernel, never imported by a lesson.

A learner's cells share the kernel with the tests, so an answer cell can rebind
`np.allclose`, `math.isclose`, `course.expect.close` or a check of `course.checks` to accept
anything. The grader sends this file's text to the kernel when it starts and calls
`install(...)`; the guard it leaves behind:

- `snapshot()`, called just before the first cell a learner can edit, records every function,
  class and module bound in the trusted modules (numpy, math, mujoco, course, builtins, ...)
  and the modules the notebook's namespace names (`np`, `check`, ...);
- `before_test()`, called before each test cell, puts back whatever an answer cell rebound
  there and says what it was, so a rebinding earns nothing and costs nothing;
- `after_test()`, called after each test cell, reports anything rebound *while the test ran*
  (an answer function that patches a comparison when the test calls it); the grader then
  gives that test cell no points.

It also caps what a cell can print (a cell that prints 200 MB sends about one megabyte and a
note), so the grading process never has to hold the whole flood.

Each answer carries `ok_token`, known only to the grader, so a stand-in guard planted by the
learner cannot answer for this one. The file is plain Python so ruff and the unit tests read
it; the kernel runs it in a namespace of its own, not as an importable module.
"""

TRUSTED_ROOTS = (
    "builtins",
    "math",
    "cmath",
    "operator",
    "functools",
    "numpy",
    "mujoco",
    "course",
)


def install(key, ok_token, roots=TRUSTED_ROOTS, output_cap=1_000_000, markers=()):
    """Create the guard, keep it as builtins.<key> and cap printed output per cell.

    `markers` are the hidden-test delimiters: after each test the guard removes the source
    of cells holding them from IPython's history (In, _ih, _i, ...) and from linecache, so a
    later cell cannot print the hidden tests into the feedback."""
    import builtins
    import sys
    import types

    # Private references, taken before any learner code runs.
    _callable, _isinstance, _getattr = builtins.callable, builtins.isinstance, builtins.getattr
    _list, _sorted, _len, _str = builtins.list, builtins.sorted, builtins.len, builtins.str
    _modules, _module_type, _type = sys.modules, types.ModuleType, builtins.type
    roots = tuple(roots)

    def guarded(value):
        return _isinstance(value, (_module_type, _type)) or _callable(value)

    def trusted_modules():
        found = {}
        for name, module in _list(_modules.items()):
            if module is not None and name.partition(".")[0] in roots:
                found[name] = module
        return found

    def user_namespace():
        shell = _getattr(builtins, "get_ipython", None)
        return shell().user_ns if shell is not None else None

    class Guard:
        def __init__(self):
            self.modules = {}  # name -> (module object, {attribute: value})
            self.aliases = {}  # notebook name -> module object

        def _record(self, name, module):
            namespace = _getattr(module, "__dict__", None)
            if namespace is not None and name not in self.modules:
                saved = {k: v for k, v in _list(namespace.items()) if guarded(v)}
                self.modules[name] = (module, saved)

        def snapshot(self):
            for name, module in trusted_modules().items():
                self._record(name, module)
            namespace = user_namespace()
            if namespace is not None:
                self.aliases = {
                    k: v
                    for k, v in _list(namespace.items())
                    if _isinstance(v, _module_type) and not k.startswith("_")
                }
            return ok_token

        def _repair(self):
            """Put every recorded binding back; return the names that had changed."""
            changed = []
            for name, (module, saved) in _list(self.modules.items()):
                if _modules.get(name, module) is not module:
                    _modules[name] = module
                    changed.append(f"sys.modules[{name!r}]")
                namespace = module.__dict__
                for attribute, value in saved.items():
                    if namespace.get(attribute, value) is not value or attribute not in namespace:
                        namespace[attribute] = value
                        changed.append(f"{name}.{attribute}")
            namespace = user_namespace()
            if namespace is not None:
                for alias, module in self.aliases.items():
                    if namespace.get(alias) is not module:
                        namespace[alias] = module
                        changed.append(alias)
            # Modules first imported since the last look are trusted from now on.
            for name, module in trusted_modules().items():
                self._record(name, module)
            return changed

        def before_test(self):
            return ok_token + "|" + ",".join(_sorted(self._repair())[:50])

        def after_test(self):
            changed = self._repair()
            _scrub_history(markers)
            return ok_token + "|" + ",".join(_sorted(changed)[:50])

    guard = Guard()
    setattr(builtins, key, guard)
    _cap_output(output_cap)
    return ok_token


def _scrub_history(markers):
    """Forget the source of every executed cell that holds a marker."""
    import builtins
    import linecache

    if not markers:
        return
    placeholder = "# (a test cell with hidden tests; its source is not kept)\n"

    def secret(text):
        return isinstance(text, str) and any(m in text for m in markers)

    for filename, entry in list(linecache.cache.items()):
        lines = entry[2] if len(entry) > 2 else []
        if any(secret(line) for line in lines):
            linecache.cache.pop(filename, None)
    get_ipython = getattr(builtins, "get_ipython", None)
    if get_ipython is None:
        return
    shell = get_ipython()
    namespace = shell.user_ns
    history = shell.history_manager
    for entries in (
        namespace.get("In"),
        namespace.get("_ih"),
        getattr(history, "input_hist_parsed", None),
        getattr(history, "input_hist_raw", None),
    ):
        if isinstance(entries, list):
            for index, text in enumerate(entries):
                if secret(text):
                    entries[index] = placeholder
    for name in [n for n in namespace if n.startswith("_i")]:
        if secret(namespace.get(name)):
            namespace[name] = placeholder
    cache = getattr(history, "db_input_cache", None)
    if isinstance(cache, list):
        cache[:] = [row for row in cache if not any(secret(part) for part in row)]
    try:
        history.db.execute(
            "UPDATE history SET source = ?, source_raw = ? WHERE source_raw LIKE ?",
            (placeholder, placeholder, f"%{markers[0]}%"),
        )
    except Exception:  # no history database: nothing stored there
        pass


def _cap_output(limit):
    """Let each cell write at most `limit` characters to stdout and stderr together."""
    import sys

    if not limit or limit < 0:
        return
    budget = {"left": limit, "noted": False}

    def reset(*_):
        budget["left"], budget["noted"] = limit, False

    def capped(write):
        def write_capped(text):
            if not isinstance(text, str) or budget["left"] >= len(text):
                if isinstance(text, str):
                    budget["left"] -= len(text)
                return write(text)
            keep = text[: max(budget["left"], 0)]
            budget["left"] = 0
            if not budget["noted"]:
                budget["noted"] = True
                keep += f"\n... output capped by the grader after {limit:,} characters ...\n"
            if keep:
                write(keep)
            return len(text)

        return write_capped

    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "write"):
            try:
                stream.write = capped(stream.write)
            except (AttributeError, TypeError):
                pass
    shell = getattr(__import__("builtins"), "get_ipython", None)
    if shell is not None:
        shell().events.register("pre_run_cell", reset)
