
# ----- Context parallelism: causal attention over the sequence ------------------------------------
# In a program whose context group splits the sequence (CONTEXT > 1), each layer is
# tanh(x @ W + attention(x)): one head of causal softmax attention over the batch's own sequence,
# its queries x @ Wq, its keys and values x @ Wk and x @ Wv of the layer's input, through which the
# gradient reaches Wk and Wv but not x (the schedule sends no gradients of keys and values back
# around the ring). A layer's weight is then W, Wq, Wk and Wv: 4 x HIDDEN x HIDDEN. Rank r holds
# chunk r % CONTEXT of every batch's sequence (the positions torch.tensor_split gives it).
LAYER_VALUES = (4 if CONTEXT > 1 else 1) * HIDDEN * HIDDEN


def initial_layer(sizes, layer):
    """Layer `layer`'s weight before training: W, and with attention Wq, Wk and Wv after it."""
    dense = initial_weight(sizes, layer)
    if CONTEXT == 1:
        return dense
    projections = torch.randn(3, sizes.hidden, sizes.hidden, generator=_generator(sizes, 7, layer),
                              dtype=DTYPE) / math.sqrt(sizes.hidden)
    return torch.cat([dense[None], projections])


def chunk_positions(chunk):
    """The positions in a batch's sequence of chunk `chunk` of CONTEXT."""
    return torch.tensor_split(torch.arange(LENGTH), CONTEXT)[chunk]


def chunk_rows(rows, batches, chunk):
    """Chunk `chunk`'s rows of each batch, in batch order."""
    return rows.view(len(batches), LENGTH, -1)[:, chunk_positions(chunk)].reshape(-1, HIDDEN)


def attention_layer(inputs, keys, values, weight, positions, key_positions, batches):
    """The layer on the rows `inputs` (at `positions` of each batch's sequence) against the keys
    and values of the rows at `key_positions`."""
    queries = (inputs @ weight[1]).view(batches, -1, HIDDEN)
    keys, values = keys.view(batches, -1, HIDDEN), values.view(batches, -1, HIDDEN)
    scores = queries @ keys.transpose(1, 2) / math.sqrt(HIDDEN)
    future = key_positions.view(1, -1) > positions.view(-1, 1)
    scores = scores.masked_fill(future.to(scores.device), float("-inf"))
    mixed = (torch.softmax(scores, dim=-1) @ values).reshape(-1, HIDDEN)
    return torch.tanh(inputs @ weight[0] + mixed)


# ----- What one rank holds and does ---------------------------------------------------------------
# The learner's program kept puzzle objects in dictionaries; here a rank keeps their tensors by
# what identifies them: the layer, the batches they come from and, for weights and gradients, the
# shards of a total. Every method is one call of the learner's (the schedule below calls them in
# the learner's order) and does it with torch and torch.distributed.


def _key(batches):
    return tuple(sorted(batches))


