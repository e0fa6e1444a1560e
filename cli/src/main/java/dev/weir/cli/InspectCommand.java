package dev.weir.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import dev.weir.engine.checkpoint.Checkpoint;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.checkpoint.CheckpointCodec;
import dev.weir.engine.checkpoint.Recovery;
import dev.weir.engine.checkpoint.StateSummary;
import dev.weir.engine.metrics.CounterTypes;
import dev.weir.engine.metrics.EngineCounters;
import dev.weir.engine.metrics.MetricsFile;
import dev.weir.engine.operator.OperatorCounters;
import dev.weir.engine.retention.PipelineFloor;
import dev.weir.engine.retention.RetentionFloor;
import dev.weir.engine.retention.RetentionHolder;
import dev.weir.journal.ColumnType;
import dev.weir.journal.EventLag;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.JournalSchema;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.retention.HeldRemovedCycles;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.retention.OutputHistory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weir inspect DIR}: what a journal holds (its columns, with their generations if it gained some, offsets,
 * events, rejected lines, keys), its output journal (results, late events, last output position) and its newest
 * valid checkpoint (offset, output position, watermark, open windows, dedupe/late/duplicate counts): those of every pipeline that has processed the
 * journal (the default one when none has), each under a {@code --- pipeline NAME ---} line unless it is the default
 * alone, or of {@code --pipeline NAME} only. A journal with named pipelines also gets one line per pipeline: the
 * configuration of its newest checkpoint, the offset it covers and the events after it. After the disk section: what
 * retention removed from the events ({@code retention}) and from each pipeline's output journal ({@code history}), and the
 * retention floor with its holders ({@code floor}, from checkpoints and delivery records only). Reads only.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true, description = "Show a journal's offsets, counts, outputs and last checkpoint.")
