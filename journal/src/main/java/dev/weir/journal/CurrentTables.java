package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;

import dev.weir.journal.codec.TableRowDecoder;

/**
 * The decoder of a journal's table rows, for the tables its marker has: those of the {@link JournalDirectory} it was
 * made from, read again from the marker when a row of a table added since turns up (a reader opened before the table
 * was added meets it). Allocates nothing but on that re-read. Not thread-safe: the reading thread's.
 */
final class CurrentTables
{
    private final JournalDirectory directory;
    private TableRowDecoder decoder;

    CurrentTables(final JournalDirectory directory)
    {
        this.directory = directory;
        this.decoder = new TableRowDecoder(directory.tables());
    }

    /**
     * @param in a document, at its read position (left where it was).
     * @return the decoder, wrapping it, if it is a table row; null if it is not one.
     * @throws IllegalStateException if it is a row of a table the marker does not have, or is corrupt.
     */
    TableRowDecoder wrap(final BytesIn<?> in)
    {
        final int table = TableRowDecoder.tableOf(in);
        if (table < 0)
        {
            return null;
        }
        if (table >= decoder.tables().size())
        {
            decoder = new TableRowDecoder(JournalDirectory.open(directory.root()).tables());
        }
        decoder.wrap(in);
        return decoder;
    }
}