class Rank:
    def __init__(self, rank, device, groups):
        self.rank = rank
        self.device = device
        self.groups = groups  # (members...) -> torch.distributed process group
        self.sizes = Sizes(HIDDEN, LENGTH, SEED)
        self.activations = {}  # (layer, batches) -> the input of `layer` for those batches
        self.grad_outputs = {}  # (layer, batches) -> the gradient of `layer`'s output
        self.weights = {}  # layer -> {(total, shard): (step, flat values)}
        self.optimizers = {}  # (layer, total, shard) -> (parameter, torch.optim.Adam)
        self.gradients = {}  # layer -> [(batches, total, {shard: flat values})], newest last
        self.sends = []  # sends in flight: a send never waits for its receiver
        self.losses = []
        self.chunk = rank % CONTEXT  # the chunk of the sequence this rank holds
        # (layer, batches) -> {chunk: the input rows of that chunk}: the keys and values are their
        # projections, made where they are used
        self.key_inputs = {}

    def _to(self, tensor):
        return tensor.to(self.device)

    def _group(self, members):
        return self.groups.get(tuple(members))  # None: every rank

    # ----- weights: load_weights, and the shards a rank holds -----
    def part(self, layer, total, shard):
        """Shard `shard` of `total` of the layer's weight as this rank holds it. One it never held
        is cut from a whole weight it holds (Weight.shard), else loaded (load_weights)."""
        held = self.weights.setdefault(layer, {})
        if (total, shard) not in held:
            whole = [t for t in {t for t, _ in held} if all((t, s) in held for s in range(t))]
            if whole:
                newest = max(whole, key=lambda t: held[(t, 0)][0])
                flat = torch.cat([held[(newest, s)][1] for s in range(newest)])
                held[(total, shard)] = (held[(newest, 0)][0], split_flat(flat, total)[shard])
            else:
                flat = self._to(initial_layer(self.sizes, layer).reshape(-1))
                held[(total, shard)] = (0, split_flat(flat, total)[shard].clone())
        return held[(total, shard)]

    def whole_weight(self, layer, total):
        flat = torch.cat([self.part(layer, total, s)[1] for s in range(total)])
        return flat.view(HIDDEN, HIDDEN) if CONTEXT == 1 else flat.view(4, HIDDEN, HIDDEN)

    # ----- compute -----
    def forward(self, layer, batches, total=1):
        weight = self.whole_weight(layer, total)
        self.activations[(layer + 1, _key(batches))] = self._layer(
            layer, batches, self.activation(layer, batches), weight)

    def activation(self, layer, batches):
        """The input of `layer` for `batches`; of layer 0, the data (get_activation): with
        CONTEXT > 1 this rank's chunk of each batch's sequence."""
        key = (layer, _key(batches))
        if key not in self.activations and layer == 0:
            rows = rows_of(self.sizes, batches, batch_inputs)
            if CONTEXT > 1:
                rows = chunk_rows(rows, batches, self.chunk)
            self.activations[key] = self._to(rows)
        return self.activations[key]

    def _layer(self, layer, batches, inputs, weight):
        """The layer's output rows; with attention, the chunk's queries against every chunk's
        keys and values (this rank's own from its input, the others' as they came)."""
        if CONTEXT == 1:
            return torch.tanh(inputs @ weight)
        chunks = self.key_inputs.setdefault((layer, _key(batches)), {})
        chunks[self.chunk] = self.activations[(layer, _key(batches))].detach()
        order = sorted(chunks)
        key_inputs = torch.cat([chunks[c].view(len(batches), -1, HIDDEN) for c in order],
                               dim=1).reshape(-1, HIDDEN)
        key_positions = torch.cat([chunk_positions(c) for c in order])
        return attention_layer(inputs, key_inputs @ weight[2], key_inputs @ weight[3], weight,
                               chunk_positions(self.chunk), key_positions, len(batches))

    def loss(self, batches):
        key = (LAYERS, _key(batches))
        outputs = self.activations[key].detach().requires_grad_()
        targets = rows_of(self.sizes, batches, batch_targets)
        targets = self._to(chunk_rows(targets, batches, self.chunk) if CONTEXT > 1 else targets)
        # Half the squared error over every row of every batch: a rank's share adds up to the
        # loss of one process that takes all the batches.
        loss = 0.5 * ((outputs - targets) ** 2).sum() / (BATCHES * LENGTH)
        (grad,) = torch.autograd.grad(loss, outputs)
        self.losses.append(float(loss))
        self.grad_outputs[(LAYERS - 1, key[1])] = grad

    def backward(self, layer, batches, total=1):
        """The weight's gradient and the input's, with autograd (the layer's output recomputed)."""
        grad_weight, grad_input = self._backward(layer, batches, total, True, True)
        self.add_gradient(layer, batches, 1, {0: grad_weight.reshape(-1)})
        self.grad_outputs[(layer - 1, _key(batches))] = grad_input

    def backward_input(self, layer, batches, total=1):
        """The input's gradient alone (a split backward's first half)."""
        (grad_input,) = self._backward(layer, batches, total, True, False)
        self.grad_outputs[(layer - 1, _key(batches))] = grad_input

    def backward_weight(self, layer, batches, total=1):
        """The weight's gradient alone (a split backward's second half)."""
        (grad_weight,) = self._backward(layer, batches, total, False, True)
        self.add_gradient(layer, batches, 1, {0: grad_weight.reshape(-1)})

    def _backward(self, layer, batches, total, want_input, want_weight):
        key = (layer, _key(batches))
        inputs = self.activations[key].detach().requires_grad_(want_input)
        weight = self.whole_weight(layer, total).detach().requires_grad_(want_weight)
        outputs = self._layer(layer, batches, inputs, weight)
        wanted = [t for t, want in ((weight, want_weight), (inputs, want_input)) if want]
        return torch.autograd.grad(outputs, wanted, self.grad_outputs[key])

    def update(self, layer, batches, shards, total):
        """One Adam step (torch.optim.Adam) on the weight's shards this rank updates."""
        for shard in shards:
            step, values = self.part(layer, total, shard)
            if (layer, total, shard) not in self.optimizers:
                parameter = torch.nn.Parameter(values.clone())
                self.optimizers[(layer, total, shard)] = (parameter, torch.optim.Adam(
                    [parameter], lr=LEARNING_RATE, betas=BETAS, eps=EPSILON))
            parameter, adam = self.optimizers[(layer, total, shard)]
            with torch.no_grad():
                parameter.copy_(values)
            parameter.grad = self.gradient(layer, batches, total, [shard])
            adam.step()
            self.weights[layer][(total, shard)] = (step + 1, parameter.detach().clone())

    # ----- gradients: the learner's sums of them (grad_a + grad_b) -----
    def add_gradient(self, layer, batches, total, parts):
        self.gradients.setdefault(layer, []).append((frozenset(batches), total, parts))

    def gradient(self, layer, batches, total, shards):
        """The layer's gradient over `batches` for shards `shards` of `total`, flat: the sum of
        the gradients this rank made or received whose batches make up `batches`, as the
        learner's program added them. Batches no gradient covers count zero (fake_grad)."""
        left, total_sum = set(batches), None
        for pieces_batches, pieces_total, parts in reversed(self.gradients.get(layer, [])):
            if not pieces_batches or not pieces_batches <= left:
                continue
            flat = self._slice(parts, pieces_total, total, shards)
            if flat is None:
                continue
            total_sum = flat.clone() if total_sum is None else total_sum + flat
            left -= pieces_batches
            if not left:
                break
        if total_sum is None:
            lengths = [len(p) for p in split_flat(torch.empty(LAYER_VALUES), total)]
            total_sum = torch.zeros(sum(lengths[s] for s in shards), dtype=DTYPE,
                                    device=self.device)
        return total_sum

    @staticmethod
    def _slice(parts, parts_total, total, shards):
        if parts_total == total and all(s in parts for s in shards):
            return torch.cat([parts[s] for s in shards])
        if len(parts) == parts_total:  # a whole gradient: cut the shards out of it
            pieces = split_flat(torch.cat([parts[s] for s in range(parts_total)]), total)
            return torch.cat([pieces[s] for s in shards])
        return None

    # ----- collectives (torch.distributed) -----
    def all_reduce(self, layer, batches, shards, total, members, summed_batches):
        """The gradients of the group summed: every member gets the sum."""
        flat = self.gradient(layer, batches, total, shards)
        dist.all_reduce(flat, group=self._group(members))
        self.add_gradient(layer, summed_batches, total, _cut(flat, total, shards))

    def reduce_scatter(self, layer, batches, total, members, summed_batches):
        """The gradients of the group summed; each member keeps its own shard of the sum (as
        all_reduce and a cut: Debian's gloo has no reduce_scatter)."""
        flat = self.gradient(layer, batches, total, range(total))
        dist.all_reduce(flat, group=self._group(members))
        position, count = members.index(self.rank), len(members)
        self.add_gradient(layer, summed_batches, count,
                          {position: split_flat(flat, count)[position].clone()})

    def all_gather(self, kind, layer, *, total, members, shards_of, batches=()):
        """Each member's shards to every member. shards_of: each member's shards, in order."""
        lengths = [len(p) for p in split_flat(torch.empty(LAYER_VALUES), total)]
        mine = shards_of[members.index(self.rank)]
        longest = max(sum(lengths[s] for s in shards) for shards in shards_of)
        padded = torch.zeros(longest, dtype=DTYPE, device=self.device)
        flat = self._values(kind, layer, batches, total, mine)
        padded[: flat.numel()] = flat
        received = [torch.zeros_like(padded) for _ in members]
        dist.all_gather(received, padded, group=self._group(members))
        for shards, data in zip(shards_of, received):
            self._keep(kind, layer, batches, total, shards, data)

    def all_reduce_activation(self, layer, batches, members):
        """Partial activations of a layer summed over the group (tensor parallel)."""
        dist.all_reduce(self.activations[(layer, _key(batches))], group=self._group(members))

    # ----- point to point -----
    def send(self, kind, layer, batches, *, to, total=1, shards=(), chunk=None):
        if kind == "keys_values":  # chunk's keys and values: the input rows they project
            values = self._key_inputs(layer, batches, chunk).reshape(-1).contiguous()
        else:
            values = self._values(kind, layer, batches, total, shards).contiguous()
        self.sends += [dist.isend(values, to), values]

    def receive(self, kind, layer, batches, *, source, total=1, shards=(), chunk=None):
        if kind == "keys_values":
            rows = len(batches) * len(chunk_positions(chunk))
            values = torch.zeros(rows * HIDDEN, dtype=DTYPE, device=self.device)
            dist.recv(values, source)
            self.key_inputs.setdefault((layer, _key(batches)), {})[chunk] = values.view(-1, HIDDEN)
            return
        values = torch.zeros(self._length(kind, batches, total, shards), dtype=DTYPE,
                             device=self.device)
        dist.recv(values, source)
        self._keep(kind, layer, batches, total, shards, values)

    def _key_inputs(self, layer, batches, chunk):
        """The input rows of chunk `chunk` at `layer`: this rank's own activation, or as they
        came from another rank."""
        if chunk == self.chunk:
            return self.activation(layer, batches)
        return self.key_inputs[(layer, _key(batches))][chunk]

    def send_placeholder(self, to):
        """A message that was no puzzle object (a dict or a tuple): its place only."""
        values = torch.zeros(1, dtype=DTYPE, device=self.device)
        self.sends += [dist.isend(values, to), values]

    def receive_placeholder(self, source):
        dist.recv(torch.zeros(1, dtype=DTYPE, device=self.device), source)

    def finish_sends(self):
        for item in self.sends:
            if hasattr(item, "wait"):
                item.wait()
        self.sends.clear()

    # ----- an object's values, flat, by kind -----
    def _values(self, kind, layer, batches, total, shards):
        if kind == "activation":
            return self.activations[(layer, _key(batches))].reshape(-1)
        if kind == "activation_grad":
            return self.grad_outputs[(layer, _key(batches))].reshape(-1)
        if kind == "weight":
            return torch.cat([self.part(layer, total, s)[1] for s in shards])
        return self.gradient(layer, batches, total, shards)

    def _length(self, kind, batches, total, shards):
        if kind in ("activation", "activation_grad"):
            return len(batches) * LENGTH * HIDDEN
        lengths = [len(p) for p in split_flat(torch.empty(LAYER_VALUES), total)]
        return sum(lengths[s] for s in shards)

    def _keep(self, kind, layer, batches, total, shards, values):
        if kind in ("activation", "activation_grad"):
            rows = values[: len(batches) * LENGTH * HIDDEN].view(-1, HIDDEN).clone()
            store = self.activations if kind == "activation" else self.grad_outputs
            store[(layer, _key(batches))] = rows
            return
        parts = _cut(values[: self._length(kind, batches, total, shards)], total, shards)
        if kind == "weight":
            step = max((s for s, _ in self.weights.get(layer, {}).values()), default=0)
            for shard, part in parts.items():
                self.weights.setdefault(layer, {})[(total, shard)] = (step, part.clone())
        else:
            self.add_gradient(layer, batches, total, parts)


