package dev.weir.bench;

import dev.weir.journal.schema.TableRowView;

/**
 * A table row as the journal reader hands one to a join, made up by a benchmark: the key (column 0, a string), a
 * long or decimal value (every long column), and a text (every other string column). Set its fields, hand it on,
 * set them again. Not thread-safe: the benchmark's thread.
 */
final class SyntheticTableRow implements TableRowView
{
    int table;
    long validFrom;
    CharSequence key;
    long value;
    CharSequence text;

    @Override
    public int table()
    {
        return table;
    }

    @Override
    public long validFrom()
    {
        return validFrom;
    }

    @Override
    public boolean tombstone()
    {
        return false;
    }

    @Override
    public long longColumn(final int column)
    {
        return value;
    }

    @Override
    public CharSequence string(final int column)
    {
        return column == 0 ? key : text;
    }
}
