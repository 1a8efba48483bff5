# SPDX-License-Identifier: MIT
"""The puzzle API under the notebook's names: `from lib import Model, Dist, WeightGrad`."""
from _rankstep import (  # noqa: F401
    HIDDEN,
    LENGTH,
    Activation,
    ActivationGrad,
    Dist,
    KeysValues,
    Model,
    OptState,
    PuzzleError,
    RunStopped,
    Weight,
    WeightGrad,
    draw,
    draw_group,
)

__all__ = [
    "HIDDEN", "LENGTH", "Activation", "ActivationGrad", "Dist", "KeysValues", "Model", "OptState",
    "PuzzleError", "Weight", "WeightGrad", "draw", "draw_group",
]
