# DDP with gradient accumulation, on two real processes: run.accumulation micro-batches per
# optimizer step, gradients summed locally, and one all-reduce per step, on the last micro-batch.
# The process group already exists: do not call init_process_group or destroy_process_group.
import contextlib  # contextlib.nullcontext(): a context manager that does nothing

from torch.nn.parallel import DistributedDataParallel as DDP


def train(run):
    model, optimizer = run.model, run.optimizer

    # ----- your code starts here -----
    model = DDP(model)
    for step in range(run.steps):
        step_loss = 0.0
        for micro in range(run.accumulation):
            X, y = run.get_batch()
            last = micro == run.accumulation - 1
            # DDP decides during the forward whether this backward all-reduces: both go inside.
            context = contextlib.nullcontext() if last else model.no_sync()
            with context:
                logits, loss = model(X, y)
                loss = loss / run.accumulation
                loss.backward()
            step_loss += loss.detach()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        run.log(step_loss)
    # ----- your code ends here -----
