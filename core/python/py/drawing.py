# SPDX-License-Identifier: MIT
"""`from drawing import draw, draw_group`: in Rankstep they mark a snapshot for the viewer."""
from _rankstep import draw, draw_group  # noqa: F401
