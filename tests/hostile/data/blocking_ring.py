# The blocking ring of keys and values (the context parallelism lesson's solution before it
# overlapped the passes with the attention): kept so that real runs and exports of both forms
# stay covered (tests/hostile/realcontexttest.cpp, exporttorchtest.cpp).
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
    async def around(layer):
        # This chunk's keys and values, then CONTEXT - 1 passes: each rank sends on the chunk it
        # got last and keeps the one its neighbour sends (in activations[layer, chunk], so that
        # the memory chart counts them).
        chunk = me
        kv = [model.keys_values(layer, activations[layer], weights[layer])]
        activations[layer, chunk] = kv[-1]
        for _ in range(model.CONTEXT - 1):
            await model.pass_to(after, kv[-1])
            chunk = (chunk - 1) % model.CONTEXT
            kv.append(await model.receive(before))
            activations[layer, chunk] = kv[-1]
        return kv

    def drop(layer):  # the other chunks' keys and values, once the attention used them
        for c in range(model.CONTEXT):
            del activations[layer, c]

    for layer in range(model.LAYERS):
        kv = await around(layer)
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer], kv=kv)
        drop(layer)  # the backward passes them around again rather than keep them

    grad_activations[model.LAYERS - 1] = model.loss(activations[model.LAYERS])
    del activations[model.LAYERS]
    for layer in reversed(range(model.LAYERS)):
        kv = await around(layer)  # the backward's attention needs every chunk again
        grad_weights[layer], grad = model.backward(
            layer, activations[layer], grad_activations[layer], weights[layer], kv=kv
        )
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
