# Weight-sharded data parallel: each rank keeps one shard of every layer's weight and optimizer
# state, gathers the full weight just before it needs it, and drops it right after.
from lib import Model


async def wsdp(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer, model.rank, model.RANKS)

    # ----- your code starts here -----

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
