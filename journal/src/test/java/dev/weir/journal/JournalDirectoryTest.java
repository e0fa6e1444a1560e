package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.schema.NewerFormatException;

class JournalDirectoryTest
{
    @TempDir
    Path dir;

    @Test
    void refusesAForeignDirectoryAndLeavesItUntouched() throws IOException
    {
        final Path foreign = dir.resolve("photos");
        Files.createDirectories(foreign);
        final Path file = foreign.resolve("holiday.jpg");
        Files.write(file, new byte[] {1, 2, 3});

        final JournalRefusedException ex = assertThrows(JournalRefusedException.class, () -> EventJournal.openOrCreate(foreign));
        assertTrue(ex.getMessage().contains("not a Weir journal"), ex.getMessage());
        assertThrows(JournalRefusedException.class, () -> JournalDirectory.open(foreign));

        try (Stream<Path> entries = Files.list(foreign))
        {
            assertEquals(1, entries.count(), "nothing was written into the foreign directory");
        }
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file));
    }

    @Test
    void aJournalKeepsItsIdAndAJournalCreatedAgainAtTheSamePathHasAnother() throws IOException
    {
        final Path journalDir = dir.resolve("ids");
        final String first = JournalDirectory.create(journalDir).id();
        assertEquals(first, JournalDirectory.open(journalDir).id());
        assertEquals(36, first.length(), first);
        try (java.util.stream.Stream<Path> paths = Files.walk(journalDir))
        {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        final String second = JournalDirectory.create(journalDir).id();
        org.junit.jupiter.api.Assertions.assertNotEquals(first, second);
    }

    @Test
    void refusesAFileAndAMissingDirectoryForReading()
    {
        assertThrows(JournalRefusedException.class, () -> JournalDirectory.open(dir.resolve("missing")));
        assertThrows(JournalRefusedException.class, () -> JournalDirectory.create(writeFile(dir.resolve("plain.txt"))));
    }

    @Test
    void refusesAForeignMarkerOrAnotherFormatVersion() throws IOException
    {
        final Path other = dir.resolve("other");
        Files.createDirectories(other);
        Files.writeString(other.resolve(JournalDirectory.MARKER_FILE), "hello\n", StandardCharsets.UTF_8);
        assertThrows(JournalRefusedException.class, () -> EventJournal.openOrCreate(other));

        final Path future = dir.resolve("future");
        Files.createDirectories(future);
        Files.writeString(future.resolve(JournalDirectory.MARKER_FILE), "format=weir-journal\nversion=99\n", StandardCharsets.UTF_8);
        final NewerFormatException ex = assertThrows(NewerFormatException.class, () -> EventJournal.openOrCreate(future));
        assertTrue(ex.getMessage().contains("version 99") && ex.getMessage().contains("up to " + JournalDirectory.FORMAT_VERSION_BATCHED), ex.getMessage());

        final Path past = dir.resolve("past");
        Files.createDirectories(past);
        Files.writeString(past.resolve(JournalDirectory.MARKER_FILE), "format=weir-journal\nversion=1\n", StandardCharsets.UTF_8);
        final JournalRefusedException old = assertThrows(JournalRefusedException.class, () -> EventJournal.openOrCreate(past));
        assertTrue(old.getMessage().contains("version 1,"), old.getMessage());
    }

    @Test
    @Tag("slow") // about 10 s: Chronicle waits on the garbage metadata before the refusal
    void refusesAJournalWhoseQueueIsCorrupt() throws IOException
    {
        final Path journalDir = dir.resolve("journal");
        try (EventJournal journal = EventJournal.openOrCreate(journalDir))
        {
            journal.append(1, 1, "a", 1);
        }
        // Replace the queue's metadata with garbage, as a disk fault or a foreign tool might.
        try (Stream<Path> files = Files.list(journalDir.resolve("events")))
        {
            files.filter(p -> p.toString().endsWith(".cq4t")).forEach(p -> writeGarbage(p));
        }
        assertThrows(JournalRefusedException.class, () -> JournalReader.open(JournalDirectory.open(journalDir)));
    }

    @Test
    void aCreationKilledHalfWayLeavesOnlyAStagingDirectoryThatTheNextCreationReplaces() throws IOException
    {
        final Path target = dir.resolve("journal");
        final Path staging = dir.resolve(".journal.weir-creating");
        Files.createDirectories(staging.resolve("results"));
        Files.write(staging.resolve("results").resolve("metadata.cq4t"), new byte[0]); // as a kill during queue creation leaves it
        try (EventJournal journal = EventJournal.openOrCreate(target))
        {
            journal.append(1, 1, "a", 1);
        }
        assertTrue(JournalDirectory.isJournal(target));
        assertTrue(Files.isRegularFile(target.resolve("results").resolve("metadata.cq4t")), "the output queue is created with the journal");
        assertTrue(!Files.exists(staging));
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(target)))
        {
            output.appendResult(new StoredResult(0, 10, 0, 1, 1, 1, 1, 0, 1, 0), false);
        }
    }

    @Test
    void createsInAnEmptyDirectoryAndReopens() throws IOException
    {
        final Path empty = dir.resolve("empty");
        Files.createDirectories(empty);
        try (EventJournal journal = EventJournal.openOrCreate(empty))
        {
            journal.append(1, 1, "a", 1);
        }
        assertTrue(JournalDirectory.isJournal(empty));
        assertEquals(empty.toAbsolutePath().normalize(), JournalDirectory.open(empty).root());
    }

    private static Path writeFile(final Path path)
    {
        try
        {
            return Files.writeString(path, "text");
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static void writeGarbage(final Path path)
    {
        try
        {
            final byte[] garbage = new byte[(int)Math.max(64, Files.size(path))];
            java.util.Arrays.fill(garbage, (byte)0x5A);
            Files.write(path, garbage);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
