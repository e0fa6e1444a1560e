package dev.weir.engine.expr;

/** Resolves a string literal to its id in a string column's dictionary. One owner thread: the filter's. */
@FunctionalInterface
public interface StringIds
{
    /**
     * @param column the index of a string column.
     * @param text   a string.
     * @return its id in that column's dictionary, or -1 if it has not appeared in the journal yet.
     */
    int idOf(int column, String text);
}
