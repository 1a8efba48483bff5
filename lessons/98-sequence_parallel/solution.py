# Sequence parallelism (Korthikanti et al., 2022): between the tensor-parallel blocks each rank of
# the tensor group keeps only its part of the sequence.
from lib import Model


async def sequence_parallel(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    tp = model.group("tensor")
    me = model.coords["tensor"]

    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(
            layer, me, model.TENSOR, split="tensor"
        )

    # ----- your code starts here -----
    batches = list(range(model.BATCHES))
    # activations[layer, 0] and [layer, 1]: this rank's shard of the sequence before each block.
    activations[0, 0] = model.get_activation(batches).shard(me, model.TENSOR)
    for layer in range(model.LAYERS):
        # All-gather before each block, reduce-scatter after it.
        whole = await model.allgather(activations[layer, 0], layer, group=tp)
        partial = model.forward(layer, whole, weights[layer])
        activations[layer, 1] = await model.scatterreduce(partial, layer, group=tp)
        whole = await model.allgather(activations[layer, 1], layer, group=tp)
        partial = model.forward(layer, whole, weights[layer])
        if layer + 1 < model.LAYERS:
            activations[layer + 1, 0] = await model.scatterreduce(partial, layer, group=tp)
    # The loss takes the whole output: the last block's sum is an all-reduce.
    output = await model.allreduce(partial, model.LAYERS - 1, group=tp)

    grad_activations[model.LAYERS, 0] = model.loss(output).shard(me, model.TENSOR)
    for layer in reversed(range(model.LAYERS)):
        # Each block's input and output gradient are all-gathered again for its backward.
        inp = await model.allgather(activations[layer, 1], layer, group=tp)
        grad = await model.allgather(grad_activations[layer + 1, 0], layer, group=tp)
        del activations[layer, 1], grad_activations[layer + 1, 0]
        mlp, partial = model.backward(layer, inp, grad, weights[layer])
        grad_activations[layer, 1] = await model.scatterreduce(partial, layer, group=tp)
        inp = await model.allgather(activations[layer, 0], layer, group=tp)
        grad = await model.allgather(grad_activations[layer, 1], layer, group=tp)
        del activations[layer, 0], grad_activations[layer, 1]
        attention, partial = model.backward(layer, inp, grad, weights[layer])
        grad_activations[layer, 0] = await model.scatterreduce(partial, layer, group=tp)
        weights[layer], opt_states[layer] = model.update(
            layer, mlp + attention, weights[layer], opt_states[layer]
        )
    del grad_activations[0, 0]

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
