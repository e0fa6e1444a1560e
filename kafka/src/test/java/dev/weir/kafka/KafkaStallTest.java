package dev.weir.kafka;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.weir.journal.OutputDecoder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The instance's Kafka thread stalls with a transaction open (as in a broker outage, or a process paused by a
 * loaded machine) until the broker has aborted the transaction for its timeout and bumped the producer's epoch.
 * The Kafka 4.4 producer then reports a fencing at the commit, although no other instance runs (no checkpoint is
 * due, so the commit is the first call to learn of it): the instance replaces its producer, takes its partitions
 * over again from what is committed, and goes on, every row committed once.
 */
final class KafkaStallTest
{
    @TempDir
    Path dir;

    @Test
    void anInstanceGoesOnAfterTheBrokerAbortedItsTimedOutTransaction() throws Exception
    {
        final String bootstrap = TestBroker.bootstrap();
        try (Admin admin = TestBroker.admin(bootstrap))
        {
            final int partitions = 2;
            final String topic = TestBroker.topic(admin, "weir-stall", partitions);
            final String output = topic + "-out";
            final List<KafkaRunTest.Line> lines = KafkaRunTest.lines(partitions, 8_000, 9);
            final int half = lines.size() / 2;
            KafkaRunTest.produce(bootstrap, topic, lines.subList(0, half));
            final Stall stall = new Stall();
            final KafkaRun.Settings base = KafkaRunTest.settings(bootstrap, topic, output, "stalled");
            final KafkaRun.Settings settings = new KafkaRun.Settings(base.bootstrap(), base.topic(), base.group(), base.outputTopic(),
                base.rejectedTopic(), base.instance(), base.journal(), base.schema(), base.rollCycle(), () -> base.pipeline().get().checkpointEvery(1_000_000), base.decoders(),
                directory -> new StallingRows(new LineRows(directory), stall), base.commitInterval(), Duration.ofSeconds(2), base.sessionTimeout());
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
                    if (!aborted && stall.awaitStalled())
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

    /**
     * If the instance's transaction is open at the broker, wait until the broker has aborted it for its timeout
     * (its epoch moves on); otherwise nothing is open to time out.
     *
     * @return whether it was open and is aborted.
     */
    private static boolean awaitTimeoutAbort(final Admin admin, final String transactionalId) throws Exception
    {
        final TransactionDescription open = describe(admin, transactionalId);
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

    /** Where the test stalls the instance's Kafka thread: at the second output after being armed, once the first is sent. */
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

        /** Test thread: whether the Kafka thread stalled within 30 s. */
        boolean awaitStalled() throws InterruptedException
        {
            return stalled.await(30, TimeUnit.SECONDS);
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
            if (armed && seen.incrementAndGet() == 2)
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
