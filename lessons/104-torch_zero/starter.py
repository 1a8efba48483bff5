# ZeRO stage 1 on two real processes: DDP still averages the gradients, but each rank keeps the
# AdamW state of only its share of the parameters, updates that share, and sends it to the others.
# The process group already exists: do not call init_process_group or destroy_process_group.
import torch
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP


def train(run):
    model, optimizer = run.model, run.optimizer

    # ----- your code starts here -----
    model = DDP(model)
    for step in range(run.steps):
        X, y = run.get_batch()
        logits, loss = model(X, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        run.log(loss)
    if run.rank == 0:
        run.save_optimizer(optimizer)
    # ----- your code ends here -----
