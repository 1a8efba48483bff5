# Context parallelism (ring attention): the sequence is split into one chunk a rank; each layer's
# attention needs the keys and values of every chunk, which travel around the context group.
from lib import Model


async def context_parallel(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    ring = model.group("context")  # ordered by chunk: rank ring[c] holds chunk c
    me = model.coords["context"]
    after = ring[(me + 1) % model.CONTEXT]  # the next rank on the ring
    before = ring[(me - 1) % model.CONTEXT]  # the one that sends to this rank

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)  # whole: no tensor split
    activations[0] = model.get_activation(range(model.BATCHES))  # this rank's chunk only

    # ----- your code starts here -----

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
