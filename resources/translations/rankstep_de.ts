<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>EngineText</name>
    <message>
        <source>Deadlock: no rank can go on.</source>
        <translation>Deadlock: Kein Rank kann weitermachen.</translation>
    </message>
    <message>
        <source>rank %1 finished without calling %2</source>
        <translation>Rank %1 ist fertig, ohne %2 aufzurufen</translation>
    </message>
    <message>
        <source>rank %1 has finished</source>
        <translation>Rank %1 ist fertig</translation>
    </message>
    <message>
        <source>%1 wait on each other: %2</source>
        <translation>%1 warten aufeinander: %2</translation>
    </message>
    <message>
        <source>%1 ranks wait on each other, ranks %2 among them: %3</source>
        <translation>%1 Ranks warten aufeinander, darunter die Ranks %2: %3</translation>
    </message>
    <message>
        <source>rank %1 waits in %2 at line %3</source>
        <translation>Rank %1 wartet in %2 in Zeile %3</translation>
    </message>
    <message>
        <source>rank %1 waits in %2 at line %3 for rank %4</source>
        <translation>Rank %1 wartet in %2 in Zeile %3 auf Rank %4</translation>
    </message>
    <message>
        <source>rank %1 waits in %2 at line %3 for ranks %4</source>
        <translation>Rank %1 wartet in %2 in Zeile %3 auf die Ranks %4</translation>
    </message>
    <message>
        <source>%1 (finished)</source>
        <translation>%1 (fertig)</translation>
    </message>
    <message>
        <source>%1 (stopped by an error)</source>
        <translation>%1 (durch einen Fehler gestoppt)</translation>
    </message>
    <message>
        <source>%1 (never started)</source>
        <translation>%1 (nie gestartet)</translation>
    </message>
    <message>
        <source>%1 (cut short)</source>
        <translation>%1 (abgebrochen)</translation>
    </message>
    <message>
        <source>rank %1 stopped at line %2 without calling %3, which rank %4 waits in</source>
        <translation>Rank %1 hielt in Zeile %2 an, ohne %3 aufzurufen, worin Rank %4 wartet</translation>
    </message>
    <message>
        <source>rank %1 stopped at line %2 without calling %3, which ranks %4 wait in</source>
        <translation>Rank %1 hielt in Zeile %2 an, ohne %3 aufzurufen, worin die Ranks %4 warten</translation>
    </message>
    <message>
        <source>Collective mismatch: %1 reached the same collective of %2 with different calls.</source>
        <translation>Kollektive passen nicht zusammen: %1 erreichten dieselbe kollektive Operation von %2 mit verschiedenen Aufrufen.</translation>
    </message>
    <message>
        <source>rank %1: %2 at line %3</source>
        <translation>Rank %1: %2 in Zeile %3</translation>
    </message>
    <message>
        <source>rank %1: finished without calling it</source>
        <translation>Rank %1: fertig, ohne sie aufzurufen</translation>
    </message>
    <message>
        <source>rank %1: has not reached it yet</source>
        <translation>Rank %1: hat sie noch nicht erreicht</translation>
    </message>
    <message>
        <source>(has not reached it yet)</source>
        <translation>(hat sie noch nicht erreicht)</translation>
    </message>
    <message>
        <source>The run was stopped %1 while rank %2 was at line %3.</source>
        <translation>Der Lauf wurde %1 angehalten, als Rank %2 in Zeile %3 war.</translation>
    </message>
    <message>
        <source>The run was stopped %1.</source>
        <translation>Der Lauf wurde %1 angehalten.</translation>
    </message>
    <message>
        <source>The run was stopped %1 while the file was still loading (its top-level code was at line %2).</source>
        <translation>Der Lauf wurde %1 angehalten, als die Datei noch geladen wurde (ihr Code auf oberster Ebene war in Zeile %2).</translation>
    </message>
    <message>
        <source>The run was stopped %1 while the file was still loading (its top-level code was compiling).</source>
        <translation>Der Lauf wurde %1 angehalten, als die Datei noch geladen wurde (ihr Code auf oberster Ebene wurde übersetzt).</translation>
    </message>
    <message>
        <source>The run was stopped after %1 s (the time limit) while rank %2 was at line %3. Is a loop running forever?</source>
        <translation>Der Lauf wurde nach %1 s (dem Zeitlimit) angehalten, als Rank %2 in Zeile %3 war. Läuft eine Schleife endlos?</translation>
    </message>
    <message>
        <source>The run was stopped after %1 s (the time limit). Is a loop running forever?</source>
        <translation>Der Lauf wurde nach %1 s (dem Zeitlimit) angehalten. Läuft eine Schleife endlos?</translation>
    </message>
    <message>
        <source>The run was stopped after %1 s (the time limit) while the file was still loading (its top-level code was at line %2). Is a loop running forever?</source>
        <translation>Der Lauf wurde nach %1 s (dem Zeitlimit) angehalten, als die Datei noch geladen wurde (ihr Code auf oberster Ebene war in Zeile %2). Läuft eine Schleife endlos?</translation>
    </message>
    <message>
        <source>on request</source>
        <translation>auf Wunsch</translation>
    </message>
    <message>
        <source>after %1 s (the time limit)</source>
        <translation>nach %1 s (dem Zeitlimit)</translation>
    </message>
    <message>
        <source>The run was stopped after %1 model calls and storage changes (the operation budget; %2 operations recorded) while rank %3 was at line %4. Is a loop running forever?</source>
        <translation>Der Lauf wurde nach %1 Modellaufrufen und Speicheränderungen (dem Operationsbudget; %2 Operationen aufgezeichnet) angehalten, als Rank %3 in Zeile %4 war. Läuft eine Schleife endlos?</translation>
    </message>
    <message>
        <source>The run was stopped after %1 recorded events and %2 storage changes, the most one run&apos;s record holds, while rank %3 was at line %4. Is a loop running forever?</source>
        <translation>Der Lauf wurde nach %1 aufgezeichneten Ereignissen und %2 Speicheränderungen angehalten, so viel wie die Aufzeichnung eines Laufs höchstens fasst, als Rank %3 in Zeile %4 war. Läuft eine Schleife endlos?</translation>
    </message>
    <message>
        <source>%1: the %2 argument must be %3, but it is %4</source>
        <translation>%1: Das %2 Argument muss %3 sein, ist aber %4</translation>
    </message>
    <message>
        <source>%1: the argument must be %2, but it is %3</source>
        <translation>%1: Das Argument muss %2 sein, ist aber %3</translation>
    </message>
    <message>
        <source>%1: the weight belongs to layer %2, but %3 at layer %4 needs the weight of layer %5</source>
        <translation>%1: Das Gewicht gehört zu Schicht %2, aber %3 in Schicht %4 braucht das Gewicht von Schicht %5</translation>
    </message>
    <message>
        <source>%1: the weight holds only %2; %3 needs the complete weight (allgather it first)</source>
        <translation>%1: Das Gewicht enthält nur %2; %3 braucht das ganze Gewicht (erst allgather aufrufen)</translation>
    </message>
    <message>
        <source>%1: the weight holds only %2; %3 needs the complete weight (allgather it first) or a tensor-parallel slice: load_weights(layer, model.coords[&quot;tensor&quot;], model.TENSOR, split=&quot;tensor&quot;)</source>
        <translation>%1: Das Gewicht enthält nur %2; %3 braucht das ganze Gewicht (erst allgather aufrufen) oder einen tensorparallelen Slice: load_weights(layer, model.coords[&quot;tensor&quot;], model.TENSOR, split=&quot;tensor&quot;)</translation>
    </message>
    <message>
        <source>%1: the activation is at layer %2, but %3 at layer %4 needs the activation at layer %5</source>
        <translation>%1: Die Aktivierung ist in Schicht %2, aber %3 in Schicht %4 braucht die Aktivierung in Schicht %5</translation>
    </message>
    <message>
        <source>%1: the weight gradient covers batches %2, but an update needs all batches %3 (%4 is missing; %5)</source>
        <translation>%1: Der Gewichtsgradient deckt die Batches %2 ab, ein Update braucht aber alle Batches %3 (%4 fehlt; %5)</translation>
    </message>
    <message>
        <source>%1: the weight gradient covers batches %2, but an update needs all batches %3 (%4 are missing; %5)</source>
        <translation>%1: Der Gewichtsgradient deckt die Batches %2 ab, ein Update braucht aber alle Batches %3 (%4 fehlen; %5)</translation>
    </message>
    <message>
        <source>the ranks&apos; own batches must together cover every batch</source>
        <translation>die eigenen Batches der Ranks müssen zusammen alle Batches abdecken</translation>
    </message>
    <message>
        <source>allreduce it first</source>
        <translation>erst allreduce aufrufen</translation>
    </message>
    <message>
        <source>add the gradients of the missing batches first</source>
        <translation>erst die Gradienten der fehlenden Batches addieren</translation>
    </message>
    <message>
        <source>Layer %1: both gradients already cover %2, so the sum counts it twice.</source>
        <translation>Schicht %1: Beide Gradienten decken %2 schon ab, die Summe zählt ihn also doppelt.</translation>
    </message>
    <message>
        <source>Layer %1: both gradients already cover %2, so the sum counts them twice.</source>
        <translation>Schicht %1: Beide Gradienten decken %2 schon ab, die Summe zählt sie also doppelt.</translation>
    </message>
    <message>
        <source>%1: %2 each hold a gradient for %3, so the sum counts it %4 times.</source>
        <translation>%1: %2 halten je einen Gradienten für %3, die Summe zählt ihn also %4-mal.</translation>
    </message>
    <message>
        <source>%1: %2 each hold a gradient for %3, so the sum counts them %4 times.</source>
        <translation>%1: %2 halten je einen Gradienten für %3, die Summe zählt sie also %4-mal.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1; %2</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <source>no rank set a final weight (no weights[layer] when the code ends)</source>
        <translation>kein Rank hat ein endgültiges Gewicht gesetzt (kein weights[layer], wenn der Code endet)</translation>
    </message>
    <message>
        <source>the final weights were never updated (step 0), but every final weight must be updated once (step 1)</source>
        <translation>die endgültigen Gewichte wurden nie aktualisiert (Schritt 0), aber jedes endgültige Gewicht muss genau einmal aktualisiert sein (Schritt 1)</translation>
    </message>
    <message>
        <source>the final weight of rank %1 is at step %2, but every final weight must be updated once (step 1)</source>
        <translation>das endgültige Gewicht von Rank %1 ist bei Schritt %2, aber jedes endgültige Gewicht muss genau einmal aktualisiert sein (Schritt 1)</translation>
    </message>
    <message>
        <source>the final weights of all ranks together hold shards %1 of %2; shards %3 were never updated</source>
        <translation>die endgültigen Gewichte aller Ranks enthalten zusammen die Shards %1 von %2; die Shards %3 wurden nie aktualisiert</translation>
    </message>
    <message>
        <source>Correct!</source>
        <translation>Richtig!</translation>
    </message>
    <message>
        <source>How will this run end?</source>
        <translation>Wie wird dieser Lauf enden?</translation>
    </message>
    <message>
        <source>Every rank finishes</source>
        <translation>Jeder Rank wird fertig</translation>
    </message>
    <message>
        <source>It hangs: a rank waits forever</source>
        <translation>Er hängt: Ein Rank wartet ewig</translation>
    </message>
    <message>
        <source>A rank stops with an error</source>
        <translation>Ein Rank hält mit einem Fehler an</translation>
    </message>
    <message>
        <source>Every rank finishes, at t = %1.</source>
        <translation>Jeder Rank wird fertig, bei t = %1.</translation>
    </message>
    <message>
        <source>It hangs: no rank can go on.</source>
        <translation>Er hängt: Kein Rank kann weitermachen.</translation>
    </message>
    <message>
        <source>It hangs: rank %1 waits in %2 forever.</source>
        <translation>Er hängt: Rank %1 wartet ewig in %2.</translation>
    </message>
    <message>
        <source>Rank %1 stops with an error.</source>
        <translation>Rank %1 hält mit einem Fehler an.</translation>
    </message>
    <message>
        <source>A rank stops with an error.</source>
        <translation>Ein Rank hält mit einem Fehler an.</translation>
    </message>
    <message>
        <source>Over the whole run, which rank is idle longest?</source>
        <translation>Welcher Rank wartet über den ganzen Lauf am längsten?</translation>
    </message>
    <message>
        <source>Rank %1, idle %2 of the run&apos;s %3.</source>
        <translation>Rank %1, untätig %2 von %3 des Laufs.</translation>
    </message>
    <message>
        <source>What appears in rank %1&apos;s memory next?</source>
        <translation>Was erscheint als Nächstes im Speicher von Rank %1?</translation>
    </message>
    <message>
        <source>Rank %1 now holds the %2 (%3).</source>
        <translation>Rank %1 hält jetzt: %2 (%3).</translation>
    </message>
    <message>
        <source>Which rank moves next?</source>
        <translation>Welcher Rank ist als Nächstes dran?</translation>
    </message>
    <message>
        <source>What does rank %1 start next?</source>
        <translation>Was beginnt Rank %1 als Nächstes?</translation>
    </message>
    <message>
        <source>Rank %1: %2.</source>
        <translation>Rank %1: %2.</translation>
    </message>
    <message>
        <source>%1 of layer %2</source>
        <translation>%1 von Schicht %2</translation>
    </message>
    <message>
        <source>%1 of the input</source>
        <translation>%1 der Eingabe</translation>
    </message>
    <message>
        <source>%1 to rank %2</source>
        <translation>%1 an Rank %2</translation>
    </message>
    <message>
        <source>%1 from rank %2</source>
        <translation>%1 von Rank %2</translation>
    </message>
    <message>
        <source>updated once</source>
        <translation>einmal aktualisiert</translation>
    </message>
    <message>
        <source>updated %1 times</source>
        <translation>%1-mal aktualisiert</translation>
    </message>
    <message>
        <source>whole</source>
        <translation>ganz</translation>
    </message>
    <message>
        <source>shard %1 of %2</source>
        <translation>Shard %1 von %2</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>Optimiererzustand</translation>
    </message>
    <message>
        <source>activation</source>
        <translation>Aktivierung</translation>
    </message>
    <message>
        <source>activation gradient</source>
        <translation>Aktivierungsgradient</translation>
    </message>
    <message>
        <source>weight gradient</source>
        <translation>Gewichtsgradient</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>ranks %1</source>
        <translation>Ranks %1</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>Batch %1</translation>
    </message>
    <message>
        <source>batches %1</source>
        <translation>Batches %1</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>layers %1</source>
        <translation>Schichten %1</translation>
    </message>
    <message>
        <source>shards %1 of %2</source>
        <translation>Shards %1 von %2</translation>
    </message>
    <message>
        <source>second</source>
        <translation>zweite</translation>
    </message>
    <message>
        <source>third</source>
        <translation>dritte</translation>
    </message>
    <message>
        <source>fourth</source>
        <translation>vierte</translation>
    </message>
    <message>
        <source>a weight</source>
        <translation>ein Gewicht</translation>
    </message>
    <message>
        <source>an optimizer state</source>
        <translation>ein Optimiererzustand</translation>
    </message>
    <message>
        <source>an activation</source>
        <translation>eine Aktivierung</translation>
    </message>
    <message>
        <source>an activation gradient</source>
        <translation>ein Aktivierungsgradient</translation>
    </message>
    <message>
        <source>a weight gradient</source>
        <translation>ein Gewichtsgradient</translation>
    </message>
    <message>
        <source>%1: rank %2 does not exist in a run of %3 ranks</source>
        <translation>%1: Rank %2 gibt es in einem Lauf mit %3 Ranks nicht</translation>
    </message>
    <message>
        <source>%1: rank %2 does not exist; this run has %3</source>
        <translation>%1: Rank %2 gibt es nicht; dieser Lauf hat %3</translation>
    </message>
    <message>
        <source>%1: layer %2 does not exist; this model has %3</source>
        <translation>%1: Schicht %2 gibt es nicht; dieses Modell hat %3</translation>
    </message>
    <message>
        <source>%1: %2 does not exist; this run has %3</source>
        <translation>%1: %2 gibt es nicht; dieser Lauf hat %3</translation>
    </message>
    <message>
        <source>%1: %2 do not exist; this run has %3</source>
        <translation>%1: %2 gibt es nicht; dieser Lauf hat %3</translation>
    </message>
    <message>
        <source>%1: shard %2 of %3 does not exist; shards run from 0 to total - 1</source>
        <translation>%1: Shard %2 von %3 gibt es nicht; Shards zählen von 0 bis total - 1</translation>
    </message>
    <message>
        <source>del %1[%2]: there is no such key in %3</source>
        <translation>del %1[%2]: %3 hat keinen solchen Schlüssel</translation>
    </message>
    <message>
        <source>%1 of rank %2 has no key %3; it holds %4</source>
        <translation>%1 von Rank %2 hat keinen Schlüssel %3; es enthält %4</translation>
    </message>
    <message>
        <source>%1 of rank %2 has no key %3; it is empty</source>
        <translation>%1 von Rank %2 hat keinen Schlüssel %3; es ist leer</translation>
    </message>
    <message>
        <source>line %1 (rank %2) kept %3 %4 outside the five storage dictionaries, so the memory figure does not count them; keep them in %5 or recompute them</source>
        <translation>Zeile %1 (Rank %2) hielt %3 %4 außerhalb der fünf Storage-Dictionaries, also zählt die Speicherzahl sie nicht; lege sie in %5 ab oder berechne sie neu</translation>
    </message>
    <message>
        <source>line %1 (rank %2) kept %3 %4 outside the five storage dictionaries, so the memory figure does not count them; keep them in %5</source>
        <translation>Zeile %1 (Rank %2) hielt %3 %4 außerhalb der fünf Storage-Dictionaries, also zählt die Speicherzahl sie nicht; lege sie in %5 ab</translation>
    </message>
    <message>
        <source>%1 of rank %2 has no key %3 to delete; it holds %4</source>
        <translation>%1 von Rank %2 hat keinen Schlüssel %3 zum Löschen; es enthält %4</translation>
    </message>
    <message>
        <source>%1 of rank %2 has no key %3 to delete; it is empty</source>
        <translation>%1 von Rank %2 hat keinen Schlüssel %3 zum Löschen; es ist leer</translation>
    </message>
    <message>
        <source>%1: the group names rank %2, but this run has %3</source>
        <translation>%1: Die Gruppe nennt Rank %2, aber dieser Lauf hat %3</translation>
    </message>
    <message>
        <source>%1: rank %2 calls a collective of a group it is not in (%3)</source>
        <translation>%1: Rank %2 ruft eine kollektive Operation einer Gruppe auf, zu der er nicht gehört (%3)</translation>
    </message>
    <message>
        <source>%1: the activation is at layer %2, but %4 at layer %3 needs the activation at layer %3 (the one forward at layer %3 consumed)</source>
        <translation>%1: Die Aktivierung ist in Schicht %2, aber %4 in Schicht %3 braucht die Aktivierung in Schicht %3 (die, die forward in Schicht %3 verarbeitet hat)</translation>
    </message>
    <message>
        <source>%1: the activation gradient is for layer %2, but %5 at layer %3 needs the gradient for layer %3 (what %4 returned)</source>
        <translation>%1: Der Aktivierungsgradient gehört zu Schicht %2, aber %5 in Schicht %3 braucht den Gradienten für Schicht %3 (den %4 geliefert hat)</translation>
    </message>
    <message>
        <source>the loss</source>
        <translation>der Loss</translation>
    </message>
    <message>
        <source>backward at layer %1</source>
        <translation>backward in Schicht %1</translation>
    </message>
    <message>
        <source>%1: the activation covers %2 but the activation gradient covers %3; both must cover the same batches</source>
        <translation>%1: Die Aktivierung deckt %2 ab, der Aktivierungsgradient aber %3; beide müssen dieselben Batches abdecken</translation>
    </message>
    <message>
        <source>loss: the activation is at layer %1, but the loss needs the model&apos;s output (the activation at layer %2, after the last forward)</source>
        <translation>loss: Die Aktivierung ist in Schicht %1, aber der Loss braucht die Ausgabe des Modells (die Aktivierung in Schicht %2, nach dem letzten forward)</translation>
    </message>
    <message>
        <source>%1: the %2 belongs to layer %3, but this update is for layer %4</source>
        <translation>%1: Das Objekt (%2) gehört zu Schicht %3, dieses Update ist aber für Schicht %4</translation>
    </message>
    <message>
        <source>%1: the %2 holds %3, but the weight gradient covers only %4; every shard you update needs its gradient</source>
        <translation>%1: Das Objekt (%2) enthält %3, der Gewichtsgradient deckt aber nur %4 ab; jeder Shard, den Sie aktualisieren, braucht seinen Gradienten</translation>
    </message>
    <message>
        <source>%1: the weight %2 but the optimizer state %3; an update needs the same shards of both</source>
        <translation>%1: Das Gewicht %2, der Optimiererzustand aber %3; ein Update braucht von beiden dieselben Shards</translation>
    </message>
    <message>
        <source>is whole</source>
        <translation>ist ganz</translation>
    </message>
    <message>
        <source>holds %1</source>
        <translation>enthält %1</translation>
    </message>
    <message>
        <source>%1: the weight is at step %2 but the optimizer state at step %3; they must be at the same step</source>
        <translation>%1: Das Gewicht ist bei Schritt %2, der Optimiererzustand aber bei Schritt %3; beide müssen beim selben Schritt sein</translation>
    </message>
    <message>
        <source>%1: the final weight must be a weight, but it is %2</source>
        <translation>%1: Das endgültige Gewicht muss ein Gewicht sein, ist aber %2</translation>
    </message>
    <message>
        <source>%1: the weight belongs to layer %2</source>
        <translation>%1: Das Gewicht gehört zu Schicht %2</translation>
    </message>
    <message>
        <source>this handle was already awaited: await each handle of allreduce_start, allgather_start, scatterreduce_start, alltoall_start, pass_to_start or receive_start once</source>
        <translation>auf dieses Handle wurde schon gewartet: Jedes Handle von allreduce_start, allgather_start, scatterreduce_start, alltoall_start, pass_to_start oder receive_start genau einmal mit await abwarten</translation>
    </message>
    <message>
        <source>%1: a collective works on puzzle objects (weights, optimizer states, weight gradients), not on %2</source>
        <translation>%1: Eine kollektive Operation arbeitet mit Puzzle-Objekten (Gewichten, Optimiererzuständen, Gewichtsgradienten), nicht mit %2</translation>
    </message>
    <message>
        <source>%1: allgather joins shards of weights, optimizer states or weight gradients, not %2</source>
        <translation>%1: allgather fügt Shards von Gewichten, Optimiererzuständen oder Gewichtsgradienten zusammen, keine %2</translation>
    </message>
    <message>
        <source>%1: this run has no experts: lay its ranks out with --expert E (lesson.json &quot;expert&quot;)</source>
        <translation>%1: Dieser Lauf hat keine Experten: Ordnen Sie seine Ranks mit --expert E an (lesson.json &quot;expert&quot;)</translation>
    </message>
    <message>
        <source>%1: there is no expert %2; the experts are %3</source>
        <translation>%1: Es gibt keinen Experten %2; die Experten sind %3</translation>
    </message>
    <message>
        <source>%1: rank %2 holds expert %3 of each expert layer (its expert coordinate), not expert %4: the tokens for expert %4 go with alltoall to the rank that holds it</source>
        <translation>%1: Rank %2 hält Experte %3 jeder Expertenschicht (seine Expertenkoordinate), nicht Experte %4: Die Tokens für Experte %4 gehen mit alltoall an den Rank, der ihn hält</translation>
    </message>
    <message>
        <source>%1: the router sends %2 to expert %3, but this weight is expert %4&apos;s: send each token to the rank of its expert with an alltoall over model.group(&quot;expert&quot;) first</source>
        <translation>%1: Der Router schickt %2 an Experte %3, aber dieses Gewicht gehört Experte %4: Schicken Sie jedes Token zuerst mit einem alltoall über model.group(&quot;expert&quot;) an den Rank seines Experten</translation>
    </message>
    <message>
        <source>%1: the weight is expert %2&apos;s, but the weight gradient is not: backward with expert %2&apos;s weight makes its gradient, and so does backward_weight when given that weight</source>
        <translation>%1: Das Gewicht gehört Experte %2, der Gewichtsgradient aber nicht: backward mit dem Gewicht von Experte %2 ergibt seinen Gradienten, ebenso backward_weight, wenn es dieses Gewicht bekommt</translation>
    </message>
    <message>
        <source>%1: the weight gradient is expert %2&apos;s, but the weight is no expert&apos;s</source>
        <translation>%1: Der Gewichtsgradient gehört Experte %2, das Gewicht aber keinem Experten</translation>
    </message>
    <message>
        <source>%1: the weight gradient covers batches %2, but expert %3&apos;s update needs every batch the router sends it, %4 (missing: %5)</source>
        <translation>%1: Der Gewichtsgradient deckt die Batches %2 ab, aber das Update von Experte %3 braucht jeden Batch, den der Router ihm schickt, %4 (es fehlt: %5)</translation>
    </message>
    <message>
        <source>%1 needs the tokens of %2 back on rank %3: they are still with expert %4 on rank %5; combine them with alltoall first</source>
        <translation>%1 braucht die Tokens von %2 zurück auf Rank %3: Sie sind noch bei Experte %4 auf Rank %5; führen Sie sie zuerst mit alltoall zusammen</translation>
    </message>
    <message>
        <source>%1: layer %2&apos;s attention on rank %3 has the keys and values of chunks %4 only and lacks chunks %5: pass them around the context group, model.group(&quot;context&quot;), and continue it with %6(..., kv=[...], so_far=...)</source>
        <translation>%1: Die Attention von Schicht %2 auf Rank %3 hat die Keys und Values nur der Chunks %4, es fehlen die Chunks %5: im Ring der Kontextgruppe weiterreichen, model.group(&quot;context&quot;), und mit %6(..., kv=[...], so_far=...) fortsetzen</translation>
    </message>
    <message>
        <source>%1: so_far must be what an unfinished %2 of layer %3 on this chunk gave (one that lacks some chunks&apos; keys and values), not %4</source>
        <translation>%1: so_far muss sein, was ein unfertiger %2-Aufruf von Schicht %3 auf diesem Chunk ergab (einer, dem die Keys und Values mancher Chunks fehlen), nicht %4</translation>
    </message>
    <message>
        <source>%1: an attention over %2 chunks takes every chunk&apos;s keys and values in one call: one continued with so_far spans at most %3 chunks</source>
        <translation>%1: Eine Attention über %2 Chunks nimmt die Keys und Values aller Chunks in einem Aufruf: Eine mit so_far fortgesetzte umfasst höchstens %3 Chunks</translation>
    </message>
    <message>
        <source>%1: layer %2&apos;s %3 on rank %4 is chunk %5 of the sequence: its attention needs every chunk&apos;s keys and values (kv=[...]), passed around the context group, model.group(&quot;context&quot;)</source>
        <translation>%1: Schicht %2, %3 auf Rank %4 ist Chunk %5 der Sequenz: Ihre Attention braucht die Keys und Values jedes Chunks (kv=[...]), im Ring der Kontextgruppe weitergereicht, model.group(&quot;context&quot;)</translation>
    </message>
    <message>
        <source>%1: the keys and values of chunk %2 are of %3, but the activation is of %4: they come from another context group; pass them around model.group(&quot;context&quot;)</source>
        <translation>%1: Die Keys und Values von Chunk %2 gehören zu %3, die Aktivierung aber zu %4: Sie stammen aus einer anderen Kontextgruppe; in model.group(&quot;context&quot;) weiterreichen</translation>
    </message>
    <message>
        <source>%1: the keys and values of chunk %2 are of layer %3, not of layer %4</source>
        <translation>%1: Die Keys und Values von Chunk %2 gehören zu Schicht %3, nicht zu Schicht %4</translation>
    </message>
    <message>
        <source>%1: the keys and values of chunk %2 are given twice</source>
        <translation>%1: Die Keys und Values von Chunk %2 sind doppelt angegeben</translation>
    </message>
    <message>
        <source>%1: kv holds keys and values, not %2</source>
        <translation>%1: kv enthält Keys und Values, nichts anderes (%2)</translation>
    </message>
    <message>
        <source>%1: the activation holds the whole sequence: keys and values travel only when the sequence is split across a context group (--context)</source>
        <translation>%1: Die Aktivierung enthält die ganze Sequenz: Keys und Values werden nur weitergereicht, wenn die Sequenz auf eine Kontextgruppe verteilt ist (--context)</translation>
    </message>
    <message>
        <source>%1: a sequence chunk with a tensor-parallel slice is not written yet</source>
        <translation>%1: Ein Chunk der Sequenz mit einem tensorparallelen Ausschnitt ist noch nicht umgesetzt</translation>
    </message>
    <message>
        <source>%1: the split backward of a sequence chunk is not written yet: use backward</source>
        <translation>%1: Der geteilte Backward-Schritt eines Chunks der Sequenz ist noch nicht umgesetzt: backward verwenden</translation>
    </message>
    <message>
        <source>%1: the weight gradient is this rank&apos;s part of the sequence only: all-reduce it over the context group (model.group(&quot;context&quot;)) or a group that holds it first</source>
        <translation>%1: Der Gewichtsgradient ist nur der Teil dieses Ranks an der Sequenz: erst mit allreduce über die Kontextgruppe (model.group(&quot;context&quot;)) oder eine Gruppe, die sie enthält, summieren</translation>
    </message>
    <message>
        <source>%1: rank %2&apos;s weight gradient is its part of the sequence only, but the group lacks %3 of its context group: sum it over a group that holds model.group(&quot;context&quot;)</source>
        <translation>%1: Der Gewichtsgradient von Rank %2 ist nur sein Teil an der Sequenz, aber der Gruppe fehlen %3 seiner Kontextgruppe: über eine Gruppe summieren, die model.group(&quot;context&quot;) enthält</translation>
    </message>
    <message>
        <source>%1: some weight gradients are parts of the sequence and some are not: sum like with like</source>
        <translation>%1: Manche Gewichtsgradienten sind Teile der Sequenz, andere nicht: nur Gleichartiges summieren</translation>
    </message>
    <message>
        <source>keys and values</source>
        <translation>Keys und Values</translation>
    </message>
    <message>
        <source>%1: alltoall sends activations or activation gradients, not %2</source>
        <translation>%1: alltoall verschickt Aktivierungen oder Aktivierungsgradienten, keine %2</translation>
    </message>
    <message>
        <source>%1: the pieces must be of one kind and layer, but one is %2 of layer %3 and another %4 of layer %5</source>
        <translation>%1: Die Teile müssen von einer Art und einer Schicht sein, aber eines ist %2 der Schicht %3 und ein anderes %4 der Schicht %5</translation>
    </message>
    <message>
        <source>%1: %2 would go to more than one rank; each token goes to one rank</source>
        <translation>%1: %2 ginge an mehr als einen Rank; jedes Token geht an genau einen Rank</translation>
    </message>
    <message>
        <source>%1: give one piece (or None) for each of the %2 ranks of the group %3, in the order of their ranks, but %4 were given</source>
        <translation>%1: Geben Sie ein Teil (oder None) für jeden der %2 Ranks der Gruppe %3 an, in der Reihenfolge ihrer Ranks; gegeben wurden aber %4</translation>
    </message>
    <message>
        <source>%1: give one piece (or None) for each of the %2 ranks of the group %3, in the order of their ranks, but %4 were given; an expert&apos;s tokens travel over model.group(&quot;expert&quot;), for rank %5 ranks %6</source>
        <translation>%1: Geben Sie ein Teil (oder None) für jeden der %2 Ranks der Gruppe %3 an, in der Reihenfolge ihrer Ranks; gegeben wurden aber %4. Die Tokens eines Experten reisen über model.group(&quot;expert&quot;), für Rank %5 die Ranks %6</translation>
    </message>
    <message>
        <source>%1: rank %2 sends %3 of layer %4 here (line %5), but rank %6 sends %7 of layer %8 (line %9): they are at different all-to-alls. Every rank of the group makes each alltoall, in the same order; a rank that skips one (an expert&apos;s combine, say) meets the others at their next one</source>
        <translation>%1: Rank %2 schickt hier %3 der Schicht %4 (Zeile %5), Rank %6 aber %7 der Schicht %8 (Zeile %9): Sie sind bei verschiedenen All-to-alls. Jeder Rank der Gruppe macht jedes alltoall mit, in derselben Reihenfolge; ein Rank, der eines auslässt (etwa das Zurückschicken nach einem Experten), trifft die anderen bei ihrem nächsten</translation>
    </message>
    <message>
        <source>%1: %2 would come to rank %3 from more than one rank (ranks %4)</source>
        <translation>%1: %2 käme von mehr als einem Rank zu Rank %3 (Ranks %4)</translation>
    </message>
    <message>
        <source>%1: this collective sums weight gradients, not %2</source>
        <translation>%1: Diese kollektive Operation summiert Gewichtsgradienten, keine %2</translation>
    </message>
    <message>
        <source>%1: the value of rank %2 cannot be joined with the others: %3</source>
        <translation>%1: Der Wert von Rank %2 lässt sich nicht mit den anderen verbinden: %3</translation>
    </message>
    <message>
        <source>%1 was started here but never awaited: its result is lost, and the rank&apos;s step ended without waiting for it</source>
        <translation>%1 wurde hier gestartet, aber nie mit await abgewartet: Sein Ergebnis geht verloren, und der Schritt des Ranks endete, ohne darauf zu warten</translation>
    </message>
    <message>
        <source>%1 of group %2</source>
        <translation>%1 der Gruppe %2</translation>
    </message>
    <message>
        <source>receive from rank %1</source>
        <translation>receive von Rank %1</translation>
    </message>
    <message>
        <source>receive from any rank</source>
        <translation>receive von einem beliebigen Rank</translation>
    </message>
    <message>
        <source>+ adds weight gradients, but got %1 and %2</source>
        <translation>+ addiert Gewichtsgradienten, bekam aber %1 und %2</translation>
    </message>
    <message>
        <source>+ needs weight gradients of the same layer, but got layers %1 and %2</source>
        <translation>+ braucht Gewichtsgradienten derselben Schicht, bekam aber die Schichten %1 und %2</translation>
    </message>
    <message>
        <source>+ needs weight gradients of the same shards, but got shards %1 of %2 and %3 of %4</source>
        <translation>+ braucht Gewichtsgradienten derselben Shards, bekam aber die Shards %1 von %2 und %3 von %4</translation>
    </message>
    <message>
        <source>combine joins shards of weights, optimizer states or weight gradients, not of %1</source>
        <translation>combine fügt Shards von Gewichten, Optimiererzuständen oder Gewichtsgradienten zusammen, nicht von %1</translation>
    </message>
    <message>
        <source>combine needs two objects of one kind, but got %1 and %2</source>
        <translation>combine braucht zwei Objekte derselben Art, bekam aber %1 und %2</translation>
    </message>
    <message>
        <source>combine needs %1 of the same layer, but got layers %2 and %3</source>
        <translation>combine braucht %1 derselben Schicht, bekam aber die Schichten %2 und %3</translation>
    </message>
    <message>
        <source>combine needs shards of the same split, but got shards of %1 and of %2</source>
        <translation>combine braucht Shards derselben Aufteilung, bekam aber Shards von %1 und von %2</translation>
    </message>
    <message>
        <source>combine needs %1 at the same step, but got steps %2 and %3: a shard not updated is not part of an updated whole</source>
        <translation>combine braucht %1 im selben Schritt, bekam aber die Schritte %2 und %3: ein nicht aktualisierter Shard ist kein Teil eines aktualisierten Ganzen</translation>
    </message>
    <message>
        <source>combine needs weight gradients of the same batches, but got %1 and %2: each shard of the result would claim batches it holds no gradient for (add gradients with +)</source>
        <translation>combine braucht Gewichtsgradienten derselben Batches, bekam aber %1 und %2: jeder Shard des Ergebnisses gäbe Batches vor, für die er keinen Gradienten hält (Gradienten addiert man mit +)</translation>
    </message>
    <message>
        <source>combine needs shards of the same part of the model, but got %1 and %2</source>
        <translation>combine braucht Shards desselben Teils des Modells, bekam aber %1 und %2</translation>
    </message>
    <message>
        <source>only weights, optimizer states and weight gradients can be sharded, not %1</source>
        <translation>nur Gewichte, Optimiererzustände und Gewichtsgradienten lassen sich in Shards teilen, nicht %1</translation>
    </message>
    <message>
        <source>shard %1 of %2 does not exist: shards run from 0 to total - 1</source>
        <translation>Shard %1 von %2 gibt es nicht: Shards zählen von 0 bis total - 1</translation>
    </message>
    <message>
        <source>shard needs a complete %1, but this one holds only %2</source>
        <translation>shard braucht ein vollständiges Objekt (%1), dieses enthält aber nur %2</translation>
    </message>
    <message>
        <source>%1 (line %2, column %3)</source>
        <translation>%1 (Zeile %2, Spalte %3)</translation>
    </message>
    <message>
        <source>Error (rank %1, line %2): %3</source>
        <translation>Fehler (Rank %1, Zeile %2): %3</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>Optimiererzustände</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>activation gradients</source>
        <translation>Aktivierungsgradienten</translation>
    </message>
    <message>
        <source>weight gradients</source>
        <translation>Gewichtsgradienten</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>Spitze</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>%1 %2 B on rank %3 at t %4: %5.</source>
        <translation>%1 %2 B auf Rank %3 bei t %4: %5.</translation>
    </message>
    <message>
        <source>%1 %2 B on rank %3 at t %4.</source>
        <translation>%1 %2 B auf Rank %3 bei t %4.</translation>
    </message>
    <message>
        <source>%1 of layers %2</source>
        <translation>%1 von Schichten %2</translation>
    </message>
    <message>
        <source>%1 of the model&apos;s input</source>
        <translation>%1 der Eingabe des Modells</translation>
    </message>
    <message>
        <source>%1 and of the model&apos;s input</source>
        <translation>%1 und der Eingabe des Modells</translation>
    </message>
    <message>
        <source>%1 for batch %2</source>
        <translation>%1 für Batch %2</translation>
    </message>
    <message>
        <source>%1 for batches %2</source>
        <translation>%1 für Batches %2</translation>
    </message>
    <message>
        <source>%1, shard %2 of %3</source>
        <translation>%1, Shard %2 von %3</translation>
    </message>
    <message>
        <source>%1, shards %2 of %3</source>
        <translation>%1, Shards %2 von %3</translation>
    </message>
    <message>
        <source>%1 (%2 object, %3 B)</source>
        <translation>%1 (%2 Objekt, %3 B)</translation>
    </message>
    <message>
        <source>%1 (%2 objects, %3 B)</source>
        <translation>%1 (%2 Objekte, %3 B)</translation>
    </message>
    <message>
        <source>the %1 of layer %2</source>
        <translation>%1 von Schicht %2</translation>
    </message>
    <message>
        <source>%1 (%2 B, line %3)</source>
        <translation>%1 (%2 B, Zeile %3)</translation>
    </message>
    <message>
        <source>t %1</source>
        <translation>t %1</translation>
    </message>
    <message>
        <source>the end of the run</source>
        <translation>zum Ende des Laufs</translation>
    </message>
    <message>
        <source>%1 B over the target of %2 B: %3.</source>
        <translation>%1 B über dem Ziel von %2 B: %3.</translation>
    </message>
    <message>
        <source>%1 kept from t %2 to %3</source>
        <translation>%1, gehalten von t %2 bis %3</translation>
    </message>
    <message>
        <source>layer %1&apos;s attention output</source>
        <translation>Attention-Ausgabe von Schicht %1</translation>
    </message>
    <message>
        <source>layer %1&apos;s attention input gradient</source>
        <translation>Eingabegradient der Attention von Schicht %1</translation>
    </message>
    <message>
        <source>layer %1&apos;s attention weight gradient</source>
        <translation>Gewichtsgradient der Attention von Schicht %1</translation>
    </message>
    <message>
        <source>%1, chunk %2</source>
        <translation>%1, Chunk %2</translation>
    </message>
    <message>
        <source>%1: %2 of %3 chunks seen</source>
        <translation>%1: %2 von %3 Chunks gesehen</translation>
    </message>
    <message>
        <source>a partial sum: needs the all-reduce of its tensor group</source>
        <translation>eine Teilsumme: braucht das Allreduce ihrer Tensorgruppe</translation>
    </message>
    <message>
        <source>a partial sum: needs the all-reduce of its context group</source>
        <translation>eine Teilsumme: braucht das Allreduce ihrer Kontextgruppe</translation>
    </message>
    <message>
        <source>%1 Unfinished: %2.</source>
        <translation>%1 Unfertig: %2.</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 und %2 weitere</translation>
    </message>
    <message>
        <source>Rank %1 waited %2 (t %3 to %4) in %5</source>
        <translation>Rank %1 wartete %2 (t %3 bis %4) in %5</translation>
    </message>
    <message>
        <source>the await of its %1 (started on the communication stream)</source>
        <translation>dem await seines %1 (gestartet auf dem Kommunikationsstrom)</translation>
    </message>
    <message>
        <source>%1 until rank %2 reached it after its %3</source>
        <translation>%1, bis Rank %2 sie nach seinem %3 erreichte</translation>
    </message>
    <message>
        <source>%1, which waited for rank %2 to reach a collective after its %3</source>
        <translation>%1, das darauf wartete, dass Rank %2 nach seinem %3 eine kollektive Operation erreichte</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>%1, which waited for %2</source>
        <translation>%1, das auf %2 wartete</translation>
    </message>
    <message>
        <source>%1 until %2 ended</source>
        <translation>%1, bis %2 endete</translation>
    </message>
    <message>
        <source>%1, which came after %2</source>
        <translation>%1, das nach %2 kam</translation>
    </message>
    <message>
        <source>%1, after a chain of %2 more events back to %3 at t %4</source>
        <translation>%1, nach einer Kette von %2 weiteren Ereignissen zurück bis zu %3 bei t %4</translation>
    </message>
    <message>
        <source>rank %1&apos;s %2</source>
        <translation>%2 bei Rank %1</translation>
    </message>
    <message>
        <source>rank %1&apos;s %2 (t %3 to %4 on its communication stream)</source>
        <translation>%2 bei Rank %1 (t %3 bis %4 auf seinem Kommunikationsstrom)</translation>
    </message>
    <message>
        <source>%1, which waited for %2 to free the stream</source>
        <translation>%1, das darauf wartete, dass %2 den Strom freigab</translation>
    </message>
    <message>
        <source>%1, which rank %2 started at t %3 after %4</source>
        <translation>%1, das Rank %2 bei t %3 nach %4 startete</translation>
    </message>
    <message>
        <source>%1, which rank %2 started right away at t %3</source>
        <translation>%1, das Rank %2 gleich bei t %3 startete</translation>
    </message>
    <message>
        <source>its %1</source>
        <translation>seinem %1</translation>
    </message>
    <message>
        <source>the await of its %1 (t %2 to %3)</source>
        <translation>dem await seines %1 (t %2 bis %3)</translation>
    </message>
    <message>
        <source>the await of rank %1&apos;s %2 (t %3 to %4)</source>
        <translation>dem await von %2 bei Rank %1 (t %3 bis %4)</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1.</translation>
    </message>
    <message>
        <source>Idle %1 of the time on average; the bubble formula (p-1)/(m+p-1) with p = %2, m = %3 gives %4.</source>
        <translation>Im Mittel %1 der Zeit untätig; die Blasenformel (p-1)/(m+p-1) mit p = %2, m = %3 ergibt %4.</translation>
    </message>
    <message>
        <source>Each rank should hold %1 B of weights and optimizer states (%2 layers × 2 × %3²: every rank holds all of them).</source>
        <translation>Jeder Rank sollte %1 B an Gewichten und Optimiererzuständen halten (%2 Schichten × 2 × %3²: jeder Rank hält sie alle).</translation>
    </message>
    <message>
        <source>Each rank should hold %1 B of weights and optimizer states (%2 layers × 2 × %3², divided among %4 ranks that share them).</source>
        <translation>Jeder Rank sollte %1 B an Gewichten und Optimiererzuständen halten (%2 Schichten × 2 × %3², aufgeteilt auf %4 Ranks, die sie sich teilen).</translation>
    </message>
    <message>
        <source>%1 finished at t %2</source>
        <translation>%1 wurde bei t %2 fertig</translation>
    </message>
    <message>
        <source>%1 hung at t %2: its ranks waited on each other</source>
        <translation>%1 hing bei t %2 fest: Seine Ranks warteten aufeinander</translation>
    </message>
    <message>
        <source>%1 was stopped at t %2 (a limit)</source>
        <translation>%1 wurde bei t %2 angehalten (ein Limit)</translation>
    </message>
    <message>
        <source>%1 stopped with an error at t %2</source>
        <translation>%1 hielt bei t %2 mit einem Fehler an</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 (%2: %3)</source>
        <translation>%1 (%2: %3)</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>Zeile %1</translation>
    </message>
    <message>
        <source>rank %1, line %2</source>
        <translation>Rank %1, Zeile %2</translation>
    </message>
    <message>
        <source>%1; %2. End times compare only when both runs finish.</source>
        <translation>%1; %2. Endzeiten lassen sich nur vergleichen, wenn beide Läufe fertig werden.</translation>
    </message>
    <message>
        <source>End time %1 (A) against %2 (B): the same.</source>
        <translation>Endzeit %1 (A) gegen %2 (B): gleich.</translation>
    </message>
    <message>
        <source>End time %1 (A) against %2 (B): B ends %3 earlier</source>
        <translation>Endzeit %1 (A) gegen %2 (B): B endet %3 früher</translation>
    </message>
    <message>
        <source>End time %1 (A) against %2 (B): B ends %3 later</source>
        <translation>Endzeit %1 (A) gegen %2 (B): B endet %3 später</translation>
    </message>
    <message>
        <source>%1: per rank on average B is %2.</source>
        <translation>%1: Je Rank ist B im Mittel %2.</translation>
    </message>
    <message>
        <source>busy %1 more</source>
        <translation>%1 länger aktiv</translation>
    </message>
    <message>
        <source>busy %1 less</source>
        <translation>%1 kürzer aktiv</translation>
    </message>
    <message>
        <source>idle %1 more</source>
        <translation>%1 länger untätig</translation>
    </message>
    <message>
        <source>idle %1 less</source>
        <translation>%1 kürzer untätig</translation>
    </message>
    <message>
        <source>communicating %1 more</source>
        <translation>%1 länger mit Kommunikation beschäftigt</translation>
    </message>
    <message>
        <source>communicating %1 less</source>
        <translation>%1 kürzer mit Kommunikation beschäftigt</translation>
    </message>
    <message>
        <source>Only A ran any operation.</source>
        <translation>Nur A hat überhaupt eine Operation ausgeführt.</translation>
    </message>
    <message>
        <source>Only B ran any operation.</source>
        <translation>Nur B hat überhaupt eine Operation ausgeführt.</translation>
    </message>
    <message>
        <source>Neither run ran any operation.</source>
        <translation>Keiner der Läufe hat eine Operation ausgeführt.</translation>
    </message>
    <message>
        <source>Peak %1 B (A, rank %2 at t %3) against %4 B (B, rank %5 at t %6)</source>
        <translation>Spitze %1 B (A, Rank %2 bei t %3) gegen %4 B (B, Rank %5 bei t %6)</translation>
    </message>
    <message>
        <source>%1: the same.</source>
        <translation>%1: gleich.</translation>
    </message>
    <message>
        <source>%1: B&apos;s is %2 B lower</source>
        <translation>%1: Die von B ist %2 B niedriger</translation>
    </message>
    <message>
        <source>%1: B&apos;s is %2 B higher</source>
        <translation>%1: Die von B ist %2 B höher</translation>
    </message>
    <message>
        <source>%1, most of it %2 (%3 B fewer at B&apos;s peak)</source>
        <translation>%1, das meiste davon %2 (%3 B weniger bei der Spitze von B)</translation>
    </message>
    <message>
        <source>%1, most of it %2 (%3 B more at B&apos;s peak)</source>
        <translation>%1, das meiste davon %2 (%3 B mehr bei der Spitze von B)</translation>
    </message>
    <message>
        <source>ranks: %1 against %2</source>
        <translation>Ranks: %1 gegen %2</translation>
    </message>
    <message>
        <source>layers: %1 against %2</source>
        <translation>Schichten: %1 gegen %2</translation>
    </message>
    <message>
        <source>batches: %1 against %2</source>
        <translation>Batches: %1 gegen %2</translation>
    </message>
    <message>
        <source>status: %1 against %2</source>
        <translation>Status: %1 gegen %2</translation>
    </message>
    <message>
        <source>Same settings (%1 ranks, %2 layers, %3 batches).</source>
        <translation>Gleiche Einstellungen (%1 Ranks, %2 Schichten, %3 Batches).</translation>
    </message>
    <message>
        <source>Differs in %1.</source>
        <translation>Unterschied bei %1.</translation>
    </message>
    <message>
        <source>Timesteps %1 against %2.</source>
        <translation>Timesteps %1 gegen %2.</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>deadlock</source>
        <translation>Deadlock</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>Measured bubble %1 of the ideal time (idle or communicating, against m micro-batches of one stage&apos;s work); the %2 formula %3 with %4 gives %5.</source>
        <translation>Gemessene Blase %1 der idealen Zeit (untätig oder kommunizierend, gemessen an m Micro-Batches der Arbeit einer Stufe); die Formel von %2, %3, ergibt mit %4 %5.</translation>
    </message>
    <message>
        <source>%1 and F, B, W as measured</source>
        <translation>%1 und F, B, W wie gemessen</translation>
    </message>
    <message>
        <source>%1: layer %2&apos;s %3 is partial on rank %4: all-reduce it over the tensor group</source>
        <translation>%1: Schicht %2, %3 auf Rank %4 ist nur eine Teilsumme: erst mit allreduce über die Tensorgruppe summieren</translation>
    </message>
    <message>
        <source>%1: layer %2&apos;s %3 on rank %4 holds only %5 of the sequence: all-gather it over the tensor group first</source>
        <translation>%1: Schicht %2, %3 auf Rank %4 enthält nur %5 der Sequenz: erst mit allgather über die Tensorgruppe zusammenführen</translation>
    </message>
    <message>
        <source>%1: the %2 is partial over a tensor group of %3 ranks, but this group has %4: sum it over the tensor group, model.group(&quot;tensor&quot;)</source>
        <translation>%1: Teilsumme (%2) über eine Tensorgruppe von %3 Ranks, aber diese Gruppe hat %4: über die Tensorgruppe summieren, model.group(&quot;tensor&quot;)</translation>
    </message>
    <message>
        <source>%1: this collective sums weight gradients or partial activations (and gradients), not a complete %2</source>
        <translation>%1: Diese kollektive Operation summiert Gewichtsgradienten oder Teilsummen von Aktivierungen (und Gradienten), nichts Vollständiges (%2)</translation>
    </message>
    <message>
        <source>%1: allgather joins shards of weights, optimizer states, weight gradients or sequence shards of activations, not a whole %2</source>
        <translation>%1: allgather fügt Shards von Gewichten, Optimiererzuständen, Gewichtsgradienten oder Sequenz-Shards von Aktivierungen zusammen, nichts Ganzes (%2)</translation>
    </message>
    <message>
        <source>%1 against %2: every member must give its part of the same %3</source>
        <translation>%1 gegen %2: Jedes Mitglied muss seinen Teil desselben Objekts geben (%3)</translation>
    </message>
    <message>
        <source>two members hold terms of the same slice (%1): sum them over the tensor group, model.group(&quot;tensor&quot;), whose ranks hold each slice once</source>
        <translation>zwei Mitglieder halten Teilsummen desselben Slices (%1): über die Tensorgruppe summieren, model.group(&quot;tensor&quot;), deren Ranks jeden Slice genau einmal halten</translation>
    </message>
    <message>
        <source>two members of the tensor group hold terms of the same slice (%1): each rank loads its own slice, load_weights(layer, model.coords[&quot;tensor&quot;], model.TENSOR, split=&quot;tensor&quot;)</source>
        <translation>zwei Mitglieder der Tensorgruppe halten Teilsummen desselben Slices (%1): Jeder Rank lädt seinen eigenen Slice, load_weights(layer, model.coords[&quot;tensor&quot;], model.TENSOR, split=&quot;tensor&quot;)</translation>
    </message>
    <message>
        <source>%1: the gradient is of %2, so this backward runs that block and needs the activation its forward took (at %3), not the one at %4</source>
        <translation>%1: Der Gradient gehört zu %2, also rechnet dieser Backward diesen Block und braucht die Aktivierung, die sein Forward bekam (bei %3), nicht die bei %4</translation>
    </message>
    <message>
        <source>%1: the weight gradient covers only the %2 block of the slice; add the other block&apos;s gradient first (model.add)</source>
        <translation>%1: Der Gewichtsgradient deckt nur den %2-Block des Slices ab; erst den Gradienten des anderen Blocks addieren (model.add)</translation>
    </message>
    <message>
        <source>%1: a tensor-parallel slice and a ZeRO shard do not mix (%2 against %3)</source>
        <translation>%1: Ein tensorparalleler Slice und ein ZeRO-Shard passen nicht zusammen (%2 gegen %3)</translation>
    </message>
    <message>
        <source>%1: split must be &quot;tensor&quot; or None, not %2</source>
        <translation>%1: split muss &quot;tensor&quot; oder None sein, nicht %2</translation>
    </message>
    <message>
        <source>layer %1&apos;s input</source>
        <translation>Eingabe von Schicht %1</translation>
    </message>
    <message>
        <source>layer %1 after its attention block</source>
        <translation>Schicht %1 nach ihrem Attention-Block</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <source>The peak fits the device&apos;s memory of %1 with %2 to spare.</source>
        <translation>Die Spitze passt in den Speicher des Geräts von %1, mit %2 Reserve.</translation>
    </message>
    <message>
        <source>The peak is %1 over the device&apos;s memory of %2: it does not fit.</source>
        <translation>Die Spitze liegt %1 über dem Speicher des Geräts von %2: Sie passt nicht hinein.</translation>
    </message>
    <message>
        <source>storage keys are ints or tuples of ints from %1 to %2, like weights[3] or activations[0, mb]; %3 is out of that range</source>
        <translation>Speicherschlüssel sind ganze Zahlen oder Tupel ganzer Zahlen von %1 bis %2, wie weights[3] oder activations[0, mb]; %3 liegt außerhalb dieses Bereichs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>rank %1 waits for it in %2</source>
        <translation>Rank %1 wartet in %2 auf ihn</translation>
    </message>
    <message>
        <source>ranks %1 wait for it in %2</source>
        <translation>Ranks %1 warten in %2 auf ihn</translation>
    </message>