def _cut(flat, total, shards):
    """A flat run of shards (ascending) back into {shard: values}."""
    lengths = [len(p) for p in split_flat(torch.empty(LAYER_VALUES), total)]
    parts, at = {}, 0
    for shard in shards:
        parts[shard] = flat[at: at + lengths[shard]].clone()
        at += lengths[shard]
    return parts


# ----- The check: one process trains the same model on every batch --------------------------------
TOLERANCE = 1e-9  # float64 sums in another order differ by about 1e-16 of the values here


def one_process_weights():
    """Every layer's weight after one step of one process on all batches: autograd through the
    whole model, torch.optim.Adam."""
    sizes = Sizes(HIDDEN, LENGTH, SEED)
    weights = [torch.nn.Parameter(initial_layer(sizes, layer)) for layer in range(LAYERS)]
    adam = torch.optim.Adam(weights, lr=LEARNING_RATE, betas=BETAS, eps=EPSILON)
    everything = list(range(BATCHES))
    outputs = rows_of(sizes, everything, batch_inputs)
    every = torch.arange(LENGTH)
    for weight in weights:
        if CONTEXT == 1:
            outputs = torch.tanh(outputs @ weight)
        else:  # the whole sequence; the keys' and values' input held constant, as on the ranks
            held = outputs.detach()
            outputs = attention_layer(outputs, held @ weight[2], held @ weight[3], weight, every,
                                      every, BATCHES)
    targets = rows_of(sizes, everything, batch_targets)
    loss = 0.5 * ((outputs - targets) ** 2).sum() / (BATCHES * LENGTH)
    loss.backward()
    adam.step()
    return [w.detach() for w in weights], float(loss)


