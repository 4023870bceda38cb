"""principal_axes compiles the tensor as a fullinertia and reads body_inertia and body_iquat."""

# Right wherever MuJoCo is installed; the grader calls it where only NumPy is.
LOSES = {
    "principal_axes_moments",
    "principal_axes_rebuild_tensor",
}

CELLS = {
    "principal_axes": '''\
def principal_axes(inertia):
    """The principal moments and axes of a 3x3 inertia tensor, as MuJoCo compiles them."""
    tensor = np.asarray(inertia, dtype=float)
    six = [tensor[0, 0], tensor[1, 1], tensor[2, 2], tensor[0, 1], tensor[0, 2], tensor[1, 2]]
    model = compiled.compile_xml(lab.body_xml(lab.inertial_element(1.0, fullinertia=six)))
    return model.body_inertia[1].copy(), model.body_iquat[1].copy()
''',
}
