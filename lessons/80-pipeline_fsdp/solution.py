# Pipeline + FSDP on 16 ranks: four pipeline stages (rank % 4) of one layer each, four batch
# lanes (rank // 4). Every layer's weight is sharded over all 16 ranks: each rank gathers every
# layer (it must take part in every collective) but computes only its own stage.
from lib import Model


async def pipeline_fsdp(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    stages = 4
    stage, lane = model.rank % stages, model.rank // stages
    per_stage = model.LAYERS // (model.RANKS // stages)
    my_layers = [stage * per_stage + i for i in range(per_stage)]

    for layer in range(model.LAYERS):
        weights[layer, 0], opt_states[layer, 0] = model.load_weights(layer, model.rank, model.RANKS)

    # ----- your code starts here -----
    for layer in range(model.LAYERS):
        if layer == my_layers[0]:
            if stage == 0:
                activations[0] = model.get_activation([lane])
            else:
                activations[layer] = await model.receive()
        weights[layer] = await model.allgather(weights[layer, 0], layer)
        if layer in my_layers:
            activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
        del weights[layer]
        if layer == my_layers[-1]:
            if stage == stages - 1:
                grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
            else:
                await model.pass_to(model.rank + 1, activations[layer + 1])

    for layer in reversed(range(model.LAYERS)):
        if layer == my_layers[-1] and stage != stages - 1:
            grad_activations[layer + 1] = await model.receive()
        weights[layer] = await model.allgather(weights[layer, 0], layer)
        if layer in my_layers:
            grad_weights[layer], grad_activations[layer] = model.backward(
                layer, activations[layer], grad_activations[layer + 1], weights[layer]
            )
            del grad_activations[layer + 1], activations[layer]
            grad_weights[layer] = await model.scatterreduce(grad_weights[layer], layer)
        else:
            # Ranks of other stages contribute an empty gradient to the sum.
            grad_weights[layer] = await model.scatterreduce(model.fake_grad(layer, []), layer)
        del weights[layer]
        if stage != 0 and layer == my_layers[0]:
            await model.pass_to(model.rank - 1, grad_activations[layer])

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer, 0], opt_states[layer, 0]
        )

    # ----- your code ends here -----
    for layer in range(model.LAYERS):
        if layer in weights:  # a layer not trained yet has none: the check names it
            model.set_final_weight(layer, weights[layer])
    return model
