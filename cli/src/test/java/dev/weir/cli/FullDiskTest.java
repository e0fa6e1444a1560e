package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.weir.testsupport.ChildJvm;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.Tmpfs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A full disk, on a real filesystem: {@code weir run} in a child JVM on a tmpfs of a few MiB that fills up
 * during the ingest, the processing (output journal appends, checkpoints) or the export. Each time the
 * run must fail with exit 1 and a message naming the cause (no SIGBUS crash, no {@link InternalError}),
 * keep nothing half-written that the next run trusts, and, once space is freed, a rerun must give exactly
 * what a run on an ample disk gives: the same results, late events, rejected lines and journal events.
 */
@Tag("slow")
final class FullDiskTest
{
    private static final int EVENTS = 100_000;
    private static final List<String> FLAGS = List.of("--window", "sliding:2s/500ms", "--out-of-orderness", "400ms",
        "--allowed-lateness", "1s", "--late", "side", "--checkpoint-every", "2000");
    private static final long AMPLE_KIB = 256 << 10;

    @TempDir
    static Path shared;
    private static Path input;
    private static Path reference;

    @TempDir
    Path dir;

    @BeforeAll
    static void referenceRun() throws IOException
    {
        input = shared.resolve("events.csv");
        KillHarness.writeEvents(input, EVENTS, 2_000, 12);
        reference = shared.resolve("reference");
        final Cli clean = Cli.run(args(reference.resolve("journal"), reference));
        assertEquals(0, clean.exit(), clean.err());
    }

    @Test
    void aDiskThatFillsDuringTheIngestFailsCleanlyAndTheRerunLosesAndDoublesNothing() throws Exception
    {
        final Path mount = dir.resolve("disk");
        try (Tmpfs disk = Tmpfs.mount(mount, 3072))
        {
            final Path journal = mount.resolve("journal");
            final Child full = runChild(args(journal, mount), "full");
            disk.resize(AMPLE_KIB); // first: on a full tmpfs even reading a page never written faults
            final long ingested = KillHarness.ingestedLines(journal);
            assertTrue(ingested > 0 && ingested < EVENTS, "the disk filled during the ingest: " + ingested + " events ingested");

            final Child rerun = runChild(args(journal, mount), "rerun");
            assertEquals(0, rerun.exit, "the rerun completes:\n" + rerun.log);
            assertSameAsReference(journal, mount); // no event lost, doubled, or cut short by the full disk and trusted
            assertFailsForLackOfSpace(full);
        }
    }

    @ParameterizedTest(name = "{0} KiB free")
    @ValueSource(longs = {64, 1_500, 3_000})
    void aDiskThatFillsWhileProcessingFailsCleanlyAndTheRerunLosesAndDoublesNothing(final long freeKib) throws Exception
    {
        final Path mount = dir.resolve("disk");
        try (Tmpfs disk = Tmpfs.mount(mount, 32 << 10))
        {
            final Path journal = mount.resolve("journal");
            final Cli ingest = Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString(),
                "--rejected", dir.resolve("rejected.csv").toString());
            assertEquals(0, ingest.exit(), ingest.err());
            final Path ballast = mount.resolve("ballast");
            disk.fill(ballast, freeKib);

            final Path outputs = dir.resolve("outputs");
            assertFailsForLackOfSpace(runChild(args(journal, outputs), "full"));
            try (Stream<Path> checkpoints = Files.list(journal.resolve("checkpoints")))
            {
                assertFalse(checkpoints.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")),
                    "no temporary checkpoint file is left behind");
            }

            Files.delete(ballast);
            final Child rerun = runChild(args(journal, outputs), "rerun");
            assertEquals(0, rerun.exit, "the rerun completes:\n" + rerun.log);
            assertSameAsReference(journal, outputs);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--results", "--output-dir"})
    void aDiskThatFillsDuringTheExportFailsCleanlyLeavesNoTemporaryFileAndTheRerunExportsEverything(final String export) throws Exception
    {
        final Path journal = dir.resolve("journal");
        final Path mount = dir.resolve("disk");
        try (Tmpfs disk = Tmpfs.mount(mount, 1024))
        {
            final List<String> args = new ArrayList<>(List.of(args(journal, mount)));
            if (export.equals("--output-dir"))
            {
                final int at = args.indexOf("--results");
                args.set(at, "--output-dir");
                args.set(at + 1, mount.resolve("out").toString());
            }
            assertFailsForLackOfSpace(runChild(args.toArray(String[]::new), "full"));
            try (Stream<Path> files = Files.walk(mount))
            {
                assertEquals(List.of(), files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList(),
                    "a failed export leaves no temporary file (it would hold the space the rerun needs)");
            }
            assertFalse(Files.exists(mount.resolve("results.csv")), "no results file appears from a failed export");

            disk.resize(AMPLE_KIB);
            assertEquals(0, runChild(args.toArray(String[]::new), "rerun").exit, "the rerun completes");
            final Path results = export.equals("--output-dir") ? mount.resolve("out").resolve("date=1970-01-01").resolve("results.csv")
                : mount.resolve("results.csv");
            assertEquals(Files.readAllLines(reference.resolve("results.csv")), Files.readAllLines(results), "results");
            assertEquals(Files.readAllLines(reference.resolve("late.csv")), Files.readAllLines(mount.resolve("late.csv")), "late events");
        }
    }

    private record Child(int exit, String log)
    {
    }

    private Child runChild(final String[] weirArgs, final String name) throws IOException, InterruptedException
    {
        final Path log = dir.resolve(name + ".log");
        final List<String> command = ChildJvm.weir("512m", weirArgs);
        // the child's working directory is the test's, so a JVM crash's hs_err file would land there
        final Process child = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child finishes");
        return new Child(child.exitValue(), Files.readString(log));
    }

    private void assertFailsForLackOfSpace(final Child child) throws IOException
    {
        assertEquals(1, child.exit, "a full disk fails the run with exit 1:\n" + child.log);
        assertTrue(child.log.contains("weir: failed:") && child.log.contains("No space left on device"),
            "one message names the cause:\n" + child.log);
        assertFalse(child.log.contains("InternalError") || child.log.contains("SIGBUS"),
            "the disk filled before a mapped page was touched, not in the middle of a document:\n" + child.log);
        try (Stream<Path> files = Files.list(dir))
        {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().startsWith("hs_err")), "the JVM did not crash");
        }
    }

    private static void assertSameAsReference(final Path journal, final Path outputs) throws IOException
    {
        assertEquals(Files.readAllLines(reference.resolve("results.csv")), Files.readAllLines(outputs.resolve("results.csv")), "results");
        assertEquals(Files.readAllLines(reference.resolve("late.csv")), Files.readAllLines(outputs.resolve("late.csv")), "late events");
        assertEquals(Files.readAllLines(reference.resolve("rejected.csv")), Files.readAllLines(outputs.resolve("rejected.csv")), "rejected lines");
        assertEquals(JournalContents.events(reference.resolve("journal")), JournalContents.events(journal), "every valid line once in the journal");
        assertTrue(Files.readAllLines(outputs.resolve("late.csv")).size() > 10, "the stream has late events");
    }

    private static String[] args(final Path journal, final Path outputs)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--journal", journal.toString(),
            "--results", outputs.resolve("results.csv").toString(), "--late-output", outputs.resolve("late.csv").toString(),
            "--rejected", outputs.resolve("rejected.csv").toString()));
        args.addAll(FLAGS);
        return args.toArray(String[]::new);
    }
}
