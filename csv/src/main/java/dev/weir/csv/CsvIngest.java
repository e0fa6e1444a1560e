package dev.weir.csv;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import dev.weir.journal.files.AtomicTextFile;
import dev.weir.journal.EventBatch;
import dev.weir.journal.EventJournal;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.IngestConsumer;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.files.CsvText;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;

/**
 * Appends the lines of an events CSV, a file or a stream, to a journal, resumably and exactly once:
 * <pre>{@code
 * CsvIngest.Summary s = CsvIngest.into(journalDirectory).columns(schema).rejected(rejectedCsv).build().ingest(file);
 * }</pre>
 * The ingest first records where it starts (the source and the line number) in the journal; then every line
 * becomes exactly one journal document, in order, carrying its line number: an event if it is valid, a
 * rejected-line record (line number, reason, content) if not. So the journal alone says how far the source was
 * ingested, whatever else was appended to it: re-running an interrupted ingest of the same source continues after
 * the last line recorded, with nothing lost and nothing appended twice, whenever it was killed. A file is known by
 * its {@link SourceIdentity} (its path and a fingerprint of its first bytes); a stream by the name it is given,
 * and must then give the same lines from its start. The rejected-lines file ({@code line,reason,content}) is then
 * exported from the journal, atomically.
 * <p>
 * A table CSV ({@link Builder#table}) is ingested by the same rules, each valid line a row of the table
 * ({@link TableCsvParser}); a new journal is then created with the table and its events pending, and an existing one
 * gains the table if it lacks it ({@link JournalDirectory#openOrCreateForTable}). Its last line without a line
 * terminator is left pending even if the source is complete (see {@link Builder#complete}).
 * <p>
 * Lines are read in the journal's columns by one {@link CsvLineParser}, which gives a bad line its reason. A source
 * of an older writer, whose columns are the journal's without some of its last ones ({@link IngestColumns}), is
 * read in its own columns, and each event gets the defaults of the columns it lacks ({@link OlderWriter}). Lines
 * are read as bytes ({@link InputLines}): a line longer than {@link InputLines#MAX_LINE_BYTES} bytes is rejected
 * like any other bad line; a rejected line's content is recorded up to {@value #MAX_REJECTED_CHARS} characters,
 * invalid UTF-8 shown as U+FFFD. A last line without a line terminator is left pending unless the source is
 * declared complete; when a complete source's unterminated last line is taken, its length is recorded, and an
 * ingest that finds that line grown since is refused.
 * <p>
 * A source refused as a whole (a missing file, a wrong header, a grown last line) is a {@link CsvInputException};
 * a journal refused as it opens, a {@link dev.weir.journal.JournalRefusedException}; a source or rejected file
 * that cannot be read or written, an {@link UncheckedIOException}.
 * <p>
 * Not thread-safe: one ingesting thread, which owns the journal; {@link #linesRead()} and {@link #lastOffset()}
 * may be sampled from another thread for progress.
 */
public final class CsvIngest
{
    /** The most characters of a rejected line's content that are recorded. */
    static final int MAX_REJECTED_CHARS = 1024;

    private final Path journalDirectory;
    private final EventJournal openJournal;
    private final JournalSchema columns;
    private final TableDefinition table;
    private final Path rejected;
    private final boolean sync;
    private final boolean complete;
    private final boolean textOnly;
    private volatile long linesRead;
    private volatile long lastOffset = -1;

    private CsvIngest(final Builder builder)
    {
        this.journalDirectory = builder.journalDirectory;
        this.openJournal = builder.journal;
        this.columns = builder.columns;
        this.table = builder.table;
        this.rejected = builder.rejected;
        this.sync = builder.sync;
        this.complete = builder.complete;
        this.textOnly = builder.textOnly;
    }

    /**
     * @param journalDirectory the journal to append to, created with the columns if missing; opened and closed by
     *                         each ingest.
     * @return a builder of an ingest into it.
     */
    public static Builder into(final Path journalDirectory)
    {
        return new Builder(Objects.requireNonNull(journalDirectory, "journalDirectory"), null);
    }

    /**
     * @param journal an open journal to append to, owned by the caller (and its thread); not closed.
     * @return a builder of an ingest into it.
     */
    public static Builder into(final EventJournal journal)
    {
        return new Builder(null, Objects.requireNonNull(journal, "journal"));
    }

