package dev.weir.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The broker goes down under a running instance: {@code scripts/test-kafka.sh} stops it (SIGTERM) while the
 * instance has committed the first half of the records and restarts it 5 s later; the second half is produced once
 * it is back. The instance rides the outage out and every row is committed once, equal to a bounded run of each
 * partition. Runs only against the broker the script started (its pid file), which it may stop.
 */
final class KafkaOutageTest
{
    private static final int PARTITIONS = 3;

    @TempDir
    Path dir;

    @Test
    void anInstanceRidesABrokerOutageOut() throws Exception
    {
        final Path script = Path.of("..", "scripts", "test-kafka.sh").toAbsolutePath().normalize();
        final Path pidFile = Path.of(System.getenv().getOrDefault("WEIR_KAFKA_DIR", System.getProperty("java.io.tmpdir") + "/weir-kafka"), "broker.pid");
        try (KafkaCluster kafka = new KafkaCluster())
        {
            assumeTrue(Files.exists(script) && Files.exists(pidFile) && kafka.bootstrap.endsWith(":39092")
                    && System.getenv("WEIR_KAFKA_PORT") == null,
                "the broker is not the one scripts/test-kafka.sh started here: not stopping it");
            final String topic = kafka.topic("weir-outage", PARTITIONS);
            final List<KafkaCluster.Line> lines = KafkaCluster.payments(PARTITIONS, 60_000, 4_000, 21);
            final Map<Integer, KafkaCluster.Rows> expected = KafkaCluster.reference(dir, lines, PARTITIONS);
            final int third = lines.size() / 3;
            kafka.produce(topic, lines.subList(0, third));
            final List<String> args = new ArrayList<>(List.of("run", "--kafka", kafka.bootstrap, "--topic", topic, "--group", "g-" + topic,
                "--output-topic", topic + "-out", "--instance", "survivor", "--journal", dir.resolve("survivor").toString(),
                "--checkpoint-every", "5000"));
            args.addAll(List.of(KafkaCluster.WINDOW_FLAGS));
            final Process instance = KillHarness.startChild(args.toArray(String[]::new), dir.resolve("survivor.log"));
            // the rest arrives in slices over about 4 s; the broker goes down 1 s into it, mid-transaction, for about 10 s
            final Thread producer = new Thread(() ->
            {
                final int slices = 20;
                final List<KafkaCluster.Line> rest = lines.subList(third, lines.size());
                for (int s = 0; s < slices; s++)
                {
                    kafka.produce(topic, rest.subList(s * rest.size() / slices, (s + 1) * rest.size() / slices));
                    KafkaCluster.pause(200);
                }
            }, "test-producer");
            try
            {
                awaitLag0(dir.resolve("survivor"), third);
                producer.start();
                Thread.sleep(1_000);
                assertEquals(0, script(script, "stop"), "the broker stops");
                Thread.sleep(5_000);
                assertEquals(0, script(script, "start"), "the broker starts again");
                producer.join();
                awaitLag0(dir.resolve("survivor"), lines.size());
                assertTrue(instance.isAlive(), () -> "the instance rode the outage out: " + log(dir.resolve("survivor.log")));
            }
            finally
            {
                producer.join();
                if (!KafkaClusterBroker.answers(kafka.bootstrap))
                {
                    script(script, "start");
                }
                instance.destroy();
                instance.waitFor(60, TimeUnit.SECONDS);
            }
            final long count = expected.values().stream().mapToLong(r -> r.results().size() + r.late().size()).sum();
            final Map<Integer, KafkaCluster.Rows> committed = kafka.committed(topic, topic + "-out", PARTITIONS, count, Duration.ofMinutes(2));
            for (int p = 0; p < PARTITIONS; p++)
            {
                KillHarness.assertSameLines("results of partition " + p, expected.get(p).results(), committed.get(p).results());
                KillHarness.assertSameLines("late events of partition " + p, expected.get(p).late(), committed.get(p).late());
            }
        }
    }

    private static int script(final Path script, final String command) throws Exception
    {
        final Process process = new ProcessBuilder("bash", script.toString(), command).inheritIO().start();
        return process.waitFor(120, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }

    private static String log(final Path file)
    {
        try
        {
            final List<String> lines = Files.readAllLines(file);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        }
        catch (final java.io.IOException ex)
        {
            return ex.toString();
        }
    }

    /** Wait until the instance has read at least {@code records} records and every partition to its end. */
    private static void awaitLag0(final Path journal, final long records) throws Exception
    {
        final java.util.regex.Pattern events = java.util.regex.Pattern.compile(" events (\\d+) ");
        final Path status = journal.resolve("kafka").resolve("status");
        int caughtUp = 0;
        for (int i = 0; i < 1800 && caughtUp < 3; i++)
        {
            Thread.sleep(100);
            if (Files.exists(status))
            {
                final List<String> lines = Files.readAllLines(status);
                final long idle = lines.stream().filter(l -> l.contains(" lag=0 ")).count();
                final java.util.regex.Matcher read = events.matcher(lines.isEmpty() ? "" : lines.get(0));
                final boolean allRead = read.find() && Long.parseLong(read.group(1)) >= records;
                caughtUp = allRead && lines.size() == PARTITIONS + 1 && idle == PARTITIONS ? caughtUp + 1 : 0;
            }
        }
        assertTrue(caughtUp >= 3, () -> "the instance caught up with " + PARTITIONS + " partitions: " + status);
    }

    /** Whether the broker answers. */
    private static final class KafkaClusterBroker
    {
        static boolean answers(final String bootstrap)
        {
            final String[] hostPort = bootstrap.split(",")[0].split(":");
            try (java.net.Socket socket = new java.net.Socket())
            {
                socket.connect(new java.net.InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), 1000);
                return true;
            }
            catch (final java.io.IOException ex)
            {
                return false;
            }
        }
    }
}
