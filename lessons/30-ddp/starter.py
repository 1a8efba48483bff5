# Distributed data parallel: every rank holds the whole model and trains on its own batch;
# an allreduce per layer sums the gradients so every rank applies the same update.
from lib import Model


async def ddp(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])

    # ----- your code starts here -----

    # ----- your code ends here -----
    for layer in range(model.LAYERS):
        if layer in weights:  # a layer not trained yet has none: the check names it
            model.set_final_weight(layer, weights[layer])
    return model
