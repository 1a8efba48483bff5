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

    # ----- your code ends here -----

    # grad_weights[layer] covers this rank's batch; sum over the ranks, then update the shard.
    for layer in range(model.LAYERS):
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
