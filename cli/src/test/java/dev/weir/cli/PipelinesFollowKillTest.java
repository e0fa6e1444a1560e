package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.testsupport.JournalRows;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.KillRounds;
import dev.weir.testsupport.OutputJournalContents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two named pipelines following one journal at once, each exactly-once on its own: two {@code weir run --follow
 * --pipeline} children read a journal that {@code weir ingest} children fill beside them chunk by chunk. One
 * follower at a time is stopped at a random moment, with SIGKILL three times in four and SIGTERM otherwise (it
 * must exit 143), and restarted, while the other keeps following: at least {@code -Dweir.kill.count.pipelines}
 * stops (8 by default), spread over both. Once the ingests are done, each pipeline's last follower runs until its
 * own metrics file says it applied the journal's last event and is stopped with SIGTERM. Each pipeline's output
 * journal and exported files must then equal those of one uninterrupted follower of that pipeline alone, over a
 * journal holding the same events ingested in one go. Two journals:
 * <ul>
 *     <li>the default columns ({@code key,value}): sliding windows, and sessions with a late side output;</li>
 *     <li>six-column payments ({@link PaymentsCsv}, ingested with {@code --columns}): spend per card
 *     ({@code --key card --value amount}, sliding), and spend per merchant ({@code --key merchant}, tumbling,
 *     with a late side output); each bad line is rejected once;</li>
 *     <li>the same payments with named aggregates ({@code --aggregates}): first and last by event time, a filtered sum and
 *     a result per card, and approximate distinct countries per merchant.</li>
 * </ul>
 */
@Tag("slow")
class PipelinesFollowKillTest
{
    private static final int STOPS = KillRounds.count("weir.kill.count.pipelines", 8);
    private static final int EVENTS = 20_000;
    private static final int CHUNKS = 4;

    /**
     * A pipeline: its name, its key column and its {@code weir run} flags.
     *
     * @param name  the pipeline's name.
     * @param key   its key column.
     * @param flags its key, value, window and checkpoint flags.
     */
    record Pipeline(String name, String key, List<String> flags)
    {
    }

