"""urdf_to_mjcf lets MuJoCo import the URDF and returns the MJCF that mj_saveLastXML writes."""

# Right wherever MuJoCo is installed; the grader calls it where only NumPy is.
LOSES = {
    "urdf_to_mjcf_kinematics_match_mujoco",
    "urdf_to_mjcf_mass_properties_match_mujoco",
    "urdf_to_mjcf_limits_and_dynamics_match_mujoco",
    "urdf_to_mjcf_collision_geoms_match_mujoco",
}

CELLS = {
    "urdf_to_mjcf": '''\
import os
import tempfile


def urdf_to_mjcf(urdf_text):
    """The MJCF MuJoCo itself writes for the URDF."""
    model = mujoco.MjModel.from_xml_string(urdf_text)
    handle, path = tempfile.mkstemp(suffix=".xml")
    os.close(handle)
    mujoco.mj_saveLastXML(path, model)
    with open(path) as saved:
        return saved.read()
''',
}
