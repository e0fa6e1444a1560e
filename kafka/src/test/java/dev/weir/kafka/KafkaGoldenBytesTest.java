package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import dev.weir.journal.schema.NewerFormatException;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.test.golden.GoldenBytes;
import dev.weir.test.golden.GoldenBytes.Sample;
import org.junit.jupiter.api.Test;

/**
 * The Kafka partition checkpoint byte for byte: the record this build writes from fixed inputs is the committed
 * version 4 with reference tables and version 3 without ({@code src/test/resources/golden-bytes}); every committed
 * version, 1 (without the partition counts), 2 (without the key tuples), 3 (without tables) and 4, is read back with its values; and a record one version above the newest is refused with
 * {@link NewerFormatException}.
 */
final class KafkaGoldenBytesTest
{
    private final GoldenBytes golden = GoldenBytes.ofThisModule();

    private static PartitionCheckpoint checkpoint()
    {
        final TreeMap<Integer, TreeMap<Integer, String>> dictionaries = new TreeMap<>();
        dictionaries.put(0, new TreeMap<>(Map.of(0, "card-1", 2, "carte-é")));
        return new PartitionCheckpoint("payments", 3, 123_456, 789, 1_000, 42, 7, 6, 4, dictionaries, new int[] {0, 3}, new long[] {0, 17, 2, -5},
            new byte[] {1, 2, 3, 5, 8, 13});
    }

    /** The same checkpoint with a table of two rows (one a tombstone) and the greatest time read. */
    private static PartitionCheckpoint checkpointWithTables()
    {
        final PartitionCheckpoint plain = checkpoint();
        final PartitionTables tables = new PartitionTables(List.of(TableDefinition.parse("cards", "card", "card:string,limit:decimal(2)")),
            1_764_576_000_123L, new int[] {0, 0}, List.of("0,card-1,100.00,".getBytes(StandardCharsets.UTF_8),
                "5000,carte-é,,delete".getBytes(StandardCharsets.UTF_8)));
        return new PartitionCheckpoint(plain.topic(), plain.partition(), plain.kafkaOffset(), plain.outputs(), plain.outputsFrom(),
            plain.rejectedThrough(), plain.rejectsFrom(), plain.outputPartitions(), plain.rejectedPartitions(), plain.dictionaries(),
            plain.keyColumns(), plain.tuples(), tables, plain.engine());
    }

    @Test
    void partitionCheckpoint()
    {
        final String common = "payments-3 at Kafka offset 123456, 789 outputs"
            + " from 1000, rejections through 42 from 7, 6 output and 4 rejected partitions, column 0 {0 card-1, 2 carte-é}, key tuples of"
            + " columns 0 3 {0: (0, 17), 1: (2, -5)}";
        // without tables, this build still writes version 3, which a Weir before tables reads
        golden.check("partition-checkpoint", PartitionCheckpoint.VERSION_WITHOUT_TABLES, List.of(new Sample(common
            + ", engine payload 1 2 3 5 8 13", checkpoint().encode())));
        golden.check("partition-checkpoint", PartitionCheckpoint.VERSION, List.of(new Sample(common + ", table cards key card columns"
            + " card:string,limit:decimal(2) read through time 1764576000123, rows [0,card-1,100.00,] and [5000,carte-é,,delete],"
            + " engine payload 1 2 3 5 8 13", checkpointWithTables().encode())));
        final Map<Integer, List<byte[]>> versions = golden.versions("partition-checkpoint");
        assertTrue(versions.containsKey(1), "version 1, without the partition counts, is committed");
        assertTrue(versions.containsKey(2), "version 2, without the key tuples, is committed");
        assertTrue(versions.containsKey(3), "version 3, without the tables, is committed");
        for (final Map.Entry<Integer, List<byte[]>> version : versions.entrySet())
        {
            final PartitionCheckpoint read = PartitionCheckpoint.decode(version.getValue().get(0));
            final PartitionCheckpoint expected = version.getKey() >= 4 ? checkpointWithTables() : checkpoint();
            assertEquals(List.of(expected.topic(), expected.partition(), expected.kafkaOffset(), expected.outputs(), expected.outputsFrom(),
                expected.rejectedThrough(), expected.rejectsFrom()), List.of(read.topic(), read.partition(), read.kafkaOffset(), read.outputs(),
                read.outputsFrom(), read.rejectedThrough(), read.rejectsFrom()));
            final int counts = version.getKey() >= 2 ? 1 : 0; // version 1 reads as 0: unknown
            assertEquals(List.of(expected.outputPartitions() * counts, expected.rejectedPartitions() * counts),
                List.of(read.outputPartitions(), read.rejectedPartitions()));
            assertEquals(expected.dictionaries(), read.dictionaries());
            final boolean tuples = version.getKey() >= 3; // versions 1 and 2 read as none: the key's ids were dictionary ids
            assertArrayEquals(tuples ? expected.keyColumns() : null, read.keyColumns());
            assertArrayEquals(tuples ? expected.tuples() : new long[0], read.tuples());
            assertArrayEquals(expected.engine(), read.engine());
            assertEquals(expected.tables(), read.tables()); // versions 1 to 3 read as none
        }
    }

    @Test
    void aPartitionCheckpointOfANewerVersionIsRefused()
    {
        final byte[] bytes = golden.records("partition-checkpoint", PartitionCheckpoint.VERSION).get(0).clone();
        final ByteBuffer buffer = ByteBuffer.wrap(bytes).putInt(8, PartitionCheckpoint.VERSION + 1);
        final CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        buffer.putInt(bytes.length - 4, (int)crc.getValue());
        final NewerFormatException refused = assertThrows(NewerFormatException.class, () -> PartitionCheckpoint.decode(bytes, "the checkpoint keyed t:3:0"));
        assertEquals(List.of("Kafka partition checkpoint", PartitionCheckpoint.VERSION + 1, PartitionCheckpoint.VERSION),
            List.of(refused.format(), refused.found(), refused.newestRead()));
        assertTrue(refused.getMessage().startsWith("the checkpoint keyed t:3:0 is Kafka partition checkpoint version " + (PartitionCheckpoint.VERSION + 1)),
            refused.getMessage());
    }
}