def final_weights(state, rank):
    """What this rank set with set_final_weight: [(layer, step, total, {shard: values})]."""
    finals = []
    for layer, total, shards in FINAL.get(rank, []):
        parts = {s: state.part(layer, total, s) for s in shards}
        step = min(p[0] for p in parts.values())
        finals.append((layer, step, total, {s: p[1].cpu() for s, p in parts.items()}))
    return finals


def _gather_padded(tensor, length, device):
    """Every rank's 1-D tensor, each padded with zeros to `length` for all_gather."""
    padded = torch.zeros(length, dtype=tensor.dtype, device=device)
    padded[: tensor.numel()] = tensor.to(device)
    received = [torch.zeros_like(padded) for _ in range(dist.get_world_size())]
    dist.all_gather(received, padded)
    return [r.cpu() for r in received]


def gather_final_weights(finals, device):
    """Every rank's final_weights(), exchanged as plain tensors: the sizes first, then one row of
    (layer, step, total, shard, count) a shard and its values, so no rank unpickles what another
    sent (all_gather_object would)."""
    rows = [(layer, step, total, shard, values.numel())
            for layer, step, total, parts in finals for shard, values in sorted(parts.items())]
    header = torch.tensor(rows, dtype=torch.int64).reshape(-1)
    values = torch.cat([torch.zeros(0, dtype=DTYPE)]
                       + [v.reshape(-1).to(DTYPE).cpu() for _, _, _, parts in finals
                          for _, v in sorted(parts.items())])
    sizes = _gather_padded(torch.tensor([header.numel(), values.numel()]), 2, device)
    headers = _gather_padded(header, max(1, *(int(s[0]) for s in sizes)), device)
    flats = _gather_padded(values, max(1, *(int(s[1]) for s in sizes)), device)
    every_rank = []
    for size, header, flat in zip(sizes, headers, flats):
        finals, at, parts_of = [], 0, {}
        for layer, step, total, shard, count in header[: int(size[0])].view(-1, 5).tolist():
            if (layer, step, total) not in parts_of:
                parts_of[(layer, step, total)] = {}
                finals.append((layer, step, total, parts_of[(layer, step, total)]))
            parts_of[(layer, step, total)][shard] = flat[at: at + count]
            at += count
        every_rank.append(finals)
    return every_rank


