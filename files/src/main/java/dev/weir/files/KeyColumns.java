package dev.weir.files;

import java.util.function.IntFunction;

/**
 * How a pipeline's key ids read as fields: one field per key column, each with its column's name and
 * text. Implementations say which thread may use them.
 */
interface KeyColumns
{
    /** @return the number of key columns. */
    int arity();

    /**
     * @param index a key column's position in the key.
     * @return its name.
     */
    String name(int index);

    /**
     * @param index a key column's position in the key.
     * @return true if it is a string column (quoted in JSON), false for a number.
     */
    boolean isString(int index);

    /**
     * @param keyId a key id from an output.
     * @param index a key column's position in the key.
     * @return that column's value for the key, as text.
     */
    String text(int keyId, int index);

    /**
     * @param name the key column's name.
     * @param text a key id's text.
     * @return a key of one string column.
     */
    static KeyColumns single(final String name, final IntFunction<String> text)
    {
        return new KeyColumns()
        {
            @Override
            public int arity()
            {
                return 1;
            }

            @Override
            public String name(final int index)
            {
                return name;
            }

            @Override
            public boolean isString(final int index)
            {
                return true;
            }

            @Override
            public String text(final int keyId, final int index)
            {
                return text.apply(keyId);
            }
        };
    }
}
