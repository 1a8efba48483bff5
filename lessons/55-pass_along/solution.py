# Point-to-point: two ranks, one layer each. The activation travels from rank 0 to rank 1, and
# its gradient travels back.
from lib import Model


async def pass_along(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    # Rank 0 owns layer 0, rank 1 owns layer 1, and each loads only its own layer.
    mine = model.rank
    weights[mine], opt_states[mine] = model.load_weights(mine)

    # ----- your code starts here -----
    if model.rank == 0:
        activations[0] = model.get_activation(range(model.BATCHES))
        activations[1] = model.forward(0, activations[0], weights[0])
        # Rank 1 needs layer 1's input; rank 0 does not need it again.
        await model.pass_to(1, activations[1])
        del activations[1]

        grad_activations[1] = await model.receive(1)
        grad_weights[0], grad_activations[0] = model.backward(
            0, activations[0], grad_activations[1], weights[0]
        )
        del grad_activations[1], grad_activations[0], activations[0]
    else:
        activations[1] = await model.receive(0)
        activations[2] = model.forward(1, activations[1], weights[1])
        grad_activations[2] = model.loss(activations[2])
        del activations[2]
        grad_weights[1], grad_activations[1] = model.backward(
            1, activations[1], grad_activations[2], weights[1]
        )
        del grad_activations[2], activations[1]
        # Rank 0 needs the gradient of its output to run its own backward.
        await model.pass_to(0, grad_activations[1])
        del grad_activations[1]

    # ----- your code ends here -----

    weights[mine], opt_states[mine] = model.update(
        mine, grad_weights[mine], weights[mine], opt_states[mine]
    )
    model.set_final_weight(mine, weights[mine])
    return model
