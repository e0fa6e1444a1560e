package dev.weir.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints round-trip, old ones are pruned, sequences continue across reopening, and torn, truncated
 * or corrupt files are skipped in favour of the newest valid one.
 */
class CheckpointStoreTest
{
    @TempDir
    Path dir;

    @Test
    void roundTrips()
    {
        final CheckpointStore store = new CheckpointStore(dir.resolve("nested/checkpoints"), 3);
        final ByteBuffer payload = bytes("hello, weir");
        final int position = payload.position();
        assertEquals(1, store.write(payload));
        assertEquals(position, payload.position(), "the caller's buffer is untouched");

        final CheckpointStore.Loaded loaded = store.loadNewestValid();
        assertNotNull(loaded);
        assertEquals(1, loaded.sequence());
        assertEquals("hello, weir", string(loaded.payload()));
        assertEquals(store.files().get(0), loaded.file());
        assertEquals("checkpoint-00000000000000000001.bin", loaded.file().getFileName().toString());
        assertEquals(0, store.skippedInvalid());
    }

    @Test
    void writesFromPositionToLimit()
    {
        final CheckpointStore store = new CheckpointStore(dir, 2);
        final ByteBuffer payload = bytes("xxabcdeyy");
        payload.position(2).limit(7);
        store.write(payload);
        assertEquals(2, payload.position());
        assertEquals(7, payload.limit());
        assertEquals("abcde", string(store.loadNewestValid().payload()));
    }

