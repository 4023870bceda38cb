"""What MuJoCo's abstract scene draws with the inertia-box flag on, for the tests of the
lessons that show inertia boxes (mass and inertia's pictures, world as text's Step 4 box)."""

import mujoco


def drawn_geoms(model: mujoco.MjModel, maxgeom: int = 1000) -> list[mujoco.MjvGeom]:
    """The geoms mjv_updateScene puts in a scene of `model` at qpos0 (after mj_forward) with
    mjVIS_INERTIA on and every category shown: no rendering, so no OpenGL is needed. The
    inertia boxes are the mjCAT_DECOR boxes whose objtype is mjOBJ_BODY."""
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    option = mujoco.MjvOption()
    option.flags[mujoco.mjtVisFlag.mjVIS_INERTIA] = True
    scene = mujoco.MjvScene(model, maxgeom=maxgeom)
    mujoco.mjv_updateScene(
        model, data, option, None, mujoco.MjvCamera(), mujoco.mjtCatBit.mjCAT_ALL, scene
    )
    return list(scene.geoms[: scene.ngeom])
