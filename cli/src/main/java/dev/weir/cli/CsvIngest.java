package dev.weir.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.EventJournal;

/**
 * Appends the valid lines of an events CSV to a journal and writes every other line, with its line
 * number and the reason, to a rejected-lines file, so every input line ends up in exactly one of the
 * two. The rejected file ({@code line,reason,content}, header included) is written atomically, even
 * when empty. Not thread-safe: one ingesting thread; {@link #linesRead()} and {@link #lastOffset()}
 * may be sampled from another thread for progress.
 */
final class CsvIngest
{
    private final Path input;
    private final Path rejected;
    private volatile long linesRead;
    private volatile long lastOffset = -1;

    /**
     * @param input    the events CSV.
     * @param rejected where rejected lines go.
     */
    CsvIngest(final Path input, final Path rejected)
    {
        this.input = input;
        this.rejected = rejected;
    }

    /**
     * What an ingest did.
     *
     * @param lines       data lines read (not counting the header).
     * @param ingested    events appended.
     * @param rejected    lines rejected.
     * @param firstOffset offset of the first event appended, or -1.
     * @param lastOffset  offset of the last event appended, or -1.
     */
    record Summary(long lines, long ingested, long rejected, long firstOffset, long lastOffset)
    {
    }

    /**
     * @param journal the journal to append to.
     * @return what was done.
     * @throws BadInputException if the file is missing or does not start with the header.
     */
    Summary into(final EventJournal journal)
    {
        if (!Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        long lineNo = 0;
        long ingested = 0;
        long rejectedCount = 0;
        long first = -1;
        long last = -1;
        final EventLine event = new EventLine();
        try (BufferedReader in = Files.newBufferedReader(input, StandardCharsets.UTF_8);
             AtomicTextFile out = new AtomicTextFile(rejected))
        {
            final String header = in.readLine();
            lineNo++;
            if (header == null || !EventLine.HEADER.equals(stripBom(header).trim()))
            {
                throw new BadInputException(input + " does not start with the header '" + EventLine.HEADER + "'");
            }
            out.line("line,reason,content");
            String line;
            while ((line = in.readLine()) != null)
            {
                lineNo++;
                final String why = event.parse(line);
                if (why == null)
                {
                    last = journal.append(event.eventId(), event.eventTime(), event.key(), event.value());
                    if (first < 0)
                    {
                        first = last;
                    }
                    ingested++;
                }
                else
                {
                    out.line(lineNo + "," + CsvText.quote(why) + "," + CsvText.quote(line));
                    rejectedCount++;
                }
                if ((lineNo & 1023) == 0)
                {
                    linesRead = lineNo - 1;
                    lastOffset = last;
                }
            }
            out.commit();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + input, ex);
        }
        linesRead = lineNo - 1;
        lastOffset = last;
        return new Summary(lineNo - 1, ingested, rejectedCount, first, last);
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
