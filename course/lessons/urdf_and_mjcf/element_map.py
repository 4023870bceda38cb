"""The rows of the lesson's element map that MuJoCo can confirm, each asked of MuJoCo.

Every function compiles a small URDF or MJCF text and reports what MuJoCo made of it; `rows()`
gathers them for the notebook's table and the lesson's claims test asserts them. Nothing here
converts anything a learner is asked to convert. Units: metres, kilograms, radians.
"""

from __future__ import annotations

import mujoco
import numpy as np

from course import compiled, urdf

# One link on one joint below a base link, in URDF; {joint} and {link} fill in the details.
ONE_JOINT_URDF = """<robot name="one_joint">
  <link name="stand"/>
  <joint name="j" type="{kind}">
    <parent link="stand"/>
    <child link="link"/>{joint}
  </joint>
  <link name="link">{link}
  </link>{extra}
</robot>"""
UNIT_INERTIAL = """
    <inertial>
      <mass value="1.0"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
    </inertial>"""
ONE_HINGE_MJCF = """<mujoco>
  <compiler {compiler}/>
  <worldbody>
    <body name="link" {pose}>
      <joint name="j" {joint}/>
      <geom type="sphere" size="0.05"/>
    </body>
  </worldbody>
</mujoco>"""
OVERLAPPING_PAIR = """<mujoco>
  <worldbody>
    <body name="parent">{parent_joint}
      <geom type="sphere" size="0.1"/>
      <body name="child">
        <joint type="hinge"/>
        <geom type="sphere" size="0.1" pos="0.05 0 0"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""


def one_joint_urdf(kind="revolute", joint="", link=UNIT_INERTIAL, extra="") -> str:
    """URDF of a base link and one child link on a joint of `kind`; `joint` and `link` are
    the elements inside the joint and the child link, `extra` more elements of the robot."""
    return ONE_JOINT_URDF.format(kind=kind, joint=joint, link=link, extra=extra)


def one_hinge_mjcf(compiler="", pose="", joint="") -> str:
    """MJCF of one body on a hinge; the strings are attributes of compiler, body and joint."""
    return ONE_HINGE_MJCF.format(compiler=compiler, pose=pose, joint=joint)


def axis_defaults() -> dict[str, np.ndarray]:
    """The axis MuJoCo gives a joint written without one: from URDF and from MJCF."""
    from_urdf = urdf.compile_urdf(one_joint_urdf(joint='\n    <limit effort="1" velocity="1"/>'))
    from_mjcf = compiled.compile_xml(one_hinge_mjcf())
    return {"urdf": from_urdf.jnt_axis[0].copy(), "mjcf": from_mjcf.jnt_axis[0].copy()}


def placement(rpy=(0.3, 0.2, 0.1)) -> dict[str, np.ndarray]:
    """The child body's quaternion from a URDF joint origin rpy, and from MJCF euler with the
    default eulerseq ("xyz") and with eulerseq="XYZ"."""
    text = " ".join(repr(float(a)) for a in rpy)
    joint = f'\n    <origin xyz="0 0 0" rpy="{text}"/>\n    <limit effort="1" velocity="1"/>'
    found = {"urdf": urdf.compile_urdf(one_joint_urdf(joint=joint)).body_quat[1].copy()}
    for name, sequence in (("euler xyz", ""), ("euler XYZ", ' eulerseq="XYZ"')):
        model = compiled.compile_xml(
            one_hinge_mjcf(f'angle="radian"{sequence}', f'euler="{text}"', 'axis="0 1 0"')
        )
        found[name] = model.body_quat[1].copy()
    return found


def limits() -> dict[str, tuple]:
    """(limited, range) of: an MJCF hinge range="-90 90" with the default angle unit and with
    angle="radian"; a URDF revolute joint with lower/upper, and one with only effort."""
    found = {}
    for name, compiler in (("mjcf degrees", ""), ("mjcf radian", 'angle="radian"')):
        model = compiled.compile_xml(one_hinge_mjcf(compiler, "", 'range="-90 90"'))
        found[name] = (bool(model.jnt_limited[0]), model.jnt_range[0].copy())
    for name, limit in (
        ("urdf lower upper", 'lower="-1.0" upper="1.0" effort="1" velocity="1"'),
        ("urdf effort only", 'effort="1" velocity="1"'),
    ):
        model = urdf.compile_urdf(one_joint_urdf(joint=f"\n    <limit {limit}/>"))
        found[name] = (bool(model.jnt_limited[0]), model.jnt_range[0].copy())
    return found


def efforts(values=(20.0, 0.0)) -> dict[float, tuple]:
    """{URDF effort: (force limited, actuatorfrcrange)} as MuJoCo's import makes them."""
    found = {}
    for effort in values:
        joint = f'\n    <limit lower="-1" upper="1" effort="{effort!r}" velocity="1"/>'
        model = urdf.compile_urdf(one_joint_urdf(joint=joint))
        found[effort] = (bool(model.jnt_actfrclimited[0]), model.jnt_actfrcrange[0].copy())
    return found


