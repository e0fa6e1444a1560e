package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesIn;

/**
 * The heartbeat document ({@link DocumentType#HEARTBEAT}) of the {@code events} queue: a watermark hint at
 * its offset, never an event.
 * <pre>
 *   0  byte  type {@link DocumentType#HEARTBEAT}
 *   1  long  event_time   the event time the watermark may advance to, as an event of that time would move it
 *   9  long  wall_clock   the wall clock of the append, epoch ms (for display only: no result depends on it)
 * </pre>
 * Readers of events pass it to {@link EventConsumer#onHeartbeat}/
 * {@link dev.weir.journal.EventViewConsumer#onHeartbeat}; every other reader (dictionaries, key tuples, the ingest
 * log) skips it. Static methods on the caller's bytes: thread-safe, allocation-free.
 */
public final class Heartbeat
{
    /** Length in bytes of a heartbeat document. */
    public static final int LENGTH = 1 + 8 + 8;
    /** Offset of the event time from the type byte. */
    private static final int EVENT_TIME = 1;
    /** Offset of the wall clock. */
    private static final int WALL_CLOCK = 9;

    private Heartbeat()
    {
    }

    /**
     * Write one heartbeat at the write position.
     *
     * @param out       where to write.
     * @param eventTime its event time, ms.
     * @param wallClock the wall clock, epoch ms.
     */
    public static void write(final Bytes<?> out, final long eventTime, final long wallClock)
    {
        out.writeByte(DocumentType.HEARTBEAT);
        out.writeLong(eventTime);
        out.writeLong(wallClock);
    }

    /**
     * @param in a document, at its read position.
     * @return true if it is a heartbeat.
     */
    public static boolean is(final BytesIn<?> in)
    {
        return DocumentType.peek(in) == DocumentType.HEARTBEAT && in.readRemaining() >= LENGTH;
    }

    /**
     * @param in a heartbeat document ({@link #is}), at its read position, which is left where it was.
     * @return its event time.
     */
    public static long eventTime(final BytesIn<?> in)
    {
        return in.readLong(in.readPosition() + EVENT_TIME);
    }

    /**
     * @param in a heartbeat document ({@link #is}), at its read position, which is left where it was.
     * @return the wall clock of its append, epoch ms.
     */
    public static long wallClock(final BytesIn<?> in)
    {
        return in.readLong(in.readPosition() + WALL_CLOCK);
    }
}
