package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walkthrough of docs/cli.md ("weir example"), command for command: a six-column payments CSV is ingested once,
 * two rules follow the journal at once as named pipelines (each a {@code weir run --follow} process), a
 * third runs over it bounded with a composite key, and {@code weir inspect} lists the three. Each rule's
 * results, once its follower is stopped and a bounded run has fired what it left open, are those of a
 * {@code weir replay} of the same query.
 */
@Tag("slow")
class PaymentsWalkthroughTest
{
    private static final String COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2),fee:decimal(2),channel:string,status:string";
    private static final String[][] FOLLOWING = {
        {"spend", "--key", "card", "--value", "amount - fee", "--where", "channel = 'online' and status = 'approved'", "--window", "sliding:60s/5s",
            "--out-of-orderness", "1s"},
        {"merchants", "--key", "card", "--value", "amount", "--window", "tumbling:60s", "--out-of-orderness", "1s", "--aggregate", "distinct:merchant"},
    };
    private static final String[] PLACES = {"places", "--key", "merchant,country", "--value", "amount", "--window", "tumbling:60s"};

    @TempDir
    Path dir;

    @Test
    void ingestOnceThenTwoFollowingRulesAndAThirdOnOneJournal() throws Exception
    {
        final Path csv = payments(dir.resolve("payments.csv"), 40_000);
        final Path journal = dir.resolve("pay");
        run("ingest", "--input", csv.toString(), "--columns", COLUMNS, "--journal", journal.toString());
        final long lastEvent;
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            lastEvent = reader.lastOffset();
        }

        final List<Process> followers = new ArrayList<>();
        for (final String[] rule : FOLLOWING)
        {
            final List<String> args = new ArrayList<>(List.of("run", "--journal", journal.toString(), "--pipeline", rule[0], "--follow",
                "--results", dir.resolve(rule[0] + ".csv").toString()));
            args.addAll(List.of(rule).subList(1, rule.length));
            followers.add(new ProcessBuilder(ChildJvm.weir("256m", args.toArray(new String[0])))
                .redirectErrorStream(true).redirectOutput(dir.resolve(rule[0] + ".log").toFile()).start());
        }
        try
        {
            final List<String> places = new ArrayList<>(List.of("run", "--journal", journal.toString(), "--pipeline", PLACES[0],
                "--results", dir.resolve("places.csv").toString()));
            places.addAll(List.of(PLACES).subList(1, PLACES.length));
            final Process third = new ProcessBuilder(ChildJvm.weir("256m", places.toArray(new String[0]))) // beside the two followers
                .redirectErrorStream(true).redirectOutput(dir.resolve("places.log").toFile()).start();
            assertTrue(third.waitFor(3, TimeUnit.MINUTES), "the places rule ran to the end");
            assertEquals(0, third.exitValue(), log("places"));
            for (int f = 0; f < followers.size(); f++)
            {
                final JournalDirectory pipeline = JournalDirectory.open(journal).pipeline(FOLLOWING[f][0]);
                final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                while (FollowerProgress.appliedOffset(pipeline, followers.get(f).pid()) < lastEvent)
                {
                    assertTrue(followers.get(f).isAlive() && System.nanoTime() < deadline, log(FOLLOWING[f][0]));
                    FollowerProgress.sleep(50);
                }
            }
            final Cli inspect = Cli.run("inspect", journal.toString());
            assertEquals(0, inspect.exit(), inspect.err());
            for (final String name : List.of("spend", "merchants"))
            {
                assertTrue(inspect.out().lines().anyMatch(l -> l.strip().matches(name + " +running \\(pid \\d+\\), applied offset " + lastEvent
                    + ", lag 0 events; .*")), name + " runs and has caught up in:\n" + inspect.out());
            }
            assertTrue(inspect.out().lines().anyMatch(l -> l.strip().matches("places +checkpoint at offset " + lastEvent + ", lag 0 events; .*")),
                "places has run to the end:\n" + inspect.out());
            assertTrue(inspect.out().contains("key=merchant,country value=amount"), inspect.out());
        }
        finally
        {
            for (final Process follower : followers)
            {
                follower.destroy(); // SIGTERM: it checkpoints, exports and exits 143
                assertTrue(follower.waitFor(2, TimeUnit.MINUTES), "a follower stops on SIGTERM");
            }
        }
        for (final String[] rule : FOLLOWING)
        {
            assertEquals(143, followers.get(List.of(FOLLOWING).indexOf(rule)).exitValue(), log(rule[0]));
            final List<String> fire = new ArrayList<>(List.of("run", "--journal", journal.toString(), "--pipeline", rule[0],
                "--results", dir.resolve(rule[0] + ".csv").toString()));
            fire.addAll(List.of(rule).subList(1, rule.length));
            run(fire.toArray(new String[0])); // resumes from the follower's checkpoint and fires what it left open
        }
        for (final String[] rule : new String[][] {FOLLOWING[0], FOLLOWING[1], PLACES})
        {
            final List<String> replay = new ArrayList<>(List.of("replay", "--journal", journal.toString(),
                "--results", dir.resolve(rule[0] + "-replay.csv").toString()));
            replay.addAll(List.of(rule).subList(1, rule.length));
            run(replay.toArray(new String[0]));
            final List<String> rows = Files.readAllLines(dir.resolve(rule[0] + ".csv"));
            assertTrue(rows.size() > 1_000, rule[0] + ": " + rows.size() + " rows");
            assertEquals(Files.readAllLines(dir.resolve(rule[0] + "-replay.csv")), rows, rule[0]);
        }
        assertEquals("window_start,window_end,merchant,country,count,sum,min,max,version",
            Files.readAllLines(dir.resolve("places.csv")).get(0));
        assertEquals("window_start,window_end,card,count,sum,min,max,version,aggregate",
            Files.readAllLines(dir.resolve("merchants.csv")).get(0));
    }

    private String log(final String rule)
    {
        try
        {
            return rule + " run:\n" + Files.readString(dir.resolve(rule + ".log"));
        }
        catch (final IOException ex)
        {
            return rule + " run: no log (" + ex + ")";
        }
    }

    /** Seeded payments: 2,000 cards, 300 merchants (some named with a comma and quotes), three countries, a 1.5% fee, 2% declined. */
    private static Path payments(final Path file, final int count) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(14);
        final List<String> lines = new ArrayList<>(List.of("event_id,event_time,card,merchant,country,amount,fee,channel,status"));
        for (int i = 0; i < count; i++)
        {
            final int merchant = random.nextInt(300);
            final long cents = random.nextLong(100, 50_000);
            final String name = merchant % 100 == 7 ? "\"Café \"\"" + merchant + "\"\", Paris\"" : "merchant-" + merchant;
            lines.add(i + "," + (1_000_000L + i * 20L - random.nextInt(500)) + ",card-" + random.nextInt(2_000) + "," + name + ","
                + List.of("FR", "DE", "IT").get(random.nextInt(3)) + "," + BigDecimal.valueOf(cents, 2).toPlainString() + ","
                + BigDecimal.valueOf(cents * 15 / 1_000, 2).toPlainString() + "," + (i % 4 == 0 ? "online" : "pos") + ","
                + (random.nextInt(50) == 0 ? "declined" : "approved"));
        }
        Files.write(file, lines);
        return file;
    }

    private static void run(final String... args)
    {
        final Cli cli = Cli.run(args);
        assertEquals(0, cli.exit(), String.join(" ", args) + "\n" + cli.out() + cli.err());
    }

    static
    {
        assert File.separatorChar == '/' : "the followers are stopped with SIGTERM";
    }
}