</context>
<context>
    <name>ExportActions</name>
    <message>
        <source>Timeline and memory as &amp;SVG…</source>
        <translation>Zeitleiste und Speicher als &amp;SVG…</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG-Bilder (*.svg)</translation>
    </message>
    <message>
        <source>Timeline and memory as &amp;PNG…</source>
        <translation>Zeitleiste und Speicher als &amp;PNG…</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>State of every rank as P&amp;NG…</source>
        <translation>Zustand aller Ranks als P&amp;NG…</translation>
    </message>
    <message>
        <source>Why (memory and time) as S&amp;VG…</source>
        <translation>Warum (Speicher und Zeit) als S&amp;VG…</translation>
    </message>
    <message>
        <source>Why (memory and time) as PN&amp;G…</source>
        <translation>Warum (Speicher und Zeit) als PN&amp;G…</translation>
    </message>
    <message>
        <source>Trace as &amp;JSON…</source>
        <translation>Trace als &amp;JSON…</translation>
    </message>
    <message>
        <source>Rankstep traces (*.json)</source>
        <translation>Rankstep-Traces (*.json)</translation>
    </message>
    <message>
        <source>Trace as P&amp;erfetto trace…</source>
        <translation>Trace als P&amp;erfetto-Trace…</translation>
    </message>
    <message>
        <source>Perfetto / Chrome traces (*.json)</source>
        <translation>Perfetto-/Chrome-Traces (*.json)</translation>
    </message>
