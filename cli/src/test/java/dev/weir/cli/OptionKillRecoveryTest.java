package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.KillRounds;
import dev.weir.testsupport.OutputJournalContents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exactly-once with each option of a bounded {@code weir run}, proven by killing ({@link KillRounds}): at
 * least {@code -Dweir.kill.count.options} kills per option (12 by default), spread over the whole run. Each
 * case must leave the output journal (results with versions and source events, late events), the journal's
 * events and every exported file (byte for byte) equal to an uninterrupted run's:
 * <ul>
 *     <li>{@code --dedupe}, on a stream in which 5% of the events are written twice (1 to 300 lines apart),
 *     with session windows and 3 s of allowed lateness (the stream's late events are 3 to 5 s late: with
 *     dedupe an event whose own session window is late is dropped, so a shorter lateness would leave no
 *     session to fire again);</li>
 *     <li>{@code --aggregate average}, whose state is checkpointed beside the aggregates;</li>
 *     <li>{@code --aggregates} with an early condition over the named aggregates: first and last by event time (and journal
 *     order), filtered sums, a mean and a result expression are checkpointed beside the aggregates;</li>
 *     <li>{@code --sync}, which fsyncs the journal after the ingest, and the events and the output journal
 *     before each checkpoint;</li>
 *     <li>{@code --emit updates --early-when EXPR}: no update or early row lost or doubled (the early flag of each
 *     window is in the checkpoints, so a resumed run emits no second early row);</li>
 *     <li>{@code --early-once key}: the same early rows (which windows' early rows were suppressed is in the
 *     checkpoints too);</li>
 *     <li>{@code --output-dir}, on a stream that spans three days: every date partition and the late and
 *     rejected files compared byte for byte.</li>
 * </ul>
 */
@Tag("slow")
class OptionKillRecoveryTest
{
    private static final int KILLS = KillRounds.count("weir.kill.count.options", 12);
    private static final int EVENTS = 40_000;
    /** Named aggregates of every kind: first and last by event time, a filter, a mean, and a result that is empty at a zero total. */
    private static final String NAMED = "n=count(),total=sum(value),open=first(value),close=last(value),"
        + "gains=sum(value) filter (where value > 0),mean=avg(value),share=gains/total";

    @TempDir
    Path dir;

