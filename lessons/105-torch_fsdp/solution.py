# Fully sharded data parallel by hand, on two real processes: each rank owns one slice of the
# model's parameters (flattened into one vector) and the AdamW state of that slice only. Before
# each forward the ranks all-gather the whole model; after each backward each slice's gradient is
# summed on its owner alone (a reduce-scatter), which then updates its slice.
# The process group already exists: do not call init_process_group or destroy_process_group.
import torch
import torch.distributed as dist
from torch.nn.utils import parameters_to_vector, vector_to_parameters


def train(run):
    model = run.model
    count = sum(p.numel() for p in model.parameters())
    size = -(-count // run.world_size)  # ceil: the last slice is padded with zeros
    flat = torch.zeros(size * run.world_size)
    flat[:count] = parameters_to_vector(model.parameters()).detach()
    shard = torch.nn.Parameter(flat[run.rank * size:(run.rank + 1) * size].clone())
    optimizer = torch.optim.AdamW([shard], lr=run.learning_rate)

    # ----- your code starts here -----
    for step in range(run.steps):
        # Every rank's slice, gathered into the whole model for this step's forward and backward.
        slices = [torch.empty(size) for _ in range(run.world_size)]
        dist.all_gather(slices, shard.detach())
        vector_to_parameters(torch.cat(slices)[:count], model.parameters())

        X, y = run.get_batch()
        logits, loss = model(X, y)
        loss.backward()

        # Reduce-scatter (gloo has none): slice o of every rank's gradient goes to rank o, which
        # adds up what it received, its own slice included.
        grad = torch.zeros(size * run.world_size)
        grad[:count] = parameters_to_vector(p.grad for p in model.parameters())
        received = torch.empty_like(grad)
        dist.all_to_all_single(received, grad)
        shard.grad = received.view(run.world_size, size).sum(0) / run.world_size  # the mean

        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        model.zero_grad(set_to_none=True)
        run.log(loss)
    # ----- your code ends here -----
    run.save_shard(shard, optimizer)
