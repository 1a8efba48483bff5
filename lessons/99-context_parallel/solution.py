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
    async def around(layer, attend):
        # C turns: each sends on the chunk's keys and values that are here and receives the next
        # ones on the communication stream, while `attend` runs the attention on those that are
        # here (so_far: what the turns before computed). Kept in activations[layer, chunk], so
        # that the memory chart counts them.
        chunk = me
        kv = model.keys_values(layer, activations[layer], weights[layer])
        out = None
        for turn in range(model.CONTEXT):
            activations[layer, chunk] = kv
            last = turn == model.CONTEXT - 1
            if not last:
                sent = model.pass_to_start(after, kv)
                coming = model.receive_start(before)
            out = attend(kv, out)  # while the next chunk travels
            if not last:
                await sent
                kv = await coming
                chunk = (chunk - 1) % model.CONTEXT
        return out

    def drop(layer):  # the other chunks' keys and values, once the attention used them
        for c in range(model.CONTEXT):
            del activations[layer, c]

    for layer in range(model.LAYERS):

        def forward(kv, so_far):
            # Unfinished until the last turn: the state view shows which chunks it has seen.
            activations[layer + 1] = model.forward(
                layer, activations[layer], weights[layer], kv=[kv], so_far=so_far
            )
            return activations[layer + 1]

        await around(layer, forward)
        drop(layer)  # the backward passes them around again rather than keep them

    grad_activations[model.LAYERS - 1] = model.loss(activations[model.LAYERS])
    del activations[model.LAYERS]
    for layer in reversed(range(model.LAYERS)):

        def backward(kv, so_far):  # so_far: the (weight gradient, input gradient) pair
            return model.backward(
                layer, activations[layer], grad_activations[layer], weights[layer],
                kv=[kv], so_far=so_far,
            )

        grad_weights[layer], grad = await around(layer, backward)  # every chunk again
        drop(layer)
        del activations[layer], grad_activations[layer]
        if layer > 0:
            grad_activations[layer - 1] = grad
        # Each rank's gradient is its chunk's part: the context group sums the sequence.
        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer, group=ring)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
        del grad_weights[layer]
    # ----- your code ends here -----

    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
