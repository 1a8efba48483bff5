# Standard training: one rank holds every weight and runs all batches at once.
from lib import Model


def basic(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation(range(model.BATCHES))

    # ----- your code starts here -----
    # Forward: keep every layer's input, backward needs it.
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])

    # The loss turns the output into its gradient; the output itself is no longer needed.
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    del activations[model.LAYERS]

    # Backward, freeing each layer's input and incoming gradient as soon as it is used.
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
    del grad_activations[0]

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
