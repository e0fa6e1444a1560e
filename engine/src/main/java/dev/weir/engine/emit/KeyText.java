package dev.weir.engine.emit;

import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.KeyTupleReader;
import dev.weir.journal.StringDictionaries;

/**
 * The text of a pipeline's key ids, one field per key column: a string column's value from its dictionary, a
 * long column's digits, a decimal column's value at its scale. A key of one string column has that column's
 * dictionary ids; any other key has {@link dev.weir.journal.KeyTuples} ids. Over a journal
 * ({@link #open}) the dictionaries and tuples are read from the journal when first needed and then as far
 * as each new id's first event, so a pipeline that follows a growing journal resolves every key it emits.
 * <p>
 * The whole key's text is its fields joined by commas, a field holding a comma, quote or line break quoted as
 * RFC 4180 has it: the key fields of the CLI's CSV result rows.
 * <p>
 * {@link #key(int)} and {@link #column(int, int)} return flyweights that allocate nothing for a key already
 * seen: the dictionary's own string for a string column, else text in a builder this reuses, valid until the
 * next call. Not thread-safe: one owner thread at a time ({@link #handOff()} moves it).
 */
public final class KeyText implements AutoCloseable
{
    /** A string column's values by id: a journal's dictionaries, or an in-memory run's. */
    @FunctionalInterface
    public interface Strings
    {
        /**
         * @param column a string column's index in the schema.
         * @param id     an id of that column's dictionary.
         * @return its text.
         */
        String text(int column, int id);
    }

    /** The components of key tuple ids: a journal's {@link KeyTupleReader}, or an in-memory run's tuples. */
    @FunctionalInterface
    public interface Tuples
    {
        /**
         * @param keyId a key tuple id.
         * @param index a key column's position in the key.
         * @return the column's value: a string column's dictionary id, or an unscaled long.
         */
        long component(int keyId, int index);
    }

    private final JournalSchema schema;
    private final int[] columns;
    private final boolean byTuple;
    /** The journal whose dictionaries and tuples are opened at the first use, or null if given. */
    private final JournalDirectory directory;
    private StringDictionaries dictionaries;
    private KeyTupleReader reader;
    private Strings strings;
    private Tuples tuples;
    private final StringBuilder keyText = new StringBuilder(64);
    private final StringBuilder[] columnText;

    private KeyText(final ColumnProjection projection, final JournalDirectory directory, final Strings strings, final Tuples tuples)
    {
        this.schema = projection.schema();
        this.columns = projection.keyColumns();
        this.byTuple = projection.keysByTuple();
        this.directory = directory;
        this.strings = strings;
        this.tuples = tuples;
        this.columnText = new StringBuilder[columns.length];
        for (int i = 0; i < columns.length; i++)
        {
            columnText[i] = new StringBuilder(24);
        }
    }

    /**
     * @param directory  the journal.
     * @param projection the pipeline's key and value columns.
     * @return the key text of that pipeline's outputs; opens the journal's dictionaries (and its key tuples) at
     *         its first use, on the owner thread.
     */
    public static KeyText open(final JournalDirectory directory, final ColumnProjection projection)
    {
        return new KeyText(projection, directory, null, null);
    }

    /**
     * @param projection the pipeline's key and value columns.
     * @param strings    the string columns' values by id.
     * @param tuples     the key tuples, or null if the key is one string column (its ids are the dictionary's).
     * @return the key text of an in-memory run's outputs.
     */
    public static KeyText of(final ColumnProjection projection, final Strings strings, final Tuples tuples)
    {
        return new KeyText(projection, null, strings, tuples);
    }

    /** @return the number of key columns. */
    public int arity()
    {
        return columns.length;
    }

    /**
     * @param index a key column's position in the key.
     * @return its name.
     */
    public String name(final int index)
    {
        return schema.column(columns[index]).name();
    }

