# Zero bubble (ZB-H1): the backward split into the input gradient (B), which the previous stage
# is waiting for, and the weight gradient (W), which nobody waits for and can fill the bubble.
from lib import Model


async def zero_bubble(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    per_rank = model.LAYERS // model.RANKS
    my_layers = [model.rank * per_rank + i for i in range(per_rank)]
    first, last = my_layers[0], my_layers[-1]
    is_first, is_last = model.rank == 0, model.rank == model.RANKS - 1

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