def check(every_rank):
    """Compares the ranks' final weights, put together, with one process's; 0 when they match."""
    expected, _ = one_process_weights()
    largest = 0.0
    for layer in range(LAYERS):
        flat = torch.full((LAYER_VALUES,), float("nan"), dtype=DTYPE)
        disagree = 0.0
        for finals in every_rank:
            for final_layer, _, total, parts in finals:
                if final_layer != layer:
                    continue
                offsets = [0]
                for piece in split_flat(torch.empty(LAYER_VALUES), total):
                    offsets.append(offsets[-1] + piece.numel())
                for shard, values in parts.items():
                    region = flat[offsets[shard]: offsets[shard + 1]]
                    known = ~torch.isnan(region)
                    if known.any():
                        disagree = max(disagree, float((region[known] - values[known]).abs().max()))
                    flat[offsets[shard]: offsets[shard + 1]] = values
        if torch.isnan(flat).any():
            print(f"layer {layer} differs: no rank set the whole final weight of this layer")
            return 1
        diff = float((flat.view_as(expected[layer]) - expected[layer]).abs().max())
        largest = max(largest, diff)
        if disagree > TOLERANCE:
            print(f"layer {layer} differs: two ranks hold different values of it (by {disagree:.3g})")
            return 1
        if diff > TOLERANCE:
            print(f"layer {layer} differs from one process (max abs diff {diff:.3g})")
            return 1
    print(f"weights match one process (max abs diff {largest:.3g})")
    return 0


