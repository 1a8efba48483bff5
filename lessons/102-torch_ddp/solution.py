# DDP in PyTorch, on two real processes: each rank trains on its own batches, and the
# DistributedDataParallel wrapper averages the gradients of all ranks during every backward.
# The process group already exists: do not call init_process_group or destroy_process_group.
from torch.nn.parallel import DistributedDataParallel as DDP


def train(run):
    model, optimizer = run.model, run.optimizer

    # ----- your code starts here -----
    # No device_ids on the CPU. The wrapper shares run.model's parameters, so the optimizer
    # built over them updates exactly what DDP synchronised.
    model = DDP(model)
    for step in range(run.steps):
        X, y = run.get_batch()
        logits, loss = model(X, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        run.log(loss)
    # ----- your code ends here -----