URDF_SIX = (0.03, 0.002, 0.001, 0.025, 0.003, 0.02)  # ixx ixy ixz iyy iyz izz
MJCF_SIX = (0.03, 0.025, 0.02, 0.002, 0.001, 0.003)  # the same tensor as Ixx Iyy Izz Ixy Ixz Iyz


def inertia_orders() -> dict:
    """The tensor (kg m^2) MuJoCo compiles from URDF_SIX in a URDF <inertia>, the one from
    MJCF_SIX as fullinertia, and MuJoCo's error when URDF_SIX is written as fullinertia."""
    names = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
    attributes = " ".join(f'{n}="{v!r}"' for n, v in zip(names, URDF_SIX, strict=True))
    link = (
        f'\n    <inertial>\n      <mass value="1"/>\n      <inertia {attributes}/>\n    </inertial>'
    )
    from_urdf = urdf.compile_urdf(one_joint_urdf(joint=_LIMIT, link=link))
    found = {"urdf": _tensor(from_urdf, 1)}
    for name, six in (("mjcf", MJCF_SIX), ("urdf order as fullinertia", URDF_SIX)):
        numbers = " ".join(repr(float(v)) for v in six)
        model, error = compiled.compile_or_error(
            "<mujoco><worldbody><body><joint/>"
            f'<inertial pos="0 0 0" mass="1" fullinertia="{numbers}"/>'
            "</body></worldbody></mujoco>"
        )
        found[name] = _tensor(model, 1) if model is not None else error
    return found


_LIMIT = '\n    <limit lower="-1" upper="1" effort="1" velocity="1"/>'


def _tensor(model: mujoco.MjModel, body: int) -> np.ndarray:
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    return urdf.world_inertia(model, data, body)


def geometry_sizes() -> dict[str, np.ndarray]:
    """geom_size MuJoCo compiles from URDF shapes: box 0.2 x 0.1 x 0.06, cylinder radius 0.03
    length 0.3, sphere radius 0.04 (full URDF dimensions)."""
    shapes = {
        "box": '<box size="0.2 0.1 0.06"/>',
        "cylinder": '<cylinder radius="0.03" length="0.3"/>',
        "sphere": '<sphere radius="0.04"/>',
    }
    found = {}
    for kind, shape in shapes.items():
        link = UNIT_INERTIAL + f"\n    <collision><geometry>{shape}</geometry></collision>"
        model = urdf.compile_urdf(one_joint_urdf(joint=_LIMIT, link=link))
        found[kind] = model.geom_size[0].copy()
    return found


def visuals() -> dict[str, int]:
    """Geoms MuJoCo keeps of a link with one <visual> and one <collision>: by default, and with
    the URDF extension <compiler discardvisual="false"/>."""
    shape = "<geometry><sphere radius='0.05'/></geometry>"
    link = UNIT_INERTIAL + f"\n    <visual>{shape}</visual>\n    <collision>{shape}</collision>"
    text = one_joint_urdf(joint=_LIMIT, link=link)
    return {
        "default": urdf.compile_urdf(text).ngeom,
        "discardvisual false": urdf.compile_urdf(
            urdf.with_mujoco_block(text, discardvisual=False)
        ).ngeom,
    }