    /**
     * The options of an ingest. Not thread-safe: one building thread.
     */
    public static final class Builder
    {
        private final Path journalDirectory;
        private final EventJournal journal;
        private JournalSchema columns;
        private TableDefinition table;
        private Path rejected;
        private boolean sync;
        private boolean complete = true;
        private boolean textOnly;

        private Builder(final Path journalDirectory, final EventJournal journal)
        {
            this.journalDirectory = journalDirectory;
            this.journal = journal;
        }

        /**
         * @param columns the source's columns: the journal's; or, for a new journal directory, its columns; or new
         *                columns at the end of the journal's, each with a default, which are added to it; or the
         *                journal's without some of its last ones, which have defaults. Default: the journal's
         *                ({@link JournalSchema#DEFAULT} for a new one).
         * @return this.
         */
        public Builder columns(final JournalSchema columns)
        {
            this.columns = columns;
            return this;
        }

        /**
         * @param table the table whose rows the source holds, a table CSV ({@link TableCsvParser}) rather than an
         *              events CSV; the journal gains it if it lacks it (the columns are then not read).
         * @return this.
         * @throws IllegalArgumentException if it has a column a table CSV cannot hold ({@link TableCsvParser#checkColumns}).
         */
        public Builder table(final TableDefinition table)
        {
            TableCsvParser.checkColumns(table);
            this.table = table;
            return this;
        }

        /**
         * @param rejected where the rejected lines are exported (default: for a file, {@code FILE.rejected.csv}
         *                 beside it; a stream must be given one).
         * @return this.
         */
        public Builder rejected(final Path rejected)
        {
            this.rejected = rejected;
            return this;
        }

        /**
         * @param sync force the journal to disk at the end of each ingest, so it also survives a machine crash.
         * @return this.
         */
        public Builder sync(final boolean sync)
        {
            this.sync = sync;
            return this;
        }

        /**
         * @param complete the source is complete (the default): a last line without a line terminator is a line. If
         *                 false, the source may still grow, and such a line is left pending, neither ingested nor
         *                 recorded, for the next ingest to take once it is complete. A table CSV's such line is always left
         *                 pending: a table row does not record its line's length, so a line that grew since could not
         *                 be told.
         * @return this.
         */
        public Builder complete(final boolean complete)
        {
            this.complete = complete;
            return this;
        }

        /** Read every line as text, never from its bytes: the reference a test compares the bytes reading with. */
        Builder textOnly()
        {
            this.textOnly = true;
            return this;
        }

        /** @return the ingest, reusable for several sources, one at a time. */
        public CsvIngest build()
        {
            return new CsvIngest(this);
        }
    }

    /**
     * What an ingest did.
     *
     * @param lines     data lines in the source (not counting the header, nor a pending last line).
     * @param skipped   lines already ingested by an earlier run, skipped.
     * @param ingested  events (or table rows) appended by this run.
     * @param rejected  lines rejected by this run.
     * @param rejectedTotal lines of this source rejected over all runs (the rows of the rejected file).
     * @param pendingLine the number of a last line left pending because it has no line terminator yet, or 0.
     */
    public record Summary(long lines, long skipped, long ingested, long rejected, long rejectedTotal, long pendingLine)
    {
    }

    /**
     * Ingest a file.
     *
     * @param input the events CSV.
     * @return what was done.
     * @throws CsvInputException if the file is missing or does not start with the header, or a last line an earlier
     *                           complete ingest took without its terminator has grown since.
     */
    public Summary ingest(final Path input)
    {
        if (!Files.isRegularFile(input))
        {
            throw new CsvInputException("input file not found: " + input);
        }
        final Path rejectedFile = rejected != null ? rejected : input.resolveSibling(input.getFileName() + ".rejected.csv");
        final SourceIdentity identity = SourceIdentity.of(input);
        if (openJournal != null)
        {
            return ingest(openJournal, input.toString(), open(input), identity::findIn, identity.toString(), rejectedFile);
        }
        final JournalSchema journalColumns = table != null ? null : IngestColumns.resolve(columns, journalDirectory);
        if (table != null) // before the journal is touched
        {
            checkTableHeader(input, table);
        }
        else
        {
            IngestColumns.checkHeader(input, columns != null ? columns : journalColumns);
        }
        try (EventJournal journal = openJournal(journalColumns))
        {
            return ingest(journal, input.toString(), open(input), identity::findIn, identity.toString(), rejectedFile);
        }
    }

