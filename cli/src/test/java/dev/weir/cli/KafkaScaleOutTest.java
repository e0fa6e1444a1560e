package dev.weir.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.weir.csv.TableCsvParser;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.testsupport.ChildJvm;
import dev.weir.testsupport.KillHarness;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Weir scaled out over a real Kafka broker: three {@code weir run --kafka} child JVMs in one consumer group share a
 * topic of six partitions, and the rows committed to the output topic, read {@code read_committed}, equal row for row
 * a bounded {@code weir run} of each partition's records as a file of its own: with every instance running, and with
 * instances killed with {@code kill -9} at random moments and restarted, with the default aggregates, with named ones
 * ({@code --aggregates}), with the rules of a local run ({@code --where}, {@code --value}, {@code --emit updates},
 * {@code --early-when}), with a long key, with a key of two columns ({@code --key key,shop}) and with a join of a table
 * whose rows travel in the topic ({@code --table}, {@code --join}). Bad records are rejected with partition and offset, each once.
 */
@Tag("slow")
final class KafkaScaleOutTest
{
    private static final int PARTITIONS = 6;
    private static final int RECORDS = 500_000;
    /** Named aggregates of the payments' value (first and last by event time, a filter, a result), with the scale-out's windows. */
    private static final String[] NAMED_FLAGS = {"--aggregates", "n=count(),total=sum(value),open=first(value),close=last(value),"
        + "large=count() filter (where value >= 40000),mean=total/n", "--window", "tumbling:10s", "--out-of-orderness", "2s",
        "--allowed-lateness", "5s", "--late", "side"};
    /** The rules of a local run: a filter, an expression as the value, update rows and an early row per window. */
    private static final String[] RULE_FLAGS = {"--where", "value >= 10000 and key != 'card-7'", "--value", "value * 2 - 1", "--emit", "updates",
        "--early-when", "sum >= 300000 and count > 2", "--window", "tumbling:10s", "--out-of-orderness", "2s", "--allowed-lateness", "5s",
        "--late", "side"};

    /** The scale-out's windows over a long key: its ids are key tuples, which every owner must number alike. */
    private static final String[] LONG_KEY_FLAGS = {"--columns", "key:long,value:long", "--window", "tumbling:10s", "--out-of-orderness", "2s",
        "--allowed-lateness", "5s", "--late", "side"};

    /** The scale-out's windows over a key of two columns, a string and a long: its ids are key tuples, its record key both joined by a comma. */
    private static final String[] COMPOSITE_KEY_FLAGS = {"--columns", "key:string,shop:long,value:long", "--key", "key,shop", "--window",
        "tumbling:10s", "--out-of-orderness", "2s", "--allowed-lateness", "5s", "--late", "side"};

    /** The card table of the join test, as weir run --kafka --table declares it. */
    private static final String CARDS = "cards(key)=key:string,limit:long,tier:string";
    private static final TableDefinition CARDS_TABLE = TableDefinition.parse("cards", "key", "key:string,limit:long,tier:string");
    /** The rules of the join test, without the table's declaration (--table), which a local journal does not take. */
    private static final String[] JOIN_FLAGS = {"--join", "cards", "--where", "cards.tier != 'gold'", "--value", "value + cards.limit",
        "--join-missing", "drop", "--window", "tumbling:10s", "--out-of-orderness", "2s", "--allowed-lateness", "5s", "--late", "side"};
    private static final String[] TIERS = {"gold", "silver", "bronze"};

    @TempDir
    Path dir;

