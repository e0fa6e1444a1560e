package dev.weir.journal.codec;

/**
 * Which string ids the documents read so far have defined, per string column: what tells, in a scan of
 * the events queue from its start, which of an {@link DocumentType#EVENT_NEW_KEY} event's string ids are
 * new, so which strings it carries (see {@link EventDecoder#newStrings}). Not thread-safe.
 */
public interface StringDefinitions
{
    /**
     * @param column a string column's index.
     * @param id     an id of that column.
     * @return true if a document read before the current one defined it.
     */
    boolean isDefined(int column, int id);
}
