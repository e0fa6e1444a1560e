package dev.weir.csv;

import dev.weir.journal.EventJournal;

/**
 * The allocation-free way of ingesting a CSV line: parse it from its bytes and append it with the ids of
 * strings seen before. It takes only lines whose every field is in a plain form it reads exactly as the
 * line's {@link String} way ({@link ColumnsLine}) does, and whose strings it has {@link #learn learned};
 * any other line (a bad line, a quoted or spaced number, an overlong number, a string never seen) it
 * leaves to the {@link String} way, which then gives the verdict, the reason and the event. So a line
 * becomes the same event, or the same rejected line, whichever way it goes.
 * <p>
 * Not thread-safe: the ingesting thread.
 */
interface LineBytes
{
    /**
     * @param bytes holds the line, without its terminator.
     * @param start the line's first byte.
     * @param end   one past its last byte.
     * @return true if the line is a valid event, now held here; false if it must go the String way.
     */
    boolean parse(byte[] bytes, int start, int end);

    /**
     * Append the event last {@link #parse parsed}.
     *
     * @param journal            the journal.
     * @param line               the line's number.
     * @param unterminatedLength the line's length if it had no terminator, else -1.
     * @return the offset of the appended event.
     */
    long append(EventJournal journal, long line, long unterminatedLength);

    /**
     * Learn the strings of a valid line taken the String way and appended, so that lines with the same
     * strings can be taken here. Allocates for a string not learned yet.
     *
     * @param journal the journal it was appended to (its strings are interned there).
     * @param event   the line as parsed.
     */
    void learn(EventJournal journal, ColumnsLine event);

    /**
     * @param schema the columns of the lines.
     * @return the way for lines of those columns.
     */
    static LineBytes of(final dev.weir.journal.JournalSchema schema)
    {
        return schema.isDefault() ? new DefaultLineBytes() : new ColumnsLineBytes(schema);
    }
}
