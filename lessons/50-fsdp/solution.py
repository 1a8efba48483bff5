# Fully-sharded data parallel: like weight sharding, but a scatter-reduce leaves each rank with
# only the summed gradient of the shard it owns, right after that layer's backward.
from lib import Model


async def fsdp(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer, model.rank, model.RANKS)

    # ----- your code starts here -----
    for layer in range(model.LAYERS):
        weights[layer, 0] = await model.allgather(weights[layer], layer)
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer, 0])
        del weights[layer, 0]

    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    del activations[model.LAYERS]

    for layer in reversed(range(model.LAYERS)):
        weights[layer, 0] = await model.allgather(weights[layer], layer)
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer, 0]
        )
        grad_weights[layer] = await model.scatterreduce(grad_weights[layer], layer)
        del grad_activations[layer + 1], activations[layer], weights[layer, 0]

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
