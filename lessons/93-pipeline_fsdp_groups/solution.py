# Pipeline + FSDP with groups: four pipeline stages (rank % 4), four batch lanes (rank // 4).
# A stage's layers are sharded over only the four ranks of that stage, and the collectives run
# over only that group, so no rank joins a collective for a layer it never computes.
from lib import Model


async def pipeline_fsdp_groups(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    stages = 4
    lanes = model.RANKS // stages
    stage, lane = model.rank % stages, model.rank // stages
    per_stage = model.LAYERS // stages
    my_layers = [stage * per_stage + i for i in range(per_stage)]
    first, last = my_layers[0], my_layers[-1]

    # One shard per lane: this rank holds shard `lane` of `lanes` of each of its own layers.
    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer, lane, lanes)

    # ----- your code starts here -----
    # The ranks that share this stage's layers, ordered by lane: position in the group = shard.
    group = [stage + stages * k for k in range(lanes)]

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
        await model.pass_to(model.rank + 1, activations[last + 1])
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
        await model.pass_to(model.rank - 1, grad_activations[first])
    del grad_activations[first]

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
