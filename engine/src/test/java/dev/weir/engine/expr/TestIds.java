package dev.weir.engine.expr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dense per-column dictionaries for tests, ids in order of first use, one per column (so two columns' ids of one text
 * differ in general, as an event column's and a table column's do); counts lookups.
 */
final class TestIds implements StringTexts
{
    private final Map<Integer, List<String>> byColumn = new HashMap<>();
    int lookups;

    /** @return the id of the text in the column, defining it if new. */
    int intern(final int column, final String text)
    {
        final List<String> strings = byColumn.computeIfAbsent(column, c -> new ArrayList<>());
        final int id = strings.indexOf(text);
        if (id >= 0)
        {
            return id;
        }
        strings.add(text);
        return strings.size() - 1;
    }

    String text(final int column, final int id)
    {
        return byColumn.get(column).get(id);
    }

    @Override
    public int idOf(final int column, final String text)
    {
        lookups++;
        return byColumn.getOrDefault(column, List.of()).indexOf(text);
    }

    @Override
    public CharSequence textOf(final int column, final int id)
    {
        return byColumn.get(column).get(id);
    }

    @Override
    public int definedCount(final int column)
    {
        return byColumn.getOrDefault(column, List.of()).size();
    }
}
