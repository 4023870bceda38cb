"""The equivalent box taken with half sides, so it is compared with the wrong extent."""

LOSES = {
    "audit_inertias_finds_planted_bodies",
}

CELLS = {
    "audit_inertias": '''\
def audit_inertias(model):
    """Names of the bodies of `model` (an MjModel) whose equivalent inertia box is more than
    twice the extent of their collision geometry along some principal axis.

    The world body and bodies without mass or without collision geometry (for which
    lab.collision_extent returns None) are skipped. Returns a list of names in body order.
    """
    suspects = []
    for body in range(1, model.nbody):
        extent = lab.collision_extent(model, body)
        mass = model.body_mass[body]
        if extent is None or mass <= 0:
            continue
        moments = model.body_inertia[body]
        sides = np.sqrt(np.maximum(3 / mass * (moments.sum() - 2 * moments), 0.0)) / 2
        if np.any(sides > 2 * extent):
            suspects.append(model.body(body).name)
    return suspects
''',
}
