# Gradient accumulation: the same update as standard training, one batch at a time, so only
# one batch's activations are ever held.
from lib import Model


def grad_accum(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
