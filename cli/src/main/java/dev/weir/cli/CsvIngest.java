package dev.weir.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.files.AtomicTextFile;
import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.HistoryBase;
import dev.weir.journal.IngestConsumer;
import dev.weir.journal.IngestLog;
import dev.weir.journal.JournalSchema;
import dev.weir.journal.files.CsvText;

/**
 * Appends the lines of an events CSV to a journal, resumably and exactly once.
 * <p>
 * The ingest first records where it starts (the file's {@link SourceIdentity} and the line number) in the
 * journal; then every line becomes exactly one journal document, in order, carrying its line number: an
 * event if it is valid, a rejected-line record (line number, reason, content) if not. So the journal
 * alone says how far the file was ingested, whatever else was appended to it: re-running an interrupted
 * ingest on the same file continues after the last line recorded, with nothing lost and nothing
 * appended twice, whenever it was killed. The rejected-lines file ({@code line,reason,content}) is then
 * exported from the journal, atomically.
 * <p>
 * Lines are read in the journal's columns ({@link ColumnsLine}): a journal of the default columns is
 * appended through the key API as before, any other as whole rows ({@link EventJournal#row()}). A file of an
 * older writer, whose columns are the journal's without some of its last ones ({@link IngestColumns}), is read in
 * its own columns, and each event gets the defaults of the columns it lacks ({@link OlderWriter}).
 * <p>
 * A line is first offered to the allocation-free {@link LineBytes}, which parses it from the input's bytes
 * and appends it if it is a valid event in a plain form with known strings; any other line is decoded
 * and parsed as a {@link String}, as it always was, which gives the same event, or the reason a line is
 * rejected. Lines are read as bytes ({@link InputLines}) and decoded one by one: a line that is not valid UTF-8
 * (reason {@value #INVALID_UTF8}) or longer than {@link InputLines#MAX_LINE_BYTES} bytes is rejected like
 * any other bad line; a rejected line's content is recorded up to {@value #MAX_REJECTED_CHARS}
 * characters. A last line without a line terminator is left pending unless the file is declared
 * complete; when a complete file's unterminated last line is taken, its length is recorded, and an
 * ingest that finds that line grown since is refused.
 * <p>
 * Not thread-safe: one ingesting thread; {@link #linesRead()} and {@link #lastOffset()} may be sampled
 * from another thread for progress.
 */
final class CsvIngest
{
    private final Path input;
    private final Path rejected;
    private final JournalSchema columns;
    private final boolean bytesFirst;
    private volatile long linesRead;
    private volatile long lastOffset = -1;

    /**
     * @param input    the events CSV.
     * @param rejected where rejected lines are exported.
     */
    CsvIngest(final Path input, final Path rejected)
    {
        this(input, rejected, null, true);
    }

    /**
     * @param input    the events CSV.
     * @param rejected where rejected lines are exported.
     * @param columns  the file's columns: the journal's, or the journal's without some of its last ones, which
     *                 have defaults; null for the journal's.
     */
    CsvIngest(final Path input, final Path rejected, final JournalSchema columns)
    {
        this(input, rejected, columns, true);
    }

    /**
     * @param input      the events CSV.
     * @param rejected   where rejected lines are exported.
     * @param bytesFirst offer each line to {@link LineBytes} first (false: every line the String way, the
     *                   reference the tests compare it with).
     */
    CsvIngest(final Path input, final Path rejected, final boolean bytesFirst)
    {
        this(input, rejected, null, bytesFirst);
    }

    private CsvIngest(final Path input, final Path rejected, final JournalSchema columns, final boolean bytesFirst)
    {
        this.input = input;
        this.rejected = rejected;
        this.columns = columns;
        this.bytesFirst = bytesFirst;
    }

    /**
     * What an ingest did.
     *
     * @param lines     data lines in the file (not counting the header, nor a pending last line).
     * @param skipped   lines already ingested by an earlier run, skipped.
     * @param ingested  events appended by this run.
     * @param rejected  lines rejected by this run.
     * @param rejectedTotal lines of this file rejected over all runs (the rows of the rejected file).
     * @param pendingLine the number of a last line left pending because it has no line terminator yet, or 0.
     */
    record Summary(long lines, long skipped, long ingested, long rejected, long rejectedTotal, long pendingLine)
    {
    }

    /** The reason of a line that is not valid UTF-8. */
    static final String INVALID_UTF8 = "invalid UTF-8";
    /** The most characters of a rejected line's content that are recorded. */
    static final int MAX_REJECTED_CHARS = 1024;

