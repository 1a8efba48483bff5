# Expert parallelism: layer 1 is a mixture-of-experts layer whose two experts live on the two
# ranks. Send each token to the rank of its expert, and its output back, with alltoall.
from lib import Model


async def expert_parallel(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    experts = model.group("expert")  # the ranks of experts 0, 1, ... in that order
    per_rank = model.BATCHES // model.DATA
    first = model.coords["data"] * per_rank
    mine = list(range(first, first + per_rank))  # this rank's own tokens

    weights[0], opt_states[0] = model.load_weights(0)  # dense: every rank holds it
    weights[1], opt_states[1] = model.load_weights(1, expert=model.coords["expert"])
    activations[0] = model.get_activation(mine)

    # ----- your code starts here -----
    # Layer 1 is a mixture of experts: this rank holds only expert model.coords["expert"], and
    # the router sends each token (batch) b to expert model.expert_of(b).
    activations[1] = model.forward(0, activations[0], weights[0])
    activations[2] = model.forward(1, activations[1], weights[1])

    grad_activations[2] = model.loss(activations[2])
    grad_weights[1], grad_activations[1] = model.backward(
        1, activations[1], grad_activations[2], weights[1]
    )
    grad_weights[0], grad_activations[0] = model.backward(
        0, activations[0], grad_activations[1], weights[0]
    )
    grad_weights[0] = await model.allreduce(grad_weights[0], 0, group=model.group("data"))
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        if layer in weights:  # a layer not trained yet has none: the check names it
            model.set_final_weight(layer, weights[layer])
    return model
