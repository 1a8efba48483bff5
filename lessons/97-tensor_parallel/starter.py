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

    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
