package dev.weir.kafka;

import java.util.concurrent.TimeUnit;

import dev.weir.journal.EventJournal;

/**
 * When an owned partition is due a heartbeat under {@code --idle-timeout T}, and at what event time: when no record
 * of it was mirrored for {@code T} of wall time (measured from its last record, its takeover, or its last heartbeat),
 * a heartbeat of the newest event time plus the wall time since is due, as {@code weir run --follow --idle-timeout}
 * appends; again every {@code T} while it stays quiet. The newest event time is read as the pipeline's published
 * watermark plus the out-of-orderness {@code D} (the watermark is the newest event time less {@code D}, and a
 * heartbeat moves it as an event of its time would); nothing is due before the pipeline has a watermark (no event
 * yet, in this task or in the checkpoint it was taken over from).
 * <p>
 * The wall clock decides only when a heartbeat is appended and its time: the heartbeat is then recorded by the
 * checkpoint that covers it ({@link PartitionTask}), so a takeover or a replay reproduces what it did.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it. Allocation-free.
 */
final class IdleHeartbeat
{
    private final long idleNanos;
    private final long outOfOrderness;
    /** When the partition last had a record mirrored, was taken over, or got a heartbeat, ns. */
    private long quietSince;
    private long appended;

    /**
     * @param idleTimeoutMillis T, ms, &gt; 0.
     * @param outOfOrderness    D of the pipeline, ms.
     * @param now               the takeover's time, ns ({@link System#nanoTime()}).
     */
    IdleHeartbeat(final long idleTimeoutMillis, final long outOfOrderness, final long now)
    {
        if (idleTimeoutMillis <= 0)
        {
            throw new IllegalArgumentException("an idle timeout must be > 0 ms: " + idleTimeoutMillis);
        }
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleTimeoutMillis);
        this.outOfOrderness = outOfOrderness;
        this.quietSince = now;
    }

    /**
     * Records of the partition were mirrored.
     *
     * @param now the time, ns.
     */
    void active(final long now)
    {
        quietSince = now;
    }

    /**
     * @param now the time, ns.
     * @return true if the partition has been quiet for {@code T}: a heartbeat is due if the pipeline has a watermark.
     */
    boolean quiet(final long now)
    {
        return now - quietSince >= idleNanos;
    }

    /**
     * @param now       the time, ns.
     * @param watermark the pipeline's published watermark, or {@link Long#MIN_VALUE} before its first.
     * @return the event time of the heartbeat due now, or -1 if none is.
     */
    long due(final long now, final long watermark)
    {
        if (!quiet(now) || watermark == Long.MIN_VALUE || watermark == Long.MAX_VALUE)
        {
            return -1;
        }
        final long newest = watermark + outOfOrderness;
        final long time = Math.min(EventJournal.MAX_EVENT_TIME, newest + TimeUnit.NANOSECONDS.toMillis(now - quietSince));
        return time < 0 ? -1 : time;
    }

    /**
     * A heartbeat was appended: the next is due after another {@code T} of quiet.
     *
     * @param now the time, ns.
     */
    void appended(final long now)
    {
        quietSince = now;
        appended++;
    }

    /**
     * @return heartbeats appended.
     */
    long count()
    {
        return appended;
    }
}
