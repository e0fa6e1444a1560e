package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KafkaInstanceStatus} reads an instance's status file, and finds none in a journal or an empty directory.
 */
class KafkaInstanceStatusTest
{
    @TempDir
    Path dir;

    @Test
    void theStatusFileOfAnInstancesDirectoryIsReadAndAJournalHasNone() throws IOException
    {
        assertTrue(KafkaInstanceStatus.read(dir).isEmpty(), "an empty directory");
        final Path status = Files.createDirectories(dir.resolve("kafka")).resolve("status");
        Files.writeString(status, "instance a group g topic t\n");
        final KafkaInstanceStatus read = KafkaInstanceStatus.read(dir).orElseThrow();
        assertEquals("instance a group g topic t\n", read.text());
        assertEquals(Files.getLastModifiedTime(status), read.writtenAt());
        assertEquals("Kafka instance " + dir.toAbsolutePath() + " (status written " + read.writtenAt() + ")" + System.lineSeparator()
            + "instance a group g topic t\n", read.describe());

        Files.writeString(dir.resolve(JournalDirectory.MARKER_FILE), "weir-journal\n");
        assertTrue(KafkaInstanceStatus.read(dir).isEmpty(), "a journal is not an instance's directory, whatever it holds");
    }
}
