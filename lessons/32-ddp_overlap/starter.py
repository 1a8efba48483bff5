# DDP with its gradient all-reduces overlapped with backward. Forward, loss and backward are
# DDP's; the sums and the updates are yours, so that each sum runs beside the backward of the
# layers below it.
from lib import Model


async def ddp_overlap(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])

    # ----- your code starts here -----
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)

    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])

    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
        # Start this layer's all-reduce here, without waiting for it.

    # Then, for each layer: wait for its sum and update the layer.

    # ----- your code ends here -----
    for layer in range(model.LAYERS):
        if layer in weights:  # a layer not trained yet has none: the check names it
            model.set_final_weight(layer, weights[layer])
    return model
