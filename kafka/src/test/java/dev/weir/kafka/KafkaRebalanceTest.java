package dev.weir.kafka;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
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

/**
 * Rebalancing without a crash: an instance joins while the first runs, then the first leaves gracefully; the
 * partitions that move are committed by the one and taken over by the other from their checkpoints, and the
 * output topic still holds every row once, in order, equal to a bounded run of each partition. And instances that
 * join and leave while records flow and transactions commit every few milliseconds move only the partitions the
 * group moves: a partition that stays with an instance is never taken over again by it, and an instance's takeovers
 * read each committed checkpoint record at most once, each reading only what was committed since the previous (issue 35).
 */
@Tag("slow")
final class KafkaRebalanceTest
{
    @TempDir
    Path dir;

    @Test
    void anInstanceJoinsThenTheFirstLeaves() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final int partitions = 4;
            final String topic = KafkaBroker.topic(admin, "weir-rebalance", partitions);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = KafkaRunTest.lines(partitions, 40_000, 7);
            final int third = lines.size() / 3;
            KafkaRunTest.produce(bootstrap, topic, lines.subList(0, third));
            final KafkaRun a = new KafkaRun(KafkaRunTest.settings(bootstrap, topic, output, "a")).start();
            KafkaRun b = null;
            try
            {
                KafkaRunTest.waitForOutputs(a, 1);
                b = new KafkaRun(KafkaRunTest.settings(bootstrap, topic, output, "b")).start();
                KafkaRunTest.produce(bootstrap, topic, lines.subList(third, 2 * third));
                KafkaRunTest.waitForCaughtUp(b, 1, partitions - 1); // b owns some partitions, a the others
                assertTrue(b.takeovers() > 0, "b took partitions over");
                assertTrue(a.status().split("\n").length < partitions, () -> "a gave partitions up: " + a.status());
                a.close();
                assertNull(a.failure(), () -> "a failed: " + a.failure());
                KafkaRunTest.produce(bootstrap, topic, lines.subList(2 * third, lines.size()));
                KafkaRunTest.waitForAll(b, partitions);
            }
            finally
            {
                a.close();
                if (b != null)
                {
                    b.close();
                }
            }
            final KafkaRun last = b;
            assertNull(last.failure(), () -> "b failed: " + last.failure());
            KafkaRunTest.assertOutputs(dir, bootstrap, topic, output, lines, partitions);
        }
    }

    @Test
    void aPartitionThatStaysIsNotTakenOverAgainWhileInstancesComeAndGo() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final int partitions = 6;
            final String topic = KafkaBroker.topic(admin, "weir-storm", partitions);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = KafkaRunTest.lines(partitions, 60_000, 35);
            final List<KafkaRun> runs = new ArrayList<>();
            final AtomicReference<Throwable> producerFailure = new AtomicReference<>();
            final Thread producer = new Thread(() -> produceSlowly(bootstrap, topic, lines, producerFailure), "storm-producer");
            try
            {
                final KafkaRun a = start(runs, bootstrap, topic, output, "a");
                producer.start();
                waitFor(() -> owned(a) == partitions, "a owns every partition", runs);
                final KafkaRun b = start(runs, bootstrap, topic, output, "b");
                waitFor(() -> owned(b) > 0 && owned(a) + owned(b) == partitions, "a and b share the partitions", runs);
                final KafkaRun c = start(runs, bootstrap, topic, output, "c");
                waitFor(() -> owned(c) > 0 && owned(a) + owned(b) + owned(c) == partitions, "a, b and c share the partitions", runs);
                b.close();
                waitFor(() -> owned(a) + owned(c) == partitions, "a and c share the partitions", runs);
                c.close();
                waitFor(() -> owned(a) == partitions, "a owns every partition again", runs);
                producer.join();
                assertNull(producerFailure.get(), "the records were produced");
                KafkaRunTest.waitForAll(a, partitions);
                a.close();
            }
            finally
            {
                for (final KafkaRun run : runs)
                {
                    run.close();
                }
                producer.join();
            }
            // each takeover reads only the checkpoints committed after the instance's previous read: over all its
            // takeovers, an instance reads each committed checkpoint record at most once (issue 35)
            final int checkpointRecords = KafkaBroker.readCommitted(bootstrap, runs.get(0).settings().checkpointTopic(), Duration.ofSeconds(1)).size();
            assertTrue(runs.get(0).takeovers() > partitions, () -> "a took partitions over again after its start: " + runs.get(0).takeovers());
            for (final KafkaRun run : runs)
            {
                assertNull(run.failure(), () -> run.settings().instance() + " failed: " + run.failure());
                assertTrue(run.checkpointRecordsRead() <= checkpointRecords, () -> run.settings().instance() + " read "
                    + run.checkpointRecordsRead() + " checkpoint records over " + run.takeovers() + " takeovers; the topic holds " + checkpointRecords);
                assertTrue(run.transactions() > 10, () -> run.settings().instance() + " committed " + run.transactions() + " transactions");
                for (int p = 0; p < partitions; p++)
                {
                    // every instance has ended, so each assignment of a partition ended with its release: a takeover more is a partition taken over again
                    final int partition = p;
                    assertEquals(run.releases(p), run.takeovers(p), () -> run.settings().instance() + " took partition " + partition + " over "
                        + run.takeovers(partition) + " times and released it " + run.releases(partition) + " times");
                }
            }
            KafkaRunTest.assertOutputs(dir, bootstrap, topic, output, lines, partitions);
        }
    }

    /** Start an instance that commits every 10 ms, so that commits meet the rebalances. */
    private static KafkaRun start(final List<KafkaRun> runs, final String bootstrap, final String topic, final String output, final String instance)
    {
        final KafkaRun.Settings s = KafkaRunTest.settings(bootstrap, topic, output, instance);
        final KafkaRun run = new KafkaRun(new KafkaRun.Settings(s.bootstrap(), s.topic(), s.group(), s.outputTopic(), s.rejectedTopic(), s.instance(),
            s.journal(), s.schema(), s.rollCycle(), s.pipeline(), s.decoders(), s.rows(), Duration.ofMillis(10), s.transactionTimeout(),
            s.sessionTimeout()));
        runs.add(run);
        return run.start();
    }

    /** @return the partitions a run owns, as of its last status line (published every second) */
    private static int owned(final KafkaRun run)
    {
        final String status = run.status();
        return status.isEmpty() ? 0 : status.split("\n").length;
    }

    private static void waitFor(final BooleanSupplier condition, final String what, final List<KafkaRun> runs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        int met = 0;
        while (met < 2 && System.nanoTime() < deadline)
        {
            for (final KafkaRun run : runs)
            {
                assertNull(run.failure(), () -> run.settings().instance() + " failed: " + run.failure());
            }
            Thread.sleep(500);
            met = condition.getAsBoolean() ? met + 1 : 0;
        }
        assertTrue(met >= 2, () -> "not reached: " + what);
    }

    /** Produce the lines in small slices with pauses, so that records flow while instances come and go. */
    private static void produceSlowly(final String bootstrap, final String topic, final List<KafkaRunTest.Line> lines, final AtomicReference<Throwable> failure)
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()))
        {
            for (int i = 0; i < lines.size(); i++)
            {
                final KafkaRunTest.Line line = lines.get(i);
                producer.send(new ProducerRecord<>(topic, line.partition(), line.key().getBytes(StandardCharsets.UTF_8),
                    line.value().getBytes(StandardCharsets.UTF_8)));
                if (i % 200 == 199)
                {
                    producer.flush();
                    Thread.sleep(40);
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            failure.set(ex);
        }
        catch (final RuntimeException ex)
        {
            failure.set(ex);
        }
    }
}
