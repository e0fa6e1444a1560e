package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.KillRounds;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exactly-once with reference tables, proven by killing child JVMs with SIGKILL ({@link KillHarness}), at least
 * {@code -Dweir.kill.count.join} times per case (10 by default):
 * <ul>
 *   <li>during a table ingest ({@code weir ingest --table cards}): once a run completes, the journal holds every
 *   table row once, in file order, as an uninterrupted ingest's;</li>
 *   <li>during {@code weir run --input ... --join cards} (its ingest of events, processing with checkpoints,
 *   export) over a journal whose table rows come before and between events (table rows, an event ingest, table
 *   rows, then the run's own ingest), with a filter naming a table column
 *   ({@link KillRounds}): the output journal, the journal's events and the exported files equal an
 *   uninterrupted run's; and {@code weir replay} of that journal with the same rule writes the run's results.</li>
 * </ul>
 */
@Tag("slow")
class JoinKillTest
{
    private static final int KILLS = KillRounds.count("weir.kill.count.join", 10);
    /** The engine's test knob for the join-state cadence (Wiring.JOIN_STATE_EVERY), inherited by the children. */
    private static final String JOIN_STATE_EVERY = "weir.test.joinStateEvery";
    private static final long CHILD_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(10);

    @TempDir
    Path dir;

    @Test
    void killedDuringATableIngestTheJournalHoldsEveryTableRowOnceInFileOrder() throws Exception
    {
        final Path cards = dir.resolve("cards.csv");
        final CardsCsv written = CardsCsv.write(cards, 200_000, 5);
        final Path reference = dir.resolve("reference");
        final long started = System.nanoTime();
        complete(KillHarness.startChild(tableIngest(cards, reference), dir.resolve("reference.log")), dir.resolve("reference.log"));
        final long referenceMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        final List<String> expected = TableRowsText.of(reference.resolve("journal"));
        assertEquals(written.rows(), expected.size(), "the reference ingested every row");
        assertTrue(expected.stream().anyMatch(r -> r.contains("|delete|")), "tombstones");

        final SplittableRandom random = new SplittableRandom(17);
        int killed = 0;
        int attempts = 0;
        for (int round = 0; killed < KILLS; round++)
        {
            final Path out = dir.resolve("round-" + round);
            while (true)
            {
                attempts++;
                assertTrue(attempts < KILLS * 20 + 50, "too many attempts: " + attempts);
                final Path log = dir.resolve("child-" + attempts + ".log");
                final Process child = KillHarness.startChild(tableIngest(cards, out), log);
                if (killed < KILLS && !child.waitFor(random.nextLong(referenceMs + 1), TimeUnit.MILLISECONDS))
                {
                    child.destroyForcibly(); // SIGKILL
                    child.waitFor();
                    killed++;
                    continue;
                }
                complete(child, log);
                break;
            }
            KillHarness.assertSameLines("round " + round + " (" + killed + " kills so far): every table row once, in order", expected,
                TableRowsText.of(out.resolve("journal")));
        }
    }

    @ParameterizedTest(name = "--window {0} --allowed-lateness {1} --join-missing {2}")
    @CsvSource({"sliding:2s/500ms,1s,drop", "session:20ms,3s,keep"})
    void killedDuringARunWithAJoinEveryOutputIsWrittenExactlyOnce(final String window, final String lateness, final String missing)
        throws Exception
    {
        final Path cardsBefore = dir.resolve("cards-1.csv");
        final Path cardsBetween = dir.resolve("cards-2.csv");
        final Path paymentsBefore = dir.resolve("payments-1.csv");
        final Path payments = dir.resolve("payments-2.csv");
        CardsCsv.write(cardsBefore, 1_000, 1);
        CardsCsv.write(cardsBetween, 1_000, 2);
        final PaymentsCsv before = PaymentsCsv.write(paymentsBefore, 2_000, 3);
        final PaymentsCsv during = PaymentsCsv.write(payments, 30_000, 4);

        final KillRounds rounds = new KillRounds("a join, " + window, dir, "card", KILLS, before.events() + during.events(), window.hashCode());
        // the children save their join state every 3,000 documents (not 65,536), so kills land before, during and
        // after a join-state file is written, and resumes start from one
        System.setProperty(JOIN_STATE_EVERY, "3000");
        final Path reference;
        try
        {
            reference = rounds.run(out ->
        {
            prepare(out, cardsBefore, paymentsBefore, cardsBetween);
            return new String[] {
                "run", "--input", payments.toString(), "--columns", PaymentsCsv.COLUMNS, "--key", "card", "--value", "amount",
                "--join", "cards", "--join-missing", missing, "--where", "country != cards.home",
                "--journal", out.resolve("journal").toString(), "--results", out.resolve("results.csv").toString(),
                "--late-output", out.resolve("late.csv").toString(), "--rejected", out.resolve("rejected.csv").toString(),
                "--window", window, "--out-of-orderness", "400ms", "--allowed-lateness", lateness, "--late", "side", "--checkpoint-every", "1000"};
            });
        }
        finally
        {
            System.clearProperty(JOIN_STATE_EVERY);
        }
        try (var files = Files.list(reference.resolve("journal").resolve("join-state")))
        {
            assertTrue(files.findAny().isPresent(), "the run saved its join state");
        }
        assertTrue(Files.readString(reference.resolve("results.csv")).lines().count() > 100, "the rule has results");
        during.assertRejectedOnce(reference.resolve("rejected.csv"));

        final Path replayed = dir.resolve("replay.csv");
        final Path log = dir.resolve("replay.log");
        complete(KillHarness.startChild(new String[] {
            "replay", "--journal", reference.resolve("journal").toString(), "--key", "card", "--value", "amount",
            "--join", "cards", "--join-missing", missing, "--where", "country != cards.home", "--results", replayed.toString(),
            "--late-output", dir.resolve("replay-late.csv").toString(),
            "--window", window, "--out-of-orderness", "400ms", "--allowed-lateness", lateness, "--late", "side"}, log), log);
        assertEquals(Files.readString(reference.resolve("results.csv")), Files.readString(replayed), "weir replay gives the run's rows, in order");
        assertEquals(Files.readString(reference.resolve("late.csv")), Files.readString(dir.resolve("replay-late.csv")), "and its late events");
    }

    /** A new round's journal: table rows (appended through the Java API), events (an uninterrupted {@code weir ingest}), table rows. */
    private void prepare(final Path out, final Path cardsBefore, final Path paymentsBefore, final Path cardsBetween)
    {
        if (Files.exists(out.resolve("journal")))
        {
            return;
        }
        try
        {
            final Path log = dir.resolve(out.getFileName() + "-prepare.log");
            JournalDirectory.create(out.resolve("journal"), JournalSchema.parse(PaymentsCsv.COLUMNS));
            CardsCsv.append(cardsBefore, out.resolve("journal"));
            complete(KillHarness.startChild(new String[] {"ingest", "--input", paymentsBefore.toString(), "--columns", PaymentsCsv.COLUMNS,
                "--journal", out.resolve("journal").toString(), "--rejected", out.resolve("prepare-rejected.csv").toString()}, log), log);
            CardsCsv.append(cardsBetween, out.resolve("journal"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static String[] tableIngest(final Path cards, final Path out)
    {
        return new String[] {"ingest", "--journal", out.resolve("journal").toString(), "--table", "cards", "--key", CardsCsv.KEY,
            "--columns", CardsCsv.COLUMNS, "--input", cards.toString(), "--rejected", out.resolve(cards.getFileName() + ".rejected.csv").toString()};
    }

    private static void complete(final Process child, final Path log) throws IOException, InterruptedException
    {
        if (!child.waitFor(CHILD_TIMEOUT_MS, TimeUnit.MILLISECONDS))
        {
            child.destroyForcibly();
            fail("a child ran for 10 minutes:\n" + Files.readString(log));
        }
        if (child.exitValue() != 0)
        {
            fail("a child exited with " + child.exitValue() + ":\n" + Files.readString(log));
        }
    }
}
