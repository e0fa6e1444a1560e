package dev.weir.files;

import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.JournalDirectory;

/**
 * The text of a pipeline's key ids, one field per key column, as the output files print them: the engine's
 * {@link dev.weir.engine.emit.KeyText} over the journal, seen as {@link KeyColumns}.
 * <p>
 * Not thread-safe: one owner thread at a time ({@link #handOff()} moves it).
 */
public final class KeyText implements KeyColumns, AutoCloseable
{
    private final dev.weir.engine.emit.KeyText keys;

    private KeyText(final dev.weir.engine.emit.KeyText keys)
    {
        this.keys = keys;
    }

    /**
     * @param directory  the journal.
     * @param projection the pipeline's key and value columns.
     * @return the key text of that pipeline's outputs.
     */
    public static KeyText open(final JournalDirectory directory, final ColumnProjection projection)
    {
        return new KeyText(dev.weir.engine.emit.KeyText.open(directory, projection));
    }

    /** @return the number of key columns. */
    @Override
    public int arity()
    {
        return keys.arity();
    }

    /**
     * @param index a key column's position in the key.
     * @return its name.
     */
    @Override
    public String name(final int index)
    {
        return keys.name(index);
    }

    /**
     * @param index a key column's position in the key.
     * @return true if it is a string column (quoted in JSON), false for a number.
     */
    @Override
    public boolean isString(final int index)
    {
        return keys.isString(index);
    }

    /**
     * @param keyId a key id from an output.
     * @param index a key column's position in the key.
     * @return that column's value for the key, as text.
     */
    @Override
    public String text(final int keyId, final int index)
    {
        return keys.text(keyId, index);
    }

    /**
     * @param keyId a key id from an output.
     * @return the whole key's text as a result row prints it: its fields joined by commas in key order, a field
     *         holding a comma, quote or line break quoted as RFC 4180 has it ({@link dev.weir.engine.emit.KeyText#key}).
     */
    public String key(final int keyId)
    {
        return keys.key(keyId).toString();
    }

    /** Let go of the journal cycles its reads have passed: see {@link dev.weir.engine.emit.KeyText#releasePassedCycles()}. */
    public void releasePassedCycles()
    {
        keys.releasePassedCycles();
    }

    /** Hand it to another thread: the next thread to use it becomes its owner. */
    public void handOff()
    {
        keys.handOff();
    }

    @Override
    public void close()
    {
        keys.close();
    }
}
