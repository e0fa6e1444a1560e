package dev.weir.test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.weir.engine.expr.StringTexts;

/**
 * The string dictionaries of the driver's events, in memory: per string column, ids from 0 in order of
 * first occurrence, as a journal's dictionaries number them.
 * <p>
 * Not thread-safe: the driver's.
 */
final class TestStrings implements StringTexts
{
    private final List<Map<String, Integer>> ids = new ArrayList<>();
    private final List<List<String>> texts = new ArrayList<>();

    /**
     * @param columns the schema's size (a dictionary per column; those of non-string columns stay empty).
     */
    TestStrings(final int columns)
    {
        for (int i = 0; i < columns; i++)
        {
            ids.add(new HashMap<>());
            texts.add(new ArrayList<>());
        }
    }

    /**
     * @param column a string column.
     * @param text   a value.
     * @return its id, given now if the column has not held it before.
     */
    int intern(final int column, final String text)
    {
        final Integer known = ids.get(column).get(text);
        if (known != null)
        {
            return known;
        }
        final List<String> values = texts.get(column);
        final int id = values.size();
        values.add(text);
        ids.get(column).put(text, id);
        return id;
    }

    @Override
    public int idOf(final int column, final String text)
    {
        final Integer known = ids.get(column).get(text);
        return known == null ? -1 : known;
    }

    /**
     * @param column a string column.
     * @param id     an id it has given.
     * @return the value.
     */
    String text(final int column, final int id)
    {
        return texts.get(column).get(id);
    }

    @Override
    public CharSequence textOf(final int column, final int id)
    {
        return text(column, id);
    }

    @Override
    public int definedCount(final int column)
    {
        return texts.get(column).size();
    }
}
