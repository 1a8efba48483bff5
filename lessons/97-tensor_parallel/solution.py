# Tensor parallelism (Megatron-LM): every rank holds a slice of every layer, runs each block on its
# slice, and the tensor group sums the block's output.
from lib import Model


async def tensor_parallel(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    tp = model.group("tensor")
    me = model.coords["tensor"]

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(
            layer, me, model.TENSOR, split="tensor"
        )

    # ----- your code starts here -----
    batches = list(range(model.BATCHES))
    # activations[layer, 0]: the layer's input; activations[layer, 1]: after its attention block.
    activations[0, 0] = model.get_activation(batches)
    for layer in range(model.LAYERS):
        # Attention, then MLP: each block leaves a partial output that the group sums.
        partial = model.forward(layer, activations[layer, 0], weights[layer])
        activations[layer, 1] = await model.allreduce(partial, layer, group=tp)
        partial = model.forward(layer, activations[layer, 1], weights[layer])
        output = await model.allreduce(partial, layer, group=tp)
        if layer + 1 < model.LAYERS:
            activations[layer + 1, 0] = output

    grad_activations[model.LAYERS, 0] = model.loss(output)
    for layer in reversed(range(model.LAYERS)):
        # The same two sums backward: the MLP block first, then attention.
        mlp, partial = model.backward(
            layer, activations[layer, 1], grad_activations[layer + 1, 0], weights[layer]
        )
        del activations[layer, 1], grad_activations[layer + 1, 0]
        grad_activations[layer, 1] = await model.allreduce(partial, layer, group=tp)
        attention, partial = model.backward(
            layer, activations[layer, 0], grad_activations[layer, 1], weights[layer]
        )
        del activations[layer, 0], grad_activations[layer, 1]
        grad_activations[layer, 0] = await model.allreduce(partial, layer, group=tp)
        # The slice's gradient is both blocks' (no sum across ranks: each rank owns its slice).
        weights[layer], opt_states[layer] = model.update(
            layer, mlp + attention, weights[layer], opt_states[layer]
        )
    del grad_activations[0, 0]

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
