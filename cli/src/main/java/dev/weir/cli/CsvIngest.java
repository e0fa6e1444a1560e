package dev.weir.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.EventJournal;
import dev.weir.journal.IngestLayout;
import dev.weir.journal.IngestLog;

/**
 * Appends the lines of an events CSV to a journal, resumably and exactly once.
 * <p>
 * The ingest first records where it starts (the file's {@link SourceIdentity} and the line number) in the
 * journal; then every line becomes exactly one journal document, in order: an event if it is valid, a
 * rejected-line record (line number, reason, content) if not. So the journal alone says how far the file
 * was ingested: re-running an interrupted ingest on the same file continues after the last line
 * recorded, with nothing lost and nothing appended twice, whenever it was killed. The rejected-lines file
 * ({@code line,reason,content}) is then exported from the journal, atomically.
 * <p>
 * Not thread-safe: one ingesting thread; {@link #linesRead()} and {@link #lastOffset()} may be sampled
 * from another thread for progress.
 */
final class CsvIngest
{
    private final Path input;
    private final Path rejected;
    private volatile long linesRead;
    private volatile long lastOffset = -1;

    /**
     * @param input    the events CSV.
     * @param rejected where rejected lines are exported.
     */
    CsvIngest(final Path input, final Path rejected)
    {
        this.input = input;
        this.rejected = rejected;
    }

    /**
     * What an ingest did.
     *
     * @param lines     data lines in the file (not counting the header).
     * @param skipped   lines already ingested by an earlier run, skipped.
     * @param ingested  events appended by this run.
     * @param rejected  lines rejected by this run.
     * @param rejectedTotal lines of this file rejected over all runs (the rows of the rejected file).
     */
    record Summary(long lines, long skipped, long ingested, long rejected, long rejectedTotal)
    {
    }

    /**
     * @param journal the journal to append to.
     * @param sync    force the journal to disk at the end.
     * @return what was done.
     * @throws BadInputException if the file is missing or does not start with the header.
     */
    Summary into(final EventJournal journal, final boolean sync)
    {
        if (!Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        final SourceIdentity identity = SourceIdentity.of(input);
        final String recorded = identity.findIn(IngestLog.nextLines(journal.directory()));
        final String source = recorded != null ? recorded : identity.toString();
        final long resumeAt = recorded != null ? IngestLog.nextLines(journal.directory()).get(recorded) : 2;

        long lineNo = 0;
        long skipped = 0;
        long ingested = 0;
        long rejectedCount = 0;
        final EventLine event = new EventLine();
        try (BufferedReader in = Files.newBufferedReader(input, StandardCharsets.UTF_8))
        {
            final String header = in.readLine();
            lineNo++;
            if (header == null || !EventLine.HEADER.equals(stripBom(header).trim()))
            {
                throw new BadInputException(input + " does not start with the header '" + EventLine.HEADER + "'");
            }
            boolean started = false;
            String line;
            while ((line = in.readLine()) != null)
            {
                lineNo++;
                if (lineNo < resumeAt)
                {
                    skipped++;
                    continue;
                }
                if (!started)
                {
                    journal.appendIngestStart(source, lineNo);
                    started = true;
                }
                final String why = event.parse(line);
                if (why == null)
                {
                    lastOffset = journal.append(event.eventId(), event.eventTime(), event.key(), event.value());
                    ingested++;
                }
                else
                {
                    journal.appendRejected(lineNo, why, line);
                    rejectedCount++;
                }
                if ((lineNo & 1023) == 0)
                {
                    linesRead = lineNo - 1;
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
        final long total = exportRejected(journal, source);
        return new Summary(lineNo - 1, skipped, ingested, rejectedCount, total);
    }

    private long exportRejected(final EventJournal journal, final String source)
    {
        final long[] rows = {0};
        try (AtomicTextFile out = new AtomicTextFile(rejected))
        {
            out.line("line,reason,content");
            IngestLog.rejected(journal.directory(), source, new IngestLayout.IngestConsumer()
            {
                @Override
                public void onIngestStart(final long offset, final String s, final long firstLine)
                {
                }

                @Override
                public void onRejected(final long offset, final long line, final String reason, final String content)
                {
                    out.line(line + "," + CsvText.quote(reason) + "," + CsvText.quote(content));
                    rows[0]++;
                }

                @Override
                public void onEvent(final long offset)
                {
                }
            });
            out.commit();
        }
        return rows[0];
    }

    /**
     * Check that a file exists and starts with the events header, before any journal is touched.
     *
     * @param input the events CSV.
     * @throws BadInputException if not.
     */
    static void checkHeader(final Path input)
    {
        if (!Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        try (BufferedReader in = Files.newBufferedReader(input, StandardCharsets.UTF_8))
        {
            final String header = in.readLine();
            if (header == null || !EventLine.HEADER.equals(stripBom(header).trim()))
            {
                throw new BadInputException(input + " does not start with the header '" + EventLine.HEADER + "'");
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + input, ex);
        }
    }

    long linesRead()
    {
        return linesRead;
    }

    long lastOffset()
    {
        return lastOffset;
    }

    private static String stripBom(final String s)
    {
        return !s.isEmpty() && s.charAt(0) == '\uFEFF' ? s.substring(1) : s;
    }
}
