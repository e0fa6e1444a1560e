package dev.weir.journal.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one atomic replacement every writer of a whole file uses: the content is the parts in order, or the old content. */
class FileReplacementTest
{
    @TempDir
    Path dir;

    @Test
    void theNewContentIsThePartsInOrderAndNoTemporaryFileStays() throws IOException
    {
        final Path file = dir.resolve("record");
        final Path temp = dir.resolve(".record.tmp");
        Files.writeString(file, "old content, longer than the new");
        Files.writeString(temp, "left by a crash, longer than the new content");

        FileReplacement.replace(file, temp, true, ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3}));

        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file));
        assertFalse(Files.exists(temp));
    }

    @Test
    void aFailedReplacementLeavesTheOldContentAndDeletesItsTemporaryFile() throws IOException
    {
        final Path file = dir.resolve("record");
        Files.createDirectories(file.resolve("inside")); // a non-empty directory: the rename over it fails
        final Path temp = dir.resolve("record.tmp");

        assertThrows(IOException.class, () -> FileReplacement.replace(file, "new".getBytes(StandardCharsets.UTF_8), true));

        assertFalse(Files.exists(temp), "the temporary file is deleted");
        try (var entries = Files.list(file))
        {
            assertEquals(1, entries.count(), "the old content is left as it was");
        }
    }

    @Test
    void installingATemporaryFileReplacesTheFile() throws IOException
    {
        final Path file = dir.resolve("export.csv");
        final Path temp = dir.resolve(".export.csv.tmp");
        Files.writeString(file, "a\n");
        Files.writeString(temp, "b\n");

        FileReplacement.install(temp, file);

        assertEquals("b\n", Files.readString(file));
        assertFalse(Files.exists(temp));
    }
}
