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

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
