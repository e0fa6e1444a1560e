package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.KillRounds;
import dev.weir.testsupport.OutputJournalContents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exactly-once, proven by killing: a child JVM runs {@code weir run --input --journal} on a generated
 * stream (malformed and late lines; ingest, processing with a checkpoint every 2,000 events, export of the
 * results, late and rejected CSV files) and is killed with SIGKILL at moments spread over the whole run
 * ({@link KillRounds}), at least {@code -Dweir.kill.count.windows} times per window kind (10 by default).
 * After each round the output journal (every result with its version and source event, every late event,
 * in order), the journal's events and the exported files must equal an uninterrupted run's.
 */
@Tag("slow")
class KillRecoveryTest
{
    private static final int KILLS = KillRounds.count("weir.kill.count.windows", 10);
    private static final int EVENTS = 60_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"tumbling:2s", "sliding:2s/500ms", "session:1s"})
    void killedAtRandomMomentsTheRunStillWritesEveryResultExactlyOnce(final String window) throws Exception
    {
        final Path input = dir.resolve("events.csv");
        KillHarness.writeEvents(input, EVENTS, 2_000, window.hashCode());
        final List<String> flags = List.of("--window", window, "--out-of-orderness", "400ms", "--allowed-lateness", "1s", "--late", "side",
            "--checkpoint-every", "2000");

        final Path reference = new KillRounds(window, dir, KILLS, EVENTS, window.hashCode() * 31L).run(out -> args(input, out, flags));

        final List<String> outputs = OutputJournalContents.outputs(reference.resolve("journal"));
        assertTrue(outputs.stream().filter(o -> o.startsWith("late,")).count() > 10, "the stream has late events");
        assertTrue(outputs.stream().anyMatch(o -> o.startsWith("result,") && !o.contains(",0,source=")), "late events re-fired some windows");
        assertTrue(Files.readAllLines(reference.resolve("rejected.csv")).size() > 10, "the stream has malformed lines");
    }

    private static String[] args(final Path input, final Path out, final List<String> flags)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--journal", out.resolve("journal").toString(),
            "--results", out.resolve("results.csv").toString(), "--late-output", out.resolve("late.csv").toString(),
            "--rejected", out.resolve("rejected.csv").toString()));
        args.addAll(flags);
        return args.toArray(String[]::new);
    }
}
