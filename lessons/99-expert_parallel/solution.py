# Expert parallelism: layer 1 is a mixture-of-experts layer whose two experts live on the two
# ranks. Each token goes to the rank of its expert with an alltoall and comes back with a second.
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
    def to_experts(tokens):  # one piece per expert: the tokens the router sends it
        return [tokens.pick([b for b in tokens.batches if model.expert_of(b) == e])
                for e in range(model.EXPERT)]

    def to_homes(tokens):  # one piece per rank of the group: the tokens that came from it
        return [tokens.pick([b for b in tokens.batches if b // per_rank == r]) for r in experts]

    activations[1] = model.forward(0, activations[0], weights[0])
    # Dispatch: from here on activations[1] holds the tokens of this rank's expert.
    activations[1] = await model.alltoall(to_experts(activations[1]), 1, group=experts)
    activations[2] = model.forward(1, activations[1], weights[1])
    # Combine: every token's output back to the rank it came from.
    activations[2] = await model.alltoall(to_homes(activations[2]), 1, group=experts)

    grad_activations[2] = model.loss(activations[2])
    del activations[2]
    # The backward mirrors it: the output gradients to the experts, the input gradients home.
    grad_activations[2] = await model.alltoall(to_experts(grad_activations[2]), 1, group=experts)
    grad_weights[1], grad_activations[1] = model.backward(
        1, activations[1], grad_activations[2], weights[1]
    )
    del activations[1], grad_activations[2]
    grad_activations[1] = await model.alltoall(to_homes(grad_activations[1]), 0, group=experts)
    grad_weights[0], grad_activations[0] = model.backward(
        0, activations[0], grad_activations[1], weights[0]
    )
    del activations[0], grad_activations[1], grad_activations[0]

    # The dense layer's gradient is summed over the data-parallel ranks; each expert's already
    # covers every token the router sent it.
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
