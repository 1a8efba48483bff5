# Scatter-reduce: sum the gradients of all ranks, but keep only the shard this rank updates.
from lib import Model


async def scatter_gradients(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    # Each rank owns shard `rank` of every layer's weight and optimizer state.
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer, model.rank, model.RANKS)

    def gradient_of_my_batch(layer):
        # Stands in for this rank's backward pass at `layer`: a full weight gradient that covers
        # this rank's batch and no other.
        return model.fake_grad(layer, [model.rank])

    # ----- your code starts here -----

    # ----- your code ends here -----

    # The optimizer step: each rank updates its own shard of every layer.
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
