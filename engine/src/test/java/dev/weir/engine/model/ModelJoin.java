package dev.weir.engine.model;

import java.util.List;
import java.util.Objects;

/**
 * One join of the model: a table and the event columns that give its key, in key order. Immutable.
 * Test-only; shares no code with the engine.
 *
 * @param table        the table's name.
 * @param eventColumns the event column for each key column of the table.
 */
public record ModelJoin(String table, List<String> eventColumns)
{
    public ModelJoin
    {
        Objects.requireNonNull(table, "table");
        eventColumns = List.copyOf(eventColumns);
    }
}
