package dev.weir.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.test.kafka.KafkaTestBroker;
import dev.weir.testsupport.KillHarness;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code weir run --kafka --idle-timeout T} as a user runs it: payments produced to a one-partition topic with no
 * far-future record, one instance (a child JVM), and {@code weir consume} reads every row a bounded {@code weir run}
 * of the same payments gives, the last windows included, each once.
 */
@Tag("slow")
final class KafkaIdleTimeoutCliTest
{
    private static final String[] WINDOW = {"--window", "tumbling:2s", "--out-of-orderness", "1s"};

    @TempDir
    Path dir;

    @Test
    void theLastWindowsOfAQuietTopicCloseAndAreCommittedOnce() throws Exception
    {
        final String bootstrap = KafkaTestBroker.bootstrap();
        final String topic = KafkaTestBroker.uniqueName("quiet");
        final String output = topic + "-windows";
        final Path demo = dir.resolve("demo");
        final Cli generated = Cli.run("demo", "--dir", demo.toString(), "--payments", "5000");
        assertEquals(0, generated.exit(), generated::err);
        final Path payments = demo.resolve("payments.csv");
        final Cli produced = Cli.run("produce", "--kafka", bootstrap, "--topic", topic, "--input", payments.toString(), "--partitions", "1");
        assertEquals(0, produced.exit(), produced::err);
        final List<String> expected = reference(payments);

        final List<String> args = new ArrayList<>(List.of("run", "--kafka", bootstrap, "--topic", topic, "--group", topic + "-g",
            "--output-topic", output, "--instance", "a", "--journal", dir.resolve("a").toString(), "--idle-timeout", "1s"));
        args.addAll(List.of(WINDOW));
        final Process instance = KillHarness.startChild(args.toArray(String[]::new), dir.resolve("a.log"));
        try
        {
            // a generous bound: a child JVM joining a group takes seconds on a quiet machine and far more under load
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            List<String> rows = List.of();
            while (rows.size() < expected.size() && instance.isAlive() && System.nanoTime() < deadline)
            {
                rows = consumed(bootstrap, output);
            }
            assertTrue(instance.isAlive(), () -> "the instance runs: " + KafkaCluster.tail(dir.resolve("a.log")));
            KillHarness.assertSameLines("the committed rows", expected, rows);
        }
        finally
        {
            instance.destroy(); // SIGTERM: a clean leave
            if (!instance.waitFor(60, TimeUnit.SECONDS))
            {
                instance.destroyForcibly();
            }
        }
    }

    /** @return the rows committed to the output topic, in order (one partition) */
    private static List<String> consumed(final String bootstrap, final String output)
    {
        final Cli consumed = Cli.run("consume", "--kafka", bootstrap, "--topic", output, "--headers", "--idle", "2s");
        final List<String> rows = new ArrayList<>();
        if (consumed.exit() != 0)
        {
            return rows; // the output topic is not there yet
        }
        for (final String line : consumed.out().split("\n"))
        {
            if (!line.isEmpty())
            {
                rows.add(line.split(" ", 4)[3]); // topic:partition@offset seq kind row
            }
        }
        return rows;
    }

    /** @return the rows of a bounded weir run of the payments: every window, the end of input closing the last */
    private List<String> reference(final Path payments) throws Exception
    {
        final Path results = dir.resolve("reference.csv");
        final List<String> args = new ArrayList<>(List.of("run", "--input", payments.toString(), "--results", results.toString()));
        args.addAll(List.of(WINDOW));
        final Cli run = Cli.run(args.toArray(String[]::new));
        assertEquals(0, run.exit(), run::err);
        final List<String> all = Files.readAllLines(results);
        return all.subList(1, all.size());
    }
}
