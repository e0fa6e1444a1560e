package dev.weir.engine.expr;

/**
 * Text of string ids, per column index of an {@link ExpressionColumns}, so two string columns whose ids come from
 * different dictionaries (an event column and a table column, or two event columns) can be compared: equal texts
 * are equal, whatever the dictionary. As a {@link StringIds} it resolves literals under that interface's contract.
 * <p>
 * Contract: ids of a column are dense and given in order of first use; {@link #definedCount} only grows, and
 * every id an event handed to the filter carries is below it. Called on the filter's owner thread.
 * Allocation-free in steady state.
 */
public interface StringTexts extends StringIds
{
    /**
     * @param column the index of a string column of the {@link ExpressionColumns}.
     * @param id     an id that column has carried (below {@link #definedCount}).
     * @return its text; may be a reused flyweight, valid until the next call.
     */
    CharSequence textOf(int column, int id);

    /**
     * @param column the index of a string column of the {@link ExpressionColumns}.
     * @return how many ids are defined so far: ids 0 .. that - 1 (grows).
     */
    int definedCount(int column);
}