</context>
<context>
    <name>KindText</name>
    <message>
        <source>weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>Optimiererzustände</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>activation gradients</source>
        <translation>Aktivierungsgradienten</translation>
    </message>
    <message>
        <source>weight gradients</source>
        <translation>Gewichtsgradienten</translation>
    </message>
    <message>
        <source>keys and values</source>
        <translation>Keys und Values</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>en</source>
        <comment>the language code of this translation: de, fr, ...</comment>
        <translation>de</translation>
    </message>
</context>
<context>
    <name>Legend</name>
    <message>
        <source>layers 0-%1, output</source>
        <translation>Schichten 0-%1, Ausgabe</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>forward</translation>
    </message>
    <message>
        <source>backward, gradients</source>
        <translation>backward, Gradienten</translation>
    </message>
    <message>
        <source>B input gradient, W weight gradient</source>
        <translation>B Eingabegradient, W Gewichtsgradient</translation>
    </message>
    <message>
        <source>update</source>
        <translation>update</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>loss</translation>
    </message>
    <message>
        <source>collectives AR, AG, SR, A2A all-to-all</source>
        <translation>Kollektive AR, AG, SR, A2A All-to-All</translation>
    </message>
    <message>
        <source>collectives AR, AG, SR</source>
        <translation>Kollektive AR, AG, SR</translation>
    </message>
    <message>
        <source>pass, receive</source>
        <translation>Senden, Empfangen</translation>
    </message>
    <message>
        <source>communication, hatched for color-blind readers</source>
        <translation>Kommunikation, schraffiert für Farbenblinde</translation>
    </message>
    <message>
        <source>held batches, shards</source>
        <translation>gehaltene Batches, Shards</translation>
    </message>
    <message>
        <source>updated weight</source>
        <translation>aktualisiertes Gewicht</translation>
    </message>
</context>
<context>
    <name>LessonTitle</name>
    <message>
        <source>A training step, by hand</source>
        <translation>Ein Trainingsschritt von Hand</translation>
    </message>
    <message>
        <source>Standard training</source>
        <translation>Normales Training</translation>
    </message>
    <message>
        <source>The training loop in PyTorch</source>
        <translation>Die Trainingsschleife in PyTorch</translation>
    </message>
    <message>
        <source>Mixed precision with bf16 autocast</source>
        <translation>Gemischte Genauigkeit mit bf16-Autocast</translation>
    </message>
    <message>
        <source>DDP in PyTorch</source>
        <translation>DDP in PyTorch</translation>
    </message>
    <message>
        <source>DDP with gradient accumulation in PyTorch</source>
        <translation>DDP mit akkumulierten Gradienten in PyTorch</translation>
    </message>
    <message>
        <source>ZeRO in PyTorch</source>
        <translation>ZeRO in PyTorch</translation>
    </message>
    <message>
        <source>FSDP by hand in PyTorch</source>
        <translation>FSDP von Hand in PyTorch</translation>
    </message>
    <message>
        <source>Activation checkpointing in PyTorch</source>
        <translation>Aktivierungs-Checkpointing in PyTorch</translation>
    </message>
    <message>
        <source>The training checklist in PyTorch</source>
        <translation>Die Trainings-Checkliste in PyTorch</translation>
    </message>
    <message>
        <source>Gradient accumulation</source>
        <translation>Gradienten akkumulieren</translation>
    </message>
    <message>
        <source>Allreduce: summing across ranks</source>
        <translation>Allreduce: über die Ranks summieren</translation>
    </message>
    <message>
        <source>Broadcast the initial state</source>
        <translation>Den Anfangszustand verteilen (Broadcast)</translation>
    </message>
    <message>
        <source>When one rank skips a collective</source>
        <translation>Wenn ein Rank eine kollektive Operation auslässt</translation>
    </message>
    <message>
        <source>Distributed data parallel</source>
        <translation>Verteilte Datenparallelität (DDP)</translation>
    </message>
    <message>
        <source>Overlapping the all-reduces with backward</source>
        <translation>Die All-Reduces mit backward überlappen</translation>
    </message>
    <message>
        <source>Allgather: from shards to the whole weight</source>
        <translation>Allgather: von Shards zum ganzen Gewicht</translation>
    </message>
    <message>
        <source>Weight-sharded data parallel</source>
        <translation>Datenparallelität mit geteilten Gewichten</translation>
    </message>
    <message>
        <source>Scatter-reduce: sum, then keep your shard</source>
        <translation>Scatter-Reduce: summieren, dann den eigenen Shard behalten</translation>
    </message>
    <message>
        <source>Sharding the optimizer state (ZeRO-1)</source>
        <translation>Den Optimiererzustand teilen (ZeRO-1)</translation>
    </message>
    <message>
        <source>Sharding the gradients too (ZeRO-2)</source>
        <translation>Auch die Gradienten teilen (ZeRO-2)</translation>
    </message>
    <message>
        <source>Fully-sharded data parallel</source>
        <translation>Vollständig geteilte Datenparallelität (FSDP)</translation>
    </message>
    <message>
        <source>Point-to-point: passing work along</source>
        <translation>Punkt-zu-Punkt: Arbeit weiterreichen</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>Pipeline-Parallelität</translation>
    </message>
    <message>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <source>Pipeline + FSDP</source>
        <translation>Pipeline + FSDP</translation>
    </message>
    <message>
        <source>DDP with gradient accumulation</source>
        <translation>DDP mit akkumulierten Gradienten</translation>
    </message>
    <message>
        <source>Activation checkpointing</source>
        <translation>Aktivierungs-Checkpointing</translation>
    </message>
    <message>
        <source>The 1F1B pipeline schedule</source>
        <translation>Der 1F1B-Pipeline-Ablauf</translation>
    </message>
    <message>
        <source>Pipeline + FSDP with groups</source>
        <translation>Pipeline + FSDP mit Gruppen</translation>
    </message>
    <message>
        <source>The pipeline bubble</source>
        <translation>Die Pipeline-Blase</translation>
    </message>
    <message>
        <source>Interleaved 1F1B</source>
        <translation>Verschachteltes 1F1B</translation>
    </message>
    <message>
        <source>Zero-bubble pipeline (ZB-H1)</source>
        <translation>Pipeline ohne Blase (ZB-H1)</translation>
    </message>
    <message>
        <source>Tensor parallelism</source>
        <translation>Tensorparallelität</translation>
    </message>
    <message>
        <source>Sequence parallelism</source>
        <translation>Sequenzparallelität</translation>
    </message>
    <message>
        <source>Expert parallel (mixture of experts)</source>
        <translation>Expertenparallelität (Mixture of Experts)</translation>
    </message>
    <message>
        <source>Context parallelism (ring attention)</source>
        <translation>Kontextparallelität (Ring-Attention)</translation>
    </message>
    <message>
        <source>Many dimensions at once</source>
        <translation>Viele Dimensionen zugleich</translation>
    </message>
</context>
<context>
    <name>MemoryPlot</name>
    <message>
        <source>time (%1)</source>
        <translation>Zeit (%1)</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>Ziel %1</translation>
    </message>
    <message>
        <source>max %1 (rank %2, t %3)</source>
        <translation>max %1 (Rank %2, t %3)</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>%1: the device&apos;s memory</source>
        <translation>%1: der Speicher des Geräts</translation>
    </message>
    <message>
        <source>max %1 (rank %2, t %3): fits, %4 to spare</source>
        <translation>max. %1 (Rank %2, t %3): passt, %4 Reserve</translation>
    </message>
    <message>
        <source>max %1 (rank %2, t %3): %4 over the device&apos;s memory</source>
        <translation>max. %1 (Rank %2, t %3): %4 über dem Speicher des Geräts</translation>
    </message>
</context>
<context>
    <name>Options</name>
    <message>
        <source>Learn how large language models are trained on many GPUs.</source>
        <translation>Lernen Sie, wie große Sprachmodelle auf vielen GPUs trainiert werden.</translation>
    </message>
    <message>
        <source>Open the lesson &lt;name&gt;.</source>
        <translation>Die Lektion &lt;name&gt; öffnen.</translation>
    </message>
    <message>
        <source>Show the code in &lt;file&gt; (not saved as yours).</source>
        <translation>Den Code aus &lt;file&gt; zeigen (wird nicht als Ihrer gespeichert).</translation>
    </message>
    <message>
        <source>Run the code once the window is up.</source>
        <translation>Den Code ausführen, sobald das Fenster offen ist.</translation>
    </message>
    <message>
        <source>Save the window as an image to &lt;file&gt; (after the run, with --run) and exit.</source>
        <translation>Das Fenster als Bild in &lt;file&gt; speichern (nach dem Lauf, mit --run) und beenden.</translation>
    </message>
    <message>
        <source>Read lessons from &lt;dir&gt; (for lesson authors).</source>
        <translation>Lektionen aus &lt;dir&gt; lesen (für Autorinnen und Autoren von Lektionen).</translation>
    </message>
    <message>
        <source>After --run or --open, stand &lt;n&gt; operation steps from the start, or at the end.</source>
        <translation>Nach --run oder --open auf &lt;n&gt; Operationsschritte nach dem Start gehen oder ans Ende.</translation>
    </message>
    <message>
        <source>Import the puzzle functions of &lt;file&gt; (a notebook or .py) as your code.</source>
        <translation>Die Puzzle-Funktionen aus &lt;file&gt; (ein Notebook oder eine .py-Datei) als Ihren Code importieren.</translation>
    </message>
    <message>
        <source>Before the screenshot, show the tab &lt;name&gt; left of the editor.</source>
        <translation>Vor dem Screenshot den Reiter &lt;name&gt; links vom Editor zeigen.</translation>
    </message>
    <message>
        <source>Print when the window first painted, after the process start, and exit.</source>
        <translation>Ausgeben, wann das Fenster zum ersten Mal gezeichnet wurde (gemessen ab dem Prozessstart), und beenden.</translation>
    </message>
    <message>
        <source>Start in presentation mode (F11).</source>
        <translation>Im Präsentationsmodus starten (F11).</translation>
    </message>
    <message>
        <source>Zoom every view by &lt;factor&gt; (1 is actual size).</source>
        <translation>Jede Ansicht um &lt;factor&gt; zoomen (1 ist die Originalgröße).</translation>
    </message>
    <message>
        <source>Use the theme &lt;name&gt;: system, light, dark or high-contrast.</source>
        <translation>Das Design &lt;name&gt; verwenden: system, light, dark oder high-contrast.</translation>
    </message>
    <message>
        <source>Use the color-blind-safe colors.</source>
        <translation>Die für Farbenblinde geeigneten Farben verwenden.</translation>
    </message>
    <message>
        <source>Size the window &lt;width&gt;x&lt;height&gt; pixels.</source>
        <translation>Das Fenster auf &lt;Breite&gt;x&lt;Höhe&gt; Pixel setzen.</translation>
    </message>
    <message>
        <source>After --run, compare the run with the lesson&apos;s solution (the Compare tab).</source>
        <translation>Nach --run den Lauf mit der Lösung der Lektion vergleichen (Reiter „Vergleich“).</translation>
    </message>
    <message>
        <source>After --run, outline &lt;what&gt; on the timeline: critical-path.</source>
        <translation>Nach --run &lt;what&gt; in der Zeitleiste hervorheben: critical-path.</translation>
    </message>
    <message>
        <source>Draw the memory chart as the ranks&apos; lines, or one rank by kind.</source>
        <translation>Das Speicherdiagramm als Linien der Ranks zeichnen oder als einen Rank nach Art aufgeschlüsselt.</translation>
    </message>
    <message>
        <source>With --run, run the code for real too (Ctrl+F5, PyTorch) and take the screenshot once it ended.</source>
        <translation>Mit --run den Code zusätzlich echt ausführen (Ctrl+F5, PyTorch) und den Screenshot aufnehmen, sobald das beendet ist.</translation>
    </message>
    <message>
        <source>With --real, show the real run in the views (Ctrl+Shift+F5), its simulation in the Compare tab.</source>
        <translation>Mit --real den echten Lauf in den Ansichten zeigen (Ctrl+Shift+F5) und seine Simulation im Reiter „Vergleich“.</translation>
    </message>
    <message>
        <source>Run under the cost model &lt;preset&gt; (Run &gt; Cost Model; docs/cost-models.md).</source>
        <translation>Mit dem Kostenmodell &lt;preset&gt; ausführen (Ausführen &gt; Kostenmodell; docs/cost-models.md).</translation>
    </message>
    <message>
        <source>Run a What if sweep of &lt;fields&gt; (ranks=2,4,8; batches=1,2,4,8; bandwidth=50; tensor=4,8; pipeline=8,16; cost=PRESET; show=chart|table|bubble; in a pipeline lesson compare=schedules) and take the screenshot when it ends.</source>
        <translation>Einen Was-wäre-wenn-Sweep über &lt;fields&gt; ausführen (ranks=2,4,8; batches=1,2,4,8; bandwidth=50; tensor=4,8; pipeline=8,16; cost=PRESET; show=chart|table|bubble; in einer Pipeline-Lektion compare=schedules) und den Screenshot aufnehmen, wenn er endet.</translation>
    </message>
    <message>
        <source>After --sweep, open the run of the grid&apos;s &lt;n&gt;-th setting (from 0).</source>
        <translation>Nach --sweep den Lauf der &lt;n&gt;-ten Einstellung des Rasters öffnen (ab 0 gezählt).</translation>
    </message>
    <message>
        <source>Replay the recorded demonstration &lt;file&gt; (File &gt; Replay a Demonstration); --step N starts at its step N (from 1) or its end.</source>
        <translation>Die aufgezeichnete Vorführung &lt;file&gt; abspielen (Datei &gt; Vorführung abspielen); --step N beginnt bei ihrem Schritt N (ab 1 gezählt) oder an ihrem Ende.</translation>
    </message>
    <message>
        <source>With --presentation and --run: ask the quiz&apos;s question about the next step (ask), or show its answer with the step (reveal).</source>
        <translation>Mit --presentation und --run: die Quizfrage zum nächsten Schritt stellen (ask) oder ihre Antwort mit dem Schritt zeigen (reveal).</translation>
    </message>
    <message>
        <source>Grade the class folder &lt;folder&gt; into the Class tab (File &gt; Open Class Folder) and take the screenshot when it ends.</source>
        <translation>Den Klassenordner &lt;folder&gt; im Reiter „Klasse“ bewerten (Datei &gt; Klassenordner öffnen) und den Screenshot aufnehmen, wenn das beendet ist.</translation>
    </message>
    <message>
        <source>After --class, open the roster&apos;s cell &lt;learner&gt;:&lt;lesson&gt; and run it.</source>
        <translation>Nach --class die Zelle &lt;learner&gt;:&lt;lesson&gt; der Klassenübersicht öffnen und ausführen.</translation>
    </message>
    <message>
        <source>Open Help &gt; Keyboard Shortcuts before the screenshot.</source>
        <translation>Vor dem Bildschirmfoto Hilfe &gt; Tastenkürzel öffnen.</translation>
    </message>
    <message>
        <source>Show the Why tab&apos;s page &lt;page&gt;: memory or time.</source>
        <translation>Die Seite &lt;page&gt; des Tabs „Warum“ zeigen: memory oder time.</translation>
    </message>
    <message>
        <source>A notebook or Python file to import, a recorded demonstration to replay, or a class folder to grade.</source>
        <translation>Ein Notebook oder eine Python-Datei zum Importieren, eine aufgezeichnete Vorführung zum Abspielen oder ein Klassenordner zum Bewerten.</translation>
    </message>
    <message>
        <source>Speak &lt;language&gt;: de (German) or en (English); the system&apos;s language by default.</source>
        <translation>In &lt;language&gt; sprechen: de (Deutsch) oder en (Englisch); standardmäßig in der Sprache des Systems.</translation>
    </message>
    <message>
        <source>When the screenshot is taken (or would be), write what the window shows to &lt;file&gt; as JSON: its size, the cursor, each view&apos;s time and every text cut on screen.</source>
        <translation>Wenn das Bildschirmfoto aufgenommen wird (oder würde), schreiben, was das Fenster zeigt, als JSON nach &lt;file&gt;: seine Größe, den Cursor, die Zeit jeder Ansicht und jeden abgeschnittenen Text auf dem Bildschirm.</translation>
    </message>
    <message>
        <source>Count --step in &lt;mode&gt;: snapshot (each draw()), operation, turn (the scheduler&apos;s), time.</source>
        <translation>--step in &lt;mode&gt; zählen: snapshot (jedes draw()), operation, turn (die des Schedulers), time.</translation>
    </message>
    <message>
        <source>Open &lt;file&gt;: a trace the command line wrote (run --trace-out or --json, real --json or --profile), shown read-only in every view; or any file [file] takes.</source>
        <translation>&lt;file&gt; öffnen: eine Trace, die die Kommandozeile geschrieben hat (run --trace-out oder --json, real --json oder --profile), schreibgeschützt in jeder Ansicht gezeigt; oder jede Datei, die [file] annimmt.</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>These lessons in %1 were left out:

