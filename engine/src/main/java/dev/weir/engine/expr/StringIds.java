package dev.weir.engine.expr;

/**
 * Resolves a string literal of a filter to its id in a string column's dictionary (the id
 * {@link dev.weir.journal.schema.EventView#stringId(int)} gives for events with that value).
 * <p>
 * Contract: when asked, it knows every id carried by the events handed to the filter so far (an adapter
 * over the journal's dictionaries refreshes them from the journal when a text is unknown). A filter asks
 * once when compiled, and again, for a literal still unknown, only when an event carries an id of that
 * column at or above every id it had seen at its last asking; so a literal that is never seen costs a
 * lookup per new string of its column, and nothing in steady state.
 * <p>
 * Called on the filter's owner thread.
 */
@FunctionalInterface
public interface StringIds
{
    /**
     * @param column the index of a {@link dev.weir.journal.schema.ColumnType#STRING} column.
     * @param text   the literal's text.
     * @return its id in that column's dictionary, or -1 if the column has never held it.
     */
    int idOf(int column, String text);
}
