package dev.weir.kafka;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;

import dev.weir.engine.Weir;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One instance over a real broker: the rows committed to the output topic equal, partition by partition, those of
 * a bounded run of the same records as a journal of their own (less the windows the far-future flush record keeps
 * open), each once; bad records go to the rejected topic with partition and offset.
 */
@Tag("slow")
final class KafkaRunTest
{
    static final long START = 1_700_000_000_000L;
    static final long FLUSH_TIME = START + 86_400_000L;

    @TempDir
    Path dir;

    @Test
    void oneInstanceCommitsWhatABoundedRunOfEachPartitionGives() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final int partitions = 3;
            final String topic = KafkaBroker.topic(admin, "weir-in", partitions);
            final String output = topic + "-out";
            final List<Line> lines = lines(partitions, 6_000, 42);
            produce(bootstrap, topic, lines);
            final KafkaRun run = new KafkaRun(settings(bootstrap, topic, output, "a")).start();
            try
            {
                // every record read first (a pause of 3 s on a busy machine is no end), then the outputs steady
                waitForAll(run, partitions);
                waitForOutputs(run, 3);
            }
            finally
            {
                run.close();
            }
            assertNull(run.failure(), () -> "the run failed: " + run.failure());
            assertOutputs(dir, bootstrap, topic, output, lines, partitions);
            final List<ConsumerRecord<byte[], byte[]>> rejected = KafkaBroker.readCommitted(bootstrap, output + "-rejected", Duration.ofSeconds(1));
            assertEquals(partitions, rejected.size(), "one bad record per partition");
        }
    }

    static KafkaRun.Settings settings(final String bootstrap, final String topic, final String output, final String instance)
    {
        return settings(bootstrap, topic, output, instance, Path.of("target", "kafka-" + topic + "-" + instance));
    }

    static KafkaRun.Settings settings(final String bootstrap, final String topic, final String output, final String instance, final Path journal)
    {
        return new KafkaRun.Settings(bootstrap, topic, "g-" + topic, output, output + "-rejected", instance, journal,
            JournalSchema.DEFAULT, JournalRollCycle.DAILY,
            () -> Weir.pipeline().window(TumblingWindows.of(1_000)).outOfOrderness(500).allowedLateness(1_000).latePolicy(LatePolicy.DROP)
                .checkpointEvery(500),
            LineRecords::new, LineRows::new, Duration.ofMillis(100), Duration.ofSeconds(10), Duration.ofSeconds(6));
    }

    /** One record to produce: its partition, key and value. */
    record Line(int partition, String key, String value)
    {
    }

    /** Records keyed by card to explicit partitions, some out of order, one bad per partition, then a far-future flush per partition. */
    static List<Line> lines(final int partitions, final int count, final long seed)
    {
        final Random random = new Random(seed);
        final List<Line> lines = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final String key = "card-" + random.nextInt(40);
            final long time = START + i * 10L - (random.nextInt(10) == 0 ? random.nextInt(2_500) : 0);
            lines.add(new Line(Math.floorMod(key.hashCode(), partitions), key, i + "," + time + "," + key + "," + (1 + random.nextInt(1000))));
            if (i == count / 2)
            {
                for (int p = 0; p < partitions; p++)
                {
                    lines.add(new Line(p, "card-x", "not,a,line"));
                }
            }
        }
        for (int p = 0; p < partitions; p++)
        {
            lines.add(new Line(p, "flush", "-1," + FLUSH_TIME + ",flush,0"));
        }
        return lines;
    }

    static void produce(final String bootstrap, final String topic, final List<Line> lines)
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()))
        {
            for (final Line line : lines)
            {
                send(producer, topic, line.partition(), line.key(), line.value());
            }
        }
    }

    /** The good lines of each partition, in order, as {id, time, key, value}. */
    static Map<Integer, List<String[]>> byPartition(final List<Line> lines)
    {
        final Map<Integer, List<String[]>> byPartition = new HashMap<>();
        for (final Line line : lines)
        {
            final String[] f = line.value().split(",");
            if (f.length == 4)
            {
                byPartition.computeIfAbsent(line.partition(), p -> new ArrayList<>()).add(f);
            }
        }
        return byPartition;
    }

    /** Assert that the committed output rows of each partition are the reference's, in order, each once. */
    static void assertOutputs(final Path dir, final String bootstrap, final String topic, final String output, final List<Line> lines, final int partitions)
    {
        final Map<Integer, List<String[]>> byPartition = byPartition(lines);
        final List<ConsumerRecord<byte[], byte[]>> rows = KafkaBroker.readCommitted(bootstrap, output, Duration.ofSeconds(3));
        for (int p = 0; p < partitions; p++)
        {
            final List<String> expected = reference(dir, byPartition.get(p), p);
            final List<String> actual = new ArrayList<>();
            long sequence = 0;
            for (final ConsumerRecord<byte[], byte[]> r : rows)
            {
                if ((topic + ":" + p).equals(OutputHeaders.text(r.headers(), OutputHeaders.SOURCE)))
                {
                    actual.add(new String(r.value(), StandardCharsets.UTF_8));
                    final long number = OutputHeaders.number(r.headers(), OutputHeaders.SEQUENCE);
                    if (number != ++sequence)
                    {
                        fail("partition " + p + ": output number " + number + " at " + r.offset() + " where " + sequence + " was expected");
                    }
                }
            }
            assertTrue(expected.size() > 50, "a test with results: " + expected.size());
            if (!expected.equals(actual))
            {
                int first = 0;
                while (first < Math.min(expected.size(), actual.size()) && expected.get(first).equals(actual.get(first)))
                {
                    first++;
                }
                fail("partition " + p + ": " + actual.size() + " rows committed, " + expected.size() + " expected; the first difference at row "
                    + first + ": " + (first < actual.size() ? actual.get(first) : "none") + " instead of "
                    + (first < expected.size() ? expected.get(first) : "none"));
            }
        }
    }

    private static void send(final KafkaProducer<byte[], byte[]> producer, final String topic, final int partition, final String key, final String value)
    {
        producer.send(new ProducerRecord<>(topic, partition, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)));
    }

    /** The rows a bounded run of one partition's records gives, in order, less the flush record's window. */
    static List<String> reference(final Path dir, final List<String[]> lines, final int partition)
    {
        final Path journal = dir.resolve("ref-" + partition + "-" + System.nanoTime());
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            for (final String[] f : lines)
            {
                events.append(Long.parseLong(f[0]), Long.parseLong(f[1]), f[2], Long.parseLong(f[3]));
            }
        }
        final List<String> rows = new ArrayList<>();
        final TreeMap<Integer, String> names = new TreeMap<>();
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            for (final String[] f : lines)
            {
                names.put(events.keyId(f[2]), f[2]);
            }
        }
        Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(500).allowedLateness(1_000).latePolicy(LatePolicy.DROP)
            .onResult((WindowResult r) ->
            {
                if (!"flush".equals(names.get(r.keyId())))
                {
                    rows.add(r.windowStart() + "," + r.windowEnd() + "," + names.get(r.keyId()) + "," + r.count() + "," + r.sum() + ","
                        + r.min() + "," + r.max() + "," + r.version());
                }
            })
            .build().runToEnd();
        return rows;
    }

    /** Wait until the run owns {@code partitions} partitions and has read each to its end, twice in a row a second apart. */
    static void waitForAll(final KafkaRun run, final int partitions) throws InterruptedException
    {
        waitForCaughtUp(run, partitions, partitions);
    }

    /** Wait until the run owns between {@code least} and {@code most} partitions and has read each to its end, twice in a row. */
    static void waitForCaughtUp(final KafkaRun run, final int least, final int most) throws InterruptedException
    {
        int caughtUp = 0;
        final long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (caughtUp < 2 && System.nanoTime() < deadline && run.failure() == null)
        {
            Thread.sleep(1_000);
            final String[] lines = run.status().isEmpty() ? new String[0] : run.status().split("\n");
            final long idle = java.util.Arrays.stream(lines).filter(l -> l.contains(" lag=0 ")).count();
            caughtUp = lines.length >= least && lines.length <= most && idle == lines.length ? caughtUp + 1 : 0;
        }
        assertTrue(caughtUp >= 2, () -> "the run did not own and catch up with " + least + " to " + most + " partitions: " + run.status());
    }

    static void waitForOutputs(final KafkaRun run, final int quietSeconds) throws InterruptedException
    {
        long last = -1;
        int quiet = 0;
        final long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (quiet < quietSeconds && System.nanoTime() < deadline && run.failure() == null)
        {
            Thread.sleep(1_000);
            final long now = run.outputs();
            quiet = now == last && now > 0 ? quiet + 1 : 0;
            last = now;
        }
    }
}
