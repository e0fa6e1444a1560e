package dev.weir.csv;

import dev.weir.journal.files.AtomicTextFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a rejected-lines file that retention took out of the journal: once cycles were removed, the journal
 * lists only the rejected lines it still holds, so an ingest that rewrites the file keeps the rows of the
 * previous file for the lines before the journal's first one, rather than dropping them.
 * <p>
 * The previous file is read as CSV records ({@code line,reason,content}, quoted fields may hold line breaks);
 * records are kept verbatim. A missing file keeps nothing; a record whose first field is not a line number (a
 * file edited by hand) is kept as it is, in its place. One use, on the ingesting thread.
 */
final class RejectedRowsBeforeRetention
{
    private final List<String> records = new ArrayList<>();
    private final List<Long> lines = new ArrayList<>();
    private int next;

    private RejectedRowsBeforeRetention()
    {
    }

    /**
     * @param file the rejected-lines file an earlier ingest wrote.
     * @return its rows, header left out.
     */
    static RejectedRowsBeforeRetention read(final Path file)
    {
        final RejectedRowsBeforeRetention rows = new RejectedRowsBeforeRetention();
        final String text;
        try
        {
            text = Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final NoSuchFileException none)
        {
            return rows;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the previous rejected-lines file " + file, ex);
        }
        boolean quoted = false;
        int start = 0;
        boolean header = true;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '"')
            {
                quoted = !quoted; // a doubled quote inside a field toggles twice
            }
            else if (c == '\n' && !quoted)
            {
                final String record = text.substring(start, i);
                start = i + 1;
                if (header)
                {
                    header = false;
                    continue;
                }
                rows.add(record);
            }
        }
        if (start < text.length() && !header)
        {
            rows.add(text.substring(start));
        }
        return rows;
    }

    private void add(final String record)
    {
        final int comma = record.indexOf(',');
        long line = Long.MIN_VALUE;
        try
        {
            line = Long.parseLong(comma < 0 ? record : record.substring(0, comma));
        }
        catch (final NumberFormatException notALine)
        {
            // kept in its place, after the row before it
        }
        records.add(record);
        lines.add(line == Long.MIN_VALUE ? (lines.isEmpty() ? Long.MIN_VALUE : lines.get(lines.size() - 1)) : line);
    }

    /**
     * Write the previous rows of lines before {@code firstLine}, once each, in their order.
     *
     * @param firstLine the first rejected line the journal still lists ({@link Long#MAX_VALUE}: all of them).
     * @param out       the new file.
     * @return the rows written.
     */
    long writeBefore(final long firstLine, final AtomicTextFile out)
    {
        long written = 0;
        while (next < records.size() && lines.get(next) < firstLine)
        {
            out.line(records.get(next++));
            written++;
        }
        next = records.size(); // rows from firstLine on are in the journal
        return written;
    }
}
