# Pipeline + FSDP on 16 ranks: four pipeline stages (rank % 4) of one layer each, four batch
# lanes (rank // 4). Every layer's weight is sharded over all 16 ranks: each rank gathers every
# layer (it must take part in every collective) but computes only its own stage.
from lib import Model


async def pipeline_fsdp(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    stages = 4
    stage, lane = model.rank % stages, model.rank // stages
    per_stage = model.LAYERS // (model.RANKS // stages)
    my_layers = [stage * per_stage + i for i in range(per_stage)]

    for layer in range(model.LAYERS):
        weights[layer, 0], opt_states[layer, 0] = model.load_weights(layer, model.rank, model.RANKS)

    # ----- your code starts here -----

    # ----- your code ends here -----
    for layer in range(model.LAYERS):
        if layer in weights:  # a layer not trained yet has none: the check names it
            model.set_final_weight(layer, weights[layer])
    return model