    @Test
    void headerLayoutIsAsDocumented() throws IOException
    {
        final CheckpointStore store = new CheckpointStore(dir, 2);
        store.write(bytes("abc"));
        final ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(store.files().get(0)));
        assertEquals(0x57454952, file.getInt());
        assertEquals(1, file.getInt());
        assertEquals(1L, file.getLong());
        assertEquals(3, file.getInt());
        final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update("abc".getBytes(StandardCharsets.UTF_8));
        assertEquals((int)crc.getValue(), file.getInt());
        assertEquals(CheckpointStore.HEADER_BYTES + 3, file.capacity());
    }

    @Test
    void keepsOnlyTheNewest() throws IOException
    {
        final CheckpointStore store = new CheckpointStore(dir, 3);
        Files.write(dir.resolve(".checkpoint-00000000000000000002.bin.tmp"), new byte[] {1, 2, 3});
        Files.write(dir.resolve("unrelated.txt"), new byte[] {1});
        for (int i = 1; i <= 7; i++)
        {
            assertEquals(i, store.write(bytes("state " + i)));
        }
        final List<Path> files = store.files();
        assertEquals(3, files.size());
        assertEquals("checkpoint-00000000000000000005.bin", files.get(0).getFileName().toString());
        assertEquals("checkpoint-00000000000000000006.bin", files.get(1).getFileName().toString());
        assertEquals("checkpoint-00000000000000000007.bin", files.get(2).getFileName().toString());
        assertEquals("state 7", string(store.loadNewestValid().payload()));
        try (var entries = Files.list(dir))
        {
            assertEquals(List.of("checkpoint-00000000000000000005.bin", "checkpoint-00000000000000000006.bin",
                "checkpoint-00000000000000000007.bin", "unrelated.txt"),
                entries.map(p -> p.getFileName().toString()).sorted().toList(), "temporary files are cleaned up");
        }
    }

    @Test
    void refusesKeepBelowTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> new CheckpointStore(dir, 1));
    }

    @Test
    void sequenceContinuesAfterReopening()
    {
        final CheckpointStore first = new CheckpointStore(dir, 2);
        first.write(bytes("a"));
        first.write(bytes("b"));
        first.write(bytes("c"));

        final CheckpointStore second = new CheckpointStore(dir, 2);
        final CheckpointStore.Loaded loaded = second.loadNewestValid();
        assertEquals(3, loaded.sequence());
        assertEquals("c", string(loaded.payload()));
        assertEquals(4, second.write(bytes("d")));
        assertEquals(4, second.loadNewestValid().sequence());
        assertEquals(2, second.files().size());
    }

    @Test
    void truncatedNewestIsSkipped() throws IOException
    {
        final byte[] big = new byte[1_000];
        new SplittableRandom(3).nextBytes(big);
        final long[] cuts = {0, 1, 3, 4, 11, CheckpointStore.HEADER_BYTES - 1, CheckpointStore.HEADER_BYTES,
            CheckpointStore.HEADER_BYTES + 1, CheckpointStore.HEADER_BYTES + 500, CheckpointStore.HEADER_BYTES + big.length - 1};
        for (final long cut : cuts)
        {
            final Path sub = dir.resolve("cut-" + cut);
            final CheckpointStore store = new CheckpointStore(sub, 3);
            store.write(bytes("older"));
            store.write(bytes("previous"));
            final long newest = store.write(ByteBuffer.wrap(big));
            final Path newestFile = store.files().get(2);
            try (FileChannel channel = FileChannel.open(newestFile, StandardOpenOption.WRITE))
            {
                channel.truncate(cut);
            }
            final CheckpointStore reader = new CheckpointStore(sub, 3);
            final CheckpointStore.Loaded loaded = reader.loadNewestValid();
            assertNotNull(loaded, "cut at " + cut);
            assertEquals(newest - 1, loaded.sequence(), "cut at " + cut);
            assertEquals("previous", string(loaded.payload()), "cut at " + cut);
            assertEquals(1, reader.skippedInvalid(), "cut at " + cut);
        }
    }

    @Test
    void flippedPayloadByteIsSkipped() throws IOException
    {
        final CheckpointStore store = new CheckpointStore(dir, 3);
        store.write(bytes("previous"));
        store.write(bytes("newest payload"));
        final Path newest = store.files().get(1);
        final byte[] content = Files.readAllBytes(newest);
        content[CheckpointStore.HEADER_BYTES + 5] ^= 0x01;
        Files.write(newest, content);

        final CheckpointStore.Loaded loaded = store.loadNewestValid();
        assertEquals(1, loaded.sequence());
        assertEquals("previous", string(loaded.payload()));
        assertEquals(1, store.skippedInvalid());
    }

    @Test
    void appendedGarbageIsSkipped() throws IOException
    {
        final CheckpointStore store = new CheckpointStore(dir, 3);
        store.write(bytes("previous"));
        store.write(bytes("newest"));
        Files.write(store.files().get(1), new byte[] {0}, StandardOpenOption.APPEND);
        assertEquals("previous", string(store.loadNewestValid().payload()));
        assertEquals(1, store.skippedInvalid());
    }

    @Test
    void onlyInvalidFilesGiveNull() throws IOException
    {
        final CheckpointStore store = new CheckpointStore(dir, 3);
        Files.write(dir.resolve("checkpoint-00000000000000000001.bin"), new byte[0]);
        Files.write(dir.resolve("checkpoint-00000000000000000002.bin"), "not a checkpoint at all, just text".getBytes());
        final byte[] garbage = new byte[4_096];
        new SplittableRandom(5).nextBytes(garbage);
        Files.write(dir.resolve("checkpoint-00000000000000000003.bin"), garbage);
        assertNull(store.loadNewestValid());
        assertEquals(3, store.skippedInvalid());
        assertEquals(3, store.files().size(), "invalid files are never deleted by reading");

        assertEquals(4, store.write(bytes("fresh")), "a new checkpoint never reuses a sequence");
        assertEquals("fresh", string(store.loadNewestValid().payload()));
        assertEquals(0, store.skippedInvalid());
    }

    @Test
    void emptyDirectoryGivesNull()
    {
        final CheckpointStore store = new CheckpointStore(dir, 2);
        assertNull(store.loadNewestValid());
        assertEquals(0, store.skippedInvalid());
        assertTrue(store.files().isEmpty());
    }

    @Test
    void emptyPayloadRoundTrips()
    {
        final CheckpointStore store = new CheckpointStore(dir, 2);
        assertEquals(1, store.write(ByteBuffer.allocate(0)));
        final CheckpointStore.Loaded loaded = store.loadNewestValid();
        assertNotNull(loaded);
        assertEquals(0, loaded.payload().remaining());
    }

    @Test
    void twentyMegabytePayloadRoundTrips()
    {
        final byte[] big = new byte[20 * 1024 * 1024];
        new SplittableRandom(7).nextBytes(big);
        final CheckpointStore store = new CheckpointStore(dir, 2);
        final ByteBuffer direct = ByteBuffer.allocateDirect(big.length);
        direct.put(big).flip();
        store.write(direct);
        assertEquals(0, direct.position());
        final ByteBuffer payload = store.loadNewestValid().payload();
        final byte[] read = new byte[payload.remaining()];
        payload.get(read);
        assertArrayEquals(big, read);
    }

    private static ByteBuffer bytes(final String text)
    {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String string(final ByteBuffer buffer)
    {
        final byte[] content = new byte[buffer.remaining()];
        buffer.duplicate().get(content);
        return new String(content, StandardCharsets.UTF_8);
    }
}
