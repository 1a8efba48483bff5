# Many dimensions at once: the ranks are laid out as a grid (model.coords), pipeline stages within
# each data-parallel lane. Every lane runs its micro-batches through its stages with 1F1B; the ranks
# that hold the same layers in other lanes (model.group("data")) then sum their gradients.
from lib import Model


async def four_d(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    stage, lane = model.coords["pipeline"], model.coords["data"]
    stages, lanes = model.PIPELINE, model.DATA
    # Uneven stages, as Llama 3's 126 layers on 16 stages: the layers left over go to the middle
    # stages, so the first stage (which embeds) and the last (which computes the loss) hold fewer.
    base, extra = divmod(model.LAYERS, stages)
    start = stage * base + min(max(stage - 1, 0), extra)
    count = base + (1 if 1 <= stage <= extra else 0)
    my_layers = list(range(start, start + count))
    first, last = my_layers[0], my_layers[-1]
    is_first, is_last = stage == 0, stage == stages - 1
    micro = model.BATCHES // lanes  # this lane's micro-batches: lane * micro onwards

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    pipeline = model.group("pipeline")  # this lane's stages, in order
    data = model.group("data")  # the ranks of other lanes holding the same layers

    async def forward_step(mb):
        if is_first:
            activations[0, mb] = model.get_activation([lane * micro + mb])
        else:
            activations[first, mb] = await model.receive(pipeline[stage - 1])
        for layer in my_layers:
            activations[layer + 1, mb] = model.forward(layer, activations[layer, mb], weights[layer])
        if is_last:
            grad_activations[model.LAYERS, mb] = model.loss(activations[model.LAYERS, mb])
        else:
            await model.pass_to(pipeline[stage + 1], activations[last + 1, mb])
        del activations[last + 1, mb]

    async def backward_step(mb):
        if not is_last:
            grad_activations[last + 1, mb] = await model.receive(pipeline[stage + 1])
        for layer in reversed(my_layers):
            grad_weights[layer, mb], grad_activations[layer, mb] = model.backward(
                layer, activations[layer, mb], grad_activations[layer + 1, mb], weights[layer]
            )
            del grad_activations[layer + 1, mb], activations[layer, mb]
            if layer in grad_weights:
                grad_weights[layer] = grad_weights[layer] + grad_weights[layer, mb]
            else:
                grad_weights[layer] = grad_weights[layer, mb]
            del grad_weights[layer, mb]
        if not is_first:
            await model.pass_to(pipeline[stage - 1], grad_activations[first, mb])
        del grad_activations[first, mb]

    # 1F1B within the lane: warm up, alternate, cool down.
    warmup = min(stages - 1 - stage, micro)
    for mb in range(warmup):
        await forward_step(mb)
    for i in range(micro - warmup):
        await forward_step(warmup + i)
        await backward_step(i)
    for mb in range(micro - warmup, micro):
        await backward_step(mb)

    # Data parallel: the same layers in every lane, each trained on its own micro-batches.
    for layer in my_layers:
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer, group=data)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