# ----- torchrun's conventions ---------------------------------------------------------------------
def main():
    parser = argparse.ArgumentParser(description="The exported schedule, on torch.distributed.")
    parser.add_argument("--check", action="store_true",
                        help="also train the model in one process and compare the weights")
    parser.add_argument("--backend", choices=("nccl", "gloo"),
                        help="default: nccl when CUDA is there, else gloo")
    args = parser.parse_args()
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if world != RANKS:
        sys.exit(f"this schedule is for {RANKS} ranks, not {world}: "
                 f"torchrun --nproc_per_node {RANKS} (or --nnodes N --nproc_per_node {RANKS}/N)")
    cuda = torch.cuda.is_available()
    backend = args.backend or ("nccl" if cuda and dist.is_nccl_available() else "gloo")
    if backend == "nccl" and not (cuda and dist.is_nccl_available()):
        sys.exit("--backend nccl needs a PyTorch built with CUDA and NCCL, and a GPU; this one has "
                 + ("no NCCL" if not dist.is_nccl_available() else "no GPU")
                 + " (Debian's python3-torch has neither): leave --backend out, or give gloo")
    device = torch.device("cuda", local_rank) if backend == "nccl" else torch.device("cpu")
    if backend == "nccl":
        torch.cuda.set_device(device)
    # MASTER_ADDR and MASTER_PORT come from the environment, as torchrun sets them.
    dist.init_process_group(backend, timeout=datetime.timedelta(minutes=5))
    groups = {}
    for members in GROUPS:  # every rank makes every group, in the same order
        groups[tuple(members)] = dist.new_group(members)
    torch.set_num_threads(max(1, torch.get_num_threads() // max(1, int(
        os.environ.get("LOCAL_WORLD_SIZE", "1")))))
    state = Rank(rank, device, groups)
    SCHEDULE[rank](state)
    state.finish_sends()
    status = 0
    if args.check:
        every_rank = gather_final_weights(final_weights(state, rank), device)
        if rank == 0:
            status = check(every_rank)
    dist.barrier()
    dist.destroy_process_group()
    return status
