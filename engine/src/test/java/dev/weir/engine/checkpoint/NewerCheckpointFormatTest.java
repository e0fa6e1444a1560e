package dev.weir.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import dev.weir.engine.Recovery;
import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.NewerFormatException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint file, envelope or state of a version above what this build reads was written by a newer Weir: it is
 * refused with {@link NewerFormatException} naming both versions, never skipped for an older checkpoint, never
 * taken for another configuration.
 */
class NewerCheckpointFormatTest
{
    @TempDir
    Path dir;

    private CheckpointStore store;
    private String configuration;

    @BeforeEach
    void aJournalWithCheckpoints()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            for (int i = 0; i < 1_000; i++)
            {
                journal.append(i, 1_000L * i, "k" + (i % 7), i);
            }
        }
        Weir.pipeline().journal(dir).window(TumblingWindows.of(10_000)).checkpointEvery(300).build().runToEnd();
        store = new CheckpointStore(JournalDirectory.open(dir).checkpoints(), 3);
        configuration = CheckpointCodec.describe(store.loadNewestValid()).configuration();
    }

    @Test
    void aCheckpointFileOfANewerVersionIsRefusedNotSkipped() throws IOException
    {
        final Path newest = store.files().get(store.files().size() - 1);
        putInt(newest, 4, CheckpointStore.FORMAT_VERSION + 1); // the header's version; the CRC covers the payload only
        final NewerFormatException refused = assertThrows(NewerFormatException.class, () -> store.loadNewestValid());
        assertEquals(CheckpointStore.FORMAT_VERSION + 1, refused.found());
        assertEquals(CheckpointStore.FORMAT_VERSION, refused.newestRead());
        assertTrue(refused.getMessage().contains(newest.toString()) && refused.getMessage().contains("checkpoint file version 2")
            && refused.getMessage().contains("up to 1"), refused.getMessage());

        putInt(newest, 20, 0x0BAD); // its CRC: a torn or corrupt file is skipped, whatever its version says
        assertTrue(store.loadNewestValid().sequence() < sequenceOf(newest));
    }

    @Test
    void anEnvelopeOfANewerVersionIsRefused()
    {
        final CheckpointStore.Loaded loaded = withInt(0, CheckpointCodec.ENVELOPE_VERSION + 1);
        final NewerFormatException refused = assertThrows(NewerFormatException.class, () -> Recovery.load(store, configuration, JournalDirectory.open(dir)));
        assertTrue(refused.getMessage().contains("checkpoint envelope version 2") && refused.getMessage().contains("up to 1"), refused.getMessage());
        assertThrows(NewerFormatException.class, () -> CheckpointCodec.describe(loaded));
        assertThrows(NewerFormatException.class, () -> CheckpointCodec.relocate(loaded.payload(), 1, 2));
    }

    @Test
    void aStateOfANewerFormatIsRefused()
    {
        withInt(CheckpointCodec.stateStart(store.loadNewestValid().payload()), OperatorStateCodec.NEWEST_READ + 1);
        final NewerFormatException refused = assertThrows(NewerFormatException.class, () -> Recovery.load(store, configuration, JournalDirectory.open(dir)));
        assertTrue(refused.getMessage().contains("checkpoint state version " + (OperatorStateCodec.NEWEST_READ + 1))
            && refused.getMessage().contains("up to " + OperatorStateCodec.NEWEST_READ), refused.getMessage());
        assertThrows(NewerFormatException.class, () -> Weir.pipeline().journal(dir).window(TumblingWindows.of(10_000)).build());
    }

    /** Write a copy of the newest checkpoint with an int of its payload replaced, as the newest checkpoint. */
    private CheckpointStore.Loaded withInt(final int at, final int value)
    {
        final ByteBuffer payload = store.loadNewestValid().payload().order(ByteOrder.LITTLE_ENDIAN); // StateBuffer's order
        payload.putInt(at, value);
        store.write(payload);
        return store.loadNewestValid();
    }

    private static void putInt(final Path file, final long at, final int value) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.allocate(4).putInt(0, value), at);
        }
    }

    private static long sequenceOf(final Path file)
    {
        final String name = file.getFileName().toString();
        return Long.parseLong(name.substring("checkpoint-".length(), name.length() - ".bin".length()));
    }
}
