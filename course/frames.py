"""Orientations and inertia tensors as MuJoCo writes them, and conversions MuJoCo performs.

Quaternions are scalar first, (w, x, y, z), as MJCF writes them. Every conversion here asks
MuJoCo (`mju_quat2Mat`); nothing in this module is a formula a lesson asks the learner to write.
Inertia tensors are written as six numbers in two orders: MJCF's `fullinertia` is
Ixx Iyy Izz Ixy Ixz Iyz, URDF's `<inertia>` is ixx ixy ixz iyy iyz izz.
"""

import mujoco
import numpy as np

# (row, column) of each of the six numbers, in MJCF's and in URDF's order.
MJCF_ORDER = ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))
URDF_ORDER = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))


def unit(quat) -> tuple:
    """`quat` scaled to unit length, as a tuple of floats."""
    quat = np.asarray(quat, dtype=float)
    return tuple(float(q) for q in quat / np.linalg.norm(quat))


def random_unit_quat(rng: np.random.Generator) -> np.ndarray:
    """A random orientation as a unit quaternion (w, x, y, z) with w >= 0."""
    quat = rng.normal(size=4)
    quat /= np.linalg.norm(quat)
    return quat if quat[0] >= 0 else -quat


def quat_matrix(quat) -> np.ndarray:
    """The 3x3 rotation matrix MuJoCo makes of a unit quaternion (mju_quat2Mat)."""
    matrix = np.zeros(9)
    mujoco.mju_quat2Mat(matrix, np.asarray(quat, dtype=float))
    return matrix.reshape(3, 3)


def tensor_from_six(six, order=MJCF_ORDER) -> np.ndarray:
    """The symmetric 3x3 matrix of six numbers written in `order` (MJCF's by default)."""
    tensor = np.zeros((3, 3))
    for value, (i, j) in zip(six, order, strict=True):
        tensor[i, j] = tensor[j, i] = float(value)
    return tensor


def six_from_tensor(tensor, order=MJCF_ORDER) -> list[float]:
    """The six numbers of a symmetric 3x3 matrix, in `order` (MJCF's by default)."""
    tensor = np.asarray(tensor, dtype=float)
    return [float(tensor[i, j]) for i, j in order]


# --------------------------------------------------------------------------------------------
# Rotations as MuJoCo computes them (mju_* functions), for checks that compare with MuJoCo.


def _quat(values) -> np.ndarray:
    return np.asarray(values, dtype=float).reshape(4)


def axis_angle_quat(axis, angle: float) -> np.ndarray:
    """The unit quaternion MuJoCo makes of a turn by `angle` (rad) about `axis` (any non-zero
    3-vector; MuJoCo's mju_axisAngle2Quat wants it unit, so it is normalised first)."""
    direction = np.array(axis, dtype=float).reshape(3)
    mujoco.mju_normalize3(direction)
    quat = np.zeros(4)
    mujoco.mju_axisAngle2Quat(quat, direction, float(angle))
    return quat


def multiply(q1, q2) -> np.ndarray:
    """MuJoCo's quaternion product q1 q2 (mju_mulQuat): turn by q2, then by q1."""
    product = np.zeros(4)
    mujoco.mju_mulQuat(product, _quat(q1), _quat(q2))
    return product


def rotation_angle(q1, q2) -> float:
    """The angle (rad, in [0, pi]) of the rotation between two orientations, as MuJoCo
    measures it (the length of mju_subQuat's rotation vector)."""
    difference = np.zeros(3)
    mujoco.mju_subQuat(difference, _quat(q2), _quat(q1))
    return float(mujoco.mju_norm3(difference))


def rotate(quat, vector) -> np.ndarray:
    """`vector` turned by the unit quaternion `quat` (mju_rotVecQuat)."""
    turned = np.zeros(3)
    mujoco.mju_rotVecQuat(turned, np.asarray(vector, dtype=float).reshape(3), _quat(quat))
    return turned
