# Zero bubble (ZB-H1): the backward split into the input gradient (B), which the previous stage
# is waiting for, and the weight gradient (W), which nobody waits for and can fill the bubble.
from lib import Model


async def zero_bubble(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    per_rank = model.LAYERS // model.RANKS
    my_layers = [model.rank * per_rank + i for i in range(per_rank)]
    first, last = my_layers[0], my_layers[-1]
    is_first, is_last = model.rank == 0, model.rank == model.RANKS - 1

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    async def forward_step(mb):
        if is_first:
            activations[0, mb] = model.get_activation([mb])
        else:
            activations[first, mb] = await model.receive(model.rank - 1)
        for layer in my_layers:
            activations[layer + 1, mb] = model.forward(layer, activations[layer, mb], weights[layer])
        if is_last:
            grad_activations[model.LAYERS, mb] = model.loss(activations[model.LAYERS, mb])
        else:
            await model.pass_to(model.rank + 1, activations[last + 1, mb])
        del activations[last + 1, mb]

    # B: the input gradients only, passed on at once. W still needs each layer's activation and
    # output gradient, so both stay.
    async def input_step(mb):
        if not is_last:
            grad_activations[last + 1, mb] = await model.receive(model.rank + 1)
        for layer in reversed(my_layers):
            grad_activations[layer, mb] = model.backward_input(
                layer, activations[layer, mb], grad_activations[layer + 1, mb], weights[layer]
            )
        if not is_first:
            await model.pass_to(model.rank - 1, grad_activations[first, mb])
        del grad_activations[first, mb]

    # W: the weight gradients; now the activations and output gradients can go.
    def weight_step(mb):
        for layer in my_layers:
            grad = model.backward_weight(layer, activations[layer, mb], grad_activations[layer + 1, mb])
            del activations[layer, mb], grad_activations[layer + 1, mb]
            grad_weights[layer] = grad_weights[layer] + grad if layer in grad_weights else grad

    # ZB-H1: one more warm-up forward than 1F1B, then B, F and a W; stage r holds r weight
    # gradients back, so the last stages keep sending input gradients while their W's wait.
    forwards = min(model.RANKS - model.rank, model.BATCHES)
    for mb in range(forwards):
        await forward_step(mb)
    waiting = []
    for mb in range(model.BATCHES):
        await input_step(mb)
        waiting.append(mb)
        if len(waiting) > model.rank:
            weight_step(waiting.pop(0))
        if forwards < model.BATCHES:
            await forward_step(forwards)
            forwards += 1
    for mb in waiting:
        weight_step(mb)

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