    /**
     * @param name          the case.
     * @param stepMs        event time per 2 events.
     * @param keys          distinct keys.
     * @param duplicates    events in 1,000 written twice.
     * @param flags         the window and option flags.
     */
    record Case(String name, long stepMs, int keys, int duplicates, List<String> flags)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static Stream<Case> cases()
    {
        return Stream.of(
            new Case("--dedupe", 1, 1_000, 50, List.of("--dedupe", "--window", "session:1s", "--out-of-orderness", "400ms", "--allowed-lateness", "3s",
                "--late", "side", "--checkpoint-every", "1000")),
            new Case("--aggregate average", 1, 1_000, 0, List.of("--aggregate", "average", "--window", "sliding:2s/500ms", "--out-of-orderness",
                "400ms", "--allowed-lateness", "1s", "--late", "side", "--checkpoint-every", "1000")),
            new Case("--emit updates --early-when", 1, 1_000, 0, List.of("--emit", "updates", "--early-when", "sum>=8000 or count>=5",
                "--window", "sliding:2s/500ms", "--out-of-orderness", "400ms", "--allowed-lateness", "1s", "--late", "side",
                "--checkpoint-every", "1000")),
            new Case("--early-once key", 1, 1_000, 0, List.of("--early-when", "count>=5", "--early-once", "key",
                "--window", "sliding:2s/500ms", "--out-of-orderness", "400ms", "--allowed-lateness", "1s", "--late", "side",
                "--checkpoint-every", "1000")),
            new Case("--aggregates", 1, 1_000, 0, List.of("--aggregates", NAMED, "--early-when", "n >= 4 and gains > 10000",
                "--window", "sliding:2s/500ms", "--out-of-orderness", "400ms", "--allowed-lateness", "1s", "--late", "side",
                "--checkpoint-every", "1000")),
            new Case("--sync", 1, 1_000, 0, List.of("--sync", "--window", "tumbling:2s", "--out-of-orderness", "400ms", "--allowed-lateness", "1s",
                "--late", "side", "--checkpoint-every", "1000")),
            new Case("--output-dir", 10_000, 50, 0, List.of("--output-dir", "PARTITIONS", "--window", "tumbling:1h", "--out-of-orderness", "4000s",
                "--allowed-lateness", "30000s", "--late", "side", "--checkpoint-every", "1000")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void killedAtRandomMomentsTheRunWithThisOptionStillWritesEveryOutputExactlyOnce(final Case c) throws Exception
    {
        final Path input = dir.resolve("events.csv");
        final long lines = KillHarness.writeEvents(input, EVENTS, c.keys(), c.name().hashCode(), c.stepMs(), c.duplicates());

        final Path reference = new KillRounds(c.name(), dir, KILLS, lines, c.name().hashCode() * 31L).run(out -> args(input, out, c.flags()));

        final List<String> outputs = OutputJournalContents.outputs(reference.resolve("journal"));
        assertTrue(outputs.stream().filter(o -> o.startsWith("late,")).count() > 10, "the stream has late events");
        assertTrue(outputs.stream().anyMatch(o -> o.startsWith("result,") && !o.contains(",0,source=")), "windows fired more than once");
        final Map<String, String> files = KillRounds.files(reference);
        if (c.duplicates() > 0)
        {
            assertTrue(lines > EVENTS + EVENTS / 50, "the stream has duplicates: " + lines);
            assertTrue(Files.readString(dir.resolve("reference.log")).matches("(?s).*\nduplicates +[1-9][0-9,]* ignored\n.*"),
                "the run ignored duplicates");
        }
        if (c.flags().contains("--early-once"))
        {
            assertTrue(outputs.stream().filter(o -> o.startsWith("early,")).count() > 100, "early rows");
        }
        else if (c.flags().contains("--emit"))
        {
            assertTrue(outputs.stream().filter(o -> o.startsWith("early,")).count() > 100, "early rows");
            assertTrue(outputs.stream().filter(o -> o.startsWith("update,")).count() > EVENTS, "update rows");
            assertTrue(files.get("results.csv").startsWith("window_start,window_end,key,count,sum,min,max,version,kind\n"), "a kind column");
        }
        if (c.flags().contains("--output-dir"))
        {
            assertTrue(files.keySet().stream().filter(f -> f.startsWith("partitions/date=")).count() >= 3, "partitions: " + files.keySet());
        }
        if (c.flags().contains("--aggregates"))
        {
            assertTrue(outputs.stream().filter(o -> o.startsWith("early,")).count() > 100, "early rows");
            assertTrue(files.get("results.csv").startsWith("window_start,window_end,key,n,total,open,close,gains,mean,share,version,kind\n"),
                "a column per named aggregate");
        }
        else if (c.flags().contains("--aggregate"))
        {
            assertTrue(files.get("results.csv").startsWith("window_start,window_end,key,count,sum,min,max,version,aggregate"),
                "the results carry the average");
        }
    }

    static String[] args(final Path input, final Path out, final List<String> flags)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--journal", out.resolve("journal").toString(),
            "--late-output", out.resolve("late.csv").toString(), "--rejected", out.resolve("rejected.csv").toString()));
        if (!flags.contains("--output-dir"))
        {
            args.addAll(List.of("--results", out.resolve("results.csv").toString()));
        }
        for (final String flag : flags)
        {
            args.add(flag.equals("PARTITIONS") ? out.resolve("partitions").toString() : flag);
        }
        return args.toArray(String[]::new);
    }
}
