# Pipeline parallel: each rank owns a contiguous block of layers. All batches travel forward
# through the ranks as one message, and their gradient travels back the same way.
from lib import Model


async def pipeline(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    per_rank = model.LAYERS // model.RANKS
    my_layers = [model.rank * per_rank + i for i in range(per_rank)]
    first, last = my_layers[0], my_layers[-1]

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    if model.rank == 0:
        activations[0] = model.get_activation(range(model.BATCHES))
    else:
        activations[first] = await model.receive()

    for layer in my_layers:
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])

    if model.rank == model.RANKS - 1:
        grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    else:
        await model.pass_to(model.rank + 1, activations[last + 1])
        grad_activations[last + 1] = await model.receive()

    for layer in reversed(my_layers):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]

    if model.rank != 0:
        await model.pass_to(model.rank - 1, grad_activations[first])

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
