# GPipe: the pipeline again, but batches travel one at a time (micro-batches), so the next
# rank can start while this one works on the following batch. The bubble shrinks; memory grows.
from lib import Model


async def gpipe(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    per_rank = model.LAYERS // model.RANKS
    my_layers = [model.rank * per_rank + i for i in range(per_rank)]
    first, last = my_layers[0], my_layers[-1]
    is_first, is_last = model.rank == 0, model.rank == model.RANKS - 1

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    # Every micro-batch forward first...
    for mb in range(model.BATCHES):
        if is_first:
            activations[0, mb] = model.get_activation([mb])
        else:
            activations[first, mb] = await model.receive()
        for layer in my_layers:
            activations[layer + 1, mb] = model.forward(layer, activations[layer, mb], weights[layer])
        if not is_last:
            await model.pass_to(model.rank + 1, activations[last + 1, mb])

    # ...then every micro-batch backward.
    for mb in range(model.BATCHES):
        if is_last:
            grad_activations[model.LAYERS, mb] = model.loss(activations[model.LAYERS, mb])
        else:
            grad_activations[last + 1, mb] = await model.receive()
        for layer in reversed(my_layers):
            grad_weights[layer, mb], grad_activations[layer, mb] = model.backward(
                layer, activations[layer, mb], grad_activations[layer + 1, mb], weights[layer]
            )
            del grad_activations[layer + 1, mb], activations[layer, mb]
        if not is_first:
            await model.pass_to(model.rank - 1, grad_activations[first, mb])

    # Sum the micro-batch gradients of each layer, then update it.
    for layer in reversed(my_layers):
        for mb in range(model.BATCHES):
            if mb == 0:
                grad_weights[layer] = grad_weights[layer, 0]
            else:
                grad_weights[layer] = grad_weights[layer] + grad_weights[layer, mb]
            del grad_weights[layer, mb]
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