%2</source>
        <translation>Diese Lektionen in %1 wurden ausgelassen:

%2</translation>
    </message>
    <message>
        <source>No lesson in %1 loads:

%2

Rankstep shows its built-in lessons instead.</source>
        <translation>Keine Lektion in %1 lässt sich laden:

%2

Rankstep zeigt stattdessen seine eingebauten Lektionen.</translation>
    </message>
    <message>
        <source>Some lessons could not be loaded</source>
        <translation>Einige Lektionen konnten nicht geladen werden</translation>
    </message>
    <message>
        <source>it holds a NUL byte (at byte %1)</source>
        <translation>die Datei enthält ein NUL-Byte (bei Byte %1)</translation>
    </message>
    <message>
        <source>it is not UTF-8 text (Latin-1 or another encoding?)</source>
        <translation>die Datei ist kein UTF-8-Text (Latin-1 oder eine andere Kodierung?)</translation>
    </message>
    <message>
        <source>Another Rankstep window (process %1 on %2) has your saved code open. This window shows your code read-only and saves nothing; close the other one and open the lesson again to edit here.</source>
        <translation>Ein anderes Rankstep-Fenster (Prozess %1 auf %2) hat Ihren gespeicherten Code geöffnet. Dieses Fenster zeigt Ihren Code schreibgeschützt und speichert nichts; schließen Sie das andere Fenster und öffnen Sie die Lektion erneut, um hier zu bearbeiten.</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>diesem Computer</translation>
    </message>
    <message>
        <source>Your code folder %1 cannot be written (%2), so Rankstep can save nothing there: this window shows your code read-only. Make the folder writable and open the lesson again to edit here.</source>
        <translation>In Ihren Code-Ordner %1 kann nicht geschrieben werden (%2), daher kann Rankstep dort nichts speichern: Dieses Fenster zeigt Ihren Code schreibgeschützt. Machen Sie den Ordner beschreibbar und öffnen Sie die Lektion erneut, um hier zu bearbeiten.</translation>
    </message>
    <message>
        <source>its lock file could not be made</source>
        <translation>seine Sperrdatei konnte nicht angelegt werden</translation>
    </message>
    <message>
        <source>the file system is read-only</source>
        <translation>das Dateisystem ist schreibgeschützt</translation>
    </message>
    <message>
        <source>it is read-only for you</source>
        <translation>er ist für Sie schreibgeschützt</translation>
    </message>
    <message>
        <source>it does not exist and could not be made</source>
        <translation>er existiert nicht und konnte nicht angelegt werden</translation>
    </message>
    <message>
        <source>rank   busy   idle   communication</source>
        <translation>Rank  aktiv untätig Kommunikation</translation>
    </message>
    <message>
        <source>Where time goes (each rank adds up to %1)</source>
        <translation>Wo die Zeit bleibt (je Rank in Summe %1)</translation>
    </message>
    <message>
        <source>… and %1 more ranks</source>
        <translation>… und %1 weitere Ranks</translation>
    </message>
    <message>
        <source>Why the run behaves as it does</source>
        <translation>Warum sich der Lauf so verhält</translation>
    </message>
    <message>
        <source>No operation took simulated time.</source>
        <translation>Keine Operation hat simulierte Zeit gebraucht.</translation>
    </message>
    <message>
        <source>The run did not finish: explained up to where it stopped.
</source>
        <translation>Der Lauf wurde nicht beendet: erklärt bis zu der Stelle, an der er stehen blieb.
</translation>
    </message>
    <message>
        <source>Memory of rank %1 by kind over time (%2)</source>
        <translation>Speicher von Rank %1 nach Art über die Zeit (%2)</translation>
    </message>
    <message>
        <source>Critical path: %1 operations across the ranks, from t 0 to t %2, set the end time.</source>
        <translation>Kritischer Pfad: %1 Operationen über die Ranks hinweg, von t 0 bis t %2, bestimmen das Ende.</translation>
    </message>
    <message>
        <source>Every rank&apos;s state at the end of the run</source>
        <translation>Zustand aller Ranks am Ende des Laufs</translation>
    </message>
    <message>
        <source>Every rank&apos;s state before the first event</source>
        <translation>Zustand aller Ranks vor dem ersten Ereignis</translation>
    </message>
    <message>
        <source>Every rank&apos;s state after event %1 of %2: rank %3, %4, t %5 to %6</source>
        <translation>Zustand aller Ranks nach Ereignis %1 von %2: Rank %3, %4, t %5 bis %6</translation>
    </message>
    <message>
        <source>%1 ranks, %2 layers, %3 batches</source>
        <translation>%1 Ranks, %2 Schichten, %3 Batches</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>hung</source>
        <translation>festgehangen</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 here</source>
        <translation>hier %1</translation>
    </message>
    <message>
        <source>
[output cut: %1 more bytes were printed here and dropped]
</source>
        <translation>
[Ausgabe gekürzt: %1 weitere Bytes wurden hier ausgegeben und verworfen]
</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>Ranks %1</source>
        <translation>Ranks %1</translation>
    </message>
    <message>
        <source>The ranks hung: no rank can go on</source>
        <translation>Die Ranks hängen fest: Kein Rank kann weitermachen</translation>
    </message>
    <message>
        <source>The ranks called different collectives</source>
        <translation>Die Ranks haben verschiedene kollektive Operationen aufgerufen</translation>
    </message>
    <message>
        <source>The run was stopped</source>
        <translation>Der Lauf wurde angehalten</translation>
    </message>
    <message>
        <source>Python cannot read the code (%1)</source>
        <translation>Python kann den Code nicht lesen (%1)</translation>
    </message>
    <message>
        <source>The run failed</source>
        <translation>Der Lauf ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>rank %1: %2
</source>
        <translation>Rank %1: %2
</translation>
    </message>
    <message>
        <source>the fp32 loop</source>
        <translation>die fp32-Schleife</translation>
    </message>
    <message>
        <source>one process, every rank&apos;s batches</source>
        <translation>ein Prozess, die Batches aller Ranks</translation>
    </message>
    <message>
        <source>the checklist&apos;s loop</source>
        <translation>die Schleife der Checkliste</translation>
    </message>
    <message>
        <source>the plain loop</source>
        <translation>die einfache Schleife</translation>
    </message>
    <message>
        <source>PyTorch is missing. On Debian 12: sudo apt-get install python3-torch. The simulated lessons work without it.</source>
        <translation>PyTorch fehlt. Unter Debian 12: sudo apt-get install python3-torch. Die simulierten Lektionen funktionieren auch ohne.</translation>
    </message>
    <message>
        <source>Your code raised an error:</source>
        <translation>Ihr Code hat einen Fehler ausgelöst:</translation>
    </message>
    <message>
        <source>Stopped:</source>
        <translation>Angehalten:</translation>
    </message>
    <message>
        <source>The run did not finish:</source>
        <translation>Der Lauf wurde nicht abgeschlossen:</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Solved!&lt;/b&gt; Trained for real in %1 s.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Gelöst!&lt;/b&gt; Echt trainiert in %1 s.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Not solved yet.&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Noch nicht gelöst.&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <source>opt. states</source>
        <translation>Opt.-Zustände</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <source>act. grads</source>
        <translation>Akt.-Gradienten</translation>
    </message>
    <message>
        <source>weight grads</source>
        <translation>Gewichtsgradienten</translation>
    </message>
    <message>
        <source>keys &amp; values</source>
        <translation>Keys &amp; Values</translation>
    </message>
    <message>
        <source>&amp;#8942;&amp;nbsp;dotted: the target, the model&apos;s state</source>
        <translation>&amp;#8942;&amp;nbsp;gepunktet: das Ziel, der Zustand des Modells</translation>
    </message>
    <message>
        <source>| layer | difference from one process | |
| --: | --: | --- |
</source>
        <translation>| Schicht | Abweichung vom Einzelprozess | |
| --: | --: | --- |
</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>nicht gesetzt</translation>
    </message>
    <message>
        <source>| rank | compute | comm. | comm. share | simulated |
| --: | --: | --: | --: | --: |
</source>
        <translation>| Rank | Berechnung | Komm. | Komm.-Anteil | simuliert |
| --: | --: | --: | --: | --: |
</translation>
    </message>
    <message>
        <source>Running for real…</source>
        <translation>Echte Ausführung läuft…</translation>
    </message>
    <message>
        <source>Not run for real yet.</source>
        <translation>Noch nicht echt ausgeführt.</translation>
    </message>
    <message>
        <source>Trains what one process trains.</source>
        <translation>Trainiert dasselbe wie ein einzelner Prozess.</translation>
    </message>
    <message>
        <source>Trains another model.</source>
        <translation>Trainiert ein anderes Modell.</translation>
    </message>
    <message>
        <source>PyTorch is missing.</source>
        <translation>PyTorch fehlt.</translation>
    </message>
    <message>
        <source>The simulator stopped it first.</source>
        <translation>Der Simulator hat den Lauf vorher angehalten.</translation>
    </message>
    <message>
        <source>A rank raised an error: every rank was stopped.</source>
        <translation>Ein Rank hat einen Fehler ausgelöst: Alle Ranks wurden angehalten.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Angehalten.</translation>
    </message>
    <message>
        <source>Did not finish.</source>
        <translation>Nicht abgeschlossen.</translation>
    </message>
    <message>
        <source>Running for real: one process per rank trains real tensors through PyTorch&apos;s torch.distributed. The simulation runs first; then each process loads PyTorch, which takes a few seconds.</source>
        <translation>Echte Ausführung: Ein Prozess pro Rank trainiert echte Tensoren über torch.distributed von PyTorch. Zuerst läuft die Simulation; dann lädt jeder Prozess PyTorch, was einige Sekunden dauert.</translation>
    </message>
    <message>
        <source>**Run for real** (Ctrl+F5) runs your code on real processes: each rank is a process that trains a real model (each layer a linear layer on real tensors) and talks to the others through PyTorch&apos;s torch.distributed. Afterwards the ranks&apos; weights, put together, are compared with one process trained on every batch: a correct program trains exactly the same model.

It needs PyTorch (Debian: python3-torch).</source>
        <translation>**Echt ausführen** (Ctrl+F5) führt Ihren Code in echten Prozessen aus: Jeder Rank ist ein Prozess, der ein echtes Modell trainiert (jede Schicht eine lineare Schicht auf echten Tensoren) und über torch.distributed von PyTorch mit den anderen kommuniziert. Danach werden die zusammengesetzten Gewichte der Ranks mit einem einzelnen Prozess verglichen, der auf allen Batches trainiert wurde: Ein korrektes Programm trainiert genau dasselbe Modell.

Dafür wird PyTorch benötigt (Debian: python3-torch).</translation>
    </message>
    <message>
        <source>PyTorch is not installed, so nothing can run for real. On Debian 12: `sudo apt-get install python3-torch` (or `scripts/setup-deps.sh`), then press Ctrl+F5 again. Everything else in Rankstep works without it.</source>
        <translation>PyTorch ist nicht installiert, daher kann nichts echt ausgeführt werden. Unter Debian 12: `sudo apt-get install python3-torch` (oder `scripts/setup-deps.sh`), danach drücken Sie erneut Ctrl+F5. Alles andere in Rankstep funktioniert auch ohne PyTorch.</translation>
    </message>
    <message>
        <source>The real run did not get to the end. What it said:

%1</source>
        <translation>Der echte Lauf ist nicht bis zum Ende gekommen. Seine Ausgabe:

%1</translation>
    </message>
    <message>
        <source>The weights of the one rank</source>
        <translation>Die Gewichte des einen Ranks</translation>
    </message>
    <message>
        <source>The weights of the %1 ranks, put together,</source>
        <translation>Die zusammengesetzten Gewichte der %1 Ranks</translation>
    </message>
    <message>
        <source>%1 match one process trained on every batch: the largest difference is %2, rounding.</source>
        <translation>%1 stimmen mit einem einzelnen Prozess überein, der auf allen Batches trainiert wurde: Die größte Abweichung ist %2, also Rundung.</translation>
    </message>
    <message>
        <source>Layer %1 is the first that differs from one process trained on every batch: this program trains another model, even where the simulator found nothing wrong.</source>
        <translation>Schicht %1 ist die erste, die von einem einzelnen, auf allen Batches trainierten Prozess abweicht: Dieses Programm trainiert ein anderes Modell, auch wenn der Simulator keinen Fehler gefunden hat.</translation>
    </message>
    <message>
        <source>
Seconds of each rank in compute (forward, backward, loss, update) and in communication (collectives and messages, waiting for the others included), and the share of communication beside the simulated run&apos;s. The notebook&apos;s costs put a collective at 0.3 of a forward: the last two columns show how far that holds here.

</source>
        <translation>
Sekunden jedes Ranks für Berechnung (forward, backward, loss, update) und für Kommunikation (kollektive Operationen und Nachrichten, einschließlich des Wartens auf die anderen) sowie der Anteil der Kommunikation neben dem des simulierten Laufs. Die Kosten des Notebooks setzen eine kollektive Operation mit 0,3 eines forward an: Die letzten beiden Spalten zeigen, wie weit das hier zutrifft.

</translation>
    </message>
    <message>
        <source>
%1 ranks, %2 layers, %3 batches; HIDDEN %4, LENGTH %5; %6 s in all, %7 s for the ranks after PyTorch loaded.
</source>
        <translation>
%1 Ranks, %2 Schichten, %3 Batches; HIDDEN %4, LENGTH %5; %6 s insgesamt, %7 s für die Ranks nach dem Laden von PyTorch.
</translation>
    </message>
    <message>
        <source>Timesteps</source>
        <translation>Timesteps</translation>
    </message>
    <message>
        <source>Maximum memory</source>
        <translation>Maximum memory</translation>
    </message>
    <message>
        <source>, rank %1</source>
        <translation>, Rank %1</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Where the time goes&lt;/b&gt; (each rank&apos;s busy, idle and communication time add up to the end, %1):&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Wo die Zeit bleibt&lt;/b&gt; (aktive, untätige und Kommunikationszeit jedes Ranks ergeben zusammen das Ende, %1):&lt;/p&gt;</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>busy</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>untätig</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>Kommunikation</translation>
    </message>
    <message>
        <source>most</source>
        <translation>am meisten</translation>
    </message>
    <message>
        <source>least</source>
        <translation>am wenigsten</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;small&gt;%1 ranks: the Why tab lists every one.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;%1 Ranks: Der Reiter „Warum“ listet alle auf.&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The ranks hung:</source>
        <translation>Die Ranks hängen fest:</translation>
    </message>
    <message>
        <source>Rank %1, line %2:</source>
        <translation>Rank %1, Zeile %2:</translation>
    </message>
    <message>
        <source>What went wrong:</source>
        <translation>Was schiefging:</translation>
    </message>
    <message>
        <source>&lt;p&gt;Under %1: Timesteps %2; maximum memory %3 on rank %4 at %5; the run ends at %6.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Mit dem Kostenmodell %1: Timesteps %2; Maximum memory %3 auf Rank %4 bei %5; der Lauf endet bei %6.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Maximum memory %1 on rank %2 at time %3; the run ends at %4.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Maximum memory %1 auf Rank %2 zur Zeit %3; der Lauf endet bei %4.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:#8a5300&apos;&gt;⚠ rank %1, line %2: %3&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#8a5300&apos;&gt;⚠ Rank %1, Zeile %2: %3&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>Stepping</source>
        <translation>Schrittweise</translation>
    </message>
    <message>
        <source>Timesteps %1, max memory %2 on rank %3 at t %4 · %5</source>
        <translation>Timesteps %1, maximaler Speicher %2 auf Rank %3 bei t %4 · %5</translation>
    </message>
    <message>
        <source>Timesteps %1, max memory %2 on rank %3 at %4 · %5</source>
        <translation>Timesteps %1, maximaler Speicher %2 auf Rank %3 bei %4 · %5</translation>
    </message>
    <message>
        <source>rank %1, line %2</source>
        <translation>Rank %1, Zeile %2</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>Zeile %1</translation>
    </message>
    <message>
        <source>An error at %1</source>
        <translation>Ein Fehler bei %1</translation>
    </message>
    <message>
        <source>Every rank&apos;s state at t %1</source>
        <translation>Zustand jedes Ranks bei t %1</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1; %2</translation>
    </message>
</context>
<context>
    <name>RankLines</name>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>ranks %1</source>
        <translation>Ranks %1</translation>
    </message>
</context>
<context>
    <name>RankListText</name>
    <message>
        <source>&apos;%1&apos; is not a rank or a range like 12-15</source>
        <translation>„%1“ ist weder ein Rank noch ein Bereich wie 12-15</translation>
    </message>
    <message>
        <source>the range %1 runs backward: write %2-%3</source>
        <translation>der Bereich %1 läuft rückwärts: schreiben Sie %2-%3</translation>
    </message>
    <message>
        <source>there is no rank %1: this run has ranks 0-%2</source>
        <translation>es gibt keinen Rank %1: Dieser Lauf hat die Ranks 0-%2</translation>
    </message>
    <message>
        <source>name the ranks to show, like 0-3, 8, 12-15</source>
        <translation>geben Sie die anzuzeigenden Ranks an, etwa 0-3, 8, 12-15</translation>
    </message>
    <message>
        <source>%1 ranks named: at most %2 fit</source>
        <translation>%1 Ranks angegeben: höchstens %2 passen</translation>
    </message>
</context>
<context>
    <name>StateSummary</name>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
    <message>
        <source>holds nothing</source>
        <translation>belegt nichts</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
</context>
<context>
    <name>StateText</name>
    <message>
        <source>own t %1</source>
        <translation>eigenes t %1</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>expert %1</source>
        <translation>Experte %1</translation>
    </message>
    <message>
        <source>t %1</source>
        <translation>t %1</translation>
    </message>
    <message>
        <source>rank %1 holds %2 of the run&apos;s largest %3</source>
        <translation>Rank %1 belegt %2; das Maximum des Laufs sind %3</translation>
    </message>
    <message>
        <source>; last ran line %1</source>
        <translation>; zuletzt ausgeführt: Zeile %1</translation>
    </message>
</context>
<context>
    <name>SweepLabels</name>
    <message>
        <source>1 rank</source>
        <translation>1 Rank</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 Ranks</translation>
    </message>
    <message>
        <source>1 layer</source>
        <translation>1 Schicht</translation>
    </message>
    <message>
        <source>%1 layers</source>
        <translation>%1 Schichten</translation>
    </message>
    <message>
        <source>1 batch</source>
        <translation>1 Batch</translation>
    </message>
    <message>
        <source>%1 batches</source>
        <translation>%1 Batches</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>own bandwidth</source>
        <translation>eigene Bandbreite</translation>
    </message>
    <message>
        <source>tensor %1</source>
        <translation>Tensor %1</translation>
    </message>
    <message>
        <source>pipeline %1</source>
        <translation>Pipeline %1</translation>
    </message>
    <message>
        <source>correct</source>
        <translation>richtig</translation>
    </message>
    <message>
        <source>solved</source>
        <translation>gelöst</translation>
    </message>
    <message>
        <source>correct, targets missed</source>
        <translation>richtig, Ziele verfehlt</translation>
    </message>
    <message>
        <source>not correct</source>
        <translation>nicht richtig</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>hung</source>
        <translation>festgehangen</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>abgestürzt</translation>
    </message>
</context>
<context>
    <name>Theme</name>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation>Hoher Kontrast</translation>
    </message>
</context>
<context>
    <name>TimeUnit</name>
    <message>
        <source>steps</source>
        <translation>Schritte</translation>
    </message>
</context>
<context>
    <name>TimelineText</name>
    <message>
        <source>no %1</source>
        <translation>keine %1</translation>
    </message>
    <message>
        <source>%1 %2 and %3</source>
        <translation>%1 %2 und %3</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source> to rank %1</source>
        <translation> an Rank %1</translation>
    </message>
    <message>
        <source> from rank %1</source>
        <translation> von Rank %1</translation>
    </message>
    <message>
        <source>, layer %1</source>
        <translation>, Schicht %1</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <source>batches</source>
        <translation>Batches</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>shard</source>
        <translation>Shard</translation>
    </message>
    <message>
        <source>shards</source>
        <translation>Shards</translation>
    </message>
    <message>
        <source>start %1, end %2, duration %3 %4</source>
        <translation>Beginn %1, Ende %2, Dauer %3 %4</translation>
    </message>
    <message>
        <source>memory %1 at the call</source>
        <translation>Speicher %1 beim Aufruf</translation>
    </message>
    <message>
        <source>line %1 (click to show it)</source>
        <translation>Zeile %1 (Klick zeigt sie)</translation>
    </message>
    <message>
        <source>Timesteps %1: the latest start of any rank&apos;s last operation, the figure the notebook prints and the targets are set in. The run ends at %2, when that operation has finished.</source>
        <translation>Timesteps %1: der späteste Beginn der letzten Operation eines Ranks, die Zahl, die das Notebook ausgibt und in der die Ziele gesetzt sind. Der Lauf endet bei %2, wenn diese Operation fertig ist.</translation>
    </message>
</context>
<context>
    <name>TraceOpener</name>
    <message>
        <source>%1 cannot be opened: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>it is no trace, run report or Chrome trace that Rankstep writes.</source>
        <translation>Sie ist weder eine Trace noch ein Laufbericht noch eine Chrome-Trace, wie Rankstep sie schreibt.</translation>
    </message>
    <message>
        <source>1 rank</source>
        <translation>1 Rank</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 Ranks</translation>
    </message>
    <message>
        <source>torch.profiler&apos;s trace of a real run, %1</source>
        <translation>die Trace von torch.profiler eines echten Laufs, %1</translation>
    </message>
    <message>
        <source>a Chrome trace of a simulated run, %1</source>
        <translation>eine Chrome-Trace eines simulierten Laufs, %1</translation>
    </message>
    <message>
        <source>%1, %2 layers, %3 batches</source>
        <translation>%1, %2 Schichten, %3 Batches</translation>
    </message>
    <message>
        <source>a run on real processes, %1</source>
        <translation>ein Lauf auf echten Prozessen, %1</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1 from %2, %3</source>
        <translation>%1 aus %2, %3</translation>
    </message>
