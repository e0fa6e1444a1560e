package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir inspect} and {@code weir replay} over a journal's dictionary snapshot ({@code dictionaries.snapshot},
 * written by the ingest when it closes the journal): the same counts, keys and rows with the snapshot, with an
 * older one and a tail, and with none or a corrupt one, which inspect reports.
 */
class InspectSnapshotTest
{
    @TempDir
    Path dir;

    private Path csv(final String name, final int from, final int to, final int keys) throws IOException
    {
        final List<String> lines = new ArrayList<>();
        lines.add("event_id,event_time,key,value");
        for (int i = from; i < to; i++)
        {
            lines.add(i % 97 == 0 ? "not,a,line" : i + "," + (1_000L * i) + ",k" + (i * 7 % keys) + "," + i);
        }
        final Path file = dir.resolve(name);
        Files.write(file, lines);
        return file;
    }

    /** @return inspect's output without its snapshot line, which tells how the journal was opened. */
    private static String inspected(final String journal, final String snapshotLine)
    {
        final Cli inspect = Cli.run("inspect", journal);
        assertEquals(0, inspect.exit(), inspect.err());
        final String out = inspect.out();
        assertTrue(out.contains("\nsnapshot     " + snapshotLine), out);
        return out.replaceAll("\nsnapshot     [^\n]*", "");
    }

    private String replayed(final String journal) throws IOException
    {
        final Path results = dir.resolve("results.csv");
        final Cli replay = Cli.run("replay", "--journal", journal, "--window", "tumbling:10s", "--results", results.toString());
        assertEquals(0, replay.exit(), replay.err());
        return Files.readString(results);
    }

    @Test
    void inspectAndReplayGiveTheSameWithTheSnapshotAnOlderOneOrNone() throws IOException
    {
        final String journal = dir.resolve("journal").toString();
        final Path snapshot = dir.resolve("journal").resolve("dictionaries.snapshot");
        assertEquals(0, Cli.run("ingest", "--input", csv("a.csv", 0, 2_000, 150).toString(), "--journal", journal).exit());
        final Path early = dir.resolve("early");
        Files.copy(snapshot, early);
        assertEquals(0, Cli.run("ingest", "--input", csv("b.csv", 2_000, 4_000, 400).toString(), "--journal", journal).exit());

        final String withSnapshot = inspected(journal, "dictionaries and counts at offset");
        assertTrue(withSnapshot.contains("3,958 events, 42 rejected lines, 2 ingests, 400 keys"), withSnapshot);
        final String rows = replayed(journal);

        Files.copy(early, snapshot, StandardCopyOption.REPLACE_EXISTING); // keys k150..k399 are first seen after it
        assertEquals(withSnapshot, inspected(journal, "dictionaries and counts at offset"));
        assertEquals(rows, replayed(journal));

        Files.delete(snapshot);
        assertEquals(withSnapshot, inspected(journal, "none: the journal was scanned from its start"));
        assertEquals(rows, replayed(journal));

        Files.write(snapshot, "WEIRDICT and then nothing that adds up".getBytes());
        assertEquals(withSnapshot, inspected(journal, "invalid, ignored: corrupt or torn (checksum mismatch)"));
        assertEquals(rows, replayed(journal));
    }
}
