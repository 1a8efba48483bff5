# Pipeline + FSDP with groups: four pipeline stages (rank % 4), four batch lanes (rank // 4).
# A stage's layers are sharded over only the four ranks of that stage, and the collectives run
# over only that group, so no rank joins a collective for a layer it never computes.
from lib import Model


async def pipeline_fsdp_groups(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    stages = 4
    lanes = model.RANKS // stages
    stage, lane = model.rank % stages, model.rank // stages
    per_stage = model.LAYERS // stages
    my_layers = [stage * per_stage + i for i in range(per_stage)]
    first, last = my_layers[0], my_layers[-1]

    # One shard per lane: this rank holds shard `lane` of `lanes` of each of its own layers.
    for layer in my_layers:
        weights[layer], opt_states[layer] = model.load_weights(layer, lane, lanes)

    # ----- your code starts here -----

    # ----- your code ends here -----

    for layer in my_layers:
        model.set_final_weight(layer, weights[layer])
    return model
