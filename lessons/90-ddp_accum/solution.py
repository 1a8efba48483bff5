# DDP with gradient accumulation: each rank works through its own batches one micro-batch at a
# time, sums the gradients locally, and talks to the other ranks only once, after the last one.
from lib import Model


async def ddp_accum(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    per_rank = model.BATCHES // model.RANKS
    my_batches = [model.rank * per_rank + i for i in range(per_rank)]

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    for step, batch in enumerate(my_batches):
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
            del grad_activations[layer + 1, batch], activations[layer, batch]
            # Accumulate locally: no communication inside the micro-batch loop.
            if step == 0:
                grad_weights[layer] = grad_weights[layer, batch]
            else:
                grad_weights[layer] = grad_weights[layer] + grad_weights[layer, batch]
            del grad_weights[layer, batch]
        del grad_activations[0, batch]

    # One allreduce per layer, after the last micro-batch, then the update.
    for layer in range(model.LAYERS):
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
