package dev.weir.journal;

/**
 * Resolves the key tuple ids that a pipeline's outputs carry (see {@link KeyTuples}) by reading the
 * journal's events only as far as needed: an id met for the first time makes it read on until the event
 * that defined it. An output is written after the event it derives from, so every id in an output journal
 * resolves.
 * <p>
 * Not thread-safe: one owner thread.
 */
public final class KeyTupleReader implements AutoCloseable
{
    private static final int BATCH = 4096;

    private final JournalReader reader;
    private final KeyTuples tuples;
    private final EventViewConsumer add;

    private KeyTupleReader(final JournalDirectory directory, final int[] columns)
    {
        this.tuples = KeyTuples.start(directory, columns);
        this.reader = JournalReader.open(directory);
        this.add = (offset, event) -> tuples.idOf(event);
    }

    /**
     * @param directory the journal.
     * @param columns   the key columns' indexes, in key order.
     * @return a reader positioned at the journal's start (its {@link HistoryBase}'s first offset, with the base's
     *         tuples, if it has one), having read nothing yet.
     */
    public static KeyTupleReader open(final JournalDirectory directory, final int[] columns)
    {
        return new KeyTupleReader(directory, columns);
    }

    /** @return the number of key columns. */
    public int arity()
    {
        return tuples.arity();
    }

    /**
     * @param id    a key tuple id from an output.
     * @param index a key column's position in the key.
     * @return the column's value in that tuple: a string column's dictionary id, or an unscaled long.
     * @throws IllegalArgumentException if the journal holds no such tuple.
     */
    public long component(final int id, final int index)
    {
        while (id >= tuples.size() && reader.poll(add, BATCH) > 0)
        {
            // read on to the event that defines the id
        }
        return tuples.component(id, index);
    }

    /**
     * Read every event appended so far and give the tuples numbered through them: what a journal rebuilt from a
     * checkpoint taken at or before this end is seeded with ({@link HistoryBase#seed(JournalDirectory, java.util.SortedMap,
     * int[], long[])}) to number its tuples as this journal does. Owner thread.
     *
     * @return every tuple's components, flat in id order, {@link #arity()} per tuple (a copy).
     */
    public long[] tuplesThroughEnd()
    {
        while (reader.poll(add, BATCH) > 0)
        {
            // read to the end
        }
        return tuples.components();
    }

    /**
     * Read on while the journal has a cycle newer than the one the reader stands in, so that it lets go of the
     * cycles it passed (see {@link JournalReader#behindNewestCycle()}); the tuples it meets are kept for the
     * outputs that will carry them. Reads nothing when the reader is in the newest cycle. Owner thread.
     */
    public void releasePassedCycles()
    {
        while (reader.behindNewestCycle() && reader.poll(add, BATCH) > 0)
        {
            // read into the newest cycle
        }
    }

    /** Hand the reader to another thread: the next thread to use it becomes its owner. */
    public void handOff()
    {
        reader.handOff();
    }

    @Override
    public void close()
    {
        reader.close();
    }
}
