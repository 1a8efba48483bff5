# Optimizer states sharded (ZeRO stage 1): every rank keeps the whole weights and computes whole
# gradients as in DDP, but holds the optimizer state of one shard of each layer only. It updates
# that shard, and an allgather puts the updated weight back together on every rank.
from lib import Model


async def zero1(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])

    # ----- your code starts here -----

    # ----- your code ends here -----
    for layer in range(model.LAYERS):
        if layer in weights:  # a layer not trained yet has none: the check names it
            model.set_final_weight(layer, weights[layer])
    return model
