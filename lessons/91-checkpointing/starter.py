# Activation checkpointing: forward keeps only the input of every other layer (the checkpoints);
# backward recomputes each missing input from the checkpoint just below it. Less memory, more time.
from lib import Model


def checkpointing(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation(range(model.BATCHES))

    # ----- your code starts here -----

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
