# Many dimensions at once, as Llama 3 405B trained: the ranks are laid out as a grid (model.coords),
# a tensor group splitting every layer of a stage, pipeline stages within each data-parallel lane.
# Every lane runs its micro-batches through its stages with 1F1B, each block's partial output summed
# over the tensor group; the ranks that hold the same slices in other lanes (model.group("data"))
# then sum their gradients.
from lib import Model


async def four_d(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    me, stage, lane = model.coords["tensor"], model.coords["pipeline"], model.coords["data"]
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
        weights[layer], opt_states[layer] = model.load_weights(layer, me, model.TENSOR, split="tensor")

    # ----- your code starts here -----
    tensor = model.group("tensor")  # the ranks that split this stage's layers
    pipeline = model.group("pipeline")  # this lane's stages, in order
    data = model.group("data")  # the ranks of other lanes holding the same layers

    async def forward_step(mb):
        if is_first:
            activations[0, mb] = model.get_activation([lane * micro + mb])
        else:
            activations[first, mb] = await model.receive(pipeline[stage - 1])
        for layer in my_layers:
            # Attention, then MLP: each block's partial output summed over the tensor group.
            partial = model.forward(layer, activations[layer, mb], weights[layer])
            activations[layer, mb, 1] = await model.allreduce(partial, layer, group=tensor)
            partial = model.forward(layer, activations[layer, mb, 1], weights[layer])
            activations[layer + 1, mb] = await model.allreduce(partial, layer, group=tensor)
        if is_last:
            grad_activations[model.LAYERS, mb] = model.loss(activations[model.LAYERS, mb])
        else:
            await model.pass_to(pipeline[stage + 1], activations[last + 1, mb])
        del activations[last + 1, mb]

    async def backward_step(mb):
        if not is_last:
            grad_activations[last + 1, mb] = await model.receive(pipeline[stage + 1])
        for layer in reversed(my_layers):
            # The same two sums backward: the MLP block first, then attention.
            mlp, partial = model.backward(
                layer, activations[layer, mb, 1], grad_activations[layer + 1, mb], weights[layer]
            )
            del activations[layer, mb, 1], grad_activations[layer + 1, mb]
            grad_activations[layer, mb, 1] = await model.allreduce(partial, layer, group=tensor)
            attention, partial = model.backward(
                layer, activations[layer, mb], grad_activations[layer, mb, 1], weights[layer]
            )
            del activations[layer, mb], grad_activations[layer, mb, 1]
            grad_activations[layer, mb] = await model.allreduce(partial, layer, group=tensor)
            # This slice's gradient: both blocks', summed over the micro-batches.
            if layer in grad_weights:
                grad_weights[layer] = grad_weights[layer] + (mlp + attention)
            else:
                grad_weights[layer] = mlp + attention
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
