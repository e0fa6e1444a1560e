package dev.weir.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.weir.test.kafka.KafkaTestBroker;
import dev.weir.testsupport.KillHarness;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The walkthrough of docs/kafka.md, as a newcomer runs it: the demo payments produced to a topic with
 * {@code weir produce}, two {@code weir run --kafka} instances (child JVMs), one killed with {@code kill -9}, and
 * every result read once with {@code weir consume}: per partition, the rows committed are the beginning of what a
 * bounded {@code weir run} of that partition's payments gives (the rest are the windows the stream has not closed),
 * none twice.
 */
@Tag("slow")
final class KafkaWalkthroughTest
{
    private static final String[] WINDOW = {"--window", "tumbling:10s", "--out-of-orderness", "5s"};

    @TempDir
    Path dir;

    @Test
    void twoInstancesOneKilledEveryResultOnce() throws Exception
    {
        final String bootstrap = KafkaTestBroker.bootstrap();
        final String topic = KafkaTestBroker.uniqueName("payments");
        final String output = topic + "-windows";
        final Path demo = dir.resolve("demo");
        final Cli generated = Cli.run("demo", "--dir", demo.toString(), "--payments", "60000");
        assertEquals(0, generated.exit(), generated::err);
        final Path payments = demo.resolve("payments.csv");
        final Cli produced = Cli.run("produce", "--kafka", bootstrap, "--topic", topic, "--input", payments.toString(), "--partitions", "4");
        assertEquals(0, produced.exit(), produced::err);

        final Process a = instance(bootstrap, topic, output, "a");
        final Process b = instance(bootstrap, topic, output, "b");
        try
        {
            awaitStatus(dir.resolve("a"));
            awaitStatus(dir.resolve("b"));
            Thread.sleep(1_500);
            a.destroyForcibly().waitFor(); // kill -9: b takes a's partitions over
            // b has taken every partition over and caught up (after a session timeout and a rebalance, however slow
            // the machine) before the output is read until it stays idle
            KafkaCluster.awaitCaughtUp(b, dir.resolve("b.log"), dir.resolve("b"), 4, 0);
            final Cli consumed = Cli.run("consume", "--kafka", bootstrap, "--topic", output, "--headers", "--idle", "15s");
            assertEquals(0, consumed.exit(), consumed::err);
            final Map<Integer, List<String>> committed = new HashMap<>();
            for (final String line : consumed.out().split("\n"))
            {
                if (!line.isEmpty())
                {
                    final String[] parts = line.split(" ", 4); // topic:partition@offset seq kind row
                    final int partition = Integer.parseInt(parts[0].substring(topic.length() + 1, parts[0].indexOf('@')));
                    committed.computeIfAbsent(partition, p -> new ArrayList<>()).add(parts[3]);
                }
            }
            final Map<Integer, List<String>> expected = reference(payments, 4);
            long rows = 0;
            for (int p = 0; p < 4; p++)
            {
                final List<String> mine = committed.getOrDefault(p, List.of());
                final Set<String> once = new HashSet<>(mine);
                assertEquals(mine.size(), once.size(), "partition " + p + ": no row twice");
                assertTrue(mine.size() <= expected.get(p).size(), "partition " + p + ": no row more than a bounded run gives");
                KillHarness.assertSameLines("partition " + p, expected.get(p).subList(0, mine.size()), mine);
                assertTrue(expected.get(p).size() - mine.size() < 4_000, "partition " + p + ": only the last windows are open");
                rows += mine.size();
            }
            assertTrue(rows > 10_000, "results committed: " + rows);
            final Cli inspected = Cli.run("inspect", dir.resolve("b").toString());
            assertEquals(0, inspected.exit(), inspected::err);
            for (int p = 0; p < 4; p++)
            {
                assertTrue(inspected.out().contains(topic + "-" + p + " committed="), () -> "b owns every partition now: " + inspected.out());
            }
            assertTrue(inspected.out().contains(" lag=0 "), () -> "weir inspect shows the lag: " + inspected.out());
        }
        finally
        {
            a.destroyForcibly();
            b.destroy();
            b.waitFor(60, TimeUnit.SECONDS);
        }
    }

    private Process instance(final String bootstrap, final String topic, final String output, final String id) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("run", "--kafka", bootstrap, "--topic", topic, "--group", topic + "-fraud",
            "--output-topic", output, "--instance", id, "--journal", dir.resolve(id).toString(), "--session-timeout", "6s"));
        args.addAll(List.of(WINDOW));
        return KillHarness.startChild(args.toArray(String[]::new), dir.resolve(id + ".log"));
    }

    private static void awaitStatus(final Path journal) throws InterruptedException
    {
        final Path status = journal.resolve("kafka").resolve("status");
        // a generous bound: a child JVM joining a group takes seconds on a quiet machine and far more at load 20
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!Files.exists(status) && System.nanoTime() < deadline)
        {
            Thread.sleep(100);
        }
        assertTrue(Files.exists(status), "the instance writes " + status);
    }

    /** Each partition's rows by a bounded weir run of its payments (the default partitioner: murmur2 of the key). */
    private Map<Integer, List<String>> reference(final Path payments, final int partitions) throws Exception
    {
        final List<String> lines = Files.readAllLines(payments);
        final Map<Integer, List<String>> byPartition = new HashMap<>();
        for (int p = 0; p < partitions; p++)
        {
            byPartition.put(p, new ArrayList<>(List.of(lines.get(0))));
        }
        for (final String line : lines.subList(1, lines.size()))
        {
            final String[] fields = line.split(",");
            if (fields.length >= 3 && !fields[2].isEmpty())
            {
                final int p = Utils.toPositive(Utils.murmur2(fields[2].getBytes(StandardCharsets.UTF_8))) % partitions;
                byPartition.get(p).add(line);
            }
        }
        final Map<Integer, List<String>> rows = new HashMap<>();
        for (int p = 0; p < partitions; p++)
        {
            final Path input = dir.resolve("p" + p + ".csv");
            Files.write(input, byPartition.get(p));
            final Path results = dir.resolve("p" + p + ".results.csv");
            final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--results", results.toString()));
            args.addAll(List.of(WINDOW));
            final Cli run = Cli.run(args.toArray(String[]::new));
            assertEquals(0, run.exit(), run::err);
            final List<String> all = Files.readAllLines(results);
            rows.put(p, all.subList(1, all.size()));
        }
        return rows;
    }
}
