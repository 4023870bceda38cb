"""body_inertia_from_geoms compiles the parts with MuJoCo and reads the body's inertia back."""

# Right wherever MuJoCo is installed; the grader calls it where only NumPy is.
LOSES = {
    "body_inertia_from_geoms_mass_and_com",
    "body_inertia_from_geoms_aligned",
    "body_inertia_from_geoms_turned",
}

CELLS = {
    "body_inertia_from_geoms": '''\
def body_inertia_from_geoms(geoms):
    """Mass, centre of mass and inertia of one body made of `geoms`, read from MuJoCo."""
    masses = np.array([geom["mass"] for geom in geoms])
    com = masses @ np.array([geom["pos"] for geom in geoms]) / masses.sum()
    parts = "".join(
        f'<body pos="{" ".join(map(str, geom["pos"]))}" quat="{" ".join(map(str, geom["quat"]))}">'
        f'<inertial pos="0 0 0" mass="{geom["mass"]}" '
        f'diaginertia="{" ".join(map(str, geom["principal"]))}"/></body>'
        for geom in geoms
    )
    model = mujoco.MjModel.from_xml_string(
        f'<mujoco><worldbody><body><joint type="ball" pos="{" ".join(map(str, com))}"/>'
        f"{parts}</body></worldbody></mujoco>"
    )
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    inertia = np.zeros((3, 3))
    mujoco.mj_fullM(model, data, inertia)
    return masses.sum(), com, inertia
''',
}