    @Test
    void threeInstancesCommitWhatEachPartitionGivesAlone() throws Exception
    {
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic("weir-scale", PARTITIONS);
            final List<KafkaCluster.Line> lines = KafkaCluster.payments(PARTITIONS, RECORDS, 4_000, 11);
            final Map<Integer, KafkaCluster.Rows> expected = KafkaCluster.reference(dir, lines, PARTITIONS);
            final List<Process> instances = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                instances.add(start(kafka, topic, i, KafkaCluster.WINDOW_FLAGS));
            }
            try
            {
                kafka.produce(topic, lines);
                assertCommitted(kafka, topic, expected, Duration.ofMinutes(4));
            }
            finally
            {
                stop(instances);
            }
            assertRejected(kafka, topic, lines);
        }
    }

    @Test
    void instancesKilledAtRandomMomentsLoseAndDoubleNothing() throws Exception
    {
        killedAtRandomMoments("weir-kill", KafkaCluster.WINDOW_FLAGS, RECORDS, 12, 12);
    }

    @Test
    void instancesWithNamedAggregatesKilledAtRandomMomentsLoseAndDoubleNothing() throws Exception
    {
        killedAtRandomMoments("weir-kill-named", NAMED_FLAGS, RECORDS / 2, 6, 13);
    }

    @Test
    void instancesWithTheRulesOfALocalRunKilledAtRandomMomentsLoseAndDoubleNothing() throws Exception
    {
        killedAtRandomMoments("weir-kill-rules", RULE_FLAGS, RECORDS / 4, 6, 14);
    }

    @Test
    void instancesWithALongKeyKilledAtRandomMomentsLoseAndDoubleNothing() throws Exception
    {
        killedAtRandomMoments("weir-kill-long", LONG_KEY_FLAGS, RECORDS / 4, 6, 15);
    }

    @Test
    void instancesWithACompositeKeyKilledAtRandomMomentsLoseAndDoubleNothing() throws Exception
    {
        killedAtRandomMoments("weir-kill-composite", COMPOSITE_KEY_FLAGS, RECORDS / 4, 6, 16);
    }

    /**
     * A join of a card table whose rows travel in the topic: a row for every card sent to every partition by {@code weir
     * produce --table} before the payments, then updates (new limits and tiers, a few deletes) sent to every partition
     * among the payments, valid from the time of the payments around them, so that the events before and after an update,
     * and the out-of-order ones, join other rows. The instances declare the table ({@code --table}), are killed at random
     * moments, and must commit the rows of a bounded run of a local journal per partition holding its events and rows in
     * its order.
     */
    @Test
    void instancesWithAJoinKilledAtRandomMomentsLoseAndDoubleNothing() throws Exception
    {
        final int records = RECORDS / 4;
        final int cards = 4_000;
        final long seed = 17;
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic("weir-kill-join", PARTITIONS);
            final Random random = new Random(seed + 1);
            final List<String> initial = new ArrayList<>(List.of(TableCsvParser.header(CARDS_TABLE)));
            final List<KafkaCluster.Line> initialRows = new ArrayList<>();
            for (int card = 0; card < cards; card++)
            {
                final String row = (KafkaCluster.START - 3_600_000) + ",card-" + card + "," + (1_000 + random.nextInt(9_000)) + ","
                    + TIERS[random.nextInt(TIERS.length)];
                initial.add(row);
                for (int p = 0; p < PARTITIONS; p++)
                {
                    initialRows.add(new KafkaCluster.Line(p, "card-" + card, row + ",", CARDS_TABLE.name()));
                }
            }
            final List<KafkaCluster.Line> payments = KafkaCluster.payments(PARTITIONS, records, cards, seed);
            final List<KafkaCluster.Line> lines = new ArrayList<>();
            final int updatePoints = 10;
            for (int u = 0; u < updatePoints; u++)
            {
                final int from = u * records / updatePoints;
                if (u > 0) // among the payments: valid from the time of those around them
                {
                    final long validFrom = KafkaCluster.START + from / 2;
                    for (int i = 0; i < 40; i++)
                    {
                        final String key = "card-" + random.nextInt(cards / 5); // the busy cards
                        final String row = random.nextInt(10) == 0 ? validFrom + "," + key + ",0,," + TableCsvParser.DELETE
                            : validFrom + "," + key + "," + (1_000 + random.nextInt(9_000)) + "," + TIERS[random.nextInt(TIERS.length)] + ",";
                        for (int p = 0; p < PARTITIONS; p++)
                        {
                            lines.add(new KafkaCluster.Line(p, key, row, CARDS_TABLE.name()));
                        }
                    }
                }
                lines.addAll(payments.subList(from, u == updatePoints - 1 ? payments.size() : (u + 1) * records / updatePoints));
            }
            final List<KafkaCluster.Line> all = new ArrayList<>(initialRows);
            all.addAll(lines);
            final Map<Integer, KafkaCluster.Rows> expected = KafkaCluster.referenceWithTable(dir, all, PARTITIONS, CARDS_TABLE, JOIN_FLAGS);

            final Path cardsCsv = dir.resolve("cards.csv");
            Files.write(cardsCsv, initial);
            final Cli produced = Cli.run("produce", "--kafka", kafka.bootstrap, "--topic", topic, "--input", cardsCsv.toString(), "--table",
                CARDS_TABLE.name(), "--key", "key", "--columns", CARDS_TABLE.columns().toString(), "--partitions", String.valueOf(PARTITIONS));
            assertEquals(0, produced.exit(), produced.err());
            assertTrue(produced.out().contains("Sent " + String.format("%,d", cards) + " rows of table cards"), produced.out());

            final String[] flags = new String[JOIN_FLAGS.length + 2];
            flags[0] = "--table";
            flags[1] = CARDS;
            System.arraycopy(JOIN_FLAGS, 0, flags, 2, JOIN_FLAGS.length);
            kafka.keyFields = 1;
            killedAtRandomMoments(kafka, topic, flags, lines, expected, 6, seed);
        }
    }

    /**
     * Three instances with these window flags, killed {@code kills} times at random moments (each after it has run 4 to 8 s)
     * and restarted while the records arrive; the committed rows must equal the reference rows, each once.
     */
    private void killedAtRandomMoments(final String prefix, final String[] flags, final int records, final int kills, final long seed)
        throws Exception
    {
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic(prefix, PARTITIONS);
            final List<KafkaCluster.Line> payments = KafkaCluster.payments(PARTITIONS, records, 4_000, seed);
            final boolean composite = List.of(flags).contains("key,shop");
            final List<KafkaCluster.Line> lines = List.of(flags).contains("key:long,value:long") ? KafkaCluster.longKeys(payments)
                : composite ? KafkaCluster.compositeKeys(payments) : payments;
            kafka.keyFields = composite ? 2 : 1;
            final Map<Integer, KafkaCluster.Rows> expected = KafkaCluster.reference(dir, lines, PARTITIONS, flags);
            killedAtRandomMoments(kafka, topic, flags, lines, expected, kills, seed);
        }
    }

    /**
     * Three instances with these flags on the topic, killed {@code kills} times at random moments (each after it has run
     * 4 to 8 s) and restarted while the lines arrive; the committed rows must equal the expected rows, each once.
     */
    private void killedAtRandomMoments(final KafkaCluster kafka, final String topic, final String[] flags, final List<KafkaCluster.Line> lines,
        final Map<Integer, KafkaCluster.Rows> expected, final int kills, final long seed) throws Exception
    {
        final List<Process> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            instances.add(start(kafka, topic, i, flags));
        }
        final Random random = new Random(seed + 8);
        final long[] startedAt = new long[instances.size()];
        java.util.Arrays.fill(startedAt, System.nanoTime());
        int killed = 0;
        // the records arrive over about 40 s while instances are killed at random moments, each after it has run 4 to 8 s
        // (long enough to have joined the group and committed work), and restarted at once
        final Thread producer = new Thread(() ->
        {
            final int slices = 40;
            for (int s = 0; s < slices; s++)
            {
                kafka.produce(topic, lines.subList(s * lines.size() / slices, (s + 1) * lines.size() / slices));
                KafkaCluster.pause(1_000);
            }
        }, "test-producer");
        producer.start();
        try
        {
            while (killed < kills)
            {
                final int victim = random.nextInt(instances.size());
                final long lived = (System.nanoTime() - startedAt[victim]) / 1_000_000;
                final long wanted = 4_000 + random.nextInt(4_000);
                if (lived < wanted)
                {
                    Thread.sleep(wanted - lived);
                }
                awaitWorkAfterCheckpoint(dir.resolve("instance-" + victim), Duration.ofSeconds(8));
                instances.get(victim).destroyForcibly().waitFor(); // kill -9
                killed++;
                instances.set(victim, start(kafka, topic, victim, flags));
                startedAt[victim] = System.nanoTime();
            }
            producer.join();
            assertCommitted(kafka, topic, expected, Duration.ofMinutes(5));
            assertEquals(List.of(), kafka.keyMismatches.subList(0, Math.min(5, kafka.keyMismatches.size())),
                "each output record keyed by its row's key");
        }
        finally
        {
            producer.join();
            stop(instances);
        }
        final long resumedWithCommittedRows = takeoversWithCommittedRows(topic);
        assertTrue(resumedWithCommittedRows > 0, "some partitions were taken over with rows committed after their checkpoint, "
            + "regenerated and not sent again: " + resumedWithCommittedRows);
        assertRejected(kafka, topic, lines);
    }

    private Process start(final KafkaCluster kafka, final String topic, final int instance, final String[] flags) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("run", "--kafka", kafka.bootstrap, "--topic", topic, "--group", "g-" + topic,
            "--output-topic", topic + "-out", "--instance", "i" + instance, "--journal", dir.resolve("instance-" + instance).toString(),
            "--session-timeout", "6s", "--transaction-timeout", "10s", "--checkpoint-every", "20000"));
        args.addAll(List.of(flags));
        final Path log = dir.resolve("logs").resolve(topic + "-" + instance + "-" + System.nanoTime() + ".log");
        Files.createDirectories(log.getParent());
        final ProcessBuilder builder = new ProcessBuilder(ChildJvm.weir("512m", args.toArray(String[]::new))).redirectErrorStream(true)
            .redirectOutput(log.toFile());
        builder.environment().put("WEIR_LOG_LEVEL", "info");
        return builder.start();
    }

    /**
     * Wait (at most {@code patience}) until an instance's status shows a partition with outputs delivered after its last
     * checkpoint: a kill then leaves rows committed after the checkpoint, which the next owner must regenerate and not
     * send again.
     */
    private static void awaitWorkAfterCheckpoint(final Path journal, final Duration patience) throws Exception
    {
        final Path status = journal.resolve("kafka").resolve("status");
        final java.util.regex.Pattern line = java.util.regex.Pattern.compile(" outputs=(\\d+) .* checkpoint-outputs=(\\d+) ");
        final long deadline = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < deadline)
        {
            if (Files.exists(status))
            {
                for (final String text : Files.readAllLines(status))
                {
                    final java.util.regex.Matcher m = line.matcher(text);
                    if (m.find() && Long.parseLong(m.group(1)) > Long.parseLong(m.group(2)) + 100)
                    {
                        Thread.sleep(300); // a commit interval and more: those outputs are committed
                        return;
                    }
                }
            }
            Thread.sleep(100);
        }
    }

    /** @return how many takeovers, in the instances' logs, found rows committed after the partition's checkpoint */
    private long takeoversWithCommittedRows(final String topic) throws java.io.IOException
    {
        final java.util.regex.Pattern took = java.util.regex.Pattern.compile(" took " + topic + "-\\d+ over: .* (\\d+) committed after it");
        long count = 0;
        try (java.util.stream.Stream<Path> logs = Files.list(dir.resolve("logs")))
        {
            for (final Path log : logs.toList())
            {
                for (final String line : Files.readAllLines(log))
                {
                    final java.util.regex.Matcher m = took.matcher(line);
                    if (m.find() && Long.parseLong(m.group(1)) > 0)
                    {
                        count++;
                    }
                }
            }
        }
        return count;
    }

    private static void stop(final List<Process> instances) throws InterruptedException
    {
        for (final Process p : instances)
        {
            p.destroy(); // SIGTERM: a clean leave
        }
        for (final Process p : instances)
        {
            if (!p.waitFor(60, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
            }
        }
    }

    private static void assertCommitted(final KafkaCluster kafka, final String topic, final Map<Integer, KafkaCluster.Rows> expected,
        final Duration patience)
    {
        final long count = expected.values().stream().mapToLong(r -> r.results().size() + r.late().size()).sum();
        final Map<Integer, KafkaCluster.Rows> committed = kafka.committed(topic, topic + "-out", PARTITIONS, count, patience);
        for (int p = 0; p < PARTITIONS; p++)
        {
            assertTrue(expected.get(p).results().size() > 1_000, "a partition with results");
            KillHarness.assertSameLines("results of partition " + p, expected.get(p).results(), committed.get(p).results());
            KillHarness.assertSameLines("late events of partition " + p, expected.get(p).late(), committed.get(p).late());
        }
    }

    private static void assertRejected(final KafkaCluster kafka, final String topic, final List<KafkaCluster.Line> lines)
    {
        final List<String> rejected = kafka.rejected(topic + "-out-rejected");
        final long bad = lines.stream().filter(l -> !KafkaCluster.keyed(l) || l.value().contains("not-a-time")).count();
        assertEquals(bad, rejected.size(), () -> "rejected records: " + rejected.subList(0, Math.min(5, rejected.size())));
        assertEquals(bad, new HashSet<>(rejected.stream().map(r -> r.split(" ")[0]).toList()).size(), "each rejected once, with partition and offset");
        assertTrue(rejected.stream().anyMatch(r -> r.contains("the topic must be partitioned by the pipeline's key")), "a key mismatch's reason");
    }
}
