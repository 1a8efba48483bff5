# Optimizer states sharded (ZeRO stage 1): every rank keeps the whole weights and computes whole
# gradients as in DDP, but holds the optimizer state of one shard of each layer only. It updates
# that shard, and an allgather puts the updated weight back together on every rank.
from lib import Model


async def zero1(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])

    # ----- your code starts here -----
    for layer in range(model.LAYERS):
        weights[layer], _ = model.load_weights(layer)
        _, opt_states[layer] = model.load_weights(layer, model.rank, model.RANKS)

    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])

    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]

    for layer in range(model.LAYERS):
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        mine = weights[layer].shard(model.rank, model.RANKS)
        mine, opt_states[layer] = model.update(layer, grad_weights[layer], mine, opt_states[layer])
        del grad_weights[layer], weights[layer]
        weights[layer] = await model.allgather(mine, layer)

    # ----- your code ends here -----
    for layer in range(model.LAYERS):
        if layer in weights:  # a layer not trained yet has none: the check names it
            model.set_final_weight(layer, weights[layer])
    return model
