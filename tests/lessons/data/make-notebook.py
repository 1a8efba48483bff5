#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes puzzles.ipynb: the eight notebook puzzles' reference solutions laid out as the original
# puzzle notebook lays them out (an imports cell, a cell per puzzle, cells that run and draw it,
# helper cells), with gpipe's cell broken by a syntax error. Run from this folder after a
# deliberate change; the notebook is checked in as test data.
import json
import pathlib

LESSONS = pathlib.Path(__file__).resolve().parents[3] / "lessons"
PUZZLES = [("10-basic", "basic", 1), ("20-grad_accum", "grad_accum", 1), ("30-ddp", "ddp", 4),
           ("40-wsdp", "wsdp", 4), ("50-fsdp", "fsdp", 4), ("60-pipeline", "pipeline", 4),
           ("70-gpipe", "gpipe", 4), ("80-pipeline_fsdp", "pipeline_fsdp", 16)]


def code(text):
    lines = text.splitlines(keepends=True)
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": lines}


def markdown(text):
    return {"cell_type": "markdown", "metadata": {}, "source": [text]}


def solution(folder):
    text = (LESSONS / folder / "solution.py").read_text()
    kept = [line for line in text.splitlines(keepends=True) if not line.startswith("from lib")]
    return "".join(kept).strip() + "\n"


cells = [
    markdown("# LLM Training Puzzles\n"),
    code("%%capture\n!pip install -qqq git+https://github.com/chalk-diagrams/chalk\n"),
    code("from lib import Model, Dist, WeightGrad\nfrom drawing import draw, draw_group\n"
         "from chalk import vcat\nimport asyncio\nimport chalk\n"
         "chalk.set_svg_height(400)\nchalk.set_svg_draw_height(600)\n"),
    code("ranks = 4\nweight_grads = [WeightGrad(0, 1, {i}, ranks) for i in range(ranks)]\n"),
    code("async def myfunc(model: Model) -> WeightGrad:\n"
         "    return await model.allreduce(weight_grads[model.rank], 0)\n"),
]
for folder, name, world in PUZZLES:
    source = solution(folder)
    if name == "gpipe":
        source = source.replace("async def gpipe(model: Model) -> Model:",
                                "async def gpipe(model: Model) -> Model\n    # the colon is missing")
    cells.append(markdown(f"## {name}\n"))
    cells.append(code(source))
    cells.append(code(f"dist = Dist({world})\nout = await asyncio.gather(*[\n"
                      f"    {name}(Model(layers=2, batches={world}, rank=i, dist=dist))\n"
                      f"    for i in range({world})])\ndraw(out)\n"))
notebook = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}
pathlib.Path(__file__).with_name("puzzles.ipynb").write_text(json.dumps(notebook, indent=1) + "\n")