def compiler_defaults() -> dict[str, dict[str, bool]]:
    """fusestatic, discardvisual, autolimits and degree (angles in degrees) as MuJoCo's
    compiler holds them for an MJCF file and for a URDF file that sets nothing."""
    found = {}
    for name, text in (("mjcf", "<mujoco/>"), ("urdf", one_joint_urdf(joint=_LIMIT))):
        spec = mujoco.MjSpec.from_string(text)
        found[name] = {
            "fusestatic": bool(spec.compiler.fusestatic),
            "discardvisual": bool(spec.compiler.discardvisual),
            "autolimits": bool(spec.compiler.autolimits),
            "degree": bool(spec.compiler.degree),
        }
    return found


def dynamics() -> dict[str, float]:
    """damping, frictionloss and armature MuJoCo's import gives a joint with
    <dynamics damping="0.5" friction="0.2"/>."""
    joint = _LIMIT + '\n    <dynamics damping="0.5" friction="0.2"/>'
    model = urdf.compile_urdf(one_joint_urdf(joint=joint))
    return {
        "damping": float(model.dof_damping[0]),
        "frictionloss": float(model.dof_frictionloss[0]),
        "armature": float(model.dof_armature[0]),
    }


TRANSMISSION = """
  <transmission name="t">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
    <actuator name="motor"><mechanicalReduction>100</mechanicalReduction></actuator>
  </transmission>"""
TOOL_LINK = """
  <joint name="tool_joint" type="fixed">
    <parent link="link"/>
    <child link="tool0"/>
    <origin xyz="0 0 0.25"/>
  </joint>
  <link name="tool0"/>"""


def import_counts() -> dict[str, int]:
    """What MuJoCo's import makes of a one-joint URDF with a <transmission> and a massless
    tool link on a fixed joint: actuators, sites, and bodies (the world included)."""
    model = urdf.compile_urdf(one_joint_urdf(joint=_LIMIT, extra=TRANSMISSION + TOOL_LINK))
    return {"nu": model.nu, "nsite": model.nsite, "nbody": model.nbody}


def contacts_at_rest(xml: str) -> int:
    """How many contacts MuJoCo finds in the model `xml` at its initial pose (mj_forward)."""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    return data.ncon


def parent_child_contacts() -> dict[str, int]:
    """Contacts between two overlapping spheres, a child body and its parent: when the parent
    moves (has a joint) and when the parent is welded to the world."""
    found = {}
    for name, joint in (("moving parent", "\n      <joint type='hinge'/>"), ("welded parent", "")):
        found[name] = contacts_at_rest(OVERLAPPING_PAIR.format(parent_joint=joint))
    return found


SIBLINGS_ON_A_FREE_BODY = """<mujoco>
  <worldbody>
    <body name="carrier">
      <freejoint/>
      <geom type="box" size="0.02 0.02 0.02"/>
      <body name="left" pos="0 0.3 0">{joint}
        <geom type="sphere" size="0.1"/>
      </body>
      <body name="right" pos="0 0.45 0">{joint}
        <geom type="sphere" size="0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""


def sibling_contacts() -> dict[str, int]:
    """Contacts between two overlapping spheres, two children of one free body that are not
    each other's parent: welded to it (no joint) and each on its own hinge."""
    found = {}
    for name, joint in (("welded", ""), ("hinged", "\n        <joint type='hinge'/>")):
        found[name] = contacts_at_rest(SIBLINGS_ON_A_FREE_BODY.format(joint=joint))
    return found


MASSLESS_INERTIAL = """
    <inertial>
      <mass value="0"/>
      <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/>
    </inertial>"""


def massless_link() -> dict[str, str]:
    """What MuJoCo's import makes of a URDF link with zero mass and inertia and no geometry,
    on a moving (revolute) joint and on a fixed one: MuJoCo's refusal, or "compiles"."""
    found = {}
    for kind in ("revolute", "fixed"):
        model, error = compiled.compile_or_error(one_joint_urdf(kind, link=MASSLESS_INERTIAL))
        found[kind] = "compiles" if model is not None else error
    return found


