# DDP with its gradient all-reduces overlapped with backward: each layer's all-reduce starts as
# soon as backward made that layer's gradient, and runs on the rank's communication stream while
# backward goes on with the layers below. Only the update waits for it.
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
    summed = {}  # layer -> the handle of its all-reduce, started but not awaited yet
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
        summed[layer] = model.allreduce_start(grad_weights[layer], layer)

    # The last layer's sum started first and is done first.
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer] = await summed.pop(layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----
    for layer in range(model.LAYERS):
        if layer in weights:  # a layer not trained yet has none: the check names it
            model.set_final_weight(layer, weights[layer])
    return model
