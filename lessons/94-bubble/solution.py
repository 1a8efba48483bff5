# The pipeline bubble: a GPipe schedule that works for any number of micro-batches, so the same
# code can be run at m = 1, 2, 4 and 8 and the idle time compared.
from lib import Model


async def bubble(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    per_rank = model.LAYERS // model.RANKS
    my_layers = [model.rank * per_rank + i for i in range(per_rank)]
    first, last = my_layers[0], my_layers[-1]
    is_first, is_last = model.rank == 0, model.rank == model.RANKS - 1

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    # All forwards: one micro-batch at a time, passed on as soon as it is done.
    for mb in range(model.BATCHES):
        if is_first:
            activations[0, mb] = model.get_activation([mb])
        else:
            activations[first, mb] = await model.receive()
        for layer in my_layers:
            activations[layer + 1, mb] = model.forward(layer, activations[layer, mb], weights[layer])
        if is_last:
            grad_activations[model.LAYERS, mb] = model.loss(activations[model.LAYERS, mb])
        else:
            await model.pass_to(model.rank + 1, activations[last + 1, mb])
        del activations[last + 1, mb]

    # All backwards, in the same order, each gradient folded into one sum per layer.
    for mb in range(model.BATCHES):
        if not is_last:
            grad_activations[last + 1, mb] = await model.receive()
        for layer in reversed(my_layers):
            grad_weights[layer, mb], grad_activations[layer, mb] = model.backward(
                layer, activations[layer, mb], grad_activations[layer + 1, mb], weights[layer]
            )
            del grad_activations[layer + 1, mb], activations[layer, mb]
            if mb == 0:
                grad_weights[layer] = grad_weights[layer, mb]
            else:
                grad_weights[layer] = grad_weights[layer] + grad_weights[layer, mb]
            del grad_weights[layer, mb]
        if not is_first:
            await model.pass_to(model.rank - 1, grad_activations[first, mb])
        del grad_activations[first, mb]

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
