# Allreduce: four ranks, one batch each. After backward every rank holds the weight gradient of
# its own batch; an allreduce per layer turns those into the sum over all batches, on every rank.
from lib import Model


async def allreduce_step(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    # Every rank holds the whole model and the input of its own batch: rank r gets batch r.
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation([model.rank])

    # Forward and backward on that one batch, freeing what backward has used.
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    del activations[model.LAYERS]
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
    del grad_activations[0]
    # Here grad_weights[layer] covers batch {model.rank} and nothing else.

    # ----- your code starts here -----
    for layer in range(model.LAYERS):
        # Every rank hands in its part and gets back the same sum, covering batches 0-3.
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
