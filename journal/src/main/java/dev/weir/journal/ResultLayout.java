package dev.weir.journal;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * The fixed binary form of one result document in the {@code results} queue: a window result and the
 * source offset it covers, in one document, so the output and the position it reflects are durable
 * together.
 * <pre>
 *   0  byte  type          {@link #TYPE_RESULT}
 *   1  long  window_start
 *   9  long  window_end
 *  17  long  count
 *  25  long  sum
 *  33  long  min
 *  41  long  max
 *  49  long  source_offset  journal offset of the event whose processing produced the result (-1: end of input)
 *  57  int   key_id
 *  61  int   version
 *  65        (length)
 * </pre>
 * Stateless and thread-safe.
 */
public final class ResultLayout
{
    /** Document type of a result. */
    public static final byte TYPE_RESULT = 2;
    /** Length in bytes of one result document. */
    public static final int LENGTH = 1 + 7 * 8 + 2 * 4;

    private ResultLayout()
    {
    }

    /**
     * Write one result at the write position of {@code out}.
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
    public static void write(
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
     * Read one result at the read position of {@code in}.
     *
     * @param in       where to read.
     * @param consumer receives the fields.
     * @return false if the document is not a result document.
     */
    public static boolean read(final BytesIn<?> in, final ResultConsumer consumer)
    {
        if (in.readRemaining() < LENGTH || in.peekUnsignedByte() != TYPE_RESULT)
        {
            return false;
        }
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
        consumer.onResult(windowStart, windowEnd, keyId, count, sum, min, max, version, sourceOffset);
        return true;
    }

    /**
     * Receives results read from the output journal, primitive arguments only.
     */
    @FunctionalInterface
    public interface ResultConsumer
    {
        /**
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
        void onResult(long windowStart, long windowEnd, int keyId, long count, long sum, long min, long max, int version, long sourceOffset);
    }
}
