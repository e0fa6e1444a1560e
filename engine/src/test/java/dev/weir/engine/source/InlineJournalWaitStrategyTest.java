package dev.weir.engine.source;

import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.stage.RunCompletion;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.SequenceBarrier;
import dev.weir.journal.JournalReader;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inline wait strategy, with a real journal and a real Disruptor ring: the waiting consumer reads the
 * journal itself. Timed with {@link WaitStrategyTiming}: released by a dependent sequence advanced after a
 * delay, or by an event appended to the journal after a delay, it returns the right sequence and not
 * before; a bounded input ends with the end-of-input marker's sequence; an alert interrupts the wait; a
 * failing read fails the run.
 */
class InlineJournalWaitStrategyTest
{
    private static final long DELAY_MS = 50;

    @TempDir
    Path dir;

    private final RunCompletion completion = new RunCompletion();
    private final ExecutorService waiter = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopWaiter()
    {
        waiter.shutdownNow();
    }

    /** A ring whose consumer reads the journal inline, through a following (or bounded) publisher. */
    private RingBuffer<EventSlot> inlineRing(final JournalReader reader, final boolean follow)
    {
        final InlineJournalWaitStrategy strategy = new InlineJournalWaitStrategy(new BackoffIdleStrategy(), completion);
        final RingBuffer<EventSlot> ring = JournalRing.ring(64, strategy);
        strategy.drive(new JournalPublisher(reader, ring, completion, follow, Long.MAX_VALUE, new BackoffIdleStrategy(), ColumnProjection.DEFAULT, null));
        return ring;
    }

    @Test
    void waitsForADependentSequenceAdvancedAfterADelay() throws Exception
    {
        try (JournalRing journal = new JournalRing(dir))
        {
            final InlineJournalWaitStrategy strategy = new InlineJournalWaitStrategy(new BackoffIdleStrategy(), completion);
            final RingBuffer<EventSlot> ring = JournalRing.ring(64, strategy);
            strategy.drive(new JournalPublisher(journal.reader(), ring, completion, true, Long.MAX_VALUE, new BackoffIdleStrategy(), ColumnProjection.DEFAULT, null));
            final SequenceBarrier barrier = ring.newBarrier();
            for (int i = 0; i < 3; i++)
            {
                WaitStrategyTiming.assertWaitForWithDelayOf(DELAY_MS, strategy, barrier);
            }
            assertNull(completion.failure());
        }
    }

    @Test
    void isReleasedByAnEventAppendedToTheJournalAfterADelay() throws Exception
    {
        try (JournalRing journal = new JournalRing(dir))
        {
            final RingBuffer<EventSlot> ring = inlineRing(journal.reader(), true);
            final SequenceBarrier barrier = ring.newBarrier();
            final Future<long[]> waiting = waiter.submit(() ->
            {
                final long available = barrier.waitFor(0);
                return new long[] {available, System.nanoTime()};
            });
            Thread.sleep(DELAY_MS);
            assertFalse(waiting.isDone(), "the waiter returned before anything was appended");
            final long appendedAt = System.nanoTime();
            journal.append(1);
            final long[] released = waiting.get(60, TimeUnit.SECONDS);
            assertEquals(0, released[0], "the sequence of the appended event");
            assertTrue(released[1] - appendedAt >= 0, "released only after the append");
            assertEquals(EventSlot.EVENT, ring.get(0).type);
            assertEquals((long)journal.offsets.get(0), ring.get(0).offset);
            assertEquals(0, ring.get(0).eventId);

            journal.append(5);
            assertEquals(5, (long)waiter.submit(() -> barrier.waitFor(5)).get(60, TimeUnit.SECONDS), "the next batch, read inline");
            for (int i = 1; i <= 5; i++)
            {
                assertEquals((long)journal.offsets.get(i), ring.get(i).offset);
            }
            assertNull(completion.failure());
        }
    }

    @Test
    void aBoundedInputEndsWithTheEndOfInputMarker() throws Exception
    {
        try (JournalRing journal = new JournalRing(dir))
        {
            journal.append(3);
            final RingBuffer<EventSlot> ring = inlineRing(journal.reader(), false);
            final SequenceBarrier barrier = ring.newBarrier();
            assertEquals(3, (long)waiter.submit(() -> barrier.waitFor(3)).get(60, TimeUnit.SECONDS));
            assertEquals(EventSlot.END_OF_INPUT, ring.get(3).type);
            assertEquals((long)journal.offsets.get(2), ring.get(3).offset);
        }
    }

    @Test
    void anAlertInterruptsTheWait() throws Exception
    {
        try (JournalRing journal = new JournalRing(dir))
        {
            final RingBuffer<EventSlot> ring = inlineRing(journal.reader(), true);
            final SequenceBarrier barrier = ring.newBarrier();
            final Future<Long> waiting = waiter.submit(() -> barrier.waitFor(0));
            Thread.sleep(DELAY_MS);
            assertFalse(waiting.isDone());
            barrier.alert();
            final ExecutionException ended = assertThrows(ExecutionException.class, () -> waiting.get(60, TimeUnit.SECONDS));
            assertInstanceOf(AlertException.class, ended.getCause());
        }
    }

    @Test
    void aFailingReadFailsTheRun() throws Exception
    {
        try (JournalRing journal = new JournalRing(dir))
        {
            journal.append(1);
            final JournalReader reader = journal.reader();
            reader.close();
            final RingBuffer<EventSlot> ring = inlineRing(reader, true);
            final SequenceBarrier barrier = ring.newBarrier();
            final ExecutionException ended = assertThrows(ExecutionException.class,
                () -> waiter.submit(() -> barrier.waitFor(0)).get(60, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, ended.getCause());
            assertTrue(ended.getCause().getMessage().startsWith("reading the journal failed"), ended.getCause().getMessage());
            assertSame(ended.getCause().getCause(), completion.failure());
        }
    }
}
