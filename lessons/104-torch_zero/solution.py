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
    # Replaces run.optimizer: the same AdamW and learning rate, its state split across the ranks.
    optimizer = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.AdamW,
                                        lr=run.learning_rate)
    for step in range(run.steps):
        X, y = run.get_batch()
        logits, loss = model(X, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        run.log(loss)
    # A collective: every rank sends its shard of the state to rank 0, which alone saves it.
    optimizer.consolidate_state_dict(to=0)
    if run.rank == 0:
        run.save_optimizer(optimizer)
    # ----- your code ends here -----
