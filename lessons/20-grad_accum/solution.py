# Gradient accumulation: the same update as standard training, one batch at a time, so only
# one batch's activations are ever held.
from lib import Model


def grad_accum(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    for batch in range(model.BATCHES):
        activations[0, batch] = model.get_activation([batch])
        for layer in range(model.LAYERS):
            activations[layer + 1, batch] = model.forward(
                layer, activations[layer, batch], weights[layer]
            )

        grad_activations[model.LAYERS, batch] = model.loss(activations[model.LAYERS, batch])
        del activations[model.LAYERS, batch]

        for layer in reversed(range(model.LAYERS)):
            grad_weights[layer, batch], grad_activations[layer, batch] = model.backward(
                layer, activations[layer, batch], grad_activations[layer + 1, batch], weights[layer]
            )
            # Fold this batch's gradient into the running sum straight away.
            if batch == 0:
                grad_weights[layer] = grad_weights[layer, batch]
            else:
                grad_weights[layer] = grad_weights[layer] + grad_weights[layer, batch]
            del grad_activations[layer + 1, batch], activations[layer, batch]
            del grad_weights[layer, batch]
        del grad_activations[0, batch]

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
