# One data-parallel step on four ranks. Something in the synchronisation makes it hang:
# read Rankstep's diagnosis, find the rank that breaks ranks, and fix it.
from lib import Model


async def every_rank_reduces(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation([model.rank])

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

    # ----- your code starts here -----
    # Every rank joins every allreduce, whatever it thinks of its own gradient.
    for layer in range(model.LAYERS):
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
