# Gradients sharded too (ZeRO stage 2): as in stage 1 every rank keeps the whole weights and one
# shard of each optimizer state, and now each layer's gradient is scatter-reduced as soon as the
# backward has made it, so a rank never holds more than one whole gradient at a time.
from lib import Model


async def zero2(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])

    # ----- your code starts here -----

    # ----- your code ends here -----
    for layer in range(model.LAYERS):
        if layer in weights:  # a layer not trained yet has none: the check names it
            model.set_final_weight(layer, weights[layer])
    return model
