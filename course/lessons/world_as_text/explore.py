"""Small interactive controls for the lessons' "Break it" sections.

Written for ipywidgets 7.7.1 (Colab) and 8 alike: only widgets, traits and the `observe`
call that both versions share.
"""

from collections.abc import Callable

import mujoco

from course.mjcf import INERTIA_FROM_GEOM, one_of


def mass_table(model: mujoco.MjModel, reference: mujoco.MjModel | None = None) -> str:
    """Plain-text table of each body's mass (kg), beside `reference` when given."""
    lines = []
    for b in range(1, model.nbody):
        line = f"{model.body(b).name or f'body {b}':16s} {model.body_mass[b]:8.4f} kg"
        if reference is not None:
            line += f"   (as written {reference.body_mass[b]:.4f} kg)"
        lines.append(line)
    total = float(model.body_mass.sum())
    line = f"{'total':16s} {total:8.4f} kg"
    if reference is not None:
        line += f"   (as written {float(reference.body_mass.sum()):.4f} kg,"
        line += f" x{total / float(reference.body_mass.sum()):.2f})"
    lines.append(line)
    return "\n".join(lines)


def inertia_rule_explorer(model_for_rule: Callable[[str], mujoco.MjModel]):
    """Toggle compiler/inertiafromgeom and show the compiled body masses.

    model_for_rule(rule) compiles the model with rule "auto", "true" or "false"; a rule that
    does not compile shows MuJoCo's error instead of a table. Returns the widget box.
    """
    import ipywidgets as widgets
    from IPython.display import display

    toggle = widgets.ToggleButtons(
        options=list(INERTIA_FROM_GEOM), value="auto", description="inertiafromgeom"
    )
    output = widgets.Output()
    reference = model_for_rule("auto")

    def show(rule: str) -> None:
        output.clear_output()
        with output:
            try:
                print(mass_table(model_for_rule(rule), reference))
            except ValueError as error:  # MuJoCo's compiler errors are ValueErrors
                print(f'inertiafromgeom="{rule}" does not compile: {error}')

    toggle.observe(lambda change: show(change["new"]), names="value")
    show("auto")
    box = widgets.VBox([toggle, output])
    display(box)
    return box


def compile_with_inertia_rule(spec: mujoco.MjSpec, rule: str) -> mujoco.MjModel:
    """Compile a copy of a parsed model with compiler/inertiafromgeom set to `rule`."""
    one_of(rule, INERTIA_FROM_GEOM, "compiler/inertiafromgeom")
    copy = spec.copy()
    copy.compiler.inertiafromgeom = getattr(
        mujoco.mjtInertiaFromGeom, f"mjINERTIAFROMGEOM_{rule.upper()}"
    )
    return copy.compile()
