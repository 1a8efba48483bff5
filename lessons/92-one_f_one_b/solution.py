# The 1F1B schedule: after a short warm-up of forwards, each rank alternates one forward and one
# backward, so a micro-batch's activations are freed soon after they are made.
from lib import Model


async def one_f_one_b(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    per_rank = model.LAYERS // model.RANKS
    my_layers = [model.rank * per_rank + i for i in range(per_rank)]
    first, last = my_layers[0], my_layers[-1]
    is_first, is_last = model.rank == 0, model.rank == model.RANKS - 1

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    async def forward_step(mb):
        if is_first:
            activations[0, mb] = model.get_activation([mb])
        else:
            # Only activations come from rank - 1; gradients come from rank + 1.
            activations[first, mb] = await model.receive(model.rank - 1)
        for layer in my_layers:
            activations[layer + 1, mb] = model.forward(layer, activations[layer, mb], weights[layer])
        if is_last:
            grad_activations[model.LAYERS, mb] = model.loss(activations[model.LAYERS, mb])
        else:
            await model.pass_to(model.rank + 1, activations[last + 1, mb])
        del activations[last + 1, mb]

    async def backward_step(mb):
        if not is_last:
            grad_activations[last + 1, mb] = await model.receive(model.rank + 1)
        for layer in reversed(my_layers):
            grad_weights[layer, mb], grad_activations[layer, mb] = model.backward(
                layer, activations[layer, mb], grad_activations[layer + 1, mb], weights[layer]
            )
            del grad_activations[layer + 1, mb], activations[layer, mb]
            if layer in grad_weights:
                grad_weights[layer] = grad_weights[layer] + grad_weights[layer, mb]
            else:
                grad_weights[layer] = grad_weights[layer, mb]
            del grad_weights[layer, mb]
        if not is_first:
            await model.pass_to(model.rank - 1, grad_activations[first, mb])
        del grad_activations[first, mb]

    # Warm-up: the later stages need one forward each before the first gradient can come back.
    warmup = min(model.RANKS - 1 - model.rank, model.BATCHES)
    for mb in range(warmup):
        await forward_step(mb)
    # Steady state: one forward, one backward.
    for i in range(model.BATCHES - warmup):
        await forward_step(warmup + i)
        await backward_step(i)
    # Cool-down: the backwards still owed.
    for mb in range(model.BATCHES - warmup, model.BATCHES):
        await backward_step(mb)

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
