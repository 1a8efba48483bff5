# Fully-sharded data parallel: like weight sharding, but a scatter-reduce leaves each rank with
# only the summed gradient of the shard it owns, right after that layer's backward.
from lib import Model


async def fsdp(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer, model.rank, model.RANKS)

    # ----- your code starts here -----

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
