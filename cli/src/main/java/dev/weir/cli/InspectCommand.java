package dev.weir.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import dev.weir.check.JournalInspection;
import dev.weir.engine.retention.PipelineFloor;
import dev.weir.engine.retention.RetentionFloor;
import dev.weir.engine.retention.RetentionHolder;
import dev.weir.engine.status.CheckpointCounts;
import dev.weir.engine.status.CheckpointCoverage;
import dev.weir.engine.status.CheckpointSummary;
import dev.weir.engine.status.NewestCheckpoint;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.retention.HeldRemovedCycles;
import dev.weir.journal.retention.OutputHistory;
import dev.weir.kafka.KafkaInstanceStatus;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.JournalSchema;
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
 * retention floor with its holders ({@code floor}, from checkpoints and delivery records only). Reads only: what it prints
 * is {@link JournalInspection}'s, computed by the check module.
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
        final KafkaInstanceStatus kafka = KafkaInstanceStatus.read(journal).orElse(null);
        if (kafka != null)
        {
            System.out.print(kafka.describe());
            System.out.flush();
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
        final JournalInspection inspection = JournalInspection.of(base,
            pipeline == null ? null : PipelineSelection.existing(base, pipeline).pipelineName()); // refused: one line, exit 2
        System.out.printf("journal      %s (format version %d)%n", inspection.root(), inspection.formatVersion());
        System.out.printf("columns      %s%n", inspection.schema());
        if (inspection.schemaHistory().size() > 1)
        {
            printSchemaHistory(inspection.schemaHistory());
        }
        System.out.printf("roll cycle   %s (one file per %s; at most %,d documents per file)%n", inspection.rollCycle(),
            unit(inspection.rollCycle()), inspection.rollCycle().capacity());
        System.out.printf("events       %,d events, %,d rejected lines, %,d ingests, %s%n", inspection.counts().events(), inspection.counts().rejected(),
            inspection.counts().ingests(), distinctValues(inspection));
        if (inspection.counts().heartbeats() > 0)
        {
            System.out.printf("heartbeats   %,d heartbeats (no events: they move the watermark at their offset)%n", inspection.counts().heartbeats());
        }
        System.out.printf("offsets      first event %d, last event %d (documents %d..%d)%n", inspection.counts().firstEventOffset(),
            inspection.counts().lastEventOffset(), inspection.counts().firstOffset(), inspection.counts().lastOffset());
        System.out.printf("snapshot     %s%n", snapshotLine(inspection.snapshotStatus()));
        final List<String> pipelines = inspection.pipelineNames();
        if (pipelines.size() > 1 || (pipelines.size() == 1 && !JournalDirectory.DEFAULT_PIPELINE.equals(pipelines.get(0))))
        {
            printPipelines(inspection);
        }
        for (final JournalInspection.PipelineInspection shown : inspection.pipelines())
        {
            if (inspection.pipelines().size() > 1 || !JournalDirectory.DEFAULT_PIPELINE.equals(shown.name()))
            {
                System.out.printf("--- pipeline %s ---%n", shown.name());
            }
            System.out.printf("output       %,d results, %,d late events; last output position %d%n", shown.results(), shown.lateEvents(),
                shown.lastOutputPosition());
            printCheckpoint(shown.checkpoint());
        }
        printDisk(inspection);
        printRetention(inspection);
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
    private static void printRetention(final JournalInspection inspection)
    {
        final HistoryBase.Summary base = inspection.removedEvents().orElse(null);
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
        for (final JournalInspection.RemovedOutputs removed : inspection.removedOutputs())
        {
            final OutputHistory history = removed.history();
            System.out.printf("history      results of %s: oldest output position %d; %,d results and %,d late events removed (%,d bytes)%s; %s%n",
                removed.pipeline(), history.firstPosition(), history.removedResults(), history.removedOutputs() - history.removedResults(),
                history.removedBytes(), history.maxRemovedWindowStart() == Long.MIN_VALUE ? ""
                    : ", window starts up to " + Instant.ofEpochMilli(history.maxRemovedWindowStart()),
                history.archive() == null ? "deleted, not archived" : "archive " + history.archive());
        }
        final RetentionFloor floor = inspection.floor();
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
    private static void printDisk(final JournalInspection inspection)
    {
        for (final JournalInspection.QueueFiles queue : inspection.disk())
        {
            printQueue(queue.name(), queue.cycles());
        }
        final HeldRemovedCycles held = inspection.heldOpen().orElse(null);
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

    private static void printCheckpoint(final NewestCheckpoint newest)
    {
        final CheckpointSummary summary = newest.newest().orElse(null);
        if (summary == null)
        {
            System.out.printf("checkpoint   none%s%n", newest.skippedInvalid() > 0 ? " valid (" + newest.skippedInvalid() + " torn or corrupt)" : "");
            return;
        }
        final CheckpointCoverage c = summary.coverage();
        final CheckpointCounts n = summary.counts();
        System.out.printf("checkpoint   #%d at offset %d (%,d events applied%s), output position %d, written %s%s%n", c.sequence(),
            c.sourceOffset(), c.applied(), c.finished() ? ", input finished" : "", c.outputPosition(), Instant.ofEpochMilli(c.writtenAtMillis()),
            newest.skippedInvalid() > 0 ? " (" + newest.skippedInvalid() + " newer ones torn or corrupt, skipped)" : "");
        System.out.printf("pipeline     %s%n", c.configuration());
        System.out.printf("format       state format %d; the next run %s%n", summary.stateFormat(), summary.nextRun());
        System.out.printf("state        watermark %s, %,d open windows, %,d ids remembered for dedupe%n",
            summary.watermark() == Long.MAX_VALUE ? "+infinity" : summary.watermark() == Long.MIN_VALUE ? "-infinity" : Long.toString(summary.watermark()),
            summary.openWindows(), summary.rememberedIds());
        System.out.printf("counts       %,d events, %,d windows fired, %,d late dropped, %,d late side-output, %,d in no window, %,d duplicates%n",
            n.events(), n.windowsFired(), n.dropped(), n.sideOutput(), n.inNoWindow(), n.duplicates());
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
     * last event) and the configuration it was taken under; or {@code no checkpoint}; first, for a pipeline whose
     * process is running, {@code running (pid N), applied offset X, lag Y events; }.
     */
    private static void printPipelines(final JournalInspection inspection)
    {
        System.out.printf("pipelines    %s%n", String.join(", ", inspection.pipelineNames()));
        int width = 10;
        for (final String name : inspection.pipelineNames())
        {
            width = Math.max(width, name.length() + 1);
        }
        for (final JournalInspection.PipelineProgress progress : inspection.progress())
        {
            final String running = progress.running().map(InspectCommand::running).orElse("");
            final CheckpointCoverage c = progress.checkpoint().orElse(null);
            if (c == null)
            {
                System.out.printf("  %-" + width + "s %sno checkpoint%n", progress.name(), running);
                continue;
            }
            System.out.printf("  %-" + width + "s %scheckpoint at offset %d, lag %,d events; %s%n", progress.name(), running, c.sourceOffset(),
                progress.eventsAfterCheckpoint(), c.configuration());
        }
    }

    private static String running(final JournalInspection.RunningProcess process)
    {
        return process.appliedOffset() < 0 ? "running (pid " + process.pid() + "), nothing applied yet; "
            : String.format("running (pid %d), applied offset %d, lag %,d events; ", process.pid(), process.appliedOffset(), process.eventsAfter());
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
    private static String distinctValues(final JournalInspection inspection)
    {
        if (inspection.schema().isDefault())
        {
            return String.format("%,d keys", inspection.distinctValues().get(0).count());
        }
        return inspection.distinctValues().isEmpty() ? "no string columns" : inspection.distinctValues().stream()
            .map(v -> v.column() + ' ' + String.format("%,d", v.count())).collect(Collectors.joining(", ", "distinct ", ""));
    }
}