    /**
     * @param journal  the journal to append to.
     * @param sync     force the journal to disk at the end.
     * @param complete the file is complete: a last line without a line terminator is a line. If false, the
     *                 file may still grow, and such a line is left pending, neither ingested nor recorded,
     *                 for the next ingest to take once it is complete.
     * @return what was done.
     * @throws BadInputException if the file is missing or does not start with the header, or a last line
     *                           an earlier complete ingest took without its terminator has grown since.
     */
    Summary into(final EventJournal journal, final boolean sync, final boolean complete)
    {
        if (!Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        final SourceIdentity identity = SourceIdentity.of(input);
        final java.util.Map<String, Long> nextLines = IngestLog.nextLines(journal.directory());
        final String recorded = identity.findIn(nextLines);
        final String source = recorded != null ? recorded : identity.toString();
        final long resumeAt = recorded != null ? nextLines.get(recorded) : 2;
        final long[] takenUnterminated = recorded != null ? IngestLog.unterminated(journal.directory(), recorded) : null;

        long lineNo = 0;
        long skipped = 0;
        long ingested = 0;
        long rejectedCount = 0;
        long pending = 0;
        final JournalSchema journalColumns = journal.directory().schema();
        final ColumnsLine event = new ColumnsLine(columns != null ? columns : journalColumns, journalColumns.original().isDefault());
        final boolean olderWriter = event.schema().size() < journalColumns.size(); // the last columns get their defaults
        final boolean defaultColumns = journalColumns.isDefault();
        final LineBytes fast = bytesFirst && !olderWriter ? LineBytes.of(event.schema()) : null;
        long offset = lastOffset;
        try (InputLines in = new InputLines(Files.newInputStream(input)))
        {
            IngestColumns.checkHeader(input, in, event.schema());
            lineNo++;
            boolean started = false;
            while (in.next())
            {
                lineNo++;
                if (lineNo < resumeAt)
                {
                    if (takenUnterminated != null && takenUnterminated[0] == lineNo && in.length() != takenUnterminated[1])
                    {
                        throw new BadInputException("line " + lineNo + " of " + input + " was ingested without a line terminator, as the "
                            + "last line of a complete file (" + takenUnterminated[1] + " bytes), and has grown since to " + in.length()
                            + " bytes: the journal holds the line as it was. Put the new lines in a new file, or rebuild the journal");
                    }
                    skipped++;
                    continue;
                }
                if (!in.terminated() && !complete)
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
                if (fast != null && !in.tooLong() && fast.parse(in.bytes(), in.start(), in.start() + in.kept()))
                {
                    offset = fast.append(journal, lineNo, unterminated);
                    ingested++;
                    if ((lineNo & 1023) == 0)
                    {
                        linesRead = lineNo - 1;
                        lastOffset = offset;
                    }
                    continue;
                }
                final String text = in.tooLong() ? null : in.text();
                final String why = in.tooLong() ? "line too long: " + in.length() + " bytes, the limit is " + InputLines.MAX_LINE_BYTES
                    : text == null ? INVALID_UTF8
                    : event.parse(text);
                if (why == null)
                {
                    offset = defaultColumns
                        ? journal.appendIngested(lineNo, event.eventId(), event.eventTime(), event.string(0), event.longColumn(1), unterminated)
                        : appendRow(journal, event, lineNo, unterminated);
                    if (fast != null)
                    {
                        fast.learn(journal, event);
                    }
                    ingested++;
                }
                else
                {
                    journal.appendRejected(lineNo, why, shownContent(in, text), unterminated);
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
        if (sync)
        {
            journal.sync();
        }
        linesRead = lineNo - 1;
        lastOffset = offset;
        // a source ingested for the first time, without a rejected line, has none to look for in the journal
        final boolean noneRejected = recorded == null && !nextLines.containsKey(source) && rejectedCount == 0;
        final long total = exportRejected(journal, source, noneRejected);
        return new Summary(lineNo - 1, skipped, ingested, rejectedCount, total, pending);
    }

    /**
     * Append a valid line of a journal whose columns are not the default ones, as a whole row; the journal's
     * columns the line lacks get their defaults.
     *
     * @return the offset of the appended event.
     */
    private static long appendRow(final EventJournal journal, final ColumnsLine event, final long lineNo, final long unterminated)
    {
        final EventRow row = journal.row();
        row.eventId(event.eventId()).eventTime(event.eventTime());
        for (int c = 0; c < event.columns(); c++)
        {
            if (event.isString(c))
            {
                row.setString(c, journal.stringId(c, event.string(c)));
            }
            else
            {
                row.setLong(c, event.longColumn(c));
            }
        }
        OlderWriter.fillDefaults(journal, journal.schema(), row, event.columns());
        return journal.appendIngested(row, lineNo, unterminated);
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

    private long exportRejected(final EventJournal journal, final String source, final boolean noneRejected)
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

    long linesRead()
    {
        return linesRead;
    }

    long lastOffset()
    {
        return lastOffset;
    }
}
