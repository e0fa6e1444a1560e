package dev.weir.kafka;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.weir.engine.PipelineBuilder;
import dev.weir.journal.EventJournal;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The instance's Kafka thread stalls with a transaction open (as in a broker outage, or a process paused by a
 * loaded machine) until the broker has aborted the transaction for its timeout and bumped the producer's epoch,
 * although no other instance runs. Stalled while it sends outputs, its next sends fail with an old epoch, which
 * Kafka 4.4 makes abortable: the transaction is aborted. Stalled with nothing left to send, its commit is the
 * first to learn of it, as a fencing (or a refused commit), and the producer cannot go on: a new one replaces it.
 * Either way the instance takes its partitions over again from what is committed and goes on, every row
 * committed once.
 */
@Tag("slow")
final class KafkaStallTest
{
    private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    @Test
    void aStallBeforeTheCommitGetsANewProducer() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final int partitions = 2;
            final String topic = KafkaBroker.topic(admin, "weir-stall-commit", partitions);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = new ArrayList<>(KafkaRunTest.lines(partitions, 4_000, 11));
            KafkaRunTest.produce(bootstrap, topic, lines);
            final Stall stall = new Stall();
            final KafkaRun.Settings base = KafkaRunTest.settings(bootstrap, topic, output, "stalled");
            final KafkaRun.Settings settings = stalling(base, base.pipeline(), () -> new StallingRecords(new LineRecords(), stall), base.rows());
            final String transactionalId = "weir-" + settings.group() + "-" + settings.instance();
            final KafkaRun run = new KafkaRun(settings).start();
            try
            {
                KafkaRunTest.waitForAll(run, partitions);
                final long takeovers = run.takeovers();
                // after the far-future flush every record is late and dropped: a rejected record (sent to the rejected
                // topic) opens a transaction, the stall comes at the next record, and nothing is sent after it
                boolean aborted = false;
                for (int attempt = 0; attempt < 20 && !aborted; attempt++)
                {
                    stall.arm();
                    final List<KafkaRunTest.Line> pair = List.of(new KafkaRunTest.Line(0, "card-x", "not,a,line " + attempt),
                        new KafkaRunTest.Line(0, "stall", (1_000_000 + attempt) + "," + KafkaRunTest.START + ",stall,1"));
                    lines.addAll(pair);
                    KafkaRunTest.produce(bootstrap, topic, pair);
                    assertTrue(stall.awaitStalled(120), "the instance reads the record it stalls at");
                    aborted = awaitTimeoutAbort(admin, transactionalId);
                    stall.release();
                }
                assertTrue(aborted, "the broker aborted a transaction the stalled instance had open");
                for (int i = 0; i < 1_200 && run.takeovers() == takeovers && run.failure() == null; i++)
                {
                    Thread.sleep(100);
                }
                assertNull(run.failure(), () -> "the instance goes on: " + run.failure());
                KafkaRunTest.waitForAll(run, partitions);
                assertNull(run.failure(), () -> "the instance goes on: " + run.failure());
            }
            finally
            {
                stall.release();
                run.close();
            }
            assertNull(run.failure(), () -> "the instance goes on: " + run.failure());
            KafkaRunTest.assertOutputs(dir, bootstrap, topic, output, lines, partitions);
        }
    }

    @Test
    void aStallWhileSendingIsAborted() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            final int partitions = 2;
            final String topic = KafkaBroker.topic(admin, "weir-stall", partitions);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = KafkaRunTest.lines(partitions, 8_000, 9);
            final int half = lines.size() / 2;
            KafkaRunTest.produce(bootstrap, topic, lines.subList(0, half));
            final Stall stall = new Stall();
            final KafkaRun.Settings base = KafkaRunTest.settings(bootstrap, topic, output, "stalled");
            final KafkaRun.Settings settings = stalling(base, () -> base.pipeline().get().checkpointEvery(1_000_000), base.decoders(),
                directory -> new StallingRows(new LineRows(directory), stall));
            final String transactionalId = "weir-" + settings.group() + "-" + settings.instance();
            final KafkaRun run = new KafkaRun(settings).start();
            try
            {
                for (int i = 0; i < 1_200 && run.outputs() == 0 && run.failure() == null; i++)
                {
                    Thread.sleep(100);
                }
                final int slices = 40;
                final List<KafkaRunTest.Line> rest = lines.subList(half, lines.size());
                boolean aborted = false;
                for (int s = 0; s < slices; s++)
                {
                    if (!aborted)
                    {
                        stall.arm();
                    }
                    KafkaRunTest.produce(bootstrap, topic, rest.subList(s * rest.size() / slices, (s + 1) * rest.size() / slices));
                    if (!aborted && stall.awaitStalled(30)) // a slice may bring no second output: then it does not stall
                    {
                        aborted = awaitTimeoutAbort(admin, transactionalId);
                    }
                    stall.release();
                }
                assertTrue(aborted, "the broker aborted a transaction the stalled instance had open");
                assertNull(run.failure(), () -> "the instance goes on: " + run.failure());
                KafkaRunTest.waitForAll(run, partitions);
                assertNull(run.failure(), () -> "the instance goes on: " + run.failure());
            }
            finally
            {
                stall.release();
                run.close();
            }
            assertNull(run.failure(), () -> "the instance goes on: " + run.failure());
            assertTrue(run.takeovers() > partitions, () -> "the partitions were taken over again: " + run.takeovers());
            KafkaRunTest.assertOutputs(dir, bootstrap, topic, output, lines, partitions);
        }
    }

    /** The test's settings with a short transaction timeout and the given pipeline, records and rows. */
    private static KafkaRun.Settings stalling(final KafkaRun.Settings base, final Supplier<PipelineBuilder> pipeline,
        final Supplier<RecordDecoder> decoders, final OutputRows.Factory rows)
    {
        return new KafkaRun.Settings(base.bootstrap(), base.topic(), base.group(), base.outputTopic(), base.rejectedTopic(), base.instance(),
            base.journal(), base.schema(), base.rollCycle(), pipeline, decoders, rows, base.commitInterval(), TRANSACTION_TIMEOUT, base.sessionTimeout());
    }

    /**
     * If the instance's transaction is open at the broker (within 3 s), wait until the broker has aborted it for
     * its timeout (its epoch moves on); otherwise nothing is open to time out.
     *
     * @return whether it was open and is aborted.
     */
    private static boolean awaitTimeoutAbort(final Admin admin, final String transactionalId) throws Exception
    {
        TransactionDescription open = describe(admin, transactionalId);
        for (int i = 0; i < 30 && open.state() != TransactionState.ONGOING; i++)
        {
            Thread.sleep(100); // a send of the transaction may still be on its way
            open = describe(admin, transactionalId);
        }
        if (open.state() != TransactionState.ONGOING)
        {
            return false;
        }
        for (int i = 0; i < 1_200; i++)
        {
            final TransactionDescription now = describe(admin, transactionalId);
            if (now.producerEpoch() > open.producerEpoch() && now.state() != TransactionState.ONGOING)
            {
                return true;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the broker did not abort the transaction of " + transactionalId + " in 120 s");
    }

    private static TransactionDescription describe(final Admin admin, final String transactionalId) throws Exception
    {
        return admin.describeTransactions(List.of(transactionalId)).all().get(30, TimeUnit.SECONDS).get(transactionalId);
    }

    /**
     * Where the test stalls the instance's Kafka thread once armed: at the second output (once the first is sent), or
     * at the first record of key {@code stall}.
     */
    private static final class Stall
    {
        private final AtomicInteger seen = new AtomicInteger();
        private volatile boolean armed;
        private volatile CountDownLatch stalled = new CountDownLatch(1);
        private volatile CountDownLatch released = new CountDownLatch(0);

        /** Test thread: stall at the second output from now. */
        void arm()
        {
            released = new CountDownLatch(1);
            stalled = new CountDownLatch(1);
            seen.set(0);
            armed = true;
        }

        /** Test thread: whether the Kafka thread stalled within {@code seconds}. */
        boolean awaitStalled(final long seconds) throws InterruptedException
        {
            return stalled.await(seconds, TimeUnit.SECONDS);
        }

        /** Test thread: let the Kafka thread go on, and stall no more. */
        void release()
        {
            armed = false;
            released.countDown();
        }

        /** Kafka thread. */
        void maybeStall()
        {
            maybeStall(2);
        }

        /** Kafka thread: stall at the {@code nth} call since armed. */
        void maybeStall(final int nth)
        {
            if (armed && seen.incrementAndGet() == nth)
            {
                final CountDownLatch until = released;
                stalled.countDown();
                try
                {
                    until.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** The test records, stalling at a record of key {@code stall} where the test says. */
    private static final class StallingRecords implements RecordDecoder
    {
        private final RecordDecoder records;
        private final Stall stall;

        StallingRecords(final RecordDecoder records, final Stall stall)
        {
            this.records = records;
            this.stall = stall;
        }

        @Override
        public long append(final byte[] key, final byte[] value, final EventJournal journal)
        {
            if (key != null && "stall".equals(new String(key, StandardCharsets.UTF_8)))
            {
                stall.maybeStall(1);
            }
            return records.append(key, value, journal);
        }

        @Override
        public String rejection()
        {
            return records.rejection();
        }
    }

    /** The test rows, stalling where the test says. */
    private static final class StallingRows implements OutputRows
    {
        private final OutputRows rows;
        private final Stall stall;

        StallingRows(final OutputRows rows, final Stall stall)
        {
            this.rows = rows;
            this.stall = stall;
        }

        @Override
        public String key(final OutputDecoder output)
        {
            return rows.key(output);
        }

        @Override
        public String value(final OutputDecoder output)
        {
            stall.maybeStall();
            return rows.value(output);
        }

        @Override
        public void close()
        {
            rows.close();
        }
    }
}