    /**
     * A journal and the two pipelines that follow it.
     *
     * @param name      the case.
     * @param columns   the {@code --columns} flags of its ingests (none for the default columns).
     * @param pipelines the two pipelines; the second has a late side output.
     */
    record Case(String name, List<String> columns, List<Pipeline> pipelines)
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
            new Case("key,value", List.of(), List.of(
                new Pipeline("spend", "key", List.of("--window", "sliding:2s/500ms", "--out-of-orderness", "400ms", "--checkpoint-every", "700")),
                new Pipeline("bursts", "key", List.of("--window", "session:20ms", "--out-of-orderness", "200ms", "--allowed-lateness", "500ms",
                    "--checkpoint-every", "1100")))),
            new Case("payments", List.of("--columns", PaymentsCsv.COLUMNS), List.of(
                new Pipeline("card-spend", "card", List.of("--key", "card", "--value", "amount", "--window", "sliding:2s/500ms",
                    "--out-of-orderness", "400ms", "--checkpoint-every", "700")),
                new Pipeline("merchant-spend", "merchant", List.of("--key", "merchant", "--value", "amount", "--window", "tumbling:500ms",
                    "--out-of-orderness", "400ms", "--allowed-lateness", "1s", "--checkpoint-every", "1100")))),
            new Case("payments, named aggregates", List.of("--columns", PaymentsCsv.COLUMNS), List.of(
                new Pipeline("card-spend", "card", List.of("--key", "card", "--aggregates", "spend=sum(amount),payments=count(),"
                    + "opening=first(amount),closing=last(amount),online=sum(amount) filter (where channel = 'online'),share=online/spend",
                    "--window", "sliding:2s/500ms", "--out-of-orderness", "400ms", "--checkpoint-every", "700")),
                new Pipeline("merchant-reach", "merchant", List.of("--key", "merchant", "--aggregates",
                    "payments=count(),countries=approx_distinct(country),top=max(amount)", "--window", "tumbling:500ms",
                    "--out-of-orderness", "400ms", "--allowed-lateness", "1s", "--checkpoint-every", "1100")))));
    }

    @TempDir
    Path dir;

    private final SplittableRandom random = new SplittableRandom(14);
    private final AtomicInteger children = new AtomicInteger();

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void twoPipelinesFollowingOneJournalStoppedAndKilledEachWriteEveryOutputExactlyOnce(final Case c) throws Exception
    {
        final List<Pipeline> pipeline = c.pipelines();
        final int pipelines = pipeline.size();
        final String[] names = pipeline.stream().map(Pipeline::name).toArray(String[]::new);
        final Path input = dir.resolve("events.csv");
        final PaymentsCsv payments = c.columns().isEmpty() ? null : PaymentsCsv.write(input, EVENTS, 14);
        if (payments == null)
        {
            KillHarness.writeEvents(input, EVENTS, 50, 14, 1, 0);
        }
        final List<String> lines = Files.readAllLines(input, StandardCharsets.UTF_8);

        final Path reference = dir.resolve("reference");
        ingest(input, reference, c.columns());
        for (int p = 0; p < pipelines; p++)
        {
            final Path log = log("reference-" + names[p]);
            stopWhenCaughtUp(reference, pipeline.get(p), KillHarness.startChild(follow(reference, pipeline.get(p)), log), log);
        }

        final Path killed = dir.resolve("killed");
        final Path growing = dir.resolve("growing.csv");
        final int chunk = (lines.size() + CHUNKS - 1) / CHUNKS;
        Files.write(growing, lines.subList(0, chunk), StandardCharsets.UTF_8);
        ingest(growing, killed, c.columns());
        final AtomicInteger stops = new AtomicInteger();
        final CompletableFuture<Void> ingests = CompletableFuture.runAsync(() ->
        {
            for (int k = 1; k < CHUNKS; k++)
            {
                while (stops.get() < k * STOPS / CHUNKS)
                {
                    FollowerProgress.sleep(5);
                }
                try
                {
                    Files.write(growing, lines.subList(k * chunk, Math.min(lines.size(), (k + 1) * chunk)), StandardCharsets.UTF_8,
                        StandardOpenOption.APPEND);
                    ingest(growing, killed, c.columns());
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
            }
        });
        final Process[] followers = new Process[pipelines];
        final Path[] logs = new Path[pipelines];
        final int[] kills = new int[pipelines];
        final int[] terms = new int[pipelines];
        try
        {
            for (int p = 0; p < pipelines; p++)
            {
                logs[p] = log("follower-" + names[p]);
                followers[p] = KillHarness.startChild(follow(killed, pipeline.get(p)), logs[p]);
            }
            while (stops.get() < STOPS)
            {
                final int p = random.nextInt(pipelines);
                Thread.sleep(random.nextLong(2_500));
                for (int q = 0; q < pipelines; q++)
                {
                    if (!followers[q].isAlive())
                    {
                        fail(names[q] + "'s follower exited with " + followers[q].exitValue() + ":\n" + Files.readString(logs[q]));
                    }
                }
                if (stops.get() % 4 == 3)
                {
                    followers[p].destroy(); // SIGTERM: it checkpoints, exports and exits 143
                    assertTrue(followers[p].waitFor(5, TimeUnit.MINUTES), "the follower stops on SIGTERM");
                    assertEquals(143, followers[p].exitValue(), Files.readString(logs[p]));
                    terms[p]++;
                }
                else
                {
                    followers[p].destroyForcibly(); // SIGKILL
                    followers[p].waitFor();
                    kills[p]++;
                }
                stops.incrementAndGet();
                logs[p] = log("follower-" + names[p]);
                followers[p] = KillHarness.startChild(follow(killed, pipeline.get(p)), logs[p]);
            }
            ingests.get(10, TimeUnit.MINUTES);
            for (int p = 0; p < pipelines; p++)
            {
                stopWhenCaughtUp(killed, pipeline.get(p), followers[p], logs[p]);
            }
        }
        finally
        {
            for (final Process follower : followers)
            {
                if (follower != null)
                {
                    follower.destroyForcibly();
                }
            }
        }
        System.out.printf("%s, two following pipelines: %s killed %d and stopped %d times, %s killed %d and stopped %d times; %d children%n",
            c.name(), names[0], kills[0], terms[0], names[1], kills[1], terms[1], children.get());

        KillHarness.assertSameLines("every event once in the journal", JournalRows.events(reference.resolve("journal")),
            JournalRows.events(killed.resolve("journal")));
        for (int p = 0; p < pipelines; p++)
        {
            final List<String> outputs = outputs(reference, pipeline.get(p));
            assertTrue(outputs.size() > 500, names[p] + " outputs: " + outputs.size());
            KillHarness.assertSameLines(names[p] + "'s output journal, output by output with versions and source events", outputs,
                outputs(killed, pipeline.get(p)));
        }
        KillHarness.assertSameFiles("the exported files of both pipelines", KillRounds.files(reference), KillRounds.files(killed));
        assertTrue(outputs(reference, pipeline.get(1)).stream().anyMatch(o -> o.startsWith("late,")), names[1] + " has late events");
        if (payments != null)
        {
            payments.assertRejectedOnce(reference.resolve("rejected.csv"));
        }
    }

    private void ingest(final Path csv, final Path out, final List<String> columns) throws Exception
    {
        final Path log = log("ingest");
        final List<String> args = new ArrayList<>(List.of("ingest", "--input", csv.toString(), "--journal", out.resolve("journal").toString(),
            "--rejected", out.resolve("rejected.csv").toString()));
        args.addAll(columns);
        final Process ingest = KillHarness.startChild(args.toArray(String[]::new), log);
        assertTrue(ingest.waitFor(10, TimeUnit.MINUTES), "an ingest ran for 10 minutes");
        assertEquals(0, ingest.exitValue(), Files.readString(log));
    }

    /** Let a pipeline's follower run until its counters say it applied the journal's last event, then stop it with SIGTERM. */
    private static void stopWhenCaughtUp(final Path out, final Pipeline pipeline, final Process follower, final Path log) throws Exception
    {
        final Path journal = out.resolve("journal");
        final long lastEvent = lastEventOffset(journal);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (FollowerProgress.appliedOffset(JournalDirectory.open(journal).pipeline(pipeline.name()), follower.pid()) < lastEvent)
        {
            if (!follower.isAlive())
            {
                fail(pipeline.name() + "'s follower exited with " + follower.exitValue() + " before it caught up:\n" + Files.readString(log));
            }
            assertTrue(System.nanoTime() < deadline, pipeline.name() + "'s follower did not catch up in 10 minutes");
            FollowerProgress.sleep(20);
        }
        follower.destroy(); // SIGTERM
        assertTrue(follower.waitFor(5, TimeUnit.MINUTES), "the follower stops on SIGTERM");
        assertEquals(143, follower.exitValue(), Files.readString(log));
    }

    private static String[] follow(final Path out, final Pipeline pipeline)
    {
        final String name = pipeline.name();
        final List<String> args = new ArrayList<>(List.of("run", "--follow", "--journal", out.resolve("journal").toString(), "--pipeline", name,
            "--results", out.resolve(name + "-results.csv").toString()));
        if (pipeline.flags().contains("--allowed-lateness"))
        {
            args.addAll(List.of("--late", "side", "--late-output", out.resolve(name + "-late.csv").toString()));
        }
        args.addAll(pipeline.flags());
        return args.toArray(String[]::new);
    }

    private static List<String> outputs(final Path out, final Pipeline pipeline)
    {
        return OutputJournalContents.outputs(out.resolve("journal"), pipeline.name(), pipeline.key());
    }

    private Path log(final String what)
    {
        return dir.resolve(what + "-" + children.getAndIncrement() + ".log");
    }

    private static long lastEventOffset(final Path journal)
    {
        final long[] last = {-1};
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            while (reader.poll((offset, id, time, key, value) -> last[0] = offset, 4096) > 0)
            {
                // drain
            }
        }
        return last[0];
    }
}
