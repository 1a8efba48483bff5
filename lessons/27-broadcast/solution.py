# Broadcast the initial state: only rank 0 reads the weights and optimizer states; it sends them
# to every other rank, and then all four ranks run one step of data-parallel training.
from lib import Model


async def broadcast_start(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])

    # Rank 0 stands for the process that initialises the model (or reads the checkpoint).
    # The other ranks must not call load_weights: they get their copy from rank 0.
    if model.rank == 0:
        for layer in range(model.LAYERS):
            weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    if model.rank == 0:
        # One message per rank carries the whole state: a weight and an optimizer state per layer.
        state = {layer: (weights[layer], opt_states[layer]) for layer in range(model.LAYERS)}
        for other in range(1, model.RANKS):
            await model.pass_to(other, state)
    else:
        state = await model.receive(0)
        for layer, (weight, opt_state) in state.items():
            weights[layer], opt_states[layer] = weight, opt_state

    # ----- your code ends here -----

    # From here on every rank needs weights[layer] and opt_states[layer] for every layer.
    # One step of data-parallel training: rank r trains on batch r, allreduce sums the gradients.
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    del activations[model.LAYERS]
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
    del grad_activations[0]
    for layer in range(model.LAYERS):
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        model.set_final_weight(layer, weights[layer])
    return model
