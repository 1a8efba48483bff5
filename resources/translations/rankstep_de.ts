<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ExportActions</name>
    <message>
        <source>Timeline and memory as &amp;SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline and memory as &amp;PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State of every rank as P&amp;NG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why (memory and time) as S&amp;VG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why (memory and time) as PN&amp;G…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace as &amp;JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rankstep traces (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace as P&amp;erfetto trace…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Perfetto / Chrome traces (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Legend</name>
    <message>
        <source>layers 0-%1, output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backward, gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held batches, shards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>updated weight</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryPlot</name>
    <message>
        <source>time (steps)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max %1 (rank %2, t %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Options</name>
    <message>
        <source>Learn how large language models are trained on many GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the lesson &lt;name&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the code in &lt;file&gt; (not saved as yours).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the code once the window is up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the window as an image to &lt;file&gt; (after the run, with --run) and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read lessons from &lt;dir&gt; (for lesson authors).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After --run, stand &lt;n&gt; operation steps from the start, or at the end.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Count --step in &lt;mode&gt;: snapshot (each draw()), operation, slice, time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the puzzle functions of &lt;file&gt; (a notebook or .py) as your code.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before the screenshot, show the tab &lt;name&gt; left of the editor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print when the window first painted, after the process start, and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start in presentation mode (F11).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom every view by &lt;factor&gt; (1 is actual size).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the theme &lt;name&gt;: system, light, dark or high-contrast.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the color-blind-safe colors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size the window &lt;width&gt;x&lt;height&gt; pixels.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After --run, compare the run with the lesson&apos;s solution (the Compare tab).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After --run, outline &lt;what&gt; on the timeline: critical-path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw the memory chart as the ranks&apos; lines, or one rank by kind.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --run, run the code for real too (Ctrl+F5, PyTorch) and take the screenshot once it ended.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --real, show the real run in the views (Ctrl+Shift+F5), its simulation in the Compare tab.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run under the cost model &lt;preset&gt; (Run &gt; Cost Model; docs/cost-models.md).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run a What if sweep of &lt;fields&gt; (ranks=2,4,8;batches=1,2,4,8;bandwidth=50;cost=PRESET) and take the screenshot when it ends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After --sweep, open the run of the grid&apos;s &lt;n&gt;-th setting (from 0).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay the recorded demonstration &lt;file&gt; (File &gt; Replay a Demonstration); --step N starts at its step N (from 1) or its end.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --presentation and --run: ask the quiz&apos;s question about the next step (ask), or show its answer with the step (reveal).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grade the class folder &lt;folder&gt; into the Class tab (File &gt; Open Class Folder) and take the screenshot when it ends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After --class, open the roster&apos;s cell &lt;learner&gt;:&lt;lesson&gt; and run it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>These lessons in %1 were left out:

%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No lesson in %1 loads:

%2

Rankstep shows its built-in lessons instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Some lessons could not be loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it holds a NUL byte (at byte %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it is not UTF-8 text (Latin-1 or another encoding?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another Rankstep window (process %1 on %2) has your saved code open. This window shows your code read-only and saves nothing; close the other one and open the lesson again to edit here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank   busy   idle   communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where time goes (each rank adds up to %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… and %1 more ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why the run behaves as it does</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No operation took simulated time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run did not finish: explained up to where it stopped.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory of rank %1 by kind, in bytes, over time (steps)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Critical path: %1 operations across the ranks, from t 0 to t %2, set the end time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every rank&apos;s state at the end of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every rank&apos;s state before the first event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every rank&apos;s state after event %1 of %2: rank %3, %4, t %5 to %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ranks, %2 layers, %3 batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timesteps %1, max memory %2 on GPU %3 at t %4 · %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hung</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
[output cut: %1 more bytes were printed here and dropped]
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The simulation process crashed (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The simulation process ended with exit code %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ranks %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank %1, line %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The ranks hung: no rank can go on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The ranks called different collectives</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run was stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python cannot read the code (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1: finished
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1 (line %2): waits in %3
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the fp32 loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one process, every rank&apos;s batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the plain loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch is missing. On Debian 12: sudo apt-get install python3-torch. The simulated lessons work without it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your code raised an error:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run did not finish:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Solved!&lt;/b&gt; Trained for real in %1 s.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Not solved yet.&lt;/b&gt;&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>opt. states</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>act. grads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight grads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;#8942;&amp;nbsp;dotted: the target, the model&apos;s state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>| layer | difference from one process | |
| --: | --: | --- |
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>| rank | compute | comm. | comm. share | simulated |
| --: | --: | --: | --: | --: |
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running for real…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run for real yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trains what one process trains.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trains another model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The simulator stopped it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A rank raised an error: every rank was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Did not finish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running for real: one process per rank trains real tensors through PyTorch&apos;s torch.distributed. The simulation runs first; then each process loads PyTorch, which takes a few seconds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>**Run for real** (Ctrl+F5) runs your code on real processes: each rank is a process that trains a real model (each layer a linear layer on real tensors) and talks to the others through PyTorch&apos;s torch.distributed. Afterwards the ranks&apos; weights, put together, are compared with one process trained on every batch: a correct program trains exactly the same model.

It needs PyTorch (Debian: python3-torch).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch is not installed, so nothing can run for real. On Debian 12: `sudo apt-get install python3-torch` (or `scripts/setup-deps.sh`), then press Ctrl+F5 again. Everything else in Rankstep works without it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The real run did not get to the end. What it said:

%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The weights of the one rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The weights of the %1 ranks, put together,</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 match one process trained on every batch: the largest difference is %2, rounding.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer %1 is the first that differs from one process trained on every batch: this program trains another model, even where the simulator found nothing wrong.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Seconds of each rank in compute (forward, backward, loss, update) and in communication (collectives and messages, waiting for the others included), and the share of communication beside the simulated run&apos;s. The notebook&apos;s costs put a collective at 0.3 of a forward: the last two columns show how far that holds here.

</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
%1 ranks, %2 layers, %3 batches; HIDDEN %4, LENGTH %5; %6 s in all, %7 s for the ranks after PyTorch loaded.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timesteps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Maximum memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Where the time goes&lt;/b&gt; (each rank&apos;s busy, idle and communication time add up to the end, %1):&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>busy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>least</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;small&gt;%1 ranks: the Why tab lists every one.&lt;/small&gt;&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The ranks hung:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank %1, line %2:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What went wrong:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Under %1: Timesteps %2; maximum memory %3 on rank %4 at %5; the run ends at %6.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Maximum memory %1 on rank %2 at time %3; the run ends at %4.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:#8a5300&apos;&gt;⚠ rank %1, line %2: %3&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RankListText</name>
    <message>
        <source>&apos;%1&apos; is not a rank or a range like 12-15</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the range %1 runs backward: write %2-%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no rank %1: this run has ranks 0-%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name the ranks to show, like 0-3, 8, 12-15</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ranks named: at most %2 fit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Theme</name>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WaitForText</name>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ranks %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collective mismatch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deadlock: no rank can go on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>finished without calling %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · line %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has not reached it yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waits in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last line it ran: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stuck at line %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A message from any of %1 would let it go on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waits on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waited on by rank %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::CodeKeeper</name>
    <message>
        <source>Your saved code %1 is shown read-only and is never rewritten: %2. Open it in another editor to fix it, or use Reset to starter to start again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your saved code was not replaced: a copy of it could not be kept (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your earlier file was kept in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your code could not be saved to %1 (%2), and no recovery copy could be written (%3). It is only in this editor now: copy it somewhere safe.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your code could not be saved to %1 (%2). It stays in the editor, and a copy is kept in %3. Rankstep tries again as you type.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ComparisonActions</name>
    <message>
        <source>The solution ran; the Compare tab shows it below your run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The solution could not be run: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no earlier run to compare with yet: run your code twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That lesson has no solution to compare with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The solution could not be written to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running the solution of %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ComparisonCanvas</name>
    <message>
        <source>Compare your run with the solution or with your previous run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B: compared with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run on real processes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its simulation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>end %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory of the rank that peaked: A solid, B dashed (each to its own peak: A %1, B %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory of the rank that peaked: A solid, B dashed (top: %1 B)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ComparisonView</name>
    <message>
        <source>Solution of</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>My previous run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs the lesson&apos;s reference solution and shows it below your run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose what to compare your run with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run your code first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run on real processes took %1 ms; its simulation %2 steps. Each has its own time axis: where the bars&apos; shapes agree, the notebook&apos;s costs describe this machine; where they do not (a collective far longer or shorter than a forward), they do not.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::DemoActions</name>
    <message>
        <source>the lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a step of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a tab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the time shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the ranks shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Record a Demonstration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;play a Demonstration…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop &amp;Recording…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save or discard the last recording before starting another.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recording: every step, tab and view change is kept. Type a caption for the step on screen in the bar above the steps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the Demonstration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rankstep demonstrations (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demonstration was not saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the demonstration to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no recording to save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2. The recording is kept; save it elsewhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay a Demonstration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This demonstration cannot be replayed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the recording before replaying one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The recording stopped: it is of one lesson. Save it from the bar.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::DemoBar</name>
    <message>
        <source>Demonstration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Caption of this step, shown large when replayed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Caption of the step on screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>■ Stop Recording…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End the recording and save it to a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◀ Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demonstration&apos;s step before (PageUp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demonstration&apos;s next step (PageDown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go through the steps on their own, at the pace beside</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s a step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long Play shows each step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds a step while playing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back to your own code; the demonstration changed nothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Caption of the step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the recording to a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throw the recording away</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#d32f2f&apos;&gt;●&lt;/span&gt; Recording · 1 step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#d32f2f&apos;&gt;●&lt;/span&gt; Recording · %1 steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The recording of 1 step is not saved yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The recording of %1 steps is not saved yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2 · running its code…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::DemoPlayer</name>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a demonstration: it is larger than any recording (%2 MB).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demonstration runs its code under the cost model %1, which this Rankstep does not have.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demonstration is of the lesson %1, which this Rankstep does not have.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A recorded demonstration: the code of its run %1 of %2, read-only and never graded. End Replay brings your own code back.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ExperimentsView</name>
    <message>
        <source>m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle, measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(p - 1) / (m + p - 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This lesson has no experiments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run your code (F5): it then runs again at each m.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your code at each m (p = %1 pipeline stages).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running %1 (%2 of %3)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>did not finish (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ExplainView</name>
    <message>
        <source>What fills memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where time goes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to the peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the rank holds at the cursor; double-click a row to go to the line that stored it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Busy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Communication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the critical path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chain of operations, across ranks, that sets the run&apos;s end time: make any of them shorter and the run ends sooner.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the whole model&apos;s state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model&apos;s state / %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The critical path: %1 operations, across the ranks, from t 0 to t %2 set the run&apos;s end time; making any of them shorter ends the run sooner.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No operation took simulated time, so nothing was held at any event.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run your code to see what fills each rank&apos;s memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run did not finish: this explains it up to where it stopped.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t %1–%2  rank %3  %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank %1 never waited: it was busy from its first operation to its last.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ExportActions</name>
    <message>
        <source>&amp;Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no run to export yet: run the code first (F5).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::GradeController</name>
    <message>
        <source>The grading gave no roster (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The grading gave no roster (no lessons or learners).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rankstep-cli was not found next to Rankstep or on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The grading could not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LegendBar</name>
    <message>
        <source>Legend</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LessonListModel</name>
    <message>
        <source>%1 — %2 ranks, %3 layers, %4 batches (%5)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LessonPanel</name>
    <message>
        <source>Show solution…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>**Hint %1.** </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the solution?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reference solution will replace the code in the editor. Your code stays one Undo (Ctrl+Z) away.

Trying one more hint first often teaches more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show solution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show hint %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No more hints</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LiveObjectsModel</name>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stored at t</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LossChart</name>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss curve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run your code to see its loss curve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>your loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ln %1 = %2: a uniform guess</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::MainWindow</name>
    <message>
        <source>Rankstep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory by &amp;Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Predict the Next Step (Quiz)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While presenting, each step forward first asks the room a question about it; the next press shows the answer with the step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Class Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a Class Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;What If: Sweep the Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost &amp;Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The notebook&apos;s costs: runs are graded against the lesson&apos;s targets.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost model %1: runs are checked and shown in seconds and bytes, not graded (F5 runs it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>▶ Run (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>■ Stop (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset to starter…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simulated under the cost model %1: times in milliseconds, memory in bytes (Run &gt; Cost Model; the lesson is graded under the notebook&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These views show the run on real processes: times in milliseconds, memory in the bytes its tensors held. Ctrl+Shift+F5 goes back to the simulation, whose results are above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State of every rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why it hung</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What fills each rank&apos;s memory, and where its time goes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What if</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your code at many settings: Timesteps against peak memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For real</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A class folder: every learner&apos;s lessons, solved or why not</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rankstep saves your code before a sweep, and saving failed: %1. Nothing was run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Stopped. Your code is saved; change it and run again.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — Rankstep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: real PyTorch, %2, %3 steps. F5 trains it for real.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 processes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2, %3 layers, %4 batches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rankstep saves your code before every run, and saving failed: %1. Nothing was run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your code could not be saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Running on %1 simulated ranks…&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Training for real with PyTorch: %1… The loss curve appears when it ends.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Solved! Trained for real in %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not solved yet: see the checks above the loss curve.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset to the starter code?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your code will be replaced by the lesson&apos;s starter code. You can undo this with Ctrl+Z.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1&apos;s %2 is no longer in %3: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the function is gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1&apos;s code for this lesson, from %2: read-only, and its runs are never graded as yours. Open the lesson again for your own code.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running %1&apos;s %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open that setting&apos;s run: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The What if run at %1 ranks, %2 layers, %3 batches: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run did not complete</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::MemoryChart</name>
    <message>
        <source>Run a program to see each rank&apos;s memory over time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stack one rank&apos;s memory by what fills it: weights, optimizer states, activations, activation gradients and weight gradients (the rank selected on the timeline, or the rank of the maximum)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By kind: rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1 and %2 more with the same memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank %1 holds %2 of %3 at t %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model state per rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>maximum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max %1 (rank %2, t %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::MemoryKindChart</name>
    <message>
        <source>time (steps)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bytes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::NotebookImport</name>
    <message>
        <source>Import notebook or Python file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not imported: its earlier code could not be kept in %2.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not imported: %2
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import notebook or Python file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notebooks and Python files (*.ipynb *.py);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds no puzzle function of these lessons.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was imported from %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Found 1 puzzle function in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Found %1 puzzle functions in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ %1 (%2): loaded into its editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ %1 (%2): already had this code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your earlier code was kept in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found (no function of that name): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rankstep&apos;s other lessons, not in the notebook, keep their code: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Functions that match no lesson (left out): %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::QuizPanel</name>
    <message>
        <source>Predict the next step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predict: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PageDown: the answer, with the step</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RealRunActions</name>
    <message>
        <source>Run for real (Ctrl+F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the real run in the views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The timeline, the memory chart and the state view show the last real run in milliseconds and real bytes; the Compare tab shows it above its simulation (Ctrl+Shift+F5 switches back)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs this code on one real process per rank through PyTorch&apos;s torch.distributed, and checks it trains what one process trains</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running for real… %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch is not installed: see the For real tab.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ran for real in %1 s: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the weights match one process.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>see the For real tab.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The views show the run on real processes, in milliseconds and real bytes; Ctrl+Shift+F5 goes back to the simulation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The views show the simulation again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running for real…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RealRunController</name>
    <message>
        <source>rankstep-cli could not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RealRunView</name>
    <message>
        <source>Run for real</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For real</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last run of the code on real processes and its verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+F5: run this code on one real process per rank (PyTorch)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ResultsPanel</name>
    <message>
        <source>Press &lt;b&gt;Run&lt;/b&gt; (F5) to simulate your code.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Press &lt;b&gt;Run&lt;/b&gt; (F5) to simulate your code.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Targets&lt;/b&gt;&lt;br&gt;Timesteps at most %1&lt;br&gt;Maximum memory at most %2&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;small&gt;The notebook&apos;s rounded targets: %1 steps, %2.&lt;/small&gt;&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Your code printed:&lt;/b&gt;&lt;/p&gt;&lt;pre&gt;%1&lt;/pre&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RosterView</name>
    <message>
        <source>1 learner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 learners</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class roster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A row per learner and a column per lesson: solved, not solved with the kind of mistake, or missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No class folder open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Class Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder with a subfolder, .py file or notebook per learner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grade Again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a class folder to grade every learner&apos;s code at once: a subfolder, .py file or notebook per learner.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grading every learner&apos;s code on every core… %1 s (Esc stops)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Click to open it read-only and run it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No learner&apos;s code in this folder: it needs a subfolder, .py file or notebook per learner.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 graded lessons solved, in %3 s. Click a cell to open that learner&apos;s code read-only and run it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Common mistakes&lt;/b&gt;&lt;ul style=&apos;margin:0&apos;&gt;%1&lt;/ul&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The class could not be graded: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped. Grade Again starts over.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RunController</name>
    <message>
        <source>rankstep-cli was not found next to Rankstep or on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The simulation could not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rankstep failed while running: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::StateRankPicker</name>
    <message>
        <source>Tick the ranks to show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ranks, e.g. 0-3, 8, 12-15</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ranks %1 ▾</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at most %1 ranks fit: untick one first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at least one rank stays shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::StateView</name>
    <message>
        <source>Run your code, then step through it: every rank&apos;s weights, activations and gradients appear here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::StepBar</name>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To the start of the run (Home)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One step back (Shift+F10, PageUp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play and pause (Space while this button has the focus)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One step on (F10, PageDown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To the end of the run (End)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by simulated time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by coroutine slice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by snapshot (draw)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What Next, Back and Play step by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The snapshots your draw() calls marked: pick one to go there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>snapshots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> steps/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How fast Play steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole run: drag to move through it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run your code to step through it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t = %1 · %2 of %3 events done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · end of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> · %n running</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>event %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · t = %1 · end of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · rank %1 at t = %2, running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · rank %1 at t = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · all ranks past t = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · t = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1, line %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::SweepController</name>
    <message>
        <source>rankstep-cli was not found next to Rankstep or on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sweep could not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sweep ended unexpectedly (%1).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::TimelineView</name>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank %1 waits from t %2 to t %3: click to see what it waits for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run stopped before any rank did timed work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run your code to see each rank&apos;s timeline</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ViewControls</name>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;Hints and Solution While Presenting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Color-Blind-Safe Colors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::WaitForView</name>
    <message>
        <source>No hang in this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>→ waits on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>- - → waits for a message from any rank</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rankstep::gui::WhatIfView</name>
    <message>
        <source>Sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What if</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs your code at every setting of a grid and plots Timesteps against peak memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Numbers of ranks, separated by commas: 2,4,8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batches a rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batches a rank: each setting runs ranks x K batches, as data parallelism needs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the cost model&apos;s own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gigabytes a second on every link, inside and between nodes: 25,50,450. Only a real-scale cost model moves data by its bytes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run your code at every setting listed (Enter in a field)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the sweep (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%v of %m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cost model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Band&amp;width, GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide the settings to sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timesteps against peak memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ranks, %2 layers, %3 batches%4: Timesteps %5, peak %6, idle %7. Click to open this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timesteps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a row to open its run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your code at every setting you list (2,4,8), each run in the background as F5 runs it. The lesson&apos;s own setting is filled in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A PyTorch lesson trains for real: it has no what-if sweep.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos;: the fields are ranks, layers, batches, batches-per-rank, bandwidth, cost (a preset) and show (chart or table)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Running %n setting(s) in the background…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>That setting&apos;s run left no trace: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 settings in %2 s; %3 solved. Click a point or double-click a row to open its run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sweep did not run: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped: %1 of %2 settings ran.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs a real-scale cost model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak memory of a rank, GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak memory of a rank, MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timesteps, s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the sweep to see each setting here</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
