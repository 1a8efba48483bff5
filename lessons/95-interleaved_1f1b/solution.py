# Interleaved 1F1B: each rank holds two chunks of layers (rank r holds virtual stages r and
# r + RANKS), so a micro-batch crosses the ranks twice and the pipeline fills in half the time.
from lib import Model

CHUNKS = 2  # v: the chunks of layers each rank holds


async def interleaved_1f1b(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    per_chunk = model.LAYERS // (model.RANKS * CHUNKS)

    def chunk_layers(chunk):
        stage = chunk * model.RANKS + model.rank  # this chunk's virtual stage
        return [stage * per_chunk + i for i in range(per_chunk)]

    my_layers = [layer for chunk in range(CHUNKS) for layer in chunk_layers(chunk)]
    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer)

    # ----- your code starts here -----
    previous = (model.rank - 1) % model.RANKS  # sends us activations
    following = (model.rank + 1) % model.RANKS  # sends us gradients

    async def forward_step(chunk, mb):
        layers = chunk_layers(chunk)
        first, last = layers[0], layers[-1]
        if first == 0:
            activations[0, mb] = model.get_activation([mb])
        else:
            activations[first, mb] = await model.receive(previous)
        for layer in layers:
            activations[layer + 1, mb] = model.forward(layer, activations[layer, mb], weights[layer])
        if last + 1 == model.LAYERS:
            grad_activations[model.LAYERS, mb] = model.loss(activations[model.LAYERS, mb])
        else:
            await model.pass_to(following, activations[last + 1, mb])
        del activations[last + 1, mb]

    async def backward_step(chunk, mb):
        layers = chunk_layers(chunk)
        first, last = layers[0], layers[-1]
        if last + 1 != model.LAYERS:
            grad_activations[last + 1, mb] = await model.receive(following)
        for layer in reversed(layers):
            grad, grad_activations[layer, mb] = model.backward(
                layer, activations[layer, mb], grad_activations[layer + 1, mb], weights[layer]
            )
            del grad_activations[layer + 1, mb], activations[layer, mb]
            grad_weights[layer] = grad_weights[layer] + grad if layer in grad_weights else grad
        if first != 0:
            await model.pass_to(previous, grad_activations[first, mb])
        del grad_activations[first, mb]

    # Megatron-LM's order: micro-batches go through the chunks in groups of RANKS; step k of a
    # rank works on chunk (k // RANKS) % CHUNKS (backwards: from the last chunk).
    steps = model.BATCHES * CHUNKS

    def chunk_of(k, backward):
        chunk = (k // model.RANKS) % CHUNKS
        return CHUNKS - 1 - chunk if backward else chunk

    def micro_batch(k):
        return k // (model.RANKS * CHUNKS) * model.RANKS + k % model.RANKS

    warmup = min((model.RANKS - model.rank - 1) * 2 + (CHUNKS - 1) * model.RANKS, steps)
    for k in range(warmup):
        await forward_step(chunk_of(k, False), micro_batch(k))
    for k in range(steps - warmup):
        await forward_step(chunk_of(k + warmup, False), micro_batch(k + warmup))
        await backward_step(chunk_of(k, True), micro_batch(k))
    for k in range(steps - warmup, steps):
        await backward_step(chunk_of(k, True), micro_batch(k))

    for layer in my_layers:
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
