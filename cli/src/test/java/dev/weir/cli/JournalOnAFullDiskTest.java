package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.journal.EventJournal;
import dev.weir.testsupport.Tmpfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal on a full disk, in this JVM: appending until a real tmpfs of 4 MiB is full must fail with an
 * {@link UncheckedIOException} naming the full disk, and, once space is freed, the journal must hold
 * exactly the events whose append returned: none lost, and no document cut short by the full disk (its
 * header committed, its body never allocated and read back as zeros) readable as an event.
 */
@Tag("slow")
final class JournalOnAFullDiskTest
{
    @TempDir
    Path dir;

    @Test
    void anAppendThatFindsTheDiskFullFailsWithAnExceptionNamingItAndKeepsExactlyTheEventsAppended() throws Exception
    {
        final Path mount = dir.resolve("disk");
        try (Tmpfs disk = Tmpfs.mount(mount, 4096))
        {
            final Path journal = mount.resolve("journal");
            final List<String> appended = new ArrayList<>();
            Throwable failure = null;
            try (EventJournal events = EventJournal.openOrCreate(journal))
            {
                for (int i = 0; i < 1_000_000; i++)
                {
                    final String key = "key-" + (i % 97);
                    events.append(i, 1_000L + i, key, 1_000_000L + i); // no field is ever 0
                    appended.add(i + "," + (1_000L + i) + "," + key + "," + (1_000_000L + i));
                }
            }
            catch (final Throwable ex)
            {
                failure = ex;
            }
            assertNotNull(failure, "the disk filled");
            assertTrue(appended.size() > 10_000, "the disk filled after " + appended.size() + " events");

            disk.resize(64 << 10);
            final List<String> stored = JournalContents.events(journal);
            assertEquals(appended.size(), stored.size(), "as many events as appends returned (" + failure + ")");
            for (int i = 0; i < stored.size(); i++)
            {
                assertEquals(appended.get(i), stored.get(i), "event " + i + " as appended");
            }
            assertTrue(failure instanceof UncheckedIOException && failure.getMessage().contains("the disk is full"),
                "the append fails with an exception naming the full disk, not " + failure);
        }
    }
}
