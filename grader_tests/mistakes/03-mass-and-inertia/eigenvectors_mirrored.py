"""The eigenvector matrix turned into a quaternion even when its determinant is -1."""

# The moments are still right. The bracket of the visible check and several hidden cases are
# tensors for which np.linalg.eigh returns a left-handed set of eigenvectors.
LOSES = {
    "principal_axes_rebuild_tensor",
}

EDITS = {
    "principal_axes": [
        (
            "    if np.linalg.det(axes) < 0:  # a mirror image: make it a rotation\n        axes[:, 0] = -axes[:, 0]\n",
            "",
        ),
    ],
}