</context>
<context>
    <name>WaitForText</name>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>ranks %1</source>
        <translation>Ranks %1</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>finished without calling %1</source>
        <translation>fertig, ohne %1 aufzurufen</translation>
    </message>
    <message>
        <source>has not reached it yet</source>
        <translation>ist noch nicht so weit</translation>
    </message>
    <message>
        <source>waits in %1</source>
        <translation>wartet in %1</translation>
    </message>
    <message>
        <source>Rank %1: %2</source>
        <translation>Rank %1: %2</translation>
    </message>
    <message>
        <source>Last line it ran: %1</source>
        <translation>Zuletzt ausgeführte Zeile: %1</translation>
    </message>
    <message>
        <source>A message from any of %1 would let it go on</source>
        <translation>Eine Nachricht von einem beliebigen dieser Ranks ließe ihn weiterlaufen: %1</translation>
    </message>
    <message>
        <source>Waits on %1</source>
        <translation>Wartet auf %1</translation>
    </message>
    <message>
        <source>A message from %1 would let it go on</source>
        <translation>Eine Nachricht von %1 ließe ihn weiterlaufen</translation>
    </message>
    <message>
        <source>Waited on by %1</source>
        <translation>Wartende: %1</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <source>Deadlock: ranks %1 wait on each other</source>
        <translation>Deadlock: Ranks %1 warten aufeinander</translation>
    </message>
    <message>
        <source>Deadlock: ranks %1 wait in a cycle</source>
        <translation>Deadlock: Ranks %1 warten im Kreis aufeinander</translation>
    </message>
    <message>
        <source>An error stopped rank %1 at line %2</source>
        <translation>Ein Fehler hat Rank %1 in Zeile %2 gestoppt</translation>
    </message>
    <message>
        <source>Rank %1 finished and never sent to %2</source>
        <translation>Rank %1 ist fertig und hat nie an %2 gesendet</translation>
    </message>
    <message>
        <source>Rank %1 finished without calling %2</source>
        <translation>Rank %1 ist fertig, ohne %2 aufzurufen</translation>
    </message>
    <message>
        <source>Collective mismatch: ranks %1 made different calls</source>
        <translation>Kollektive Operationen passen nicht zusammen: Ranks %1 riefen unterschiedliche auf</translation>
    </message>
    <message>
        <source>No rank can go on</source>
        <translation>Kein Rank kann weitermachen</translation>
    </message>
    <message>
        <source>Rank %1 waits for it in %2.</source>
        <translation>Rank %1 wartet in %2 auf ihn.</translation>
    </message>
    <message>
        <source>Ranks %1 wait for it in %2.</source>
        <translation>Ranks %1 warten in %2 auf ihn.</translation>
    </message>
    <message>
        <source>Rank %1 never started.</source>
        <translation>Rank %1 ist nie gestartet.</translation>
    </message>
    <message>
        <source>Ranks %1 never started.</source>
        <translation>Ranks %1 sind nie gestartet.</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>Zeile %1</translation>
    </message>
    <message>
        <source>stopped by an error</source>
        <translation>durch einen Fehler gestoppt</translation>
    </message>
    <message>
        <source>for %1</source>
        <translation>auf %1</translation>
    </message>
    <message>
        <source>never started: the run ended first</source>
        <translation>nie gestartet: der Lauf endete vorher</translation>
    </message>
    <message>
        <source>cut short: the run ended</source>
        <translation>abgebrochen: der Lauf endete</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>never started</source>
        <translation>nie gestartet</translation>
    </message>
    <message>
        <source>not there yet</source>
        <translation>noch nicht so weit</translation>
    </message>
    <message>
        <source>cut short</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>waits</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>not started</source>
        <translation>nicht gestartet</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::Accessibility</name>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Your training step in Python, the lesson&apos;s function</source>
        <translation>Ihr Trainingsschritt in Python, die Funktion der Lektion</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>Lektionen</translation>
    </message>
    <message>
        <source>Every lesson, solved ones marked</source>
        <translation>Alle Lektionen, gelöste markiert</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Ergebnisse</translation>
    </message>
    <message>
        <source>The run&apos;s verdict and figures against the targets</source>
        <translation>Das Urteil über den Lauf und seine Zahlen im Vergleich mit den Zielen</translation>
    </message>
    <message>
        <source>Memory over time</source>
        <translation>Speicher über die Zeit</translation>
    </message>
    <message>
        <source>Each rank&apos;s memory through the run</source>
        <translation>Der Speicher jedes Ranks im Verlauf des Laufs</translation>
    </message>
    <message>
        <source>Stepping</source>
        <translation>Schrittweise</translation>
    </message>
    <message>
        <source>Step through the run</source>
        <translation>Schritt für Schritt durch den Lauf</translation>
    </message>
    <message>
        <source>Legend</source>
        <translation>Legende</translation>
    </message>
    <message>
        <source>The colors of the timeline and the state view</source>
        <translation>Die Farben der Zeitleiste und der Zustandsansicht</translation>
    </message>
    <message>
        <source>No run yet: run your code (F5).</source>
        <translation>Noch kein Lauf: Führen Sie Ihren Code aus (F5).</translation>
    </message>
    <message>
        <source>%1. Holds %2.</source>
        <translation>%1. Hält %2.</translation>
    </message>
    <message>
        <source>Selected: rank %1, %2, from t %3 to %4.</source>
        <translation>Ausgewählt: Rank %1, %2, von t %3 bis %4.</translation>
    </message>
    <message>
        <source>%1 ranks, %2 events, ending at t %3. Nothing selected.</source>
        <translation>%1 Ranks, %2 Ereignisse, Ende bei t %3. Nichts ausgewählt.</translation>
    </message>
    <message>
        <source>Peak %1 on rank %2 at t %3.</source>
        <translation>Spitze %1 auf Rank %2 bei t %3.</translation>
    </message>
    <message>
        <source>The run did not hang.</source>
        <translation>Der Lauf hing nicht fest.</translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation>Rank %1: %2</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::BubbleChart</name>
    <message>
        <source>Interleaved 1F1B (v = %1)</source>
        <translation>Verschachteltes 1F1B (v = %1)</translation>
    </message>
    <message>
        <source>Zero bubble (ZB-H1)</source>
        <translation>Ohne Blase (ZB-H1)</translation>
    </message>
    <message>
        <source>Pipeline bubble against micro-batches, measured and by formula</source>
        <translation>Pipeline-Blase über Micro-Batches, gemessen und nach Formel</translation>
    </message>
    <message>
        <source>formula %1</source>
        <translation>Formel %1</translation>
    </message>
    <message>
        <source>micro-batches m (bubble: % of ideal time)</source>
        <translation>Micro-Batches m (Blase: % der idealen Zeit)</translation>
    </message>
    <message>
        <source>Solid lines: the bubble each schedule&apos;s runs measured; dashed lines: its paper&apos;s formula. The ideal time is m micro-batches of one stage&apos;s work.</source>
        <translation>Durchgezogene Linien: die Blase, die die Läufe jedes Zeitplans gemessen haben; gestrichelte Linien: die Formel seines Papers. Die ideale Zeit ist die Arbeit einer Stufe an m Micro-Batches.</translation>
    </message>
    <message>
        <source>bubble %</source>
        <translation>Blase %</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::BusyIndicator</name>
    <message>
        <source>Busy</source>
        <translation>Beschäftigt</translation>
    </message>
    <message>
        <source>%1… %2 s</source>
        <translation>%1… %2 s</translation>
    </message>
    <message>
        <source>%1 (and %2 more)</source>
        <translation>%1 (und %2 weitere)</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ClassActions</name>
    <message>
        <source>Open &amp;Class Folder…</source>
        <translation>&amp;Klassenordner öffnen…</translation>
    </message>
    <message>
        <source>Open a Class Folder</source>
        <translation>Klassenordner öffnen</translation>
    </message>
    <message>
        <source>%1&apos;s %2 is no longer in %3: %4</source>
        <translation>%2 von %1 ist nicht mehr in %3: %4</translation>
    </message>
    <message>
        <source>the function is gone</source>
        <translation>die Funktion fehlt</translation>
    </message>
    <message>
        <source>%1&apos;s code for this lesson, from %2: read-only, and its runs are never graded as yours. Open the lesson again for your own code.</source>
        <translation>Code von %1 für diese Lektion, aus %2: schreibgeschützt, und seine Läufe werden nie als Ihre bewertet. Öffnen Sie die Lektion erneut, um Ihren eigenen Code zu sehen.</translation>
    </message>
    <message>
        <source>Running %1&apos;s %2…</source>
        <translation>%2 von %1 läuft…</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::CodeKeeper</name>
    <message>
        <source>Your saved code %1 is shown read-only and is never rewritten: %2. Open it in another editor to fix it, or use Reset to starter to start again.</source>
        <translation>Ihr gespeicherter Code %1 wird schreibgeschützt angezeigt und nie überschrieben: %2. Öffnen Sie ihn in einem anderen Editor, um ihn zu reparieren, oder beginnen Sie mit „Auf Startcode zurücksetzen“ neu.</translation>
    </message>
    <message>
        <source>Your saved code was not replaced: a copy of it could not be kept (%1).</source>
        <translation>Ihr gespeicherter Code wurde nicht ersetzt: Es konnte keine Kopie davon angelegt werden (%1).</translation>
    </message>
    <message>
        <source>Your earlier file was kept in %1.</source>
        <translation>Ihre frühere Datei wurde in %1 aufbewahrt.</translation>
    </message>
    <message>
        <source>Your saved code %1 is a link to %2. Rankstep writes only in its own folder: your next save puts a file of its own in the link&apos;s place, and %2 stays as it is.</source>
        <translation>Ihr gespeicherter Code %1 ist ein Verweis auf %2. Rankstep schreibt nur in seinen eigenen Ordner: Beim nächsten Speichern tritt eine eigene Datei an die Stelle des Verweises, und %2 bleibt, wie es ist.</translation>
    </message>
    <message>
        <source>Nothing was reset. %1</source>
        <translation>Nichts wurde zurückgesetzt. %1</translation>
    </message>
    <message>
        <source>Your code could not be saved to %1 (%2), and no recovery copy could be written (%3). It is only in this editor now: copy it somewhere safe.</source>
        <translation>Ihr Code konnte nicht in %1 gespeichert werden (%2), und es konnte keine Wiederherstellungskopie geschrieben werden (%3). Er steht jetzt nur noch in diesem Editor: Kopieren Sie ihn an einen sicheren Ort.</translation>
    </message>
    <message>
        <source>Your code could not be saved to %1 (%2). It stays in the editor, and a copy is kept in %3. Rankstep tries again as you type.</source>
        <translation>Ihr Code konnte nicht in %1 gespeichert werden (%2). Er bleibt im Editor, und eine Kopie liegt in %3. Rankstep versucht es während Ihrer Eingabe erneut.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ComparisonActions</name>
    <message>
        <source>The solution ran; the Compare tab shows it below your run.</source>
        <translation>Die Lösung wurde ausgeführt; der Reiter „Vergleich“ zeigt sie unter Ihrem Lauf.</translation>
    </message>
    <message>
        <source>The solution could not be run: %1</source>
        <translation>Die Lösung konnte nicht ausgeführt werden: %1</translation>
    </message>
    <message>
        <source>There is no earlier run to compare with yet: run your code twice.</source>
        <translation>Es gibt noch keinen früheren Lauf zum Vergleichen: Führen Sie Ihren Code zweimal aus.</translation>
    </message>
    <message>
        <source>That lesson has no solution to compare with.</source>
        <translation>Diese Lektion hat keine Lösung zum Vergleichen.</translation>
    </message>
    <message>
        <source>The solution could not be written to %1.</source>
        <translation>Die Lösung konnte nicht in %1 geschrieben werden.</translation>
    </message>
    <message>
        <source>Running the solution of %1…</source>
        <translation>Die Lösung von %1 wird ausgeführt…</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ComparisonCanvas</name>
    <message>
        <source>Compare your run with the solution or with your previous run</source>
        <translation>Vergleichen Sie Ihren Lauf mit der Lösung oder mit Ihrem vorherigen Lauf</translation>
    </message>
    <message>
        <source>A: this run</source>
        <translation>A: dieser Lauf</translation>
    </message>
    <message>
        <source>the run on real processes</source>
        <translation>der Lauf in echten Prozessen</translation>
    </message>
    <message>
        <source>its simulation</source>
        <translation>seine Simulation</translation>
    </message>
    <message>
        <source>end %1 %2</source>
        <translation>Ende %1 %2</translation>
    </message>
    <message>
        <source>Memory of the rank that peaked: A solid, B dashed (each to its own peak: A %1, B %2)</source>
        <translation>Speicher des Ranks mit dem Spitzenwert: A durchgezogen, B gestrichelt (jeweils bis zur eigenen Spitze: A %1, B %2)</translation>
    </message>
    <message>
        <source>Memory of the rank that peaked: A solid, B dashed (top: %1)</source>
        <translation>Speicher des Ranks mit dem Spitzenwert: A durchgezogen, B gestrichelt (Skala bis %1)</translation>
    </message>
    <message>
        <source>B: the run compared with it</source>
        <translation>B: der damit verglichene Lauf</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ComparisonView</name>
    <message>
        <source>Solution of</source>
        <translation>Lösung von</translation>
    </message>
    <message>
        <source>My previous run</source>
        <translation>Mein vorheriger Lauf</translation>
    </message>
    <message>
        <source>Runs the lesson&apos;s reference solution and shows it below your run.</source>
        <translation>Führt die Referenzlösung der Lektion aus und zeigt sie unter Ihrem Lauf.</translation>
    </message>
    <message>
        <source>Compare with:</source>
        <translation>Vergleichen mit:</translation>
    </message>
    <message>
        <source>Choose what to compare your run with.</source>
        <translation>Wählen Sie, womit Ihr Lauf verglichen werden soll.</translation>
    </message>
    <message>
        <source>Run your code first.</source>
        <translation>Führen Sie zuerst Ihren Code aus.</translation>
    </message>
    <message>
        <source>The run on real processes took %1 ms; its simulation %2 steps. Each has its own time axis: where the bars&apos; shapes agree, the notebook&apos;s costs describe this machine; where they do not (a collective far longer or shorter than a forward), they do not.</source>
        <translation>Der Lauf in echten Prozessen dauerte %1 ms, seine Simulation %2 Schritte. Jeder hat seine eigene Zeitachse: Wo die Formen der Balken übereinstimmen, beschreiben die Kosten des Notebooks diese Maschine; wo nicht (eine kollektive Operation viel länger oder kürzer als ein forward), tun sie es nicht.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::CostModelActions</name>
    <message>
        <source>Cost &amp;Model</source>
        <translation>Kosten&amp;modell</translation>
    </message>
    <message>
        <source>The notebook&apos;s costs: runs are graded against the lesson&apos;s targets.</source>
        <translation>Die Kosten des Notebooks: Läufe werden anhand der Ziele der Lektion bewertet.</translation>
    </message>
    <message>
        <source>Cost model %1: runs are checked, not graded; the results give seconds, the views milliseconds (F5 runs it).</source>
        <translation>Kostenmodell %1: Läufe werden geprüft, nicht bewertet; die Ergebnisse nennen Sekunden, die Ansichten Millisekunden (F5 führt aus).</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::DemoActions</name>
    <message>
        <source>the lesson</source>
        <translation>die Lektion</translation>
    </message>
    <message>
        <source>a run</source>
        <translation>ein Lauf</translation>
    </message>
    <message>
        <source>a step of the run</source>
        <translation>ein Schritt des Laufs</translation>
    </message>
    <message>
        <source>a tab</source>
        <translation>ein Reiter</translation>
    </message>
    <message>
        <source>the time shown</source>
        <translation>die gezeigte Zeit</translation>
    </message>
    <message>
        <source>the zoom</source>
        <translation>der Zoom</translation>
    </message>
    <message>
        <source>a selection</source>
        <translation>eine Auswahl</translation>
    </message>
    <message>
        <source>the ranks shown</source>
        <translation>die gezeigten Ranks</translation>
    </message>
    <message>
        <source>&amp;Record a Demonstration</source>
        <translation>Vorführung auf&amp;zeichnen</translation>
    </message>
    <message>
        <source>Re&amp;play a Demonstration…</source>
        <translation>Vorführung &amp;abspielen…</translation>
    </message>
    <message>
        <source>Stop &amp;Recording…</source>
        <translation>Auf&amp;zeichnung beenden…</translation>
    </message>
    <message>
        <source>Save or discard the last recording before starting another.</source>
        <translation>Speichern oder verwerfen Sie die letzte Aufzeichnung, bevor Sie eine neue beginnen.</translation>
    </message>
    <message>
        <source>Recording: every step, tab and view change is kept. Type a caption for the step on screen in the bar above the steps.</source>
        <translation>Aufzeichnung läuft: Jeder Schritt, jeder Reiterwechsel und jede Änderung der Ansicht wird festgehalten. Geben Sie in der Leiste über den Schritten einen Text zum angezeigten Schritt ein.</translation>
    </message>
    <message>
        <source>Save the Demonstration</source>
        <translation>Vorführung speichern</translation>
    </message>
    <message>
        <source>Rankstep demonstrations (*.json);;All files (*)</source>
        <translation>Rankstep-Vorführungen (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>The demonstration was not saved</source>
        <translation>Die Vorführung wurde nicht gespeichert</translation>
    </message>
    <message>
        <source>Saved the demonstration to %1.</source>
        <translation>Die Vorführung wurde in %1 gespeichert.</translation>
    </message>
    <message>
        <source>There is no recording to save.</source>
        <translation>Es gibt keine Aufzeichnung zum Speichern.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2. The recording is kept; save it elsewhere.</source>
        <translation>%1 kann nicht geschrieben werden: %2. Die Aufzeichnung bleibt erhalten; speichern Sie sie an einem anderen Ort.</translation>
    </message>
    <message>
        <source>Replay a Demonstration</source>
        <translation>Vorführung abspielen</translation>
    </message>
    <message>
        <source>This demonstration cannot be replayed</source>
        <translation>Diese Vorführung kann nicht abgespielt werden</translation>
    </message>
    <message>
        <source>Stop the recording before replaying one.</source>
        <translation>Beenden Sie die Aufzeichnung, bevor Sie eine Vorführung abspielen.</translation>
    </message>
    <message>
        <source>The recording stopped: it is of one lesson. Save it from the bar.</source>
        <translation>Die Aufzeichnung wurde beendet, denn sie gilt nur für eine Lektion. Speichern Sie sie über die Leiste.</translation>
    </message>
    <message>
        <source>The demonstration&apos;s next step, while replaying one</source>
        <translation>Der nächste Schritt der Vorführung, während sie abgespielt wird</translation>
    </message>
    <message>
        <source>The demonstration&apos;s step before, while replaying one</source>
        <translation>Der vorige Schritt der Vorführung, während sie abgespielt wird</translation>
    </message>
    <message>
        <source>Save the demonstration?</source>
        <translation>Die Vorführung speichern?</translation>
    </message>
    <message>
        <source>The recording of %1 steps is not saved yet.</source>
        <translation>Die Aufzeichnung mit %1 Schritten ist noch nicht gespeichert.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::DemoBar</name>
    <message>
        <source>Demonstration</source>
        <translation>Vorführung</translation>
    </message>
    <message>
        <source>Caption of this step, shown large when replayed</source>
        <translation>Text zu diesem Schritt, beim Abspielen groß angezeigt</translation>
    </message>
    <message>
        <source>Caption of the step on screen</source>
        <translation>Text zum angezeigten Schritt</translation>
    </message>
    <message>
        <source>■ Stop Recording…</source>
        <translation>■ Aufzeichnung beenden…</translation>
    </message>
    <message>
        <source>End the recording and save it to a file</source>
        <translation>Die Aufzeichnung beenden und in einer Datei speichern</translation>
    </message>
    <message>
        <source>◀ Step</source>
        <translation>◀ Schritt</translation>
    </message>
    <message>
        <source>The demonstration&apos;s step before (PageUp)</source>
        <translation>Der vorige Schritt der Vorführung (PageUp)</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>Schritt ▶</translation>
    </message>
    <message>
        <source>The demonstration&apos;s next step (PageDown)</source>
        <translation>Der nächste Schritt der Vorführung (PageDown)</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <source>Go through the steps on their own, at the pace beside</source>
        <translation>Die Schritte von selbst durchlaufen, im Tempo daneben</translation>
    </message>
    <message>
        <source> s a step</source>
        <translation> s pro Schritt</translation>
    </message>
    <message>
        <source>How long Play shows each step</source>
        <translation>Wie lange „Abspielen“ jeden Schritt zeigt</translation>
    </message>
    <message>
        <source>Seconds a step while playing</source>
        <translation>Sekunden pro Schritt beim Abspielen</translation>
    </message>
    <message>
        <source>End Replay</source>
        <translation>Wiedergabe beenden</translation>
    </message>
    <message>
        <source>Back to your own code; the demonstration changed nothing</source>
        <translation>Zurück zu Ihrem eigenen Code; die Vorführung hat nichts verändert</translation>
    </message>
    <message>
        <source>Caption of the step</source>
        <translation>Text zum Schritt</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>Speichern…</translation>
    </message>
    <message>
        <source>Save the recording to a file</source>
        <translation>Die Aufzeichnung in einer Datei speichern</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Throw the recording away</source>
        <translation>Die Aufzeichnung wegwerfen</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#d32f2f&apos;&gt;●&lt;/span&gt; Recording · 1 step</source>
        <translation>&lt;span style=&apos;color:#d32f2f&apos;&gt;●&lt;/span&gt; Aufzeichnung · 1 Schritt</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#d32f2f&apos;&gt;●&lt;/span&gt; Recording · %1 steps</source>
        <translation>&lt;span style=&apos;color:#d32f2f&apos;&gt;●&lt;/span&gt; Aufzeichnung · %1 Schritte</translation>
    </message>
    <message>
        <source>The recording of 1 step is not saved yet.</source>
        <translation>Die Aufzeichnung mit 1 Schritt ist noch nicht gespeichert.</translation>
    </message>
    <message>
        <source>The recording of %1 steps is not saved yet.</source>
        <translation>Die Aufzeichnung mit %1 Schritten ist noch nicht gespeichert.</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>Schritt %1 von %2</translation>
    </message>
    <message>
        <source>Step %1 of %2 · %3</source>
        <translation>Schritt %1 von %2 · %3</translation>
    </message>
    <message>
        <source>Step %1 of %2 · running its code…</source>
        <translation>Schritt %1 von %2 · sein Code wird ausgeführt…</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::DemoPlayer</name>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation>%1 kann nicht gelesen werden: %2.</translation>
    </message>
    <message>
        <source>%1 is not a demonstration: it is larger than any recording (%2 MB).</source>
        <translation>%1 ist keine Vorführung: Die Datei ist größer als jede Aufzeichnung (%2 MB).</translation>
    </message>
    <message>
        <source>The demonstration runs its code under the cost model %1, which this Rankstep does not have.</source>
        <translation>Die Vorführung führt ihren Code mit dem Kostenmodell %1 aus, das diese Rankstep-Version nicht kennt.</translation>
    </message>
    <message>
        <source>The demonstration is of the lesson %1, which this Rankstep does not have.</source>
        <translation>Die Vorführung gehört zur Lektion %1, die diese Rankstep-Version nicht hat.</translation>
    </message>
    <message>
        <source>A recorded demonstration: the code of its run %1 of %2, read-only and never graded. End Replay brings your own code back.</source>
        <translation>Eine aufgezeichnete Vorführung: der Code ihres Laufs %1 von %2, schreibgeschützt und nie bewertet. „Wiedergabe beenden“ holt Ihren eigenen Code zurück.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::EditActions</name>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>&amp;Ausschneiden</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>E&amp;infügen</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>Alles &amp;markieren</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Suchen…</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>&amp;Weitersuchen</translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation>Rück&amp;wärts suchen</translation>
    </message>
    <message>
        <source>R&amp;eplace…</source>
        <translation>&amp;Ersetzen…</translation>
    </message>
    <message>
        <source>&amp;Go to Line…</source>
        <translation>&amp;Gehe zu Zeile…</translation>
    </message>
    <message>
        <source>Find:</source>
        <translation>Suchen:</translation>
    </message>
    <message>
        <source>Text to find in the code</source>
        <translation>Text, der im Code gesucht wird</translation>
    </message>
    <message>
        <source>◀</source>
        <translation>◀</translation>
    </message>
    <message>
        <source>Find the one before (%1)</source>
        <translation>Den vorigen Treffer suchen (%1)</translation>
    </message>
    <message>
        <source>▶</source>
        <translation>▶</translation>
    </message>
    <message>
        <source>Find the next one (%1)</source>
        <translation>Den nächsten Treffer suchen (%1)</translation>
    </message>
    <message>
        <source>✕</source>
        <translation>✕</translation>
    </message>
    <message>
        <source>Close the find bar (%1)</source>
        <translation>Die Suchleiste schließen (%1)</translation>
    </message>
    <message>
        <source>Replace with:</source>
        <translation>Ersetzen durch:</translation>
    </message>
    <message>
        <source>Text to replace it with</source>
        <translation>Text, durch den ersetzt wird</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>Ersetzen</translation>
    </message>
    <message>
        <source>Replace All</source>
        <translation>Alle ersetzen</translation>
    </message>
    <message>
        <source>Go to Line</source>
        <translation>Gehe zu Zeile</translation>
    </message>
    <message>
        <source>Line (1 to %1):</source>
        <translation>Zeile (1 bis %1):</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ExperimentsView</name>
    <message>
        <source>m</source>
        <translation>m</translation>
    </message>
    <message>
        <source>idle, measured</source>
        <translation>Leerlauf, gemessen</translation>
    </message>
    <message>
        <source>(p - 1) / (m + p - 1)</source>
        <translation>(p - 1) / (m + p - 1)</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>idle %</source>
        <translation>Leerlauf %</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>This lesson has no experiments.</source>
        <translation>Diese Lektion hat keine Experimente.</translation>
    </message>
    <message>
        <source>Run your code (F5): it then runs again at each m.</source>
        <translation>Führen Sie Ihren Code aus (F5): Er wird dann für jedes m erneut ausgeführt.</translation>
    </message>
    <message>
        <source>Your code at each m (p = %1 pipeline stages).</source>
        <translation>Ihr Code für jedes m (p = %1 Pipeline-Stufen).</translation>
    </message>
    <message>
        <source>Running %1 (%2 of %3)…</source>
        <translation>%1 wird ausgeführt (%2 von %3)…</translation>
    </message>
    <message>
        <source>did not finish (%1)</source>
        <translation>nicht abgeschlossen (%1)</translation>
    </message>
    <message>
        <source>bubble, measured</source>
        <translation>Blase, gemessen</translation>
    </message>
    <message>
        <source>bubble %</source>
        <translation>Blase %</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ExplainView</name>
    <message>
        <source>What fills memory</source>
        <translation>Was den Speicher füllt</translation>
    </message>
    <message>
        <source>Where time goes</source>
        <translation>Wo die Zeit bleibt</translation>
    </message>
    <message>
        <source>Go to the peak</source>
        <translation>Zur Spitze springen</translation>
    </message>
    <message>
        <source>Over time</source>
        <translation>Im Zeitverlauf</translation>
    </message>
    <message>
        <source>Show the rank&apos;s memory by kind over time above the table (the memory chart&apos;s By kind button shows it below too).</source>
        <translation>Zeigt den Speicher des Ranks nach Art im Zeitverlauf über der Tabelle (unten zeigt ihn auch der Knopf „Nach Art“ des Speicherdiagramms).</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>What the rank holds at the cursor; double-click a row to go to the line that stored it.</source>
        <translation>Was der Rank am Cursor hält; doppelklicken Sie auf einen Eintrag, um zur Codezeile zu springen, die ihn gespeichert hat.</translation>
    </message>
    <message>
        <source>Show the critical path</source>
        <translation>Kritischen Pfad zeigen</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>Rechnen</translation>
    </message>
    <message>
        <source>tensor-parallel communication</source>
        <translation>Kommunikation der Tensor-Parallelität</translation>
    </message>
    <message>
        <source>context-parallel communication</source>
        <translation>Kommunikation der Kontext-Parallelität</translation>
    </message>
    <message>
        <source>pipeline communication</source>
        <translation>Kommunikation der Pipeline</translation>
    </message>
    <message>
        <source>data-parallel communication</source>
        <translation>Kommunikation der Datenparallelität</translation>
    </message>
    <message>
        <source>expert-parallel communication</source>
        <translation>Kommunikation der Experten-Parallelität</translation>
    </message>
    <message>
        <source>The experts&apos; load (router skew %1)</source>
        <translation>Die Last der Experten (Router-Schieflage %1)</translation>
    </message>
    <message>
        <source>The experts&apos; load</source>
        <translation>Die Last der Experten</translation>
    </message>
    <message>
        <source>Expert</source>
        <translation>Experte</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Ranks</translation>
    </message>
    <message>
        <source>Idle (mean)</source>
        <translation>Leerlauf (Mittel)</translation>
    </message>
    <message numerus="yes">
        <source>and %n more expert(s)</source>
        <translation>
            <numerusform>und %n weiterer Experte</numerusform>
            <numerusform>und %n weitere Experten</numerusform>
        </translation>
    </message>
    <message>
        <source>How many tokens the router sends each expert, and how long the ranks holding it wait: the ranks of an expert with fewer tokens wait in the all-to-alls for the busiest expert&apos;s.</source>
        <translation>Wie viele Tokens der Router jedem Experten schickt und wie lange die Ranks warten, die ihn halten: Die Ranks eines Experten mit weniger Tokens warten in den All-to-alls auf die des meistbeschäftigten Experten.</translation>
    </message>
    <message>
        <source>other communication</source>
        <translation>andere Kommunikation</translation>
    </message>
    <message>
        <source>bubble (idle)</source>
        <translation>Blase (Leerlauf)</translation>
    </message>
    <message>
        <source>waiting (idle)</source>
        <translation>Warten (Leerlauf)</translation>
    </message>
    <message>
        <source>A rank&apos;s mean time by parallelism</source>
        <translation>Mittlere Zeit eines Ranks nach Parallelität</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>A rank&apos;s mean time, split the way large training jobs are read: computing, communicating within each parallelism&apos;s groups, and waiting (the bubble).</source>
        <translation>Die mittlere Zeit eines Ranks, aufgeteilt, wie man große Trainingsläufe liest: Rechnen, Kommunikation in den Gruppen jeder Parallelität und Warten (die Blase).</translation>
    </message>
    <message>
        <source>The chain of operations, across ranks, that sets the run&apos;s end time: make any of them shorter and the run ends sooner.</source>
        <translation>Die Kette von Operationen über die Ranks hinweg, die das Ende des Laufs bestimmt: Wird eine davon kürzer, endet der Lauf früher.</translation>
    </message>
    <message>
        <source>%1</source>
        <translation>%1</translation>
    </message>
    <message>
        <source>target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>the whole model&apos;s state</source>
        <translation>der Zustand des ganzen Modells</translation>
    </message>
    <message>
        <source>the model&apos;s state / %1</source>
        <translation>der Zustand des Modells / %1</translation>
    </message>
    <message>
        <source>The critical path: %1 operations, across the ranks, from t 0 to t %2 set the run&apos;s end time; making any of them shorter ends the run sooner.</source>
        <translation>Der kritische Pfad: %1 Operationen über die Ranks hinweg, von t 0 bis t %2, bestimmen das Ende des Laufs; wird eine davon kürzer, endet der Lauf früher.</translation>
    </message>
    <message>
        <source>No operation took simulated time, so nothing was held at any event.</source>
        <translation>Keine Operation hat simulierte Zeit gebraucht, daher wurde bei keinem Ereignis etwas gehalten.</translation>
    </message>
    <message>
        <source>Run your code to see what fills each rank&apos;s memory.</source>
        <translation>Führen Sie Ihren Code aus, um zu sehen, was den Speicher jedes Ranks füllt.</translation>
    </message>
    <message>
        <source>The run did not finish: this explains it up to where it stopped.
</source>
        <translation>Der Lauf wurde nicht beendet: Die Erklärung reicht bis zu der Stelle, an der er stehen blieb.
</translation>
    </message>
    <message>
        <source>t %1–%2  rank %3  %4</source>
        <translation>t %1–%2  Rank %3  %4</translation>
    </message>
    <message>
        <source>Rank %1 never waited: it was busy from its first operation to its last.</source>
        <translation>Rank %1 hat nie gewartet: Er war von seiner ersten bis zu seiner letzten Operation aktiv.</translation>
    </message>
    <message>
        <source>Finding where rank %1 waited…</source>
        <translation>Suche, wo Rank %1 gewartet hat…</translation>
    </message>
    <message>
        <source>Finding the critical path…</source>
        <translation>Suche den kritischen Pfad…</translation>
    </message>
    <message>
        <source>Explaining the run…</source>
        <translation>Erkläre den Lauf…</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RankTimesModel</name>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Busy</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Untätig</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>Kommunikation</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ExportActions</name>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <source>There is no run to export yet: run the code first (F5).</source>
        <translation>Es gibt noch keinen Lauf zum Exportieren: Führen Sie zuerst den Code aus (F5).</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::FileActions</name>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>%1 is not there.</source>
        <translation>%1 ist nicht vorhanden.</translation>
    </message>
    <message>
        <source>This file cannot be opened</source>
        <translation>Diese Datei kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>%1 is JSON of another kind: neither a trace or profile the command line wrote nor a recorded demonstration.</source>
        <translation>%1 ist JSON anderer Art: weder eine Trace oder ein Profil, das die Kommandozeile geschrieben hat, noch eine aufgezeichnete Vorführung.</translation>
    </message>
    <message>
        <source>Rankstep opens notebooks (.ipynb) and Python files (.py) to import, recorded demonstrations (.json) to replay, traces and profiles the command line wrote (.rstb, .json) to show, and class folders to grade; %1 is none of these.</source>
        <translation>Rankstep öffnet Notebooks (.ipynb) und Python-Dateien (.py) zum Importieren, aufgezeichnete Vorführungen (.json) zum Abspielen, Traces und Profile der Kommandozeile (.rstb, .json) zum Anzeigen und Klassenordner zum Bewerten; %1 ist nichts davon.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::GradeController</name>
    <message>
        <source>The grading gave no roster (%1).</source>
        <translation>Die Bewertung ergab keine Klassenübersicht (%1).</translation>
    </message>
    <message>
        <source>The grading gave no roster (no lessons or learners).</source>
        <translation>Die Bewertung ergab keine Klassenübersicht (keine Lektionen oder Lernenden).</translation>
    </message>
    <message>
        <source>rankstep-cli was not found next to Rankstep or on PATH.</source>
        <translation>rankstep-cli wurde weder neben Rankstep noch im PATH gefunden.</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 ist kein Ordner.</translation>
    </message>
    <message>
        <source>The grading could not start: %1</source>
        <translation>Die Bewertung konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>The grading ended early: rankstep-cli crashed (%1).</source>
        <translation>Die Bewertung endete vorzeitig: rankstep-cli ist abgestürzt (%1).</translation>
    </message>
    <message>
        <source>rankstep-cli refused the grading (exit code 64) without saying why.</source>
        <translation>rankstep-cli hat die Bewertung ohne Begründung abgelehnt (Exit-Code 64).</translation>
    </message>
    <message>
        <source>rankstep-cli&apos;s answer was not a class roster (exit code %1).</source>
        <translation>Die Antwort von rankstep-cli war keine Klassenübersicht (Exit-Code %1).</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::HelpActions</name>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;Writing Lessons</source>
        <translation>&amp;Lektionen schreiben</translation>
    </message>
    <message>
        <source>How to write a lesson of your own: five text files</source>
        <translation>Wie Sie eine eigene Lektion schreiben: fünf Textdateien</translation>
    </message>
    <message>
        <source>&amp;About Rankstep</source>
        <translation>&amp;Über Rankstep</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Was</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source> or </source>
        <translation> oder </translation>
    </message>
    <message>
        <source>Every key of the window. PageDown and PageUp give way to the code editor and the lesson text, except while presenting or replaying a demonstration.</source>
        <translation>Alle Tasten des Fensters. Im Code-Editor und im Lektionstext blättern Bild ab und Bild auf dort, außer im Präsentationsmodus und beim Abspielen einer Vorführung.</translation>
    </message>
    <message>
        <source>About Rankstep</source>
        <translation>Über Rankstep</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Rankstep %1&lt;/h3&gt;&lt;p&gt;Learn how large language models are trained on many GPUs: data parallel, sharded weights, pipelines, and their combinations, one rank at a time.&lt;/p&gt;&lt;p&gt;Rankstep&apos;s own code is under the MIT licence. This program links Qt (LGPL-3), Qt Charts and QScintilla (GPL-3), so the program as a whole is distributed under the GNU GPL version 3; see the copyright file for every part.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Rankstep %1&lt;/h3&gt;&lt;p&gt;Lernen Sie, wie große Sprachmodelle auf vielen GPUs trainiert werden: Datenparallelität, geshardete Gewichte, Pipelines und ihre Kombinationen, Rank für Rank.&lt;/p&gt;&lt;p&gt;Der eigene Code von Rankstep steht unter der MIT-Lizenz. Dieses Programm bindet Qt (LGPL-3), Qt Charts und QScintilla (GPL-3) ein, daher wird das Programm als Ganzes unter der GNU GPL Version 3 verbreitet; die Copyright-Datei nennt jeden Teil.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The puzzles&apos; API and the lessons&apos; skeletons come from Sasha Rush&apos;s LLM Training Puzzles, under the MIT licence (copyright 2023 Sasha Rush).&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die API der Puzzles und die Gerüste der Lektionen stammen aus Sasha Rushs LLM Training Puzzles, unter der MIT-Lizenz (Copyright 2023 Sasha Rush).&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LegendBar</name>
    <message>
        <source>Legend</source>
        <translation>Legende</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LessonListModel</name>
    <message>
        <source>1 rank</source>
        <translation>1 Rank</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 Ranks</translation>
    </message>
    <message>
        <source>%1, PyTorch, %2 steps</source>
        <translation>%1, PyTorch, %2 Schritte</translation>
    </message>
    <message>
        <source>%1, %2 layers, %3 batches</source>
        <translation>%1, %2 Schichten, %3 Batches</translation>
    </message>
    <message>
        <source>%1 — %2 (%3)</source>
        <translation>%1 — %2 (%3)</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LessonPanel</name>
    <message>
        <source>Show solution…</source>
        <translation>Lösung anzeigen…</translation>
    </message>
    <message>
        <source>**Hint %1.** </source>
        <translation>**Hinweis %1.** </translation>
    </message>
    <message>
        <source>Show the solution?</source>
        <translation>Lösung anzeigen?</translation>
    </message>
    <message>
        <source>The reference solution will replace the code in the editor. Your code stays one Undo (Ctrl+Z) away.

Trying one more hint first often teaches more.</source>
        <translation>Die Musterlösung ersetzt den Code im Editor. Ihr Code lässt sich mit einem einzigen Rückgängig (Ctrl+Z) wiederherstellen.

Zuerst noch einen Hinweis auszuprobieren, bringt oft mehr.</translation>
    </message>
    <message>
        <source>Show solution</source>
        <translation>Lösung anzeigen</translation>
    </message>
    <message>
        <source>Show hint %1 of %2</source>
        <translation>Hinweis %1 von %2 anzeigen</translation>
    </message>
    <message>
        <source>No more hints</source>
        <translation>Keine weiteren Hinweise</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LessonRunActions</name>
    <message>
        <source>Reset to starter…</source>
        <translation>Auf Startcode zurücksetzen…</translation>
    </message>
    <message>
        <source>▶ Run (%1)</source>
        <translation>▶ Ausführen (%1)</translation>
    </message>
    <message>
        <source>&lt;p&gt;Stopped. Your code is saved; change it and run again.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Gestoppt. Ihr Code ist gespeichert; ändern Sie ihn und führen Sie ihn erneut aus.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Angehalten.</translation>
    </message>
    <message>
        <source>Rankstep saves your code before every run, and saving failed: %1. Nothing was run.</source>
        <translation>Rankstep speichert Ihren Code vor jedem Lauf, und das Speichern ist fehlgeschlagen: %1. Es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>Your code could not be saved</source>
        <translation>Ihr Code konnte nicht gespeichert werden</translation>
    </message>
    <message>
        <source>&lt;p&gt;Running on %1 simulated ranks…&lt;/p&gt;</source>
        <translation>&lt;p&gt;Läuft auf %1 simulierten Ranks…&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <source>Rankstep saves your code before a sweep, and saving failed: %1. Nothing was run.</source>
        <translation>Rankstep speichert Ihren Code vor einem Sweep, und das Speichern ist fehlgeschlagen: %1. Es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>&lt;p&gt;Training for real with PyTorch: %1… The loss curve appears when it ends.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Echtes Training mit PyTorch: %1… Die Loss-Kurve erscheint, wenn es endet.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>one process</source>
        <translation>ein Prozess</translation>
    </message>
    <message>
        <source>%1 processes</source>
        <translation>%1 Prozesse</translation>
    </message>
    <message>
        <source>Solved! Trained for real in %1 s.</source>
        <translation>Gelöst! In %1 s echt trainiert.</translation>
    </message>
    <message>
        <source>Not solved yet: see the checks above the loss curve.</source>
        <translation>Noch nicht gelöst: siehe die Prüfungen über der Loss-Kurve.</translation>
    </message>
    <message>
        <source>Reset to the starter code?</source>
        <translation>Auf den Startcode zurücksetzen?</translation>
    </message>
    <message>
        <source>Your code will be replaced by the lesson&apos;s starter code. You can undo this with Ctrl+Z.</source>
        <translation>Ihr Code wird durch den Startcode der Lektion ersetzt. Sie können das mit Ctrl+Z rückgängig machen.</translation>
    </message>
    <message>
        <source>%1: real PyTorch, %2, %3 steps. F5 trains it for real.</source>
        <translation>%1: echtes PyTorch, %2, %3 Schritte. F5 trainiert das Modell wirklich.</translation>
    </message>
    <message>
        <source>1 process</source>
        <translation>1 Prozess</translation>
    </message>
    <message>
        <source>%1: %2, %3 layers, %4 batches.</source>
        <translation>%1: %2, %3 Schichten, %4 Batches.</translation>
    </message>
    <message>
        <source>1 rank</source>
        <translation>1 Rank</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 Ranks</translation>
    </message>
    <message>
        <source>Cannot open that setting&apos;s run: %1</source>
        <translation>Der Lauf dieser Einstellung lässt sich nicht öffnen: %1</translation>
    </message>
    <message>
        <source>The What if run at %1 ranks, %2 layers, %3 batches: %4</source>
        <translation>Der Was-wäre-wenn-Lauf mit %1 Ranks, %2 Schichten, %3 Batches: %4</translation>
    </message>
    <message>
        <source>The run did not complete</source>
        <translation>Der Lauf wurde nicht abgeschlossen</translation>
    </message>
    <message>
        <source>&lt;p&gt;Still running after %1 s: an endless loop?&lt;/p&gt;&lt;p&gt;%2 stops the run now; the time limit stops it after %3 s.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Läuft seit %1 s: eine Endlosschleife?&lt;/p&gt;&lt;p&gt;%2 hält den Lauf sofort an; das Zeitlimit hält ihn nach %3 s an.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Still running after %1 s: an endless loop? %2 stops it.</source>
        <translation>Läuft seit %1 s: eine Endlosschleife? %2 hält ihn an.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LiveObjectsModel</name>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>Batches</source>
        <translation>Batches</translation>
    </message>
    <message>
        <source>Shards</source>
        <translation>Shards</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Stored at t</source>
        <translation>Gespeichert bei t</translation>
    </message>
    <message>
        <source>Unfinished</source>
        <translation>Unfertig</translation>
    </message>
    <message>
        <source>%1 of %2 chunks seen</source>
        <translation>%1 von %2 Chunks gesehen</translation>
    </message>
    <message>
        <source>partial sum</source>
        <translation>Teilsumme</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::LossChart</name>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>loss</translation>
    </message>
    <message>
        <source>Loss curve</source>
        <translation>Loss-Kurve</translation>
    </message>
    <message>
        <source>Run your code to see its loss curve</source>
        <translation>Führen Sie Ihren Code aus, um seine Loss-Kurve zu sehen</translation>
    </message>
    <message>
        <source>your loop</source>
        <translation>Ihre Schleife</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>ln %1 = %2: a uniform guess</source>
        <translation>ln %1 = %2: gleichverteiltes Raten</translation>
    </message>
    <message>
        <source>gradient norm</source>
        <translation>Gradientennorm</translation>
    </message>
    <message>
        <source>gradient norm, %1</source>
        <translation>Gradientennorm, %1</translation>
    </message>
    <message>
        <source>gradient norm, your loop</source>
        <translation>Gradientennorm, Ihre Schleife</translation>
    </message>
    <message>
        <source>gradient norm, rank %1</source>
        <translation>Gradientennorm, Rank %1</translation>
    </message>
    <message>
        <source>clipped to %1</source>
        <translation>begrenzt auf %1</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::MainWindow</name>
    <message>
        <source>Rankstep</source>
        <translation>Rankstep</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>%1 gespeichert.</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>A&amp;usführen</translation>
    </message>
    <message>
        <source>&amp;What If: Sweep the Settings…</source>
        <translation>&amp;Was wäre, wenn: Einstellungen durchspielen…</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation>Bereit.</translation>
    </message>
    <message>
        <source>%1 — Rankstep</source>
        <translation>%1 — Rankstep</translation>
    </message>
    <message>
        <source>■ Stop (%1)</source>
        <translation>■ Stopp (%1)</translation>
    </message>
    <message>
        <source>Running your code</source>
        <translation>Ihr Code läuft</translation>
    </message>
    <message>
        <source>Running your code for real</source>
        <translation>Ihr Code läuft echt</translation>
    </message>
    <message>
        <source>Training for real with PyTorch</source>
        <translation>Echtes Training mit PyTorch</translation>
    </message>
    <message>
        <source>Running the What if settings</source>
        <translation>Die Was-wäre-wenn-Einstellungen laufen</translation>
    </message>
    <message>
        <source>Grading the class</source>
        <translation>Die Klasse wird bewertet</translation>
    </message>
    <message>
        <source>Importing %1</source>
        <translation>%1 wird importiert</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::MemoryChart</name>
    <message>
        <source>stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>every rank</source>
        <translation>jeder Rank</translation>
    </message>
    <message>
        <source>%1: %2 ranks, least to most; peak %3 on rank %4</source>
        <translation>%1: %2 Ranks, geringster bis höchster Speicher; Spitze %3 auf Rank %4</translation>
    </message>
    <message>
        <source>%1: median</source>
        <translation>%1: Median</translation>
    </message>
    <message>
        <source>Run a program to see each rank&apos;s memory over time.</source>
        <translation>Führen Sie ein Programm aus, um den Speicher jedes Ranks im Zeitverlauf zu sehen.</translation>
    </message>
    <message>
        <source>Stack one rank&apos;s memory by what fills it: weights, optimizer states, activations, activation gradients and weight gradients (the rank selected on the timeline, or the rank of the maximum)</source>
        <translation>Den Speicher eines Ranks nach Inhalt stapeln: Gewichte, Optimiererzustände, Aktivierungen, Aktivierungsgradienten und Gewichtsgradienten (der in der Zeitleiste gewählte Rank oder der Rank des Maximums)</translation>
    </message>
    <message>
        <source>By kind: rank %1</source>
        <translation>Nach Art: Rank %1</translation>
    </message>
    <message>
        <source>By kind</source>
        <translation>Nach Art</translation>
    </message>
    <message>
        <source>time (%1)</source>
        <translation>Zeit (%1)</translation>
    </message>
    <message>
        <source>rank %1 and %2 more with the same memory</source>
        <translation>Rank %1 und %2 weitere mit demselben Speicher</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>Rank %1 holds %2 of %3 at t %4</source>
        <translation>Rank %1 hält %2 (%3) bei t %4</translation>
    </message>
    <message>
        <source>model state</source>
        <translation>Modellzustand</translation>
    </message>
    <message>
        <source>model state per rank %1</source>
        <translation>Modellzustand pro Rank %1</translation>
    </message>
    <message>
        <source>maximum</source>
        <translation>Maximum</translation>
    </message>
    <message>
        <source>max %1 (rank %2, t %3)</source>
        <translation>max. %1 (Rank %2, t %3)</translation>
    </message>
    <message>
        <source>target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>Ziel %1</translation>
    </message>
    <message>
        <source>The run made no operations: no rank&apos;s memory changed.</source>
        <translation>Der Lauf hat keine Operationen ausgeführt: Der Speicher keines Ranks hat sich geändert.</translation>
    </message>
    <message>
        <source>The run stopped before any rank&apos;s memory changed.</source>
        <translation>Der Lauf endete, bevor sich der Speicher eines Ranks änderte.</translation>
    </message>
    <message>
        <source>max %1 (rank %2, t %3): fits, %4 to spare</source>
        <translation>max. %1 (Rank %2, t %3): passt, %4 Reserve</translation>
    </message>
    <message>
        <source>max %1 (rank %2, t %3): %4 over the device&apos;s memory</source>
        <translation>max. %1 (Rank %2, t %3): %4 über dem Speicher des Geräts</translation>
    </message>
    <message>
        <source>device memory</source>
        <translation>Gerätespeicher</translation>
    </message>
    <message>
        <source>%1: the device&apos;s memory</source>
        <translation>%1: der Speicher des Geräts</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::MemoryKindChart</name>
    <message>
        <source>time (%1)</source>
        <translation>Zeit (%1)</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::NotebookImport</name>
    <message>
        <source>Import notebook or Python file…</source>
        <translation>Notebook oder Python-Datei importieren…</translation>
    </message>
    <message>
        <source>%1 was not imported: its earlier code could not be kept in %2 (%3).
</source>
        <translation>%1 wurde nicht importiert: Der bisherige Code konnte nicht in %2 aufbewahrt werden (%3).
</translation>
    </message>
    <message>
        <source>%1 was not imported: %2 could not be written (%3); its saved code is unchanged.
</source>
        <translation>%1 wurde nicht importiert: %2 konnte nicht geschrieben werden (%3); der gespeicherte Code ist unverändert.
</translation>
    </message>
    <message>
        <source>Nothing was imported, and no saved code was changed. %1</source>
        <translation>Nichts wurde importiert, und kein gespeicherter Code wurde verändert. %1</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>Import notebook or Python file</source>
        <translation>Notebook oder Python-Datei importieren</translation>
    </message>
    <message>
        <source>Notebooks and Python files (*.ipynb *.py);;All files (*)</source>
        <translation>Notebooks und Python-Dateien (*.ipynb *.py);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>%1 holds no puzzle function of these lessons.</source>
        <translation>%1 enthält keine Puzzle-Funktion dieser Lektionen.</translation>
    </message>
    <message>
        <source>Nothing was imported from %1.</source>
        <translation>Aus %1 wurde nichts importiert.</translation>
    </message>
    <message>
        <source>Found 1 puzzle function in %1.</source>
        <translation>1 Puzzle-Funktion in %1 gefunden.</translation>
    </message>
    <message>
        <source>Found %1 puzzle functions in %2.</source>
        <translation>%1 Puzzle-Funktionen in %2 gefunden.</translation>
    </message>
    <message>
        <source>✓ %1 (%2): loaded into its editor</source>
        <translation>✓ %1 (%2): in den Editor geladen</translation>
    </message>
    <message>
        <source>✓ %1 (%2): already had this code</source>
        <translation>✓ %1 (%2): hatte diesen Code bereits</translation>
    </message>
    <message>
        <source>Your earlier code was kept in %1</source>
        <translation>Ihr bisheriger Code wurde in %1 aufbewahrt</translation>
    </message>
    <message>
        <source>Not found (no function of that name): %1</source>
        <translation>Nicht gefunden (keine Funktion dieses Namens): %1</translation>
    </message>
    <message>
        <source>Rankstep&apos;s other lessons, not in the notebook, keep their code: %1</source>
        <translation>Die übrigen Lektionen von Rankstep, die nicht im Notebook sind, behalten ihren Code: %1</translation>
    </message>
    <message>
        <source>Functions that match no lesson (left out): %1</source>
        <translation>Funktionen, die zu keiner Lektion passen (ausgelassen): %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 und %n weitere</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>rankstep::gui::QuizPanel</name>
    <message>
        <source>Predict the next step</source>
        <translation>Nächsten Schritt vorhersagen</translation>
    </message>
    <message>
        <source>Predict: %1</source>
        <translation>Vorhersage: %1</translation>
    </message>
    <message>
        <source>PageDown: the answer, with the step</source>
        <translation>PageDown: die Antwort, mit dem Schritt</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RankOverview</name>
    <message>
        <source>No run yet: run the code to see its ranks here.</source>
        <translation>Noch kein Lauf: Führen Sie den Code aus, um seine Ranks hier zu sehen.</translation>
    </message>
    <message>
        <source>1 rank</source>
        <translation>1 Rank</translation>
    </message>
    <message>
        <source>%1 ranks, data parallel</source>
        <translation>%1 Ranks, datenparallel</translation>
    </message>
    <message>
        <source>tensor %1</source>
        <translation>Tensor %1</translation>
    </message>
    <message>
        <source>context %1</source>
        <translation>Kontext %1</translation>
    </message>
    <message>
        <source>pipeline %1</source>
        <translation>Pipeline %1</translation>
    </message>
    <message>
        <source>data %1</source>
        <translation>Daten %1</translation>
    </message>
    <message>
        <source>expert %1</source>
        <translation>Experten %1</translation>
    </message>
    <message>
        <source>%1 ranks: %2</source>
        <translation>%1 Ranks: %2</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>replica %1</source>
        <translation>Replik %1</translation>
    </message>
    <message>
        <source>ranks %1–%2</source>
        <translation>Ranks %1–%2</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>rank %1: tensor %2, pipeline %3, data %4</source>
        <translation>Rank %1: Tensor %2, Pipeline %3, Daten %4</translation>
    </message>
    <message>
        <source>%1: ranks %2 to %3 (%4 ranks)</source>
        <translation>%1: Ranks %2 bis %3 (%4 Ranks)</translation>
    </message>
    <message>
        <source>at %1 %2: computing %3 %, communicating %4 %, idle %5 %</source>
        <translation>bei %1 %2: rechnend %3 %, kommunizierend %4 %, untätig %5 %</translation>
    </message>
    <message>
        <source>Click to follow this rank in every view.</source>
        <translation>Klicken, um diesem Rank in jeder Ansicht zu folgen.</translation>
    </message>
    <message>
        <source>Click to fold these ranks into one row.</source>
        <translation>Klicken, um diese Ranks wieder in einer Zeile zusammenzufassen.</translation>
    </message>
    <message>
        <source>Click to open this group.</source>
        <translation>Klicken, um diese Gruppe zu öffnen.</translation>
    </message>
    <message>
        <source>computing</source>
        <translation>rechnend</translation>
    </message>
    <message>
        <source>communicating</source>
        <translation>kommunizierend</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>untätig</translation>
    </message>
    <message>
        <source>Click a group to open it, a rank to follow it in every view.</source>
        <translation>Klick: eine Gruppe öffnen, einen Rank überall zeigen.</translation>
    </message>
    <message>
        <source>Click a rank to follow it in every view.</source>
        <translation>Einen Rank anklicken, um ihm in jeder Ansicht zu folgen.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RealRunActions</name>
    <message>
        <source>Show the real run in the views</source>
        <translation>Den echten Lauf in den Ansichten zeigen</translation>
    </message>
    <message>
        <source>The timeline, the memory chart and the state view show the last real run in milliseconds and real bytes; the Compare tab shows it above its simulation (Ctrl+Shift+F5 switches back)</source>
        <translation>Zeitleiste, Speicherdiagramm und Zustandsansicht zeigen den letzten echten Lauf in Millisekunden und echten Bytes; der Tab „Vergleich“ zeigt ihn über seiner Simulation (Ctrl+Shift+F5 schaltet zurück)</translation>
    </message>
    <message>
        <source>Runs this code on one real process per rank through PyTorch&apos;s torch.distributed, and checks it trains what one process trains</source>
        <translation>Führt diesen Code über torch.distributed von PyTorch auf einem echten Prozess pro Rank aus und prüft, ob er dasselbe trainiert wie ein einzelner Prozess</translation>
    </message>
    <message>
        <source>Running for real… %1 s</source>
        <translation>Läuft echt… %1 s</translation>
    </message>
    <message>
        <source>PyTorch is not installed: see the For real tab.</source>
        <translation>PyTorch ist nicht installiert: siehe den Tab „Echt“.</translation>
    </message>
    <message>
        <source>Ran for real in %1 s: %2</source>
        <translation>In %1 s echt ausgeführt: %2</translation>
    </message>
    <message>
        <source>the weights match one process.</source>
        <translation>die Gewichte stimmen mit denen eines einzelnen Prozesses überein.</translation>
    </message>
    <message>
        <source>see the For real tab.</source>
        <translation>siehe den Tab „Echt“.</translation>
    </message>
    <message>
        <source>The views show the run on real processes, in milliseconds and real bytes; Ctrl+Shift+F5 goes back to the simulation.</source>
        <translation>Die Ansichten zeigen den Lauf auf echten Prozessen, in Millisekunden und echten Bytes; Ctrl+Shift+F5 kehrt zur Simulation zurück.</translation>
    </message>
    <message>
        <source>The views show the simulation again.</source>
        <translation>Die Ansichten zeigen wieder die Simulation.</translation>
    </message>
    <message>
        <source>Running for real…</source>
        <translation>Läuft echt…</translation>
    </message>
    <message>
        <source>Run for real (%1)</source>
        <translation>Echt ausführen (%1)</translation>
    </message>
    <message>
        <source>Simulated under the cost model %1: times in milliseconds, memory in bytes (Run &gt; Cost Model; the lesson is graded under the notebook&apos;s).</source>
        <translation>Simuliert mit dem Kostenmodell %1: Zeiten in Millisekunden, Speicher in Bytes (Ausführen &gt; Kostenmodell; die Lektion wird mit dem des Notebooks bewertet).</translation>
    </message>
    <message>
        <source>These views show the run on real processes: times in milliseconds, memory in the bytes its tensors held. Ctrl+Shift+F5 goes back to the simulation, whose results are above.</source>
        <translation>Diese Ansichten zeigen den Lauf auf echten Prozessen: Zeiten in Millisekunden, Speicher in den Bytes, die seine Tensoren belegten. Ctrl+Shift+F5 kehrt zur Simulation zurück, deren Ergebnisse oben stehen.</translation>
    </message>
    <message>
        <source>These views show a run on real processes opened from a file: times in milliseconds, memory in the bytes its tensors held (none in a profile).</source>
        <translation>Diese Ansichten zeigen einen aus einer Datei geöffneten Lauf auf echten Prozessen: Zeiten in Millisekunden, Speicher in den Bytes, die seine Tensoren hielten (keine in einem Profil).</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RealRunController</name>
    <message>
        <source>rankstep-cli could not start: %1</source>
        <translation>rankstep-cli konnte nicht starten: %1</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RealRunView</name>
    <message>
        <source>Run for real</source>
        <translation>Echt ausführen</translation>
    </message>
    <message>
        <source>For real</source>
        <translation>Echt</translation>
    </message>
    <message>
        <source>The last run of the code on real processes and its verdict</source>
        <translation>Der letzte Lauf des Codes auf echten Prozessen und sein Ergebnis</translation>
    </message>
    <message>
        <source>Ctrl+F5: run this code on one real process per rank (PyTorch)</source>
        <translation>Ctrl+F5: diesen Code auf einem echten Prozess pro Rank ausführen (PyTorch)</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RecentFiles</name>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>%1 is no longer there; it was taken off the list.</source>
        <translation>%1 ist nicht mehr vorhanden; der Eintrag wurde aus der Liste entfernt.</translation>
    </message>
    <message>
        <source>&amp;Clear the List</source>
        <translation>Liste &amp;leeren</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ResultsPanel</name>
    <message>
        <source>Press &lt;b&gt;Run&lt;/b&gt; (F5) to simulate your code.</source>
        <translation>Drücken Sie &lt;b&gt;Ausführen&lt;/b&gt; (F5), um Ihren Code zu simulieren.</translation>
    </message>
    <message>
        <source>&lt;p&gt;Press &lt;b&gt;Run&lt;/b&gt; (F5) to simulate your code.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Drücken Sie &lt;b&gt;Ausführen&lt;/b&gt; (F5), um Ihren Code zu simulieren.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Press &lt;b&gt;Run&lt;/b&gt; (F5) to train your code on %1 real processes.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Drücken Sie &lt;b&gt;Ausführen&lt;/b&gt; (F5), um mit Ihrem Code auf %1 echten Prozessen zu trainieren.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Press &lt;b&gt;Run&lt;/b&gt; (F5) to train your code in a real process.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Drücken Sie &lt;b&gt;Ausführen&lt;/b&gt; (F5), um mit Ihrem Code in einem echten Prozess zu trainieren.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Targets&lt;/b&gt;&lt;br&gt;Timesteps at most %1&lt;br&gt;Maximum memory at most %2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Ziele&lt;/b&gt;&lt;br&gt;Timesteps höchstens %1&lt;br&gt;Maximum memory höchstens %2&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;small&gt;The notebook&apos;s rounded targets: %1 steps, %2.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;Die gerundeten Ziele des Notebooks: %1 Schritte, %2.&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Your code printed:</source>
        <translation>Ausgabe Ihres Codes:</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Not graded:&lt;/b&gt; this run was opened from a file, and Rankstep cannot vouch for the program that made it. It shows what the file holds, without judging it against this lesson; press &lt;b&gt;Run&lt;/b&gt; (F5) to grade your code.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Nicht bewertet:&lt;/b&gt; Dieser Lauf wurde aus einer Datei geöffnet, und Rankstep kann nicht für das Programm bürgen, das ihn erzeugt hat. Angezeigt wird, was die Datei enthält, ohne es an dieser Lektion zu messen; drücken Sie &lt;b&gt;Ausführen&lt;/b&gt; (F5), um Ihren Code bewerten zu lassen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The file&apos;s figures: Timesteps %1, maximum memory %2.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die Kennzahlen der Datei: Timesteps %1, Maximum memory %2.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>✓ met</source>
        <translation>✓ erreicht</translation>
    </message>
    <message>
        <source>✗ over by %1</source>
        <translation>✗ um %1 darüber</translation>
    </message>
    <message>
        <source>notebook: %1</source>
        <translation>Notebook: %1</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>Ziel %1</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>deadlock</source>
        <translation>Deadlock</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>%1 rank</source>
        <translation>%1 Rank</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 Ranks</translation>
    </message>
    <message>
        <source>%1 layer</source>
        <translation>%1 Schicht</translation>
    </message>
    <message>
        <source>%1 layers</source>
        <translation>%1 Schichten</translation>
    </message>
    <message>
        <source>%1 batch</source>
        <translation>%1 Batch</translation>
    </message>
    <message>
        <source>%1 batches</source>
        <translation>%1 Batches</translation>
    </message>
    <message>
        <source>Solved!</source>
        <translation>Gelöst!</translation>
    </message>
    <message>
        <source>Correct at %1; the lesson is graded at %2.</source>
        <translation>Richtig bei %1; bewertet wird die Lektion bei %2.</translation>
    </message>
    <message>
        <source>Correct under the cost model %1; lessons are graded under the notebook&apos;s costs.</source>
        <translation>Richtig unter dem Kostenmodell %1; bewertet werden Lektionen unter den Kosten des Notebooks.</translation>
    </message>
    <message>
        <source>Not solved yet: the run did not finish (%1).</source>
        <translation>Noch nicht gelöst: Der Lauf wurde nicht beendet (%1).</translation>
    </message>
    <message>
        <source>Not solved yet: the run did not finish (%1): %2%3</source>
        <translation>Noch nicht gelöst: Der Lauf wurde nicht beendet (%1): %2%3</translation>
    </message>
    <message>
        <source>Not solved yet: %1.</source>
        <translation>Noch nicht gelöst: %1.</translation>
    </message>
    <message>
        <source>Not solved yet: the run made no operations, so it has no figures to compare with the targets.</source>
        <translation>Noch nicht gelöst: Der Lauf hat keine Operationen ausgeführt, also gibt es keine Zahlen, die mit den Zielen verglichen werden können.</translation>
    </message>
    <message>
        <source>Timesteps %1 is above the target %2</source>
        <translation>Timesteps %1 liegt über dem Ziel %2</translation>
    </message>
    <message>
        <source>Maximum Memory %1 is above the target %2</source>
        <translation>Maximum Memory %1 liegt über dem Ziel %2</translation>
    </message>
    <message>
        <source>Correct, but not solved yet: %1.</source>
        <translation>Richtig, aber noch nicht gelöst: %1.</translation>
    </message>
    <message>
        <source>rank %1, line %2: %3</source>
        <translation>Rank %1, Zeile %2: %3</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>ranks %1</source>
        <translation>Ranks %1</translation>
    </message>
    <message>
        <source>The run stops at the first error: %1 had not started yet (hence the empty rows).</source>
        <translation>Der Lauf endet beim ersten Fehler: %1 hatten noch nicht begonnen (daher die leeren Zeilen).</translation>
    </message>
    <message>
        <source>The run stops at the first error: %1 had not started yet (hence its empty row).</source>
        <translation>Der Lauf endet beim ersten Fehler: %1 hatte noch nicht begonnen (daher seine leere Zeile).</translation>
    </message>
    <message>
        <source>Check:</source>
        <translation>Prüfung:</translation>
    </message>
    <message>
        <source>fits %1, %2 to spare</source>
        <translation>passt in %1, %2 Reserve</translation>
    </message>
    <message>
        <source>%1 over the %2 device</source>
        <translation>%1 über den %2 des Geräts</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1; %2</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RosterView</name>
    <message>
        <source>1 learner</source>
        <translation>1 Lernende(r)</translation>
    </message>
    <message>
        <source>%1 learners</source>
        <translation>%1 Lernende</translation>
    </message>
    <message>
        <source>Class roster</source>
        <translation>Klassenübersicht</translation>
    </message>
    <message>
        <source>A row per learner and a column per lesson: solved, not solved with the kind of mistake, or missing</source>
        <translation>Eine Zeile für jede lernende Person und eine Spalte für jede Lektion: gelöst, nicht gelöst (mit der Art des Fehlers) oder fehlend</translation>
    </message>
    <message>
        <source>No class folder open.</source>
        <translation>Kein Klassenordner geöffnet.</translation>
    </message>
    <message>
        <source>Open Class Folder…</source>
        <translation>Klassenordner öffnen…</translation>
    </message>
    <message>
        <source>A folder with a subfolder, .py file or notebook per learner</source>
        <translation>Ein Ordner mit einem Unterordner, einer .py-Datei oder einem Notebook für jede lernende Person</translation>
    </message>
    <message>
        <source>Grade Again</source>
        <translation>Erneut bewerten</translation>
    </message>
    <message>
        <source>Open a class folder to grade every learner&apos;s code at once: a subfolder, .py file or notebook per learner.</source>
        <translation>Öffnen Sie einen Klassenordner, um den Code aller Lernenden auf einmal zu bewerten: ein Unterordner, eine .py-Datei oder ein Notebook für jede lernende Person.</translation>
    </message>
    <message>
        <source>Grading</source>
        <translation>Bewertung</translation>
    </message>
    <message>
        <source>Roster</source>
        <translation>Klassenübersicht</translation>
    </message>
    <message>
        <source>
Click to open it read-only and run it.</source>
        <translation>
Klicken Sie, um die Datei schreibgeschützt zu öffnen und auszuführen.</translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation>%1, %2: %3</translation>
    </message>
    <message>
        <source>No learner&apos;s code in this folder: it needs a subfolder, .py file or notebook per learner.</source>
        <translation>Kein Code von Lernenden in diesem Ordner: Er braucht einen Unterordner, eine .py-Datei oder ein Notebook für jede lernende Person.</translation>
    </message>
    <message>
        <source>%1 of %2 graded lessons solved, in %3 s. Click a cell to open that learner&apos;s code read-only and run it.</source>
        <translation>%1 von %2 bewerteten Lektionen gelöst, in %3 s. Klicken Sie auf eine Zelle, um den Code dieser lernenden Person schreibgeschützt zu öffnen und auszuführen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Common mistakes&lt;/b&gt;&lt;ul style=&apos;margin:0&apos;&gt;%1&lt;/ul&gt;</source>
        <translation>&lt;b&gt;Häufige Fehler&lt;/b&gt;&lt;ul style=&apos;margin:0&apos;&gt;%1&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>The class could not be graded: %1</source>
        <translation>Die Klasse konnte nicht bewertet werden: %1</translation>
    </message>
    <message>
        <source>Stopped. Grade Again starts over.</source>
        <translation>Gestoppt. „Erneut bewerten“ beginnt von vorn.</translation>
    </message>
    <message>
        <source>Grading every learner&apos;s code on every core… %1 s (%2 stops)</source>
        <translation>Der Code aller Lernenden wird auf allen Kernen bewertet… %1 s (%2 stoppt)</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::RunController</name>
    <message>
        <source>rankstep-cli was not found next to Rankstep or on PATH.</source>
        <translation>rankstep-cli wurde weder neben Rankstep noch im PATH gefunden.</translation>
    </message>
    <message>
        <source>The simulation could not start: %1</source>
        <translation>Die Simulation konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>Rankstep failed while running: %1</source>
        <translation>Rankstep ist während des Laufs fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The simulation process did not end within its time limit.</source>
        <translation>Der Simulationsprozess endete nicht innerhalb seines Zeitlimits.</translation>
    </message>
    <message>
        <source>The simulation process crashed (%1).</source>
        <translation>Der Simulationsprozess ist abgestürzt (%1).</translation>
    </message>
    <message>
        <source>The simulation process ended with exit code %1.</source>
        <translation>Der Simulationsprozess endete mit Exit-Code %1.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::StateRankPicker</name>
    <message>
        <source>Tick the ranks to show</source>
        <translation>Kreuzen Sie die anzuzeigenden Ranks an</translation>
    </message>
    <message>
        <source>ranks, e.g. 0-3, 8, 12-15</source>
        <translation>Ranks, z. B. 0-3, 8, 12-15</translation>
    </message>
    <message>
        <source>Ranks %1 ▾</source>
        <translation>Ranks %1 ▾</translation>
    </message>
    <message>
        <source>at most %1 ranks fit: untick one first</source>
        <translation>höchstens %1 Ranks passen: Entfernen Sie zuerst bei einem das Häkchen</translation>
    </message>
    <message>
        <source>at least one rank stays shown</source>
        <translation>mindestens ein Rank bleibt sichtbar</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::StateView</name>
    <message>
        <source>Run your code, then step through it: every rank&apos;s weights, activations and gradients appear here.</source>
        <translation>Führen Sie Ihren Code aus und gehen Sie ihn dann schrittweise durch: Hier erscheinen die Gewichte, Aktivierungen und Gradienten jedes Ranks.</translation>
    </message>
    <message>
        <source>Show one rank large beside the others (or double-click a panel)</source>
        <translation>Einen Rank groß neben den anderen zeigen (oder auf ein Feld doppelklicken)</translation>
    </message>
    <message>
        <source>All ranks</source>
        <translation>Alle Ranks</translation>
    </message>
    <message>
        <source>Rank %1 large</source>
        <translation>Rank %1 groß</translation>
    </message>
    <message>
        <source>Click to show it large</source>
        <translation>Klicken, um ihn groß zu zeigen</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::StepBar</name>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet …</translation>
    </message>
    <message>
        <source>Opening %1: stepping starts when it is ready.</source>
        <translation>%1 wird geöffnet: Schritte sind möglich, sobald der Lauf bereit ist.</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Anfang</translation>
    </message>
    <message>
        <source>To the start of the run (Home)</source>
        <translation>Zum Anfang des Laufs (Home)</translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation>◀ Zurück</translation>
    </message>
    <message>
        <source>One step back (Shift+F10, PageUp)</source>
        <translation>Einen Schritt zurück (Shift+F10, PageUp)</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <source>Play and pause (Space while this button has the focus)</source>
        <translation>Abspielen und pausieren (Leertaste, solange diese Schaltfläche den Fokus hat)</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Weiter ▶</translation>
    </message>
    <message>
        <source>One step on (F10, PageDown)</source>
        <translation>Einen Schritt weiter (F10, PageDown)</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Ende</translation>
    </message>
    <message>
        <source>To the end of the run (End)</source>
        <translation>Zum Ende des Laufs (End)</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>by simulated time</source>
        <translation>nach simulierter Zeit</translation>
    </message>
    <message>
        <source>by operation</source>
        <translation>nach Operation</translation>
    </message>
    <message>
        <source>by snapshot (draw)</source>
        <translation>nach Schnappschuss (draw)</translation>
    </message>
    <message>
        <source>What Next, Back and Play step by</source>
        <translation>Wonach Weiter, Zurück und Abspielen schrittweise vorgehen</translation>
    </message>
    <message>
        <source>The snapshots your draw() calls marked: pick one to go there</source>
        <translation>Die von Ihren draw()-Aufrufen markierten Schnappschüsse: Wählen Sie einen aus, um dorthin zu springen</translation>
    </message>
    <message>
        <source>snapshots</source>
        <translation>Schnappschüsse</translation>
    </message>
    <message>
        <source>after %1</source>
        <translation>nach %1</translation>
    </message>
    <message>
        <source>After the snapshot %1: pick one to go there</source>
        <translation>Nach dem Schnappschuss %1: Wählen Sie einen aus, um dorthin zu springen</translation>
    </message>
    <message>
        <source> steps/s</source>
        <translation> Schritte/s</translation>
    </message>
    <message>
        <source>How fast Play steps</source>
        <translation>Wie schnell Abspielen voranschreitet</translation>
    </message>
    <message>
        <source>The whole run: drag to move through it</source>
        <translation>Der ganze Lauf: Ziehen Sie, um sich darin zu bewegen</translation>
    </message>
    <message>
        <source>Run your code to step through it.</source>
        <translation>Führen Sie Ihren Code aus, um ihn schrittweise durchzugehen.</translation>
    </message>
    <message>
        <source> · end of the run</source>
        <translation> · Ende des Laufs</translation>
    </message>
    <message numerus="yes">
        <source> · %n running</source>
        <translation>
            <numerusform> · %n läuft</numerusform>
            <numerusform> · %n laufen</numerusform>
        </translation>
    </message>
    <message>
        <source> · rank %1 at t = %2</source>
        <translation> · Rank %1 bei t = %2</translation>
    </message>
    <message>
        <source>rank %1, line %2</source>
        <translation>Rank %1, Zeile %2</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>Zeile %1</translation>
    </message>
    <message>
        <source>One step on</source>
        <translation>Einen Schritt weiter</translation>
    </message>
    <message>
        <source>One step back</source>
        <translation>Einen Schritt zurück</translation>
    </message>
    <message>
        <source>One step on (the clicker)</source>
        <translation>Einen Schritt weiter (der Presenter)</translation>
    </message>
    <message>
        <source>One step back (the clicker)</source>
        <translation>Einen Schritt zurück (der Presenter)</translation>
    </message>
    <message>
        <source>To the start of the run</source>
        <translation>Zum Anfang des Laufs</translation>
    </message>
    <message>
        <source>To the end of the run</source>
        <translation>Zum Ende des Laufs</translation>
    </message>
    <message>
        <source>by scheduler turn</source>
        <translation>nach Zug des Schedulers</translation>
    </message>
    <message>
        <source>t = %1 · %2 of %3 operations done</source>
        <translation>t = %1 · %2 von %3 Operationen erledigt</translation>
    </message>
    <message>
        <source>t = %1 · %2/%3 done</source>
        <translation>t = %1 · %2/%3 erledigt</translation>
    </message>
    <message>
        <source>operation %1 of %2 · t = %3</source>
        <translation>Operation %1 von %2 · t = %3</translation>
    </message>
    <message>
        <source> · rank %1 starts</source>
        <translation> · Rank %1 beginnt</translation>
    </message>
    <message>
        <source>snapshot %1 of %2 · t = %3</source>
        <translation>Schnappschuss %1 von %2 · t = %3</translation>
    </message>
    <message>
        <source> · rank %1&apos;s draw() at line %2</source>
        <translation> · draw() von Rank %1 in Zeile %2</translation>
    </message>
    <message>
        <source> · draw() at line %1</source>
        <translation> · draw() in Zeile %1</translation>
    </message>
    <message>
        <source>turn %1 of %2</source>
        <translation>Zug %1 von %2</translation>
    </message>
    <message>
        <source> · each rank at its own time</source>
        <translation> · jeder Rank bei seiner eigenen Zeit</translation>
    </message>
    <message>
        <source> · no snapshots: the code calls no draw()</source>
        <translation> · keine Schnappschüsse: Der Code ruft kein draw() auf</translation>
    </message>
    <message>
        <source>This run has no snapshots: the code calls draw() to make them</source>
        <translation>Dieser Lauf hat keine Schnappschüsse: Sie entstehen durch draw()-Aufrufe im Code</translation>
    </message>
    <message>
        <source>What Next, Back and Play step by. This run has no snapshots (the code calls no draw()): it steps by simulated time</source>
        <translation>Wonach Weiter, Zurück und Abspielen schrittweise vorgehen. Dieser Lauf hat keine Schnappschüsse (der Code ruft kein draw() auf): Er geht nach simulierter Zeit vor</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::SweepController</name>
    <message>
        <source>rankstep-cli was not found next to Rankstep or on PATH.</source>
        <translation>rankstep-cli wurde weder neben Rankstep noch im PATH gefunden.</translation>
    </message>
    <message>
        <source>The sweep could not start: %1</source>
        <translation>Der Sweep konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>The sweep ended unexpectedly (%1).</source>
        <translation>Der Sweep endete unerwartet (%1).</translation>
    </message>
    <message>
        <source>cannot write %1 for the comparison: %2</source>
        <translation>%1 kann für den Vergleich nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::Tabs</name>
    <message>
        <source>Ranks</source>
        <translation>Ranks</translation>
    </message>
    <message>
        <source>Every rank at a glance, by its place in the layout</source>
        <translation>Alle Ranks auf einen Blick, nach ihrem Platz im Layout</translation>
    </message>
    <message>
        <source>Every rank at a glance: stages, replicas and ranks, each with when it computed, communicated or idled</source>
        <translation>Alle Ranks auf einen Blick: Stufen, Repliken und Ranks, jeweils mit den Zeiten, in denen sie rechneten, kommunizierten oder untätig waren</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>Lektion</translation>
    </message>
    <message>
        <source>The lesson&apos;s text, its goal and hints</source>
        <translation>Der Text der Lektion, ihr Ziel und ihre Hinweise</translation>
    </message>
    <message>
        <source>State of every rank</source>
        <translation>Zustand aller Ranks</translation>
    </message>
    <message>
        <source>What each rank holds at the cursor: weights, optimizer states, activations and gradients</source>
        <translation>Was jeder Rank am Cursor hält: Gewichte, Optimiererzustände, Aktivierungen und Gradienten</translation>
    </message>
    <message>
        <source>Why it hung</source>
        <translation>Warum er festhing</translation>
    </message>
    <message>
        <source>Who waits on whom when no rank can go on</source>
        <translation>Wer auf wen wartet, wenn kein Rank weiterkommt</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Warum</translation>
    </message>
    <message>
        <source>What fills each rank&apos;s memory, and where its time goes</source>
        <translation>Was den Speicher jedes Ranks füllt und wofür er seine Zeit braucht</translation>
    </message>
    <message>
        <source>What fills each rank&apos;s memory and where its time goes</source>
        <translation>Was den Speicher jedes Ranks füllt und wohin seine Zeit geht</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>This run beside another</source>
        <translation>Dieser Lauf neben einem anderen</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>Experimente</translation>
    </message>
    <message>
        <source>What if</source>
        <translation>Was wäre, wenn</translation>
    </message>
    <message>
        <source>Your code at many settings: Timesteps against peak memory</source>
        <translation>Ihr Code bei vielen Einstellungen: Timesteps gegen Spitzenspeicher</translation>
    </message>
    <message>
        <source>For real</source>
        <translation>Echt</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Klasse</translation>
    </message>
    <message>
        <source>A class folder: every learner&apos;s lessons, solved or why not</source>
        <translation>Ein Klassenordner: die Lektionen aller Lernenden, gelöst oder warum nicht</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::TimelineView</name>
    <message>
        <source>Timeline</source>
        <translation>Zeitleiste</translation>
    </message>
    <message>
        <source>Rank %1 waits from t %2 to t %3: click to see what it waits for</source>
        <translation>Rank %1 wartet von t %2 bis t %3: Klicken Sie, um zu sehen, worauf er wartet</translation>
    </message>
    <message>
        <source>The run stopped before any rank did timed work</source>
        <translation>Der Lauf endete, bevor ein Rank eine Operation mit Dauer ausführte</translation>
    </message>
    <message>
        <source>Run your code to see each rank&apos;s timeline</source>
        <translation>Führen Sie Ihren Code aus, um die Zeitleiste jedes Ranks zu sehen</translation>
    </message>
    <message>
        <source>The run made no operations: each rank&apos;s row fills once your code calls forward, backward, update or a collective</source>
        <translation>Der Lauf hat keine Operationen ausgeführt: Die Zeile jedes Ranks füllt sich, sobald Ihr Code forward, backward, update oder eine kollektive Operation aufruft</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::TorchExportActions</name>
    <message>
        <source>Export as PyTorch &amp;Program…</source>
        <translation>Als PyTorch-&amp;Programm exportieren…</translation>
    </message>
    <message>
        <source>Write the code as a plain PyTorch program for torchrun that trains the same schedule on real processes</source>
        <translation>Den Code als schlichtes PyTorch-Programm für torchrun schreiben, das denselben Ablauf auf echten Prozessen trainiert</translation>
    </message>
    <message>
        <source>Open a lesson first: its code is what is exported.</source>
        <translation>Öffnen Sie zuerst eine Lektion: Exportiert wird ihr Code.</translation>
    </message>
    <message>
        <source>Rankstep saves your code before exporting it, and saving failed: %1.</source>
        <translation>Rankstep speichert Ihren Code vor dem Export, und das Speichern ist fehlgeschlagen: %1.</translation>
    </message>
    <message>
        <source>Exporting %1…</source>
        <translation>%1 wird exportiert…</translation>
    </message>
    <message>
        <source>Export as PyTorch Program</source>
        <translation>Als PyTorch-Programm exportieren</translation>
    </message>
    <message>
        <source>Python programs (*.py)</source>
        <translation>Python-Programme (*.py)</translation>
    </message>
    <message>
        <source>Saved %1. Run it with: %2</source>
        <translation>%1 gespeichert. Ausführen mit: %2</translation>
    </message>
    <message>
        <source>The program was not exported</source>
        <translation>Das Programm wurde nicht exportiert</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::TorchExporter</name>
    <message>
        <source>rankstep-cli was not found next to Rankstep or on PATH.</source>
        <translation>rankstep-cli wurde weder neben Rankstep noch im PATH gefunden.</translation>
    </message>
    <message>
        <source>The export could not start: %1</source>
        <translation>Der Export konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>The program was not exported: rankstep-cli ended with exit code %1.</source>
        <translation>Das Programm wurde nicht exportiert: rankstep-cli endete mit Exit-Code %1.</translation>
    </message>
    <message>
        <source>The program was not exported:
%1</source>
        <translation>Das Programm wurde nicht exportiert:
%1</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::TraceOpenActions</name>
    <message>
        <source>&amp;Open Trace…</source>
        <translation>Trace ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Shows a run the command line wrote (rankstep-cli run --trace-out or --json, real --json or --profile) in every view, read-only</source>
        <translation>Zeigt einen Lauf, den die Kommandozeile geschrieben hat (rankstep-cli run --trace-out oder --json, real --json oder --profile), schreibgeschützt in jeder Ansicht</translation>
    </message>
    <message>
        <source>Open a Trace</source>
        <translation>Eine Trace öffnen</translation>
    </message>
    <message>
        <source>Rankstep traces and profiles (*.rstb *.json);;All files (*)</source>
        <translation>Rankstep-Traces und Profile (*.rstb *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>This trace cannot be opened</source>
        <translation>Diese Trace kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Not opened: your code could not be saved.</source>
        <translation>Nicht geöffnet: Ihr Code konnte nicht gespeichert werden.</translation>
    </message>
    <message>
        <source>Your code is not saved</source>
        <translation>Ihr Code ist nicht gespeichert</translation>
    </message>
    <message>
        <source>Your code could not be saved (%1). Opening the trace replaces it in the editor. Open the trace anyway?</source>
        <translation>Ihr Code konnte nicht gespeichert werden (%1). Das Öffnen der Trace ersetzt ihn im Editor. Die Trace trotzdem öffnen?</translation>
    </message>
    <message>
        <source># %1 holds no code: only what ran, shown in the views.
</source>
        <translation># %1 enthält keinen Code: nur, was lief, in den Ansichten gezeigt.
</translation>
    </message>
    <message>
        <source># The code of this run (%1) is not beside %2.
</source>
        <translation># Der Code dieses Laufs (%1) liegt nicht neben %2.
</translation>
    </message>
    <message>
        <source>Opened from %1: %2. Read-only, as it ran.</source>
        <translation>Geöffnet aus %1: %2. Schreibgeschützt, wie er lief.</translation>
    </message>
    <message>
        <source>%1 — Rankstep</source>
        <translation>%1 — Rankstep</translation>
    </message>
    <message>
        <source>Opened %1: %2.</source>
        <translation>%1 geöffnet: %2.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ViewControls</name>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation>&amp;Präsentationsmodus</translation>
    </message>
    <message>
        <source>Show &amp;Hints and Solution While Presenting</source>
        <translation>&amp;Hinweise und Lösung beim Präsentieren zeigen</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>&amp;Vergrößern</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation>&amp;Originalgröße</translation>
    </message>
    <message>
        <source>&amp;Color-Blind-Safe Colors</source>
        <translation>&amp;Farbenblind-sichere Farben</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Design</translation>
    </message>
    <message>
        <source>Memory by &amp;Kind</source>
        <translation>Speicher nach &amp;Art</translation>
    </message>
    <message>
        <source>&amp;Predict the Next Step (Quiz)</source>
        <translation>Nächsten Schritt vorhersagen (&amp;Quiz)</translation>
    </message>
    <message>
        <source>While presenting, each step forward first asks the room a question about it; the next press shows the answer with the step.</source>
        <translation>Beim Präsentieren stellt jeder Schritt vorwärts dem Publikum zuerst eine Frage dazu; der nächste Tastendruck zeigt die Antwort zusammen mit dem Schritt.</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::WaitForView</name>
    <message>
        <source>Show where it hung (End)</source>
        <translation>Zeigen, wo es hängt (Ende)</translation>
    </message>
    <message>
        <source>Move the cursor to the end of the run, where the ranks hung</source>
        <translation>Den Cursor ans Ende des Laufs setzen, wo die Ranks hängen blieben</translation>
    </message>
    <message>
        <source>This is where the run stopped, at its end (t = %1). The other views show t = %2, before the ranks hung.</source>
        <translation>So endete der Lauf, an seinem Ende (t = %1). Die anderen Ansichten zeigen t = %2, bevor die Ranks hängen blieben.</translation>
    </message>
    <message>
        <source>No hang in this run.</source>
        <translation>In diesem Lauf hängt nichts fest.</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>→ waits on</source>
        <translation>→ wartet auf</translation>
    </message>
    <message>
        <source>- - → waits for a message from any rank</source>
        <translation>- - → wartet auf eine Nachricht von irgendeinem Rank</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::WhatIfChart</name>
    <message>
        <source>settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>Pareto-Front</translation>
    </message>
    <message>
        <source>on screen</source>
        <translation>angezeigt</translation>
    </message>
    <message>
        <source>over the device&apos;s memory</source>
        <translation>mehr als der Speicher des Geräts</translation>
    </message>
    <message>
        <source>Timesteps against peak memory</source>
        <translation>Timesteps gegen Spitzenspeicher</translation>
    </message>
    <message>
        <source>%1 ranks, %2 layers, %3 batches%4: Timesteps %5, peak %6, idle %7. Click to open this run.</source>
        <translation>%1 Ranks, %2 Schichten, %3 Batches%4: Timesteps %5, Spitze %6, Leerlauf %7. Klicken Sie, um diesen Lauf zu öffnen.</translation>
    </message>
    <message>
        <source>, %1 GB/s</source>
        <translation>, %1 GB/s</translation>
    </message>
    <message>
        <source>, tensor %1 x pipeline %2</source>
        <translation>, Tensor %1 x Pipeline %2</translation>
    </message>
    <message>
        <source>, over the device&apos;s %1</source>
        <translation>, mehr als die %1 des Geräts</translation>
    </message>
    <message>
        <source>peak memory of a rank, GB</source>
        <translation>Spitzenspeicher eines Ranks, GB</translation>
    </message>
    <message>
        <source>peak memory of a rank, MB</source>
        <translation>Spitzenspeicher eines Ranks, MB</translation>
    </message>
    <message>
        <source>Timesteps, s</source>
        <translation>Timesteps, s</translation>
    </message>
    <message>
        <source>Timesteps</source>
        <translation>Timesteps</translation>
    </message>
    <message>
        <source>device memory, %1</source>
        <translation>Gerätespeicher, %1</translation>
    </message>
    <message>
        <source>Run the sweep to see each setting here</source>
        <translation>Starten Sie den Sweep, um hier jede Einstellung zu sehen</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::WhatIfFields</name>
    <message>
        <source>Compare the pipeline schedules: 1F1B, interleaved and zero-bubble (their lessons&apos; solutions) beside your code</source>
        <translation>Pipeline-Zeitpläne vergleichen: 1F1B, verschachtelt und ohne Blase (die Lösungen ihrer Lektionen) neben Ihrem Code</translation>
    </message>
    <message>
        <source>Numbers of ranks, separated by commas: 2,4,8</source>
        <translation>Anzahlen von Ranks, durch Kommas getrennt: 2,4,8</translation>
    </message>
    <message>
        <source>Batches</source>
        <translation>Batches</translation>
    </message>
    <message>
        <source>Batches per rank</source>
        <translation>Batches pro Rank</translation>
    </message>
    <message>
        <source>Batches per rank: each setting runs ranks x K batches, as data parallelism needs.</source>
        <translation>Batches pro Rank: Jede Einstellung führt Ranks x K Batches aus, wie Datenparallelität es braucht.</translation>
    </message>
    <message>
        <source>the cost model&apos;s own</source>
        <translation>wie im Kostenmodell</translation>
    </message>
    <message>
        <source>Gigabytes a second on every link, inside and between nodes: 25,50,450. Only a real-scale cost model moves data by its bytes.</source>
        <translation>Gigabyte pro Sekunde auf jeder Verbindung, innerhalb von und zwischen Knoten: 25,50,450. Nur ein Kostenmodell in echtem Maßstab bewegt Daten nach ihren Bytes.</translation>
    </message>
    <message>
        <source>&amp;Cost model</source>
        <translation>&amp;Kostenmodell</translation>
    </message>
    <message>
        <source>Band&amp;width, GB/s</source>
        <translation>&amp;Bandbreite, GB/s</translation>
    </message>
    <message>
        <source>&amp;Ranks</source>
        <translation>&amp;Ranks</translation>
    </message>
    <message>
        <source>&amp;Layers</source>
        <translation>&amp;Schichten</translation>
    </message>
    <message>
        <source>Te&amp;nsor</source>
        <translation>Te&amp;nsor</translation>
    </message>
    <message>
        <source>P&amp;ipeline</source>
        <translation>P&amp;ipeline</translation>
    </message>
    <message>
        <source>Runs the other pipeline lessons&apos; solutions at every setting too, and draws each schedule&apos;s bubble over micro-batches beside its paper&apos;s formula (the Bubble tab).</source>
        <translation>Führt bei jeder Einstellung auch die Lösungen der anderen Pipeline-Lektionen aus und zeichnet die Blase jedes Zeitplans über den Micro-Batches neben der Formel seines Papers (Tab „Blase“).</translation>
    </message>
    <message>
        <source>needs a real-scale cost model</source>
        <translation>erfordert ein Kostenmodell in echtem Maßstab</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::WhatIfTable</name>
    <message>
        <source>ranks</source>
        <translation>Ranks</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>Schichten</translation>
    </message>
    <message>
        <source>batches</source>
        <translation>Batches</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>tensor x pipeline</source>
        <translation>Tensor x Pipeline</translation>
    </message>
    <message>
        <source>result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Timesteps</source>
        <translation>Timesteps</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>Spitzenspeicher</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>Leerlauf</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>program</source>
        <translation>Programm</translation>
    </message>
    <message>
        <source>Double-click a row to open its run.</source>
        <translation>Doppelklicken Sie auf eine Zeile, um ihren Lauf zu öffnen.</translation>
    </message>
    <message>
        <source>%1, over %2</source>
        <translation>%1, über %2</translation>
    </message>
    <message>
        <source>A rank&apos;s peak is above the device&apos;s memory: this layout does not fit.</source>
        <translation>Der Spitzenspeicher eines Ranks liegt über dem Speicher des Geräts: Dieses Layout passt nicht hinein.</translation>
    </message>
    <message>
        <source>Timesteps, s</source>
        <translation>Timesteps, s</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::WhatIfView</name>
    <message>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>What if</source>
        <translation>Was wäre, wenn</translation>
    </message>
    <message>
        <source>Runs your code at every setting of a grid and plots Timesteps against peak memory.</source>
        <translation>Führt Ihren Code bei jeder Einstellung eines Rasters aus und trägt Timesteps gegen Spitzenspeicher auf.</translation>
    </message>
    <message>
        <source>Run your code at every setting listed (Enter in a field)</source>
        <translation>Ihren Code bei jeder aufgeführten Einstellung ausführen (Enter in einem Feld)</translation>
    </message>
    <message>
        <source>%v of %m</source>
        <translation>%v von %m</translation>
    </message>
    <message>
        <source>Show or hide the settings to sweep</source>
        <translation>Die Einstellungen für den Sweep ein- oder ausblenden</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>Diagramm</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Tabelle</translation>
    </message>
    <message>
        <source>Your code at every setting you list (2,4,8), each run in the background as F5 runs it. The lesson&apos;s own setting is filled in.</source>
        <translation>Ihr Code bei jeder Einstellung, die Sie auflisten (2,4,8), jeweils im Hintergrund so ausgeführt wie mit F5. Die Einstellung der Lektion ist bereits eingetragen.</translation>
    </message>
    <message>
        <source>A PyTorch lesson trains for real: it has no what-if sweep.</source>
        <translation>Eine PyTorch-Lektion trainiert echt: Sie hat keinen Was-wäre-wenn-Sweep.</translation>
    </message>
    <message numerus="yes">
        <source>Running %n setting(s) in the background…</source>
        <translation>
            <numerusform>%n Einstellung läuft im Hintergrund…</numerusform>
            <numerusform>%n Einstellungen laufen im Hintergrund…</numerusform>
        </translation>
    </message>
    <message>
        <source>That setting&apos;s run left no trace: %1</source>
        <translation>Der Lauf dieser Einstellung hinterließ keinen Trace: %1</translation>
    </message>
    <message>
        <source> The lesson is graded at %1 only, which this sweep did not run.</source>
        <translation> Bewertet wird die Lektion nur bei %1, und diese Einstellung war nicht dabei.</translation>
    </message>
    <message>
        <source> The lesson is graded at %1 only: %2 there.</source>
        <translation> Bewertet wird die Lektion nur bei %1: dort %2.</translation>
    </message>
    <message>
        <source>%1 settings in %2 s; %3 with the right weights.%4 Click a point or double-click a row to open its run.</source>
        <translation>%1 Einstellungen in %2 s; %3 mit den richtigen Gewichten.%4 Klicken Sie auf einen Punkt oder doppelklicken Sie auf eine Zeile, um den zugehörigen Lauf zu öffnen.</translation>
    </message>
    <message>
        <source>The sweep did not run: %1</source>
        <translation>Der Sweep wurde nicht ausgeführt: %1</translation>
    </message>
    <message>
        <source>Stopped: %1 of %2 settings ran.</source>
        <translation>Gestoppt: %1 von %2 Einstellungen wurden ausgeführt.</translation>
    </message>
    <message>
        <source>Stop the sweep (%1)</source>
        <translation>Den Sweep stoppen (%1)</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>Blase</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: the fields are ranks, layers, batches, batches-per-rank, bandwidth, tensor, pipeline, cost (a preset), show (chart or table; bubble) and, in a pipeline lesson, compare (schedules or none)</source>
        <translation>&apos;%1&apos;: Die Felder sind ranks, layers, batches, batches-per-rank, bandwidth, tensor, pipeline, cost (eine Voreinstellung), show (chart oder table; bubble) und, in einer Pipeline-Lektion, compare (schedules oder none)</translation>
    </message>
    <message>
        <source>your code</source>
        <translation>Ihr Code</translation>
    </message>
    <message numerus="yes">
        <source> %n starred: over the device&apos;s %1, not fitting.</source>
        <translation>
            <numerusform> %n mit Stern: über den %1 des Geräts, passt nicht.</numerusform>
            <numerusform> %n mit Stern: über den %1 des Geräts, passen nicht.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>rankstep::gui::TraceLoader</name>
    <message>
        <source>%1 cannot be opened: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Preparing the steps and the views of %1</source>
        <translation>Schritte und Ansichten von %1 werden vorbereitet</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>%1 wird gelesen</translation>
    </message>
    <message>
        <source>Reading %1: %2 of %3 MB</source>
        <translation>%1 wird gelesen: %2 von %3 MB</translation>
    </message>
</context>
<context>
    <name>rankstep::gui::ProgressLine</name>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stops this work; the window keeps what it showed</source>
        <translation>Beendet diese Arbeit; das Fenster behält, was es zeigte</translation>
    </message>
</context>
</TS>
