# Mixed precision: the forward (and the loss) under bf16 autocast, the weights, their gradients
# and the optimizer's update in fp32. One rank, the loop of the previous lesson.
import torch


def train(run):
    model, optimizer = run.model, run.optimizer

    # ----- your code starts here -----
    for step in range(run.steps):
        X, y = run.get_batch()
        logits, loss = model(X, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        run.log(loss)
    # ----- your code ends here -----
