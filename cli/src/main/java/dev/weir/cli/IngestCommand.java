package dev.weir.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.weir.csv.CsvIngest;
import dev.weir.csv.IngestColumns;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.schema.JournalSchema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir ingest}: append an events CSV to a journal, exactly once: re-running it on the same file
 * continues after the last line an earlier (possibly killed) run appended.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = "Append an events CSV to a journal; re-running continues after the last line appended.")
final class IngestCommand implements Callable<Integer>
{
    @Option(names = "--input", required = true, paramLabel = "FILE", description = "events CSV: event_id,event_time, then one field per column")
    Path input;

    @Option(names = "--columns", paramLabel = "SPEC", description = "the columns of the events, e.g. card:string,amount:decimal(2),fee:long "
        + "(default: the journal's, or key:string,value:long for a new journal); new columns at the end of a journal's, each with a "
        + "default (channel:string=web), are added to it")
    String columns;

    @Option(names = "--journal", required = true, paramLabel = "DIR", description = "journal directory (created if missing or empty)")
    Path journal;

    @Option(names = "--roll-cycle", paramLabel = "minutely|hourly|daily", converter = RollCycles.class,
        description = RollCycles.DESCRIPTION)
    JournalRollCycle rollCycle;

    @Option(names = "--rejected", paramLabel = "FILE", description = "rejected lines (default: <input>.rejected.csv)")
    Path rejected;

    @Option(names = "--sync", description = "fsync the journal at the end, so it also survives a machine crash")
    boolean sync;

    @Option(names = "--final", description = "the file is complete: also ingest a last line that has no line terminator "
        + "(by default such a line is left pending, for a later ingest to take once it is complete)")
    boolean complete;

    @Override
    public Integer call()
    {
        if (!java.nio.file.Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        final JournalSchema given = ColumnsOption.parse(columns);
        final JournalSchema schema = IngestColumns.resolve(given, journal);
        final JournalSchema fileColumns = given != null ? given : schema;
        IngestColumns.checkHeader(input, fileColumns);
        final Path rejectedFile = rejected != null ? rejected : input.resolveSibling(input.getFileName() + ".rejected.csv");
        final EventJournal events;
        try
        {
            if (JournalDirectory.isJournal(journal))
            {
                JournalDirectory.open(journal).checkRollCycle(rollCycle); // before any column is added
            }
            events = EventJournal.openOrCreate(journal, schema, rollCycle); // adds the new columns of --columns, if any
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        try (events)
        {
            final CsvIngest ingest = CsvIngest.into(events).columns(fileColumns).rejected(rejectedFile).sync(sync).complete(complete).build();
            final CsvIngest.Summary s;
            try (Progress progress = Progress.start("ingest", ingest::linesRead, ingest::lastOffset))
            {
                s = ingest.ingest(input);
            }
            System.out.printf("Read %,d lines from %s: %,d events appended to journal %s, %,d rejected%s. Rejected lines: %s (%,d rows).%n",
                s.lines(), input, s.ingested(), journal, s.rejected(),
                s.skipped() > 0 ? String.format(" (%,d lines were already ingested and were skipped)", s.skipped()) : "",
                rejectedFile, s.rejectedTotal());
            if (s.pendingLine() > 0)
            {
                System.out.printf("Line %,d has no line terminator yet: it was left pending, not ingested; the next ingest of %s takes it "
                    + "once it is complete (or give --final if the file is complete as it is).%n", s.pendingLine(), input);
            }
        }
        return 0;
    }
}
