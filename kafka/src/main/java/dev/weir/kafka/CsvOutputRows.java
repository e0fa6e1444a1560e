package dev.weir.kafka;

import dev.weir.files.KeyText;
import dev.weir.files.ResultRow;
import dev.weir.files.RowColumns;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.codec.OutputDecoder;

/**
 * The output topic's rows as the files sink writes them ({@link OutputRows#csv(RowColumns)}): a result as the
 * results CSV holds it, a late event as the late-events CSV holds it, keyed by the text of its key: a key of one
 * column is that column's text as it is, a key of several their texts joined by commas as the row has them
 * ({@link KeyText#key(int)}), the record key the source topic's records have. Not
 * thread-safe: one per partition, on the instance's Kafka thread (which reads the key text).
 */
final class CsvOutputRows implements OutputRows
{
    private final KeyText keys;
    private final ResultRow format;
    private final StringBuilder row = new StringBuilder(128);

    /**
     * @param columns   the pipeline's key, value and aggregations.
     * @param directory the partition's journal.
     */
    CsvOutputRows(final RowColumns columns, final JournalDirectory directory)
    {
        this.keys = columns.keyText(directory);
        this.format = columns.rows(directory, keys);
    }

    @Override
    public String key(final OutputDecoder output)
    {
        final int keyId = output.isResult() ? output.result().keyId() : output.late().keyId();
        return keys.arity() == 1 ? keys.text(keyId, 0) : keys.key(keyId);
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
    public void releasePassedCycles()
    {
        keys.releasePassedCycles();
    }

    @Override
    public void close()
    {
        keys.close();
    }
}
