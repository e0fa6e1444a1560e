package dev.weir.journal;

import dev.weir.journal.codec.TableRowEncoder;
import dev.weir.journal.schema.TableDefinition;

/**
 * Appends the rows of one reference table to its journal's events queue ({@link EventJournal#table(String)}), in
 * order with the events: an upsert is a version of its key valid from the row's valid-from time on, a delete a
 * tombstone that removes the key from then on (only the valid-from time and the key columns are read; the other
 * columns are written as 0 and ""). Each write is one {@link dev.weir.journal.codec.DocumentType#TABLE_ROW} document
 * and returns its offset. Table rows never touch the event dictionaries (a row carries its strings) and never move a
 * watermark. Allocates nothing: a string is encoded from the row's own buffer.
 * <p>
 * Not thread-safe: one owner thread, the journal's appending thread.
 */
public final class TableAppender
{
    private final EventJournal journal;
    private final TableDefinition definition;
    private final TableRowEncoder encoder;
    private final TableRow row;
    /** Per column: true for a key column. */
    private final boolean[] key;

    TableAppender(final EventJournal journal, final int table, final TableDefinition definition)
    {
        this.journal = journal;
        this.definition = definition;
        this.encoder = new TableRowEncoder(table, definition);
        this.row = new TableRow(definition);
        this.key = new boolean[definition.columns().size()];
        for (int i = 0; i < definition.keySize(); i++)
        {
            key[definition.keyColumn(i)] = true;
        }
    }

    /** @return the table's definition. */
    public TableDefinition definition()
    {
        return definition;
    }

    /** @return this table's reusable row, cleared: every column at its default, valid from 0. */
    public TableRow row()
    {
        return row.clear();
    }

    /**
     * Append a version of the row's key, valid from its valid-from time on.
     *
     * @param row a row of this table ({@link #row()}).
     * @return the document's offset.
     * @throws IllegalArgumentException if the row is another table's, or a string key column is not set.
     */
    public long upsert(final TableRow row)
    {
        return journal.appendTableRow(encoder, checked(row), key, false, -1);
    }

    /**
     * Append a tombstone: the row's key is removed from its valid-from time on.
     *
     * @param row a row of this table; only its valid-from time and key columns are read.
     * @return the document's offset.
     * @throws IllegalArgumentException if the row is another table's, or a string key column is not set.
     */
    public long delete(final TableRow row)
    {
        return journal.appendTableRow(encoder, checked(row), key, true, -1);
    }

    /**
     * {@link #upsert} a row read from line {@code line} of the source of the current ingest (see
     * {@link EventJournal#appendIngestStart}): the row is a line of that ingest.
     *
     * @param row  a row of this table.
     * @param line the input line, &gt;= 0.
     * @return the document's offset.
     * @throws IllegalArgumentException if the row is another table's or the line is negative.
     */
    public long upsertIngested(final TableRow row, final long line)
    {
        return journal.appendTableRow(encoder, checked(row), key, false, checkedLine(line));
    }

    /**
     * {@link #delete} a row read from line {@code line} of the source of the current ingest.
     *
     * @param row  a row of this table; only its valid-from time and key columns are read.
     * @param line the input line, &gt;= 0.
     * @return the document's offset.
     * @throws IllegalArgumentException if the row is another table's or the line is negative.
     */
    public long deleteIngested(final TableRow row, final long line)
    {
        return journal.appendTableRow(encoder, checked(row), key, true, checkedLine(line));
    }

    private TableRow checked(final TableRow given)
    {
        if (given.definition() != definition)
        {
            throw new IllegalArgumentException("a row of table " + given.definition().name() + " appended to table " + definition.name());
        }
        return given;
    }

    private static long checkedLine(final long line)
    {
        if (line < 0)
        {
            throw new IllegalArgumentException("line must be >= 0: " + line);
        }
        return line;
    }
}
