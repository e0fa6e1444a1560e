package dev.weir.engine.retention;

import java.util.List;

/**
 * What one pipeline's holders need of its output journal, and the key columns its history needs.
 * <p>
 * Immutable and thread-safe.
 *
 * @param pipeline    the pipeline's name.
 * @param outputFloor the first output position any holder may read ({@link RetentionFloor#FROM_START}: every
 *                    output), or {@link RetentionFloor#NOT_HELD} if nothing holds its outputs.
 * @param holder      the holder that sets {@code outputFloor} (the first found among equals: the checkpoint
 *                    before the deliveries), or null if nothing holds.
 * @param keyColumns  for a pipeline whose key ids are key tuples (several key columns, or a long or decimal
 *                    one), its key columns' indexes in the journal's schema, read from its checkpoint's
 *                    configuration; empty for a key of one string column, or when it has no valid checkpoint
 *                    (it then holds every event and output, so no history is needed for it).
 */
public record PipelineFloor(String pipeline, long outputFloor, RetentionHolder holder, List<Integer> keyColumns)
{
    /**
     * @param pipeline    the pipeline's name.
     * @param outputFloor the first output position any holder may read.
     * @param holder      the holder that sets it, or null.
     * @param keyColumns  the key tuple columns, or empty.
     */
    public PipelineFloor
    {
        keyColumns = List.copyOf(keyColumns);
    }

    /**
     * @return true if the pipeline's key ids are key tuples, whose history ({@link #keyColumns()}) outlives
     *         the events retention deletes.
     */
    public boolean keysByTuple()
    {
        return !keyColumns.isEmpty();
    }

    /**
     * @return the key columns as an array, for {@code KeyTuples}.
     */
    public int[] keyColumnArray()
    {
        return keyColumns.stream().mapToInt(Integer::intValue).toArray();
    }
}
