# A training step, by hand: one rank, two layers, and only batches 2 and 3 of the four.
# Every draw() marks a snapshot: the viewer lets you jump from one to the next.
from lib import Model, PuzzleError
from drawing import draw, draw_group


def walkthrough(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    # 1. The input: activations of layer 0 for batches 2 and 3 only.
    activations[0] = model.get_activation([2, 3])
    draw(model)

    # 2. The weight and the optimizer state of layers 0 and 1.
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    draw(model)

    # 3. Forward through layer 0: the input of layer 1 appears.
    activations[1] = model.forward(0, activations[0], weights[0])
    draw(model)

    # 4. Forward through the last layer: now every layer's activation is in memory.
    activations[2] = model.forward(1, activations[1], weights[1])
    draw_group(list(activations.values()))

    # 5. The loss turns the output into the gradient that starts backward.
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    draw(model)

    # 6. Backward, from the last layer down: a weight gradient and an activation gradient each.
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
    draw(model)

    # 7. Nothing reads the activations or their gradients again: free them.
    for layer in range(model.LAYERS + 1):
        del activations[layer], grad_activations[layer]
    draw(model)

    # 8. What is left to update with: one weight gradient per layer, for batches 2 and 3.
    draw_group(list(grad_weights.values()))

    # ----- your code starts here -----
    # 9. Update every layer with the gradients we have. Run this and read the error, then
    #    replace this loop: fake the missing gradients, add them, and update.
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
    draw(model)

    # ----- your code ends here -----

    # 13. Hand over the final weights for the check, and look at the whole run.
    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    draw_group(model.final_weights)
    return model
