# Allgather: every rank stores only a quarter of each layer's weight, yet forward and backward
# need the whole weight. An allgather puts the shards back together, on every rank.
from lib import Model


async def gather_weights(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    # Shard `rank` of `RANKS` of every layer: rank 0 holds the first quarter, and so on.
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer, model.rank, model.RANKS)
    activations[0] = model.get_activation([model.rank])

    # ----- your code starts here -----
    # Forward: gather the layer's full weight just before it runs, drop it right after.
    for layer in range(model.LAYERS):
        weights[layer, 0] = await model.allgather(weights[layer], layer)
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer, 0])
        del weights[layer, 0]

    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    del activations[model.LAYERS]

    # Backward needs the full weights again: gather each one a second time.
    for layer in reversed(range(model.LAYERS)):
        weights[layer, 0] = await model.allgather(weights[layer], layer)
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer, 0]
        )
        del weights[layer, 0], grad_activations[layer + 1], activations[layer]
    del grad_activations[0]

    # ----- your code ends here -----

    # grad_weights[layer] covers this rank's batch; sum over the ranks, then update the shard.
    for layer in range(model.LAYERS):
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
