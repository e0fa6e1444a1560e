package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir inspect} shows every pipeline of a journal, each one's outputs and newest checkpoint under its name, not
 * the default pipeline's when that one never ran; {@code --pipeline NAME} shows that one only. It reads only. The directory
 * of a Kafka instance shows its status file.
 */
class InspectCommandTest
{
    @TempDir
    Path dir;

    @Test
    void withoutPipelineInspectShowsEveryPipelinesOutputsAndCheckpoint() throws IOException
    {
        final Path journal = LateSpendJournal.create(dir);
        final Cli all = Cli.run("inspect", journal.toString());
        assertEquals(0, all.exit(), all.err());
        final String out = all.out();
        assertFalse(out.contains("checkpoint   none"), "the default pipeline never ran: it is not shown as unprocessed:\n" + out);
        assertTrue(out.matches("(?s).*\\n--- pipeline fees ---\\noutput       [0-9,]+ results, 0 late events.*"
            + "\\ncounts       100 events, [0-9,]+ windows fired, 0 late dropped.*"
            + "\\n--- pipeline spend ---\\noutput       [0-9,]+ results, 0 late events.*"
            + "\\ncounts       100 events, [0-9,]+ windows fired, 41 late dropped.*"), out);

        final Cli one = Cli.run("inspect", journal.toString(), "--pipeline", "spend");
        assertEquals(0, one.exit(), one.err());
        assertTrue(one.out().contains("--- pipeline spend ---") && one.out().contains("41 late dropped"), one.out());
        assertFalse(one.out().contains("--- pipeline fees ---"), one.out());
    }

    @Test
    void inspectingAJournalNeverProcessedCreatesNoCheckpointDirectory()
    {
        try (EventJournal writer = EventJournal.openOrCreate(dir.resolve("j")))
        {
            writer.append(1, 1_000, "a", 1);
        }
        final Cli inspect = Cli.run("inspect", dir.resolve("j").toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("\ncheckpoint   none\n"), inspect.out());
        final Path checkpoints = JournalDirectory.open(dir.resolve("j")).checkpoints();
        assertFalse(Files.exists(checkpoints), "inspect reads only, but made " + checkpoints);
    }

    @Test
    void inspectAndStatOfAKafkaInstancesDirectoryShowItsStatusFile() throws IOException
    {
        final Path status = Files.createDirectories(dir.resolve("instance").resolve("kafka")).resolve("status");
        Files.writeString(status, "instance a group g topic t at 2026-12-02T07:00:00Z events 3 outputs 1 transactions 1\n  t-0 committed=3\n");
        final String expected = "Kafka instance " + dir.resolve("instance").toAbsolutePath() + " (status written "
            + Files.getLastModifiedTime(status) + ")\n" + Files.readString(status);
        final Cli inspect = Cli.run("inspect", dir.resolve("instance").toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertEquals(expected, inspect.out());
        final Cli stat = Cli.run("stat", dir.resolve("instance").toString(), "--once");
        assertEquals(0, stat.exit(), stat.err());
        assertEquals(expected, stat.out());
    }
}