def missing_inertial() -> float:
    """Mass (kg) MuJoCo's import gives a URDF link without <inertial> whose only collision is a
    0.2 m cube: the geom weighed at the default density."""
    link = "\n    <collision><geometry><box size='0.2 0.2 0.2'/></geometry></collision>"
    return float(urdf.compile_urdf(one_joint_urdf(joint=_LIMIT, link=link)).body_mass[1])


def _text(values) -> str:
    return " ".join(f"{v:g}" for v in values)


def _vector(values, digits: int = 4) -> str:
    return "(" + ", ".join(f"{v:.{digits}g}" for v in np.asarray(values, dtype=float)) + ")"


def rows() -> list[tuple[str, str]]:
    """(row of the element map, what MuJoCo did) for every row MuJoCo can confirm."""
    axes, poses, ranges = axis_defaults(), placement(), limits()
    force, tensors, sizes = efforts(), inertia_orders(), geometry_sizes()
    shown, defaults, joint, counts = visuals(), compiler_defaults(), dynamics(), import_counts()
    contacts, siblings = parent_child_contacts(), sibling_contacts()
    massless = massless_link()
    return [
        ("joint axis", f"URDF, no <axis>: {_vector(axes['urdf'])}; MJCF, no axis: "
         f"{_vector(axes['mjcf'])}"),
        ("placement", f"URDF rpy (0.3, 0.2, 0.1) -> quat {_vector(poses['urdf'])}; MJCF euler, "
         f"eulerseq XYZ {_vector(poses['euler XYZ'])}; default xyz {_vector(poses['euler xyz'])}"),
        ("position limits", f"MJCF range -90 90: {_vector(ranges['mjcf degrees'][1])} rad, "
         f"limited {ranges['mjcf degrees'][0]} (autolimits); URDF without lower/upper: "
         f"limited {ranges['urdf effort only'][0]}"),
        ("effort", f"effort 20 -> actuatorfrcrange {_vector(force[20.0][1])}; effort 0 -> "
         f"force-limited {force[0.0][0]}"),
        ("inertia", f"one tensor: URDF {_text(URDF_SIX)} = fullinertia {_text(MJCF_SIX)} "
         f"(same: {bool(np.allclose(tensors['urdf'], tensors['mjcf']))}); URDF's order as "
         f"fullinertia: {tensors['urdf order as fullinertia']}"),
        ("massless link", f"zero mass and inertia on a revolute joint -> "
         f"{massless['revolute']!r}; on a fixed joint -> {massless['fixed']}"),
        ("geometry", f"URDF box 0.2 0.1 0.06 -> geom_size {_vector(sizes['box'])}; cylinder "
         f"r 0.03 length 0.3 -> {_vector(sizes['cylinder'][:2])}"),
        ("visual and collision", f"URDF link with one of each -> {shown['default']} geom; with "
         f"discardvisual false -> {shown['discardvisual false']}"),
        ("joint dynamics", f"damping 0.5, friction 0.2 -> damping {joint['damping']:g}, "
         f"frictionloss {joint['frictionloss']:g}, armature {joint['armature']:g}"),
        ("actuators", f"a URDF <transmission> -> nu = {counts['nu']}"),
        ("tool frame", f"massless link on a fixed joint -> nsite = {counts['nsite']}, "
         f"nbody = {counts['nbody']} (world and one link)"),
        ("contacts", f"overlapping child and parent: {contacts['moving parent']} contacts when the "
         f"parent moves, {contacts['welded parent']} when it is welded to the world; two "
         f"overlapping children of one free body: {siblings['welded']} welded to it, "
         f"{siblings['hinged']} on hinges"),
        ("units", f"angles in degrees by default: MJCF {defaults['mjcf']['degree']}, "
         f"URDF {defaults['urdf']['degree']}"),
        ("compiler", f"fusestatic MJCF {defaults['mjcf']['fusestatic']} / URDF "
         f"{defaults['urdf']['fusestatic']}; discardvisual MJCF "
         f"{defaults['mjcf']['discardvisual']} / URDF {defaults['urdf']['discardvisual']}"),
    ]  # fmt: skip
