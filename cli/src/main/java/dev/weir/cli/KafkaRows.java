package dev.weir.cli;

import dev.weir.files.KeyText;
import dev.weir.files.ResultRow;
import dev.weir.files.RowColumns;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputDecoder;
import dev.weir.kafka.OutputRows;

/**
 * The rows {@code weir run --kafka} produces to the output topic: a result as the results CSV holds it, a late
 * event as the late-events CSV holds it, keyed by the text of its key. Not thread-safe: one per partition, on
 * the instance's Kafka thread (which reads the key text).
 */
final class KafkaRows implements OutputRows
{
    private final KeyText keys;
    private final ResultRow format;
    private final StringBuilder row = new StringBuilder(128);

    /**
     * @param columns   the pipeline's key, value and aggregations.
     * @param directory the partition's journal.
     */
    KafkaRows(final RowColumns columns, final JournalDirectory directory)
    {
        this.keys = columns.keyText(directory);
        this.format = columns.rows(directory, keys);
    }

    @Override
    public String key(final OutputDecoder output)
    {
        final int keyId = output.isResult() ? output.result().keyId() : output.late().keyId();
        return keys.text(keyId, 0);
    }

    @Override
    public String value(final OutputDecoder output)
    {
        if (output.isResult())
        {
            row.setLength(0);
            return format.csv(row, output.result()).toString();
        }
        return format.late(output.late());
    }

    @Override
    public void close()
    {
        keys.close();
    }
}
