package dev.weir.journal.schema;

/**
 * One table row of the journal, read in place: a version of one key of a reference table
 * ({@link TableDefinition}), valid from {@link #validFrom()} on, or a tombstone that removes the key from then on.
 * Valid only during the call it is handed to. Reading it allocates nothing.
 * <p>
 * Not thread-safe: the reading thread's.
 */
public interface TableRowView
{
    /** @return the table's index: its position in the journal's list of tables. */
    int table();

    /** @return the time the row is valid from, epoch ms &gt;= 0. */
    long validFrom();

    /** @return true if the key is removed from {@link #validFrom()} on; its non-key columns read 0 and "". */
    boolean tombstone();

    /**
     * @param column the index of a long or decimal column in the table's columns.
     * @return its value (a decimal's unscaled long).
     */
    long longColumn(int column);

    /**
     * @param column the index of a string column in the table's columns.
     * @return its text: a reused flyweight, valid during the call.
     */
    CharSequence string(int column);
}
