package dev.weir.kafka;

import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link PartitionCheckpoint}'s bytes: a round trip, and a flipped bit or a torn copy refused. */
final class PartitionCheckpointTest
{
    @Test
    void roundTripAndCorruptionRefused()
    {
        final TreeMap<Integer, TreeMap<Integer, String>> dictionaries = new TreeMap<>();
        final TreeMap<Integer, String> keys = new TreeMap<>();
        keys.put(0, "card-1");
        keys.put(2, "carte-é");
        dictionaries.put(0, keys);
        final byte[] engine = new byte[700_000];
        for (int i = 0; i < engine.length; i++)
        {
            engine[i] = (byte)(i * 31);
        }
        final PartitionCheckpoint checkpoint = new PartitionCheckpoint("payments", 3, 123_456, 789, 1_000, 42, 7, 6, 4, dictionaries,
            new int[] {2}, new long[] {90_210, -1, 7}, engine);
        final byte[] bytes = checkpoint.encode();
        assertTrue(bytes.length > CheckpointTopic.CHUNK_BYTES, "a checkpoint that needs two chunks");
        final PartitionCheckpoint read = PartitionCheckpoint.decode(bytes);
        assertEquals("payments", read.topic());
        assertEquals(3, read.partition());
        assertEquals(123_456, read.kafkaOffset());
        assertEquals(789, read.outputs());
        assertEquals(1_000, read.outputsFrom());
        assertEquals(42, read.rejectedThrough());
        assertEquals(7, read.rejectsFrom());
        assertEquals(6, read.outputPartitions());
        assertEquals(4, read.rejectedPartitions());
        assertEquals(dictionaries, read.dictionaries());
        assertArrayEquals(new int[] {2}, read.keyColumns());
        assertArrayEquals(new long[] {90_210, -1, 7}, read.tuples());
        assertArrayEquals(engine, read.engine());

        final byte[] flipped = bytes.clone();
        flipped[bytes.length / 2] ^= 1;
        assertThrows(IllegalStateException.class, () -> PartitionCheckpoint.decode(flipped));
        assertThrows(IllegalStateException.class, () -> PartitionCheckpoint.decode(java.util.Arrays.copyOf(bytes, bytes.length - 10)));
    }
}
