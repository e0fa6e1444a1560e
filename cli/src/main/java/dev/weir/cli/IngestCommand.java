package dev.weir.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.weir.csv.CsvIngest;
import dev.weir.csv.IngestColumns;
import dev.weir.csv.IngestTable;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir ingest}: append an events CSV to a journal, exactly once: re-running it on the same file
 * continues after the last line an earlier (possibly killed) run appended. With {@code --table}, append a table CSV
 * to a reference table of the journal by the same rules ({@link IngestTable}, {@link CsvIngest.Builder#table}).
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = "Append an events CSV (or, with --table, a table CSV) to a journal; re-running continues after the last line appended.")
final class IngestCommand implements Callable<Integer>
{
    @Option(names = "--input", required = true, paramLabel = "FILE", description = "events CSV: event_id,event_time, then one field per column "
        + "(with --table, a table CSV: event_time, one field per column, optionally op)")
    Path input;

    @Option(names = "--columns", paramLabel = "SPEC", description = "the columns of the events, e.g. card:string,amount:decimal(2),fee:long "
        + "(default: the journal's, or key:string,value:long for a new journal); new columns at the end of a journal's, each with a "
        + "default (channel:string=web), are added to it. With --table: the table's columns, the existing table's if left out")
    String columns;

    @Option(names = "--table", paramLabel = "NAME", description = "the reference table the input's rows go to (a table CSV), "
        + "added to the journal if new")
    String table;

    @Option(names = "--key", paramLabel = "COLUMNS", description = "with --table: the table's key column(s), comma-separated "
        + "(default: the existing table's)")
    String key;

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
        + "(by default such a line is left pending, for a later ingest to take once it is complete; a table CSV's always is)")
    boolean complete;

    @Override
    public Integer call()
    {
        if (key != null && table == null)
        {
            throw new BadInputException("--key on ingest needs --table");
        }
        if (!java.nio.file.Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        final TableDefinition definition = table == null ? null : IngestTable.resolve(journal, table, key, columns);
        final JournalSchema given = table == null ? ColumnsOption.parse(columns) : null;
        final JournalSchema schema = table == null ? IngestColumns.resolve(given, journal) : null;
        final JournalSchema fileColumns = given != null ? given : schema;
        if (definition != null) // before the journal is touched
        {
            CsvIngest.checkTableHeader(input, definition);
        }
        else
        {
            IngestColumns.checkHeader(input, fileColumns);
        }
        final Path rejectedFile = rejected != null ? rejected : input.resolveSibling(input.getFileName() + ".rejected.csv");
        final EventJournal events;
        try
        {
            if (JournalDirectory.isJournal(journal))
            {
                JournalDirectory.open(journal).checkRollCycle(rollCycle); // before any column or table is added
            }
            // adds the table or the new columns of --columns, if any; an event ingest fixes the columns of events pending
            events = EventJournal.open(definition != null ? JournalDirectory.openOrCreateForTable(journal, definition, rollCycle)
                : JournalDirectory.openOrCreate(journal, schema, rollCycle));
        }
        catch (final JournalRefusedException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        try (events)
        {
            final CsvIngest.Builder builder = CsvIngest.into(events).rejected(rejectedFile).sync(sync).complete(complete);
            final CsvIngest ingest = (definition != null ? builder.table(definition) : builder.columns(fileColumns)).build();
            final CsvIngest.Summary s;
            try (Progress progress = Progress.start("ingest", ingest::linesRead, ingest::lastOffset))
            {
                s = ingest.ingest(input);
            }
            System.out.printf("Read %,d lines from %s: %,d %s appended to journal %s, %,d rejected%s. Rejected lines: %s (%,d rows).%n",
                s.lines(), input, s.ingested(), definition != null ? "rows of table " + table : "events", journal, s.rejected(),
                s.skipped() > 0 ? String.format(" (%,d lines were already ingested and were skipped)", s.skipped()) : "",
                rejectedFile, s.rejectedTotal());
            if (s.pendingLine() > 0)
            {
                System.out.printf("Line %,d has no line terminator yet: it was left pending, not ingested; the next ingest of %s takes it "
                    + "once it is complete (%s).%n", s.pendingLine(), input, definition != null
                        ? "a table CSV's last line is taken once it ends with a line break, even with --final"
                        : "or give --final if the file is complete as it is");
            }
        }
        return 0;
    }
}
