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

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
