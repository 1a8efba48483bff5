# Activation checkpointing: forward keeps only the input of every other layer (the checkpoints);
# backward recomputes each missing input from the checkpoint just below it. Less memory, more time.
from lib import Model


def checkpointing(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation(range(model.BATCHES))

    # ----- your code starts here -----
    # Forward: the input of an odd layer is dropped as soon as that layer has used it.
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
        if layer % 2 == 1:
            del activations[layer]

    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    del activations[model.LAYERS]

    # Backward: before an odd layer, rebuild its input from the checkpoint one layer down.
    for layer in reversed(range(model.LAYERS)):
        if layer % 2 == 1:
            activations[layer] = model.forward(
                layer - 1, activations[layer - 1], weights[layer - 1]
            )
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
