# Weight-sharded data parallel: each rank keeps one shard of every layer's weight and optimizer
# state, gathers the full weight just before it needs it, and drops it right after.
from lib import Model


async def wsdp(model: Model) -> Model:
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
    for layer in reversed(range(model.LAYERS)):
        weights[layer, 0] = await model.allgather(weights[layer], layer)
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer, 0]
        )
        del grad_activations[layer + 1], activations[layer], weights[layer, 0]

    # Every rank sums the full gradients, then updates only the shard it owns.
    for layer in range(model.LAYERS):
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
