package dev.weir.engine.source;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;

/**
 * A shared harness: the ring's consumer on its own thread. It gates the ring (so a slow drain fills it),
 * waits for {@link #release()} before taking anything, then records every slot it sees (an event's
 * offset, or a marker) until an end-of-input or stop marker. The record is read on the test's thread
 * after {@link #awaitMarker} or {@link #awaitEvents}.
 */
final class SlotDrain implements Runnable
{
    /** What a marker is recorded as: the event offsets are never negative. */
    static final long STOP = -2;
    static final long END = -3;

    private final RingBuffer<EventSlot> ring;
    private final Sequence consumed = new Sequence(-1);
    private final SequenceBarrier barrier;
    private final CountDownLatch released = new CountDownLatch(1);
    private final CountDownLatch markerSeen = new CountDownLatch(1);
    private final List<Long> seen = new ArrayList<>();
    private volatile long endOffset = Long.MIN_VALUE;
    private final Thread thread;

    SlotDrain(final RingBuffer<EventSlot> ring)
    {
        this.ring = ring;
        this.barrier = ring.newBarrier();
        ring.addGatingSequences(consumed);
        thread = new Thread(this, "slot-drain");
        thread.setDaemon(true);
        thread.start();
    }

    void release()
    {
        released.countDown();
    }

    @Override
    public void run()
    {
        try
        {
            released.await();
            long next = 0;
            while (true)
            {
                final long available = barrier.waitFor(next);
                for (; next <= available; next++)
                {
                    final EventSlot slot = ring.get(next);
                    synchronized (seen)
                    {
                        seen.add(slot.type == EventSlot.EVENT ? slot.offset : slot.type == EventSlot.STOP ? STOP : END);
                    }
                    if (slot.type != EventSlot.EVENT)
                    {
                        endOffset = slot.type == EventSlot.END_OF_INPUT ? slot.offset : Long.MIN_VALUE;
                        consumed.set(next);
                        markerSeen.countDown();
                        return;
                    }
                }
                consumed.set(available);
            }
        }
        catch (final AlertException | InterruptedException | TimeoutException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** @return every slot seen so far. */
    List<Long> seen()
    {
        synchronized (seen)
        {
            return new ArrayList<>(seen);
        }
    }

    boolean awaitMarker() throws InterruptedException
    {
        return markerSeen.await(60, TimeUnit.SECONDS);
    }

    /** Wait (up to a generous 60 s) until at least {@code count} slots were seen. */
    boolean awaitSlots(final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (seen().size() < count)
        {
            if (System.nanoTime() > deadline)
            {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /** @return the offset an end-of-input marker carried. */
    long endOffset()
    {
        return endOffset;
    }

    boolean isAlive()
    {
        return thread.isAlive();
    }

    void interrupt()
    {
        barrier.alert();
        release();
    }
}