    /**
     * @param name a column's name.
     * @return its position in the key, or -1 if it is not a key column; allocates nothing.
     */
    public int indexOf(final String name)
    {
        for (int i = 0; i < columns.length; i++)
        {
            if (schema.column(columns[i]).name().equals(name))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param index a key column's position in the key.
     * @return true if it is a string column, false for a number.
     */
    public boolean isString(final int index)
    {
        return schema.column(columns[index]).type() == ColumnType.STRING;
    }

    /**
     * @param keyId a key id from an output.
     * @param index a key column's position in the key.
     * @return that column's value for the key, as a new string for a number.
     */
    public String text(final int keyId, final int index)
    {
        return column(keyId, index).toString();
    }

    /**
     * @param keyId a key id from an output.
     * @param index a key column's position in the key.
     * @return that column's value for the key: a flyweight, valid until the next call for this column.
     */
    public CharSequence column(final int keyId, final int index)
    {
        resolve();
        if (!byTuple)
        {
            return strings.text(columns[0], keyId);
        }
        final long component = tuples.component(keyId, index);
        final JournalSchema.Column column = schema.column(columns[index]);
        if (column.type() == ColumnType.STRING)
        {
            return strings.text(columns[index], (int)component);
        }
        final StringBuilder text = columnText[index];
        text.setLength(0);
        return DecimalText.append(text, component, column.scale());
    }

    /**
     * @param keyId a key id from an output.
     * @return the key's text (its fields joined as a CSV row joins them): a flyweight, valid until the next call.
     */
    public CharSequence key(final int keyId)
    {
        if (!byTuple)
        {
            final String text = (String)column(keyId, 0);
            if (!needsQuotes(text))
            {
                return text;
            }
        }
        keyText.setLength(0);
        return appendKey(keyId, keyText);
    }

    /**
     * @param keyId a key id from an output.
     * @param to    where to append the key's text.
     * @return {@code to}.
     */
    public StringBuilder appendKey(final int keyId, final StringBuilder to)
    {
        for (int i = 0; i < columns.length; i++)
        {
            if (i > 0)
            {
                to.append(',');
            }
            appendField(to, column(keyId, i));
        }
        return to;
    }

    /**
     * @param to    where to append.
     * @param field a field's text.
     * @return {@code to}, with the field quoted as RFC 4180 has it if it holds a comma, quote or line break.
     */
    public static StringBuilder appendField(final StringBuilder to, final CharSequence field)
    {
        if (!needsQuotes(field))
        {
            return to.append(field);
        }
        to.append('"');
        for (int c = 0; c < field.length(); c++)
        {
            final char ch = field.charAt(c);
            to.append(ch);
            if (ch == '"')
            {
                to.append('"');
            }
        }
        return to.append('"');
    }

    private static boolean needsQuotes(final CharSequence field)
    {
        for (int c = 0; c < field.length(); c++)
        {
            final char ch = field.charAt(c);
            if (ch == ',' || ch == '"' || ch == '\n' || ch == '\r')
            {
                return true;
            }
        }
        return false;
    }

    /** Open the journal's dictionaries and tuples at the first use, on the owner thread. */
    private void resolve()
    {
        if (strings != null || directory == null)
        {
            return;
        }
        dictionaries = StringDictionaries.open(directory);
        final StringDictionaries opened = dictionaries;
        strings = (column, id) -> opened.dictionary(column).name(id);
        if (byTuple)
        {
            reader = KeyTupleReader.open(directory, columns);
            tuples = reader::component;
        }
    }

    /**
     * Let go of the journal cycles its reads have passed, so that the cycles retention removes are not kept open
     * (see {@link StringDictionaries#releasePassedCycles()}); nothing if it reads no journal. Call it now and then
     * on the owner thread, e.g. between batches of outputs.
     */
    public void releasePassedCycles()
    {
        if (dictionaries != null)
        {
            dictionaries.releasePassedCycles();
        }
        if (reader != null)
        {
            reader.releasePassedCycles();
        }
    }

    /** Hand it to another thread: the next thread to use it becomes its owner. */
    public void handOff()
    {
        if (dictionaries != null)
        {
            dictionaries.handOff();
        }
        if (reader != null)
        {
            reader.handOff();
        }
    }

    /** Close what it opened over a journal, if anything. */
    @Override
    public void close()
    {
        if (reader != null)
        {
            reader.close();
        }
        if (dictionaries != null)
        {
            dictionaries.close();
        }
    }
}
