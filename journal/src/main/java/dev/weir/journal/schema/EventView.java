package dev.weir.journal.schema;

/**
 * One whole event as a journal reader hands it over: its id, time and every column of its journal's
 * {@link JournalSchema}, by column index (0 for the first named column). A flyweight over the stored
 * document, valid only during the call that hands it over; reading allocates nothing.
 * <p>
 * Not thread-safe: the reading thread's.
 */
public interface EventView
{
    /** @return the event's id. */
    long eventId();

    /** @return the event's time, epoch ms. */
    long eventTime();

    /**
     * @param column the index of a {@link ColumnType#LONG} or {@link ColumnType#DECIMAL} column.
     * @return its value (a decimal's unscaled long).
     */
    long longColumn(int column);

    /**
     * @param column the index of a {@link ColumnType#STRING} column.
     * @return the id of its value in that column's dictionary.
     */
    int stringId(int column);
}
