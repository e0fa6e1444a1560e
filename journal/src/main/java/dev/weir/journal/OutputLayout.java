package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * The fixed binary forms of the documents in the output journal ({@code results} queue). Each output
 * carries the source offset it covers, in the same document, so the output and the position it reflects
 * are durable together.
 * <pre>
 * result (65 bytes)                         late event (37 bytes)
 *   0  byte  type {@link #TYPE_RESULT}          0  byte  type {@link #TYPE_LATE}
 *   1  long  window_start                      1  long  event_id
 *   9  long  window_end                        9  long  event_time
 *  17  long  count                            17  long  value
 *  25  long  sum                              25  long  source_offset (the event's own offset)
 *  33  long  min                              33  int   key_id
 *  41  long  max
 *  49  long  source_offset
 *  57  int   key_id
 *  61  int   version
 *  65  long  aggregate (only with a user aggregation: 73 bytes)
 * </pre>
 * A result's source offset is the offset of the event whose processing fired it, or the offset of the
 * input's last event for results fired at its end. Stateless and thread-safe.
 */
public final class OutputLayout
{
    /** Document type of a window result. */
    public static final byte TYPE_RESULT = 2;
    /** Document type of a late (side-output) event. */
    public static final byte TYPE_LATE = 5;
    /** Length in bytes of a result document. */
    public static final int RESULT_LENGTH = 1 + 7 * 8 + 2 * 4;
    /** Length in bytes of a result document that carries a user aggregation's value. */
    public static final int RESULT_WITH_AGGREGATE_LENGTH = RESULT_LENGTH + 8;
    /** Length in bytes of a late-event document. */
    public static final int LATE_LENGTH = 1 + 4 * 8 + 4;

    private OutputLayout()
    {
    }

    /**
     * Write a result.
     *
     * @param out          where to write.
     * @param windowStart  inclusive window start.
     * @param windowEnd    exclusive window end.
     * @param keyId        key id.
     * @param count        count.
     * @param sum          sum.
     * @param min          min.
     * @param max          max.
     * @param version      version.
     * @param sourceOffset the source offset covered.
     */
    public static void writeResult(
        final BytesOut<?> out,
        final long windowStart,
        final long windowEnd,
        final int keyId,
        final long count,
        final long sum,
        final long min,
        final long max,
        final int version,
        final long sourceOffset)
    {
        out.writeByte(TYPE_RESULT);
        out.writeLong(windowStart);
        out.writeLong(windowEnd);
        out.writeLong(count);
        out.writeLong(sum);
        out.writeLong(min);
        out.writeLong(max);
        out.writeLong(sourceOffset);
        out.writeInt(keyId);
        out.writeInt(version);
    }

    /**
     * Write a result with a user aggregation's value.
     *
     * @param out          where to write.
     * @param windowStart  inclusive window start.
     * @param windowEnd    exclusive window end.
     * @param keyId        key id.
     * @param count        count.
     * @param sum          sum.
     * @param min          min.
     * @param max          max.
     * @param version      version.
     * @param sourceOffset the source offset covered.
     * @param aggregate    the user aggregation's value.
     */
    public static void writeResult(
        final BytesOut<?> out,
        final long windowStart,
        final long windowEnd,
        final int keyId,
        final long count,
        final long sum,
        final long min,
        final long max,
        final int version,
        final long sourceOffset,
        final long aggregate)
    {
        writeResult(out, windowStart, windowEnd, keyId, count, sum, min, max, version, sourceOffset);
        out.writeLong(aggregate);
    }

    /**
     * Write a late event.
     *
     * @param out       where to write.
     * @param eventId   event id.
     * @param eventTime event time.
     * @param keyId     key id.
     * @param value     value.
     * @param offset    the event's journal offset.
     */
    public static void writeLate(
        final BytesOut<?> out, final long eventId, final long eventTime, final int keyId, final long value, final long offset)
    {
        out.writeByte(TYPE_LATE);
        out.writeLong(eventId);
        out.writeLong(eventTime);
        out.writeLong(value);
        out.writeLong(offset);
        out.writeInt(keyId);
    }

    /**
     * Read one output document.
     *
     * @param in       where to read.
     * @param consumer receives it.
     * @return the document type read, or 0 if it is not an output document.
     */
    public static int read(final BytesIn<?> in, final OutputConsumer consumer)
    {
        final long remaining = in.readRemaining();
        if (remaining < 1)
        {
            return 0;
        }
        final int type = in.peekUnsignedByte();
        if (type == TYPE_RESULT && remaining >= RESULT_LENGTH)
        {
            in.readByte();
            final long windowStart = in.readLong();
            final long windowEnd = in.readLong();
            final long count = in.readLong();
            final long sum = in.readLong();
            final long min = in.readLong();
            final long max = in.readLong();
            final long sourceOffset = in.readLong();
            final int keyId = in.readInt();
            final int version = in.readInt();
            final boolean hasAggregate = remaining >= RESULT_WITH_AGGREGATE_LENGTH;
            final long aggregate = hasAggregate ? in.readLong() : 0;
            consumer.onResult(windowStart, windowEnd, keyId, count, sum, min, max, version, sourceOffset, hasAggregate, aggregate);
            return TYPE_RESULT;
        }
        if (type == TYPE_LATE && remaining >= LATE_LENGTH)
        {
            in.readByte();
            final long eventId = in.readLong();
            final long eventTime = in.readLong();
            final long value = in.readLong();
            final long offset = in.readLong();
            final int keyId = in.readInt();
            consumer.onLate(eventId, eventTime, keyId, value, offset);
            return TYPE_LATE;
        }
        return 0;
    }
}
