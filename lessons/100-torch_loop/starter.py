# A training loop in PyTorch, run for real on one rank: per batch a forward, a backward, an
# optimizer step and a fresh start for the gradients, 100 times over.


def train(run):
    model, optimizer = run.model, run.optimizer

    # ----- your code starts here -----
    for step in range(run.steps):
        X, y = run.get_batch()
        logits, loss = model(X, y)
        loss.backward()
        optimizer.step()
        run.log(loss)
    # ----- your code ends here -----