final class InspectCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "DIR", description = "the journal directory")
    Path journal;

    @Option(names = "--pipeline", paramLabel = "NAME", description = "the one pipeline whose outputs and checkpoint to show (default: every pipeline of the journal)")
    String pipeline;

    @Override
    public Integer call()
    {
        final Path kafkaStatus = KafkaInstanceStatus.of(journal);
        if (kafkaStatus != null)
        {
            KafkaInstanceStatus.print(kafkaStatus, System.out);
            return 0;
        }
        final JournalDirectory base;
        try
        {
            base = JournalDirectory.open(journal);
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        final List<String> pipelines = base.pipelines();
        final List<JournalDirectory> shown = pipeline != null ? List.of(PipelineSelection.existing(base, pipeline))
            : pipelines.isEmpty() ? List.of(base) : pipelines.stream().map(base::pipeline).toList();
        final IngestLog.Counts counts;
        final String keys;
        final String snapshot;
        try (StringDictionaries dictionaries = StringDictionaries.open(base))
        {
            counts = dictionaries.counts();
            keys = distinctValues(base.schema(), dictionaries);
            snapshot = dictionaries.snapshotStatus();
        }
        final List<JournalDirectory.Generation> history = base.schemaHistory();
        System.out.printf("journal      %s (format version %d)%n", base.root(), base.formatVersion());
        System.out.printf("columns      %s%n", base.schema());
        if (history.size() > 1)
        {
            printSchemaHistory(history);
        }
        System.out.printf("roll cycle   %s (one file per %s; at most %,d documents per file)%n", base.rollCycle(),
            unit(base.rollCycle()), base.rollCycle().capacity());
        System.out.printf("events       %,d events, %,d rejected lines, %,d ingests, %s%n", counts.events(), counts.rejected(),
            counts.ingests(), keys);
        if (counts.heartbeats() > 0)
        {
            System.out.printf("heartbeats   %,d heartbeats (no events: they move the watermark at their offset)%n", counts.heartbeats());
        }
        System.out.printf("offsets      first event %d, last event %d (documents %d..%d)%n", counts.firstEventOffset(), counts.lastEventOffset(),
            counts.firstOffset(), counts.lastOffset());
        System.out.printf("snapshot     %s%n", snapshotLine(snapshot));
        if (pipelines.size() > 1 || (pipelines.size() == 1 && !JournalDirectory.DEFAULT_PIPELINE.equals(pipelines.get(0))))
        {
            printPipelines(base, pipelines, counts.lastEventOffset());
        }
        for (final JournalDirectory directory : shown)
        {
            if (shown.size() > 1 || !JournalDirectory.DEFAULT_PIPELINE.equals(directory.pipelineName()))
            {
                System.out.printf("--- pipeline %s ---%n", directory.pipelineName());
            }
            printOutputs(directory);
            printCheckpoint(directory);
        }
        printDisk(base, pipelines);
        printRetention(base, pipelines);
        return 0;
    }

    /**
     * One {@code schema} line per generation of a journal that gained columns: the columns it was created with,
     * then each time columns were added, which and when.
     */
    private static void printSchemaHistory(final List<JournalDirectory.Generation> history)
    {
        for (final JournalDirectory.Generation generation : history)
        {
            final String columns = generation.added().stream().map(JournalSchema.Column::toString).collect(Collectors.joining(","));
            System.out.printf("schema       generation %d: %s%n", generation.number(), generation.at() == null
                ? columns + " (created)" : "added " + columns + " at " + generation.at());
        }
    }

    /**
     * The retention lines: the history base (what was removed from the events queue), each pipeline's output
     * history, and the floor: the first events offset and output positions something still needs, and who.
     */
    private static void printRetention(final JournalDirectory journal, final List<String> pipelines)
    {
        final HistoryBase.Summary base = HistoryBase.read(journal).orElse(null);
        if (base == null)
        {
            System.out.printf("retention    nothing removed%n");
        }
        else
        {
            System.out.printf("retention    oldest offset %d; %,d events removed (%,d documents, %,d bytes)%s; %s%n", base.firstOffset(),
                base.countsBefore().events(), base.removedDocuments(), base.removedBytes(),
                base.maxRemovedEventTime() < 0 ? "" : ", up to event time " + Instant.ofEpochMilli(base.maxRemovedEventTime()),
                base.archive() == null ? "deleted, not archived" : "archive " + base.archive());
        }
        final List<String> names = pipelines.isEmpty() ? List.of(JournalDirectory.DEFAULT_PIPELINE) : pipelines;
        for (final String name : names)
        {
            final OutputHistory history = OutputHistory.read(journal.pipeline(name)).orElse(null);
            if (history != null)
            {
                System.out.printf("history      results of %s: oldest output position %d; %,d results and %,d late events removed (%,d bytes)%s; %s%n",
                    name, history.firstPosition(), history.removedResults(), history.removedOutputs() - history.removedResults(),
                    history.removedBytes(), history.maxRemovedWindowStart() == Long.MIN_VALUE ? ""
                        : ", window starts up to " + Instant.ofEpochMilli(history.maxRemovedWindowStart()),
                    history.archive() == null ? "deleted, not archived" : "archive " + history.archive());
            }
        }
        final RetentionFloor floor = RetentionFloor.of(journal);
        final StringBuilder line = new StringBuilder("events from ").append(RetentionFloor.describe(floor.eventsFloor()))
            .append(held(floor.eventsHolder()));
        for (final String name : floor.pipelines())
        {
            final PipelineFloor pipeline = floor.pipeline(name);
            line.append("; results of ").append(name).append(" from ").append(RetentionFloor.describe(pipeline.outputFloor()))
                .append(held(pipeline.holder()));
        }
        System.out.printf("floor        %s%n", line);
    }

    private static String held(final RetentionHolder holder)
    {
        if (holder == null)
        {
            return "";
        }
        return ", held by " + (holder.kind() == RetentionHolder.Kind.POSTGRES_DELIVERY ? "the PostgreSQL delivery of pipeline " : "pipeline ")
            + holder.pipeline() + " (" + holder.detail() + ")";
    }

    private static String unit(final JournalRollCycle rollCycle)
    {
        return rollCycle == JournalRollCycle.MINUTELY ? "minute" : rollCycle == JournalRollCycle.HOURLY ? "hour" : "day";
    }

    /**
     * The "disk" section: per queue (the events, then each pipeline's results), its total size, the oldest offset it
     * still holds and one line per cycle file; then the removed cycle files a process still holds open, whose space
     * is not free yet ({@link HeldRemovedCycles}: a line if there are any, or if this system cannot tell).
     */
    private static void printDisk(final JournalDirectory journal, final List<String> pipelines)
    {
        printQueue("events", JournalCycles.events(journal));
        final List<String> names = pipelines.isEmpty() ? List.of(JournalDirectory.DEFAULT_PIPELINE) : pipelines;
        for (final String name : names)
        {
            final JournalCycles results = JournalCycles.results(journal.pipeline(name));
            if (!results.cycles().isEmpty() || !pipelines.isEmpty())
            {
                printQueue("results of " + name, results);
            }
        }
        final HeldRemovedCycles held = HeldRemovedCycles.scan(journal.root());
        if (held == null)
        {
            System.out.println("disk         removed cycle files still open: not known here (no /proc)");
        }
        else if (held.files() > 0)
        {
            System.out.printf("disk         removed cycle files still open: %,d (%,d bytes), held by pid %s: the space is freed when they are closed%n",
                held.files(), held.bytes(), held.processes().stream().map(String::valueOf).collect(Collectors.joining(", ")));
        }
    }

    private static void printQueue(final String name, final JournalCycles queue)
    {
        final long oldest = queue.oldestOffset();
        System.out.printf("disk         %s: %,d cycle files, %,d bytes, oldest offset %s%n", name, queue.cycles().size(), queue.totalBytes(),
            oldest < 0 ? "none" : Long.toString(oldest));
        for (final JournalCycles.Cycle c : queue.cycles())
        {
            System.out.printf("  %s  %s..%s  offsets %d..%d  %,d documents  %,d bytes%n", c.fileName(), Instant.ofEpochMilli(c.startMillis()),
                Instant.ofEpochMilli(c.endMillis()), c.firstOffset(), c.lastOffset(), c.documents(), c.bytes());
        }
    }

    private static void printOutputs(final JournalDirectory directory)
    {
        try (OutputJournal output = OutputJournal.open(directory))
        {
            final ExportCounts outputs = ExportCounts.of(output);
            System.out.printf("output       %,d results, %,d late events; last output position %d%n", outputs.results(), outputs.late(),
                output.lastPosition());
        }
    }

    private static void printCheckpoint(final JournalDirectory directory)
    {
        final CheckpointStore store = new CheckpointStore(directory.checkpoints(), 3);
        final CheckpointStore.Loaded loaded = store.loadNewestValid();
        if (loaded == null)
        {
            System.out.printf("checkpoint   none%s%n", store.skippedInvalid() > 0 ? " valid (" + store.skippedInvalid() + " torn or corrupt)" : "");
            return;
        }
        final Checkpoint c = CheckpointCodec.describe(loaded);
        final StateSummary state = CheckpointCodec.describeState(loaded);
        final OperatorCounters n = state.counters();
        System.out.printf("checkpoint   #%d at offset %d (%,d events applied%s), output position %d, written %s%s%n", c.sequence(),
            c.sourceOffset(), c.applied(), c.finished() ? ", input finished" : "", c.outputPosition(), Instant.ofEpochMilli(c.writtenAtMillis()),
            store.skippedInvalid() > 0 ? " (" + store.skippedInvalid() + " newer ones torn or corrupt, skipped)" : "");
        System.out.printf("pipeline     %s%n", c.configuration());
        System.out.printf("format       state format %d; the next run %s%n", CheckpointCodec.stateFormat(loaded), Recovery.nextRun(loaded, directory));
        System.out.printf("state        watermark %s, %,d open windows, %,d ids remembered for dedupe%n",
            state.watermark() == Long.MAX_VALUE ? "+infinity" : state.watermark() == Long.MIN_VALUE ? "-infinity" : Long.toString(state.watermark()),
            state.openWindows(), state.rememberedIds());
        System.out.printf("counts       %,d events, %,d windows fired, %,d late dropped, %,d late side-output, %,d in no window, %,d duplicates%n",
            n.events(), n.windowsFired(), n.dropped(), n.sideOutput(), n.ignored(), n.duplicates());
        if (c.configuration().contains(" where="))
        {
            System.out.printf("filtered     %,d events filtered out: they moved the watermark, nothing else%n", n.filtered());
        }
        if (n.valuesWrapped() > 0 || n.sumsWrapped() > 0)
        {
            System.out.printf("wrapped      %,d by --value, %,d in window sums: values past the 64-bit range, kept as wrapped%n",
                n.valuesWrapped(), n.sumsWrapped());
        }
    }

    /**
     * One line per pipeline: its newest checkpoint's offset, the events after it (its lag behind the journal's
     * last event) and the configuration it was taken under; or {@code no checkpoint}.
     */
    private static void printPipelines(final JournalDirectory journal, final List<String> names, final long lastEventOffset)
    {
        System.out.printf("pipelines    %s%n", String.join(", ", names));
        int width = 10;
        for (final String name : names)
        {
            width = Math.max(width, name.length() + 1);
        }
        for (final String name : names)
        {
            final JournalDirectory pipeline = journal.pipeline(name);
            final CheckpointStore.Loaded loaded = Files.isDirectory(pipeline.checkpoints()) // never create one: inspect reads only
                ? new CheckpointStore(pipeline.checkpoints(), 3).loadNewestValid() : null;
            final String running = running(pipeline, lastEventOffset);
            if (loaded == null)
            {
                System.out.printf("  %-" + width + "s %sno checkpoint%n", name, running);
                continue;
            }
            final Checkpoint c = CheckpointCodec.describe(loaded);
            final long lag = c.sourceOffset() >= lastEventOffset ? 0 : EventLag.after(journal, c.sourceOffset());
            System.out.printf("  %-" + width + "s %scheckpoint at offset %d, lag %,d events; %s%n", name, running, c.sourceOffset(), lag,
                c.configuration());
        }
    }

    /**
     * @return for a pipeline whose process is running, {@code "running (pid N), applied offset X, lag Y events; "}
     *         from its metrics file; else the empty string.
     */
    private static String running(final JournalDirectory pipeline, final long lastEventOffset)
    {
        if (!Files.isRegularFile(pipeline.metricsFile()))
        {
            return "";
        }
        try (MetricsFile metrics = MetricsFile.open(pipeline.metricsFile()))
        {
            if (!metrics.running())
            {
                return "";
            }
            final long applied = metrics.value(CounterTypes.OFFSET_APPLIED, EngineCounters.OFFSET_APPLIED);
            if (applied == Long.MIN_VALUE || applied < 0)
            {
                return "running (pid " + metrics.pid() + "), nothing applied yet; ";
            }
            final long lag = applied >= lastEventOffset ? 0 : EventLag.after(pipeline, applied);
            return String.format("running (pid %d), applied offset %d, lag %,d events; ", metrics.pid(), applied, lag);
        }
        catch (final IllegalStateException unreadable) // being created, or not a metrics file: say nothing
        {
            return "";
        }
    }

    /**
     * @return the dictionary snapshot's line: whether opening the journal started from it.
     */
    private static String snapshotLine(final String status)
    {
        if ("none".equals(status))
        {
            return "none: the journal was scanned from its start (an appender writes one when it closes)";
        }
        if (status.startsWith("ignored: "))
        {
            return "invalid, " + status + "; the journal was scanned from its start (the next appender to close rewrites it)";
        }
        return "dictionaries and counts " + status + ", then the documents after it scanned";
    }

    /**
     * @return how many distinct values the string columns hold: {@code N keys} for the default columns, else
     *         {@code distinct card N, merchant M, ...}.
     */
    private static String distinctValues(final JournalSchema schema, final StringDictionaries dictionaries)
    {
        if (schema.isDefault())
        {
            return String.format("%,d keys", dictionaries.keyDictionary().size());
        }
        final StringBuilder b = new StringBuilder();
        for (int c = 0; c < schema.size(); c++)
        {
            if (schema.column(c).type() == ColumnType.STRING)
            {
                b.append(b.length() == 0 ? "distinct " : ", ").append(schema.column(c).name()).append(' ')
                    .append(String.format("%,d", dictionaries.dictionary(c).size()));
            }
        }
        return b.length() == 0 ? "no string columns" : b.toString();
    }
}
