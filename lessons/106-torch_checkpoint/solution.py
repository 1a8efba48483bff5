# Activation checkpointing on one real process: the model is eight residual blocks deep and each
# batch holds 512 windows, so the activations the backward needs outweigh the weights many times.
# Checkpointing a block keeps only its input and computes the rest again during the backward.
from torch.utils.checkpoint import checkpoint


def train(run):
    model, optimizer = run.model, run.optimizer

    # ----- your code starts here -----
    for step in range(run.steps):
        X, y = run.get_batch()
        x = model.token_embedding_table(X)
        for block in model.blocks:
            # Keeps x alone for the backward; the block's inner activations are recomputed then.
            x = checkpoint(block, x, use_reentrant=False)
        logits, loss = model.readout(x, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        run.log(loss)
    # ----- your code ends here -----
