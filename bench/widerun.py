# SPDX-License-Identifier: MIT
# The wide run of bench/openbench.cpp (docs/benchmarks.md): pipeline stages by the layout, each
# stage's layers sharded over its data-parallel group; tensor ranks repeat their group's work.
# One batch a data-parallel replica: --batches equal to DATA.
from lib import Model


async def big(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    stages = model.PIPELINE
    stage, lane, lanes = model.coords["pipeline"], model.coords["data"], model.DATA
    per_stage = model.LAYERS // stages
    my_layers = [stage * per_stage + i for i in range(per_stage)]
    first, last = my_layers[0], my_layers[-1]
    group = model.group("data")
    line = model.group("pipeline")
    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer, lane, lanes)
    if stage == 0:
        activations[0] = model.get_activation([lane])
    else:
        activations[first] = await model.receive()
    for layer in my_layers:
        weights[layer, 0] = await model.allgather(weights[layer], layer, group=group)
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer, 0])
        del weights[layer, 0]
    if stage == stages - 1:
        grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    else:
        await model.pass_to(line[stage + 1], activations[last + 1])
    del activations[last + 1]
    if stage != stages - 1:
        grad_activations[last + 1] = await model.receive()
    for layer in reversed(my_layers):
        weights[layer, 0] = await model.allgather(weights[layer], layer, group=group)
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer, 0]
        )
        del grad_activations[layer + 1], activations[layer], weights[layer, 0]
        grad_weights[layer] = await model.scatterreduce(grad_weights[layer], layer, group=group)
    if stage != 0:
        await model.pass_to(line[stage - 1], grad_activations[first])
    del grad_activations[first]
    for layer in my_layers:
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