    /**
     * @param journalColumns the columns of an events ingest ({@link IngestColumns#resolve}), or null for a table's.
     * @return the journal directory's journal, created, given the columns or given the table if need be.
     */
    private EventJournal openJournal(final JournalSchema journalColumns)
    {
        if (table != null)
        {
            return EventJournal.open(JournalDirectory.openOrCreateForTable(journalDirectory, table, null));
        }
        return EventJournal.openOrCreate(journalDirectory, journalColumns);
    }

    /**
     * Check that a file exists and starts with a table's header, with or without the {@code op} column, before any
     * journal is touched.
     *
     * @param input the table CSV.
     * @param table its table.
     * @throws CsvInputException if not.
     */
    public static void checkTableHeader(final Path input, final TableDefinition table)
    {
        if (!Files.isRegularFile(input))
        {
            throw new CsvInputException("input file not found: " + input);
        }
        try (InputLines in = new InputLines(open(input)))
        {
            TableCsvParser.checkHeader(input.toString(), in, table);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + input, ex);
        }
    }

    private static InputStream open(final Path input)
    {
        try
        {
            return Files.newInputStream(input);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + input, ex);
        }
    }

    /**
     * Ingest a stream, read to its end and closed.
     *
     * @param in     the events CSV.
     * @param source the stream's name, without a tab: the journal records how far it was ingested under it, and
     *               an ingest of a stream of the same name continues after its last line recorded.
     * @return what was done.
     * @throws CsvInputException        if the stream does not start with the header, or a last line an earlier
     *                                  complete ingest took without its terminator has grown since.
     * @throws IllegalArgumentException if the name holds a tab, or no rejected file was given.
     */
    public Summary ingest(final InputStream in, final String source)
    {
        if (source.isEmpty() || source.indexOf('\t') >= 0)
        {
            throw new IllegalArgumentException("a stream's name must be non-empty and hold no tab: '" + source + "'");
        }
        if (rejected == null)
        {
            throw new IllegalArgumentException("an ingest of a stream needs a rejected file: rejected(path)");
        }
        final Function<Map<String, Long>, String> find = sources -> sources.containsKey(source) ? source : null;
        if (openJournal != null)
        {
            return ingest(openJournal, source, in, find, source, rejected);
        }
        try (EventJournal journal = openJournal(table != null ? null : IngestColumns.resolve(columns, journalDirectory)))
        {
            return ingest(journal, source, in, find, source, rejected);
        }
    }

    /**
     * @param input        the source's name in messages.
     * @param stream       its bytes, closed at the end.
     * @param find         finds the source among those the journal recorded, with their next lines, or null if new.
     * @param newSource    how a new source is recorded.
     * @param rejectedFile where the rejected lines are exported.
     */
    private Summary ingest(final EventJournal journal, final String input, final InputStream stream,
        final Function<Map<String, Long>, String> find, final String newSource, final Path rejectedFile)
    {
        final Map<String, Long> nextLines = IngestLog.nextLines(journal.directory());
        final String recorded = find.apply(nextLines);
        final String source = recorded != null ? recorded : newSource;
        final long resumeAt = recorded != null ? nextLines.get(recorded) : 2;
        final long[] takenUnterminated = recorded != null ? IngestLog.unterminated(journal.directory(), recorded) : null;

        long lineNo = 0;
        long skipped = 0;
        long ingested = 0;
        long rejectedCount = 0;
        long pending = 0;
        long offset = lastOffset;
        try (InputLines in = new InputLines(stream))
        {
            final IngestLineParser parser = parser(journal, input, in);
            final EventBatch batch = journal.batch();
            in.beforeRead(batch::flush); // lines parsed are in the journal before the ingest waits for more
            lineNo++;
            boolean started = false;
            while (in.next())
            {
                lineNo++;
                if (lineNo < resumeAt)
                {
                    if (takenUnterminated != null && takenUnterminated[0] == lineNo && in.length() != takenUnterminated[1])
                    {
                        throw new CsvInputException("line " + lineNo + " of " + input + " was ingested without a line terminator, as the "
                            + "last line of a complete file (" + takenUnterminated[1] + " bytes), and has grown since to " + in.length()
                            + " bytes: the journal holds the line as it was. Put the new lines in a new file, or rebuild the journal");
                    }
                    skipped++;
                    continue;
                }
                if (!in.terminated() && (!complete || table != null)) // a table row cannot record the length of its line yet
                {
                    pending = lineNo;
                    lineNo--;
                    break;
                }
                if (!started)
                {
                    journal.appendIngestStart(source, lineNo);
                    started = true;
                }
                final long unterminated = in.terminated() ? -1 : in.length(); // recorded in the line's own document
                final String why = in.tooLong() ? CsvLineParser.tooLong(in.length()) : parser.parse(in.bytes(), in.start(), in.start() + in.kept());
                if (why == null)
                {
                    offset = Math.max(offset, parser.append(journal, lineNo, unterminated));
                    ingested++;
                }
                else
                {
                    journal.appendRejected(lineNo, why, shownContent(in, in.tooLong() ? null : parser.text()), unterminated);
                    rejectedCount++;
                }
                if ((lineNo & 1023) == 0)
                {
                    linesRead = lineNo - 1;
                    lastOffset = offset;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + input, ex);
        }
        finally
        {
            journal.batch().flush();
        }
        offset = Math.max(offset, journal.batch().lastOffset());
        if (sync)
        {
            journal.sync();
        }
        linesRead = lineNo - 1;
        lastOffset = offset;
        // a source ingested for the first time, without a rejected line, has none to look for in the journal
        final boolean noneRejected = recorded == null && !nextLines.containsKey(source) && rejectedCount == 0;
        final long total = exportRejected(journal, source, noneRejected, rejectedFile);
        return new Summary(lineNo - 1, skipped, ingested, rejectedCount, total, pending);
    }

    /**
     * Read a source's header and make the parser of its lines.
     *
     * @throws CsvInputException if the header is not that of its columns (or its table).
     */
    private IngestLineParser parser(final EventJournal journal, final String input, final InputLines in) throws IOException
    {
        if (table != null)
        {
            final TableDefinition journalTable = journal.directory().table(table.name());
            if (journalTable == null)
            {
                throw new CsvInputException("journal " + journal.directory().root() + " has no table " + table.name());
            }
            return new TableCsvParser(journalTable, TableCsvParser.checkHeader(input, in, journalTable));
        }
        final JournalSchema journalColumns = journal.directory().schema();
        final JournalSchema lineColumns = columns != null ? columns : journalColumns;
        IngestColumns.checkHeader(input, in, lineColumns);
        final CsvLineParser parser = new CsvLineParser(lineColumns, journalColumns.original().isDefault());
        return textOnly ? parser.textOnly() : parser;
    }

    /**
     * @return what is recorded of a rejected line: the line, or its first {@value #MAX_REJECTED_CHARS}
     *         characters and a note of its length; invalid UTF-8 shown as U+FFFD.
     */
    private static String shownContent(final InputLines in, final String text)
    {
        final String full = text != null ? text : in.shown(MAX_REJECTED_CHARS + 1);
        if (full.length() <= MAX_REJECTED_CHARS && !in.tooLong())
        {
            return full;
        }
        return full.substring(0, Math.min(MAX_REJECTED_CHARS, full.length()))
            + "... (" + in.length() + " bytes in all; the first " + MAX_REJECTED_CHARS + " characters are kept)";
    }

    private static long exportRejected(final EventJournal journal, final String source, final boolean noneRejected, final Path rejected)
    {
        final long[] rows = {0};
        // after retention the journal lists only the rejected lines it still holds: keep the earlier ones' rows
        final RejectedRowsBeforeRetention previous = HistoryBase.read(journal.directory()).isPresent()
            ? RejectedRowsBeforeRetention.read(rejected) : null;
        try (AtomicTextFile out = new AtomicTextFile(rejected))
        {
            out.line("line,reason,content");
            if (noneRejected)
            {
                out.commit();
                return 0;
            }
            IngestLog.rejected(journal.directory(), source, new IngestConsumer()
            {
                @Override
                public void onIngestStart(final long offset, final String s, final long firstLine, final boolean linesTagged)
                {
                }

                @Override
                public void onRejected(final long offset, final long line, final String reason, final String content)
                {
                    if (previous != null)
                    {
                        rows[0] += previous.writeBefore(line, out);
                    }
                    out.line(line + "," + CsvText.quote(reason) + "," + CsvText.quote(content));
                    rows[0]++;
                }

                @Override
                public void onEvent(final long offset, final long line)
                {
                }
            });
            if (previous != null)
            {
                rows[0] += previous.writeBefore(Long.MAX_VALUE, out);
            }
            out.commit();
        }
        return rows[0];
    }

    /** @return the lines read so far by the ingest under way, sampled every 1,024 lines; any thread. */
    public long linesRead()
    {
        return linesRead;
    }

    /** @return the journal offset of the last event appended so far, sampled every 1,024 lines, or -1; any thread. */
    public long lastOffset()
    {
        return lastOffset;
    }
}
