package dev.weir.engine.join;

import dev.weir.engine.expr.StringTexts;

/**
 * The texts of a {@link JoinedView}'s string columns: an event column's from the event's dictionaries, a table
 * column's from its {@link TableTexts}; so a filter compares an event column with a table column by text, and
 * resolves a literal in either. Allocation-free in steady state.
 * <p>
 * Not thread-safe: the publisher's (the filter's owner thread).
 */
public final class JoinedTexts implements StringTexts
{
    private final StringTexts events;
    private final JoinedView view;

    /**
     * @param events the texts of the event's string columns.
     * @param view   the joined view whose columns these are.
     */
    public JoinedTexts(final StringTexts events, final JoinedView view)
    {
        this.events = events;
        this.view = view;
    }

    @Override
    public int idOf(final int column, final String text)
    {
        return column < view.eventColumns() ? events.idOf(column, text) : view.texts(column).idOf(text);
    }

    @Override
    public CharSequence textOf(final int column, final int id)
    {
        return column < view.eventColumns() ? events.textOf(column, id) : view.texts(column).text(id);
    }

    @Override
    public int definedCount(final int column)
    {
        return column < view.eventColumns() ? events.definedCount(column) : view.texts(column).size();
    }
}
