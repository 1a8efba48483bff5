# The training checklist's habits on one real process: look at the loss before training, start
# the readout at zero, warm the learning rate up, clip the gradients and watch their norm.
import math

import torch


def train(run):
    model, optimizer = run.model, run.optimizer

    # ----- your code starts here -----
    X, y = run.get_batch()
    with torch.no_grad():
        first = model(X, y)[1]
    print(f"loss at init {float(first):.3f}, ln(10) = {math.log(10):.3f}")
    # A readout of zeros predicts every token equally likely: the loss starts at ln(10) exactly.
    with torch.no_grad():
        model.linear_out.weight.zero_()
        model.linear_out.bias.zero_()

    for step in range(run.steps):
        if step > 0:
            X, y = run.get_batch()
        for group in optimizer.param_groups:
            group["lr"] = run.learning_rate * min(1.0, (step + 1) / run.warmup_steps)
        logits, loss = model(X, y)
        loss.backward()
        # After the backward (the gradients exist) and before the step (which uses them).
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), run.clip_norm)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        run.log(loss, norm)
    # ----- your code ends here -----
