# The layout Llama 3 405B trained with (Dubey et al., 2024, "The Llama 3 Herd of Models", Table 4
# and section 3.3): tensor 8 x pipeline 16 x data 128 on 16,384 GPUs, 126 layers, the first and last
# stage one layer fewer, 16 micro-batches a pipeline under 1F1B. It is not a lesson: the lesson
# loader reads only a lesson's own files, so this one sits beside the four_d lesson for reading and
# running. Written by the Rankstep developers after the paper and Megatron-LM (Korthikanti et al.,
# 2022, "Reducing Activation Recomputation in Large Transformer Models"); what it leaves out is at
# the end of this header.
#
#     rankstep-cli run lessons/99-four_d/paper_layout.py --function paper_layout \
#         --cost llama3-405b --ranks 16384 --tensor 8 --pipeline 16 --layers 126 --batches 2048 \
#         --timeout 3000 --memory-limit 8192
#
# What the four_d solution does, plus Megatron's sequence parallelism: between the blocks each rank
# of a tensor group keeps only its eighth of the sequence. Each block's partial output is summed
# with a reduce-scatter (scatterreduce) instead of an all-reduce, the shard is what the stage keeps
# for the backward and what it passes to the next stage, and an all-gather makes the block's input
# whole again before each block, forward and backward. In Megatron that moves what the all-reduces
# move (the simulator charges more: docs/cost-models.md) and keeps an eighth of the activations.
#
# Left out, because the simulator cannot do it: the paper's FSDP also shards each slice's
# gradients and optimizer states over the 128 data-parallel ranks (section 3.3.2); here a slice
# keeps them whole (docs/simulation.md: "a slice and a ZeRO shard do not mix"), and the gradients
# are summed over the data group with an all-reduce. The paper's interleaved stages and its
# asynchronous point-to-point communication are left out too. docs/cost-models.md ("The paper's
# layout") gives the figures, and what they would be with FSDP.
from lib import Model


async def paper_layout(model: Model) -> Model:
    return await train(model, recompute=False)


async def paper_layout_recompute(model: Model) -> Model:
    # Not the paper (it trained 8K sequences without recomputation), but what fits 80 GB with a
    # data degree of 1: Megatron's full recomputation of a stage. The forward keeps only the
    # stage's input shard of each micro-batch; the backward first runs the stage's forward again
    # from it. An extra forward and its communication for an eighth of the activations.
    return await train(model, recompute=True)


async def train(model: Model, recompute: bool) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    me, stage, lane = model.coords["tensor"], model.coords["pipeline"], model.coords["data"]
    stages, lanes, ways = model.PIPELINE, model.DATA, model.TENSOR
    # The paper's uneven stages: the layers left over go to the middle stages, so the first stage
    # (which embeds) and the last (which computes the loss) hold one fewer.
    base, extra = divmod(model.LAYERS, stages)
    start = stage * base + min(max(stage - 1, 0), extra)
    count = base + (1 if 1 <= stage <= extra else 0)
    my_layers = list(range(start, start + count))
    first, last = my_layers[0], my_layers[-1]
    is_first, is_last = stage == 0, stage == stages - 1
    micro = model.BATCHES // lanes  # this lane's micro-batches: lane * micro onwards

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer, me, ways, split="tensor")

    tensor = model.group("tensor")  # one node's 8 GPUs, splitting this stage's layers
    pipeline = model.group("pipeline")  # this lane's stages; the same slice on each
    data = model.group("data")  # the ranks of the other lanes holding the same slices

    async def block(layer, shard):
        # One block: the whole input from the group's shards, then its partial output summed
        # and left as this rank's shard. The model's last block feeds the loss, which takes the
        # whole output: that sum is an all-reduce.
        whole = await model.allgather(shard, layer, group=tensor)
        partial = model.forward(layer, whole, weights[layer])
        if layer == model.LAYERS - 1 and partial.block == 0:
            return await model.allreduce(partial, layer, group=tensor)
        return await model.scatterreduce(partial, layer, group=tensor)

    async def forward_layers(mb, keep):
        # activations[layer, mb] and [layer, mb, 1]: this rank's shard before each block. Without
        # `keep`, only the stage's input stays.
        for layer in my_layers:
            activations[layer, mb, 1] = await block(layer, activations[layer, mb])
            activations[layer + 1, mb] = await block(layer, activations[layer, mb, 1])
            if not keep:
                del activations[layer, mb, 1]
                if layer != first:
                    del activations[layer, mb]

    async def forward_step(mb):
        if is_first:
            activations[0, mb] = model.get_activation([lane * micro + mb]).shard(me, ways)
        else:
            activations[first, mb] = await model.receive(pipeline[stage - 1])
        await forward_layers(mb, keep=not recompute)
        if is_last:
            out = activations[model.LAYERS, mb]
            grad_activations[model.LAYERS, mb] = model.loss(out).shard(me, ways)
        else:
            # A shard, an eighth of the sequence: what Megatron sends between stages.
            await model.pass_to(pipeline[stage + 1], activations[last + 1, mb])
        del activations[last + 1, mb]

    async def backward_block(layer, mb, at, grad_at):
        # The block's input and its output gradient, all-gathered again for its backward.
        inp = await model.allgather(activations[at], layer, group=tensor)
        grad = await model.allgather(grad_activations[grad_at], layer, group=tensor)
        del activations[at], grad_activations[grad_at]
        weight_grad, partial = model.backward(layer, inp, grad, weights[layer])
        return weight_grad, await model.scatterreduce(partial, layer, group=tensor)

    async def backward_step(mb):
        if not is_last:
            grad_activations[last + 1, mb] = await model.receive(pipeline[stage + 1])
        if recompute:
            await forward_layers(mb, keep=True)
            del activations[last + 1, mb]
        for layer in reversed(my_layers):
            mlp, grad_activations[layer, mb, 1] = await backward_block(
                layer, mb, (layer, mb, 1), (layer + 1, mb)
            )
            attention, grad_activations[layer, mb] = await backward_block(
                layer, mb, (layer, mb), (layer, mb, 1)
            )
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

    # Data parallel: the same slices in every lane, each trained on its own micro-batches.
    for layer in my_layers:
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer, group=data)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model


# The app runs a lesson's function: `rankstep --lesson four_d --code
# lessons/99-four_d/paper_layout.py` runs this program under the four_d lesson (docs/sweeps.md).
four_d = paper_layout
