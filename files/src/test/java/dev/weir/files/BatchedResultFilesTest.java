package dev.weir.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.weir.engine.Weir;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline's outputs written several to a document (a journal of marker version 5) export to the very bytes the same
 * outputs written one to a document give: the results CSV, the late CSV and the date partitions; and a file delivery
 * holds the position of the last output, inside or at the end of a batched document.
 */
class BatchedResultFilesTest
{
    private static final long DAY = 86_400_000L;
    private static final RowColumns COLUMNS = new RowColumns("key", "value", List.of());

    @TempDir
    Path dir;

    @Test
    void batchedAndSingleOutputDocumentsExportTheSameFiles() throws IOException
    {
        final Path single = dir.resolve("single");
        final Path batched = batched(dir.resolve("batched"));
        fill(single);
        fill(batched);
        for (final Path journal : List.of(single, batched))
        {
            Weir.pipeline().journal(journal).window(SlidingWindows.of(60_000, 20_000)).outOfOrderness(5_000).allowedLateness(1_000)
                .latePolicy(LatePolicy.SIDE).emitUpdates(true).checkpointEvery(3_000).build().runToEnd();
        }
        final ExportCounts fromSingle = export(single);
        final ExportCounts fromBatched = export(batched);
        assertEquals(fromSingle, fromBatched);
        assertTrue(fromSingle.results() > 20_000 && fromSingle.late() > 10, fromSingle.toString());
        for (final String file : List.of("results.csv", "late.csv"))
        {
            assertArrayEquals(Files.readAllBytes(single.resolveSibling("single-" + file)), Files.readAllBytes(batched.resolveSibling("batched-" + file)), file);
        }
        assertEquals(tree(dir.resolve("single-days")), tree(dir.resolve("batched-days")), "the date partitions");
        long documents = 0;
        for (final JournalCycles.Cycle cycle : JournalCycles.results(JournalDirectory.open(batched)).cycles())
        {
            documents += cycle.documents();
        }
        assertTrue(documents * 10 < fromBatched.results(), fromBatched.results() + " results in " + documents + " documents");

        final FileOutputSink sink = new FileOutputSink(ResultFiles.of(JournalDirectory.open(batched)).columns(COLUMNS)
            .results(dir.resolve("delivered.csv")).build(), dir.resolve("delivered.csv"));
        sink.deliver(JournalDirectory.open(batched));
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(batched)))
        {
            assertEquals(output.lastPosition(), sink.heldPosition(), "the delivery holds the last output's position");
        }
        assertArrayEquals(Files.readAllBytes(single.resolveSibling("single-results.csv")), Files.readAllBytes(dir.resolve("delivered.csv")));
    }

    private ExportCounts export(final Path journal)
    {
        final String name = journal.getFileName().toString();
        final ExportCounts counts = ResultFiles.of(journal, JournalDirectory.DEFAULT_PIPELINE).columns(COLUMNS)
            .results(journal.resolveSibling(name + "-results.csv")).late(journal.resolveSibling(name + "-late.csv")).build().export();
        ResultFiles.of(JournalDirectory.open(journal)).columns(COLUMNS).partitions(dir.resolve(name + "-days"), PartitionedResults.Format.csv)
            .build().export();
        return counts;
    }

    private static TreeMap<String, String> tree(final Path root) throws IOException
    {
        final TreeMap<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root))
        {
            for (final Path file : (Iterable<Path>)walk.filter(Files::isRegularFile)::iterator)
            {
                files.put(root.relativize(file).toString(), Files.readString(file));
            }
        }
        assertTrue(files.size() > 1, "partitions of several days");
        return files;
    }

    private static void fill(final Path journal)
    {
        final SplittableRandom random = new SplittableRandom(3);
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < 20_000; i++)
            {
                final long time = DAY - 2_000_000L + i * 250L - random.nextInt(4_000) - (random.nextInt(100) == 0 ? 120_000 : 0);
                events.append(i, time, events.keyId("card-" + random.nextInt(200)), random.nextInt(10_000) - 500);
            }
        }
    }

    /** @return {@code root}, a journal created empty with its marker at version 5 (batched documents), before anything is appended. */
    private static Path batched(final Path root) throws IOException
    {
        JournalDirectory.openOrCreate(root);
        final Path marker = root.resolve(JournalDirectory.MARKER_FILE);
        final List<String> lines = new ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8));
        lines.set(1, "version=" + JournalDirectory.FORMAT_VERSION_BATCHED);
        Files.write(marker, lines, StandardCharsets.UTF_8);
        assertTrue(JournalDirectory.open(root).offsets().batched());
        return root;
    }
}
