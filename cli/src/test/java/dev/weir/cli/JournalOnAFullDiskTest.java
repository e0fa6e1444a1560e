package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.weir.journal.EventBatch;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.Tmpfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The journal on a full disk, in this JVM: appending until a real tmpfs of 4 MiB is full must fail with an
 * {@link UncheckedIOException} naming the full disk, and, once space is freed, the journal must hold
 * exactly the events whose append returned: none lost, and no document cut short by the full disk (its
 * header committed, its body never allocated and read back as zeros) readable as an event. A bulk append
 * ({@link EventBatch}) that finds the disk full loses its pending events but not the keys they defined: once space
 * is freed, appending the same keys again defines them again, and every event read back has its key.
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

    @ParameterizedTest(name = "journal marker version {0}")
    @ValueSource(ints = {JournalDirectory.FORMAT_VERSION, JournalDirectory.FORMAT_VERSION_BATCHED}) // single documents, batched
    void keysFirstUsedInABulkAppendThatFindsTheDiskFullAreDefinedAgainWhenUsedAgain(final int version) throws Exception
    {
        final Path mount = dir.resolve("disk");
        try (Tmpfs disk = Tmpfs.mount(mount, 4096))
        {
            final Path journal = mount.resolve("journal");
            JournalDirectory.openOrCreate(journal);
            final Path marker = journal.resolve(JournalDirectory.MARKER_FILE); // nothing appended yet: the version is free
            final List<String> lines = new ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
            lines.set(1, "version=" + version);
            Files.write(marker, lines, StandardCharsets.UTF_8);
            int added = 0;
            Throwable failure = null;
            try (EventJournal events = EventJournal.openOrCreate(journal))
            {
                assertEquals(version == JournalDirectory.FORMAT_VERSION_BATCHED, events.directory().offsets().batched(), "the journal's documents");
                final EventBatch batch = events.batch();
                try
                {
                    for (int i = 0; i < 1_000_000; i++)
                    {
                        batch.append(i, 1_000L + i, events.keyId("key-" + i), 1_000_000L + i); // each event a new key
                        added = i + 1;
                    }
                    batch.flush();
                }
                catch (final UncheckedIOException ex)
                {
                    failure = ex;
                }
                assertNotNull(failure, "the disk filled");
                assertTrue(added > 1_000, "the disk filled after " + added + " events");

                disk.resize(64 << 10);
                for (int i = 0; i <= added; i++) // every key used so far, and the one whose add failed, used again
                {
                    batch.append(2_000_000L + i, 2_000_000L + i, events.keyId("key-" + i), 3_000_000L + i);
                }
                batch.flush();
            }
            // read the strings' definitions from the documents alone, as after a restart of the machine
            Files.deleteIfExists(journal.resolve("dictionaries.snapshot"));
            final Set<String> again = new HashSet<>();
            for (final String event : JournalContents.events(journal))
            {
                final String[] fields = event.split(",");
                assertTrue(fields[2].equals("key-" + (Long.parseLong(fields[0]) % 2_000_000L)),
                    () -> "event " + event + " has its key (a key defined only in the lost document reads as null)");
                if (Long.parseLong(fields[0]) >= 2_000_000L)
                {
                    again.add(fields[2]);
                }
            }
            assertEquals(added + 1, again.size(), "every key appended again is in the journal (" + failure + ")");
        }
    }
}
