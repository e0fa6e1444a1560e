package dev.weir.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.weir.test.kafka.KafkaTestBroker;
import dev.weir.testsupport.KillHarness;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Events with columns over Kafka, through a takeover: payments {@code card:string,merchant:string,amount:decimal(2)}
 * keyed by card, windowed by card with a filter on the merchant; the first instance stops (SIGTERM) halfway and a
 * second takes every partition over from the checkpoints, whose journals are rebuilt with both string columns'
 * ids. The committed rows equal a bounded run of each partition's records.
 */
@Tag("slow")
final class KafkaColumnsTest
{
    private static final int PARTITIONS = 3;
    private static final String COLUMNS = "card:string,merchant:string,amount:decimal(2)";
    private static final String[] FLAGS = {"--columns", COLUMNS, "--key", "card", "--value", "amount", "--where", "merchant != 'shop-7'",
        "--window", "tumbling:5s", "--out-of-orderness", "1s", "--allowed-lateness", "2s", "--late", "side"};

    @TempDir
    Path dir;

    @Test
    void aTakeoverKeepsEveryStringColumnsIds() throws Exception
    {
        try (KafkaCluster kafka = new KafkaCluster())
        {
            final String topic = kafka.topic("weir-columns", PARTITIONS);
            final List<KafkaCluster.Line> lines = payments(60_000, 5);
            final int half = lines.size() / 2;
            kafka.produce(topic, lines.subList(0, half));
            final Process first = instance(kafka.bootstrap, topic, "first");
            awaitLag0(dir.resolve("first"), PARTITIONS);
            first.destroy(); // SIGTERM: its partitions' work committed, with their checkpoints
            assertTrue(first.waitFor(120, TimeUnit.SECONDS), "the first instance stops");
            kafka.produce(topic, lines.subList(half, lines.size()));
            final Process second = instance(kafka.bootstrap, topic, "second");
            try
            {
                awaitLag0(dir.resolve("second"), PARTITIONS);
            }
            finally
            {
                second.destroy();
                second.waitFor(60, TimeUnit.SECONDS);
            }
            final String status = Files.readString(dir.resolve("second").resolve("kafka").resolve("status"));
            assertTrue(status.contains("verified=") && !status.contains("checkpoint-offset=-1 "), () -> "every partition was taken over from a checkpoint: " + status);
            final Map<Integer, KafkaCluster.Rows> expected = reference(lines);
            final long count = expected.values().stream().mapToLong(r -> r.results().size() + r.late().size()).sum();
            final Map<Integer, KafkaCluster.Rows> committed = kafka.committed(topic, topic + "-out", PARTITIONS, count, Duration.ofMinutes(2));
            for (int p = 0; p < PARTITIONS; p++)
            {
                assertTrue(expected.get(p).results().size() > 500, "a partition with results");
                KillHarness.assertSameLines("results of partition " + p, expected.get(p).results(), committed.get(p).results());
                KillHarness.assertSameLines("late events of partition " + p, expected.get(p).late(), committed.get(p).late());
            }
        }
    }

    private static List<KafkaCluster.Line> payments(final int count, final long seed)
    {
        final Random random = new Random(seed);
        final List<KafkaCluster.Line> lines = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final String card = "card-" + random.nextInt(300);
            final String merchant = "shop-" + random.nextInt(40);
            final long time = KafkaCluster.START + i * 2L - (random.nextInt(20) == 0 ? random.nextInt(4_000) : 0);
            final String amount = random.nextInt(5_000) + "." + String.format("%02d", random.nextInt(100));
            lines.add(new KafkaCluster.Line(Math.floorMod(card.hashCode(), PARTITIONS), card, i + "," + time + "," + card + "," + merchant + "," + amount));
        }
        for (int p = 0; p < PARTITIONS; p++)
        {
            lines.add(new KafkaCluster.Line(p, "flush", "-1," + KafkaCluster.FLUSH_TIME + ",flush,shop-0,0.00"));
        }
        return lines;
    }

    private Process instance(final String bootstrap, final String topic, final String id) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("run", "--kafka", bootstrap, "--topic", topic, "--group", "g-" + topic,
            "--output-topic", topic + "-out", "--instance", id, "--journal", dir.resolve(id).toString(), "--checkpoint-every", "3000"));
        args.addAll(List.of(FLAGS));
        return KillHarness.startChild(args.toArray(String[]::new), dir.resolve(id + ".log"));
    }

    private static void awaitLag0(final Path journal, final int partitions) throws Exception
    {
        final Path status = journal.resolve("kafka").resolve("status");
        int caughtUp = 0;
        for (int i = 0; i < 1200 && caughtUp < 3; i++)
        {
            Thread.sleep(100);
            if (Files.exists(status))
            {
                final List<String> lines = Files.readAllLines(status);
                final long idle = lines.stream().filter(l -> l.contains(" lag=0 ")).count();
                caughtUp = lines.size() == partitions + 1 && idle == partitions ? caughtUp + 1 : 0;
            }
        }
        assertTrue(caughtUp >= 3, () -> "the instance caught up with " + partitions + " partitions: " + status);
    }

    private Map<Integer, KafkaCluster.Rows> reference(final List<KafkaCluster.Line> lines) throws Exception
    {
        final Map<Integer, KafkaCluster.Rows> rows = new java.util.HashMap<>();
        for (int p = 0; p < PARTITIONS; p++)
        {
            final List<String> csv = new ArrayList<>(List.of("event_id,event_time,card,merchant,amount"));
            for (final KafkaCluster.Line line : lines)
            {
                if (line.partition() == p)
                {
                    csv.add(line.value());
                }
            }
            final Path input = dir.resolve("p" + p + ".csv");
            Files.write(input, csv, StandardCharsets.UTF_8);
            final Path results = dir.resolve("p" + p + ".results.csv");
            final Path late = dir.resolve("p" + p + ".late.csv");
            final List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--results", results.toString(),
                "--late-output", late.toString()));
            args.addAll(List.of(FLAGS));
            final Cli run = Cli.run(args.toArray(String[]::new));
            assertEquals(0, run.exit(), run::err);
            rows.put(p, new KafkaCluster.Rows(withoutFlush(Files.readAllLines(results)), withoutFlush(Files.readAllLines(late))));
        }
        return rows;
    }

    private static List<String> withoutFlush(final List<String> lines)
    {
        return lines.subList(1, lines.size()).stream().filter(l -> !l.contains(",flush,") && !l.contains(",flush")).toList();
    }
}
