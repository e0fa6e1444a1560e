package dev.weir.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalClock;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.testsupport.ChildJvm;
import dev.weir.testsupport.KillHarness;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The local mirrors of {@code weir run --kafka} stay bounded: an instance with minutely roll cycles, under the test clock
 * at ×60 (a cycle per wall second), mirrors two partitions while records arrive for about 40 cycles; no mirror ever holds
 * more than a few cycle files, and the committed rows still equal a bounded run of each partition.
 */
@Tag("slow")
final class KafkaMirrorRetentionTest
{
    private static final int PARTITIONS = 2;
    private static final int SLICES = 40;
    /** Cycle files (events and outputs) a partition's mirror may hold: the floor lags a checkpoint; a loaded machine lags more. */
    private static final int MOST_FILES = 16;

    @TempDir
    Path dir;

    @Test
    void theMirrorsKeepOnlyTheCyclesTheirPartitionsStillRead() throws Exception
    {
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic("weir-mirror-retention", PARTITIONS);
            final List<KafkaCluster.Line> lines = KafkaCluster.payments(PARTITIONS, 160_000, 2_000, 21);
            mirrorsStayBounded(kafka, topic, lines, KafkaCluster.reference(dir, lines, PARTITIONS), KafkaCluster.WINDOW_FLAGS);
        }
    }

    /**
     * The same with a join of a table whose rows travel in the topic: a row per card before the payments, and updates
     * among them; the table's rows of removed cycles are kept by the mirrors' history bases, and each checkpoint
     * carries the greatest time its joins read, read from a mirror whose cycles go as it reads.
     */
    @Test
    void theMirrorsOfAJoinKeepOnlyTheCyclesTheirPartitionsStillRead() throws Exception
    {
        final TableDefinition cards = TableDefinition.parse("cards", "key", "key:string,limit:long");
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic("weir-mirror-retention-join", PARTITIONS);
            final List<KafkaCluster.Line> payments = KafkaCluster.payments(PARTITIONS, 160_000, 2_000, 22);
            final List<KafkaCluster.Line> lines = new ArrayList<>();
            for (int card = 0; card < 2_000; card++)
            {
                for (int p = 0; p < PARTITIONS; p++)
                {
                    lines.add(new KafkaCluster.Line(p, "card-" + card, (KafkaCluster.START - 1) + ",card-" + card + "," + card + ",", "cards"));
                }
            }
            for (int u = 0; u < SLICES; u++)
            {
                final int from = u * payments.size() / SLICES;
                for (int card = u; card < 2_000; card += 97) // a few cards' limits change, from the time of the payments around
                {
                    for (int p = 0; p < PARTITIONS; p++)
                    {
                        lines.add(new KafkaCluster.Line(p, "card-" + card, (KafkaCluster.START + from / 2) + ",card-" + card + "," + (u * 10_000 + card)
                            + ",upsert", "cards"));
                    }
                }
                lines.addAll(payments.subList(from, (u + 1) * payments.size() / SLICES));
            }
            final String[] join = {"--join", "cards", "--value", "value + cards.limit", "--window", "tumbling:10s", "--out-of-orderness", "2s",
                "--allowed-lateness", "5s", "--late", "side"};
            final Map<Integer, KafkaCluster.Rows> expected = KafkaCluster.referenceWithTable(dir, lines, PARTITIONS, cards, join);
            final String[] flags = new String[join.length + 2];
            flags[0] = "--table";
            flags[1] = "cards(key)=key:string,limit:long";
            System.arraycopy(join, 0, flags, 2, join.length);
            mirrorsStayBounded(kafka, topic, lines, expected, flags);
        }
    }

    private void mirrorsStayBounded(final KafkaCluster kafka, final String topic, final List<KafkaCluster.Line> lines,
        final Map<Integer, KafkaCluster.Rows> expected, final String[] rule) throws Exception
    {
        {
            final Path journal = dir.resolve("instance");
            final List<String> command = ChildJvm.weir("512m", "run", "--kafka", kafka.bootstrap, "--topic", topic, "--group", "g-" + topic,
                "--output-topic", topic + "-out", "--instance", "i0", "--journal", journal.toString(), "--roll-cycle", "minutely",
                "--checkpoint-every", "2000");
            command.addAll(List.of(rule));
            command.add(1, "-D" + JournalClock.ORIGIN_PROPERTY + "=" + System.currentTimeMillis());
            command.add(2, "-D" + JournalClock.SCALE_PROPERTY + "=60");
            final Path log = Path.of("target", "kafka-mirror-retention-" + topic + ".log"); // kept for a look after a failure
            final Process instance = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            final Map<String, Integer> most = new TreeMap<>();
            final Set<String> based = new TreeSet<>();
            try
            {
                for (int s = 0; s < SLICES; s++)
                {
                    kafka.produce(topic, lines.subList(s * lines.size() / SLICES, (s + 1) * lines.size() / SLICES));
                    final long until = System.nanoTime() + 1_000_000_000L;
                    while (System.nanoTime() < until)
                    {
                        count(journal.resolve("kafka"), most, based);
                        KafkaCluster.pause(100);
                    }
                }
                final long rows = expected.values().stream().mapToLong(r -> r.results().size() + r.late().size()).sum();
                final Map<Integer, KafkaCluster.Rows> committed = kafka.committed(topic, topic + "-out", PARTITIONS, rows, Duration.ofMinutes(4));
                for (int p = 0; p < PARTITIONS; p++)
                {
                    KillHarness.assertSameLines("results of partition " + p, expected.get(p).results(), committed.get(p).results());
                    KillHarness.assertSameLines("late events of partition " + p, expected.get(p).late(), committed.get(p).late());
                }
                count(journal.resolve("kafka"), most, based);
            }
            finally
            {
                instance.destroy();
                if (!instance.waitFor(60, TimeUnit.SECONDS))
                {
                    instance.destroyForcibly();
                }
            }
            assertTrue(most.size() == PARTITIONS, () -> "two mirrors: " + most + "\n" + KafkaCluster.tail(log));
            for (final Map.Entry<String, Integer> mirror : most.entrySet())
            {
                assertTrue(mirror.getValue() <= MOST_FILES, () -> "the mirror " + mirror.getKey() + " held " + mirror.getValue()
                    + " cycle files at most, over " + SLICES + " cycles\n" + KafkaCluster.tail(log));
            }
            assertEquals(most.keySet(), based, () -> "each mirror removed cycles (a history base seen in it)\n" + KafkaCluster.tail(log));
        }
    }

    /**
     * Record, per mirror directory, the most cycle files (.cq4) of its queues seen so far, and whether it has a
     * history base: the record retention leaves when it removes events cycles (a mirror is deleted when its
     * partition is let go, so it is seen only while the instance runs).
     */
    private static void count(final Path root, final Map<String, Integer> most, final Set<String> based) throws IOException
    {
        if (!Files.isDirectory(root))
        {
            return;
        }
        try (Stream<Path> partitions = Files.list(root))
        {
            for (final Path partition : partitions.filter(Files::isDirectory).toList())
            {
                try (Stream<Path> files = Files.walk(partition))
                {
                    final List<String> names = files.map(f -> f.getFileName().toString()).toList();
                    final String name = partition.getFileName().toString();
                    most.merge(name, (int)names.stream().filter(n -> n.endsWith(".cq4")).count(), Math::max);
                    if (names.contains(HistoryBase.FILE))
                    {
                        based.add(name);
                    }
                }
                catch (final IOException | java.io.UncheckedIOException ex)
                {
                    // a cycle removed while walking: the next sample counts again
                }
            }
        }
    }
}
