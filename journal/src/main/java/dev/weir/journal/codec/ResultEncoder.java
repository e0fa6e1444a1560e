package dev.weir.journal.codec;

import net.openhft.chronicle.bytes.Bytes;

/**
 * Writes one result document ({@link DocumentType#RESULT}, or {@link DocumentType#RESULT_UPDATE} /
 * {@link DocumentType#RESULT_EARLY} for the other {@link ResultKind}s, same layout) in place: {@link #wrap} reserves it at the
 * write position, {@link #copy} fills it.
 * <pre>
 *   0  byte  type {@link DocumentType#RESULT} (or the update or early type: {@link ResultKind#documentType()})
 *   1  long  window_start
 *   9  long  window_end
 *  17  long  count
 *  25  long  sum
 *  33  long  min
 *  41  long  max
 *  49  long  source_offset
 *  57  int   key_id
 *  61  int   version
 *  65        (length of a result)
 *  65  long  aggregate (only with a user aggregation: 73 bytes)
 *  73  long  ... one more long per further aggregation: 65 + 8 n bytes with n aggregations
 * </pre>
 * A reader derives n from the document's length ({@link #aggregates(long)}), so a document of one
 * aggregation is the same 73 bytes it was before several existed.
 * A result's source offset is the offset of the event whose processing fired it, or the offset of the
 * input's last event for results fired at its end, so the output and the position it reflects are
 * durable together. Allocates nothing. A reusable flyweight; not thread-safe: one owner thread.
 */
public final class ResultEncoder
{
    /** Length in bytes of a result document. */
    public static final int LENGTH = 1 + 7 * 8 + 2 * 4;
    /** Length in bytes of a result document that carries a user aggregation's value. */
    public static final int WITH_AGGREGATE_LENGTH = LENGTH + 8;
    /** The most aggregations' values one result carries. */
    public static final int MAX_AGGREGATES = 16;
    /** Offset of {@code window_start} from the type byte. */
    static final int WINDOW_START = 1;
    /** Offset of {@code window_end}. */
    static final int WINDOW_END = 9;
    /** Offset of {@code count}. */
    static final int COUNT = 17;
    /** Offset of {@code sum}. */
    static final int SUM = 25;
    /** Offset of {@code min}. */
    static final int MIN = 33;
    /** Offset of {@code max}. */
    static final int MAX = 41;
    /** Offset of {@code source_offset}. */
    static final int SOURCE_OFFSET = 49;
    /** Offset of {@code key_id}. */
    static final int KEY_ID = 57;
    /** Offset of {@code version}. */
    static final int RESULT_VERSION = 61;

    private Bytes<?> out;
    private long start;
    private int aggregates;

    /**
     * @param aggregates how many aggregations' values a result carries, 0 to {@link #MAX_AGGREGATES}.
     * @return the length in bytes of its document: {@code 65 + 8 * aggregates}.
     */
    public static int length(final int aggregates)
    {
        assert aggregates >= 0 && aggregates <= MAX_AGGREGATES : "0 to MAX_AGGREGATES aggregates";
        return LENGTH + aggregates * Long.BYTES;
    }

    /**
     * @param documentLength the length in bytes of a result document, at least {@link #LENGTH}.
     * @return how many aggregations' values it carries (the whole longs after the fixed fields), at most
     *         {@link #MAX_AGGREGATES}.
     */
    public static int aggregates(final long documentLength)
    {
        assert documentLength >= LENGTH : "a whole result document";
        return (int)Math.min(MAX_AGGREGATES, (documentLength - LENGTH) / Long.BYTES);
    }

    /**
     * Reserve a result document at the write position of {@code out}.
     *
     * @param out           where to write.
     * @param withAggregate true to carry a user aggregation's value.
     * @return this.
     */
    public ResultEncoder wrap(final Bytes<?> out, final boolean withAggregate)
    {
        return wrap(out, withAggregate ? 1 : 0);
    }

    /**
     * Reserve a result document at the write position of {@code out}.
     *
     * @param out        where to write.
     * @param aggregates how many aggregations' values it carries, 0 to {@link #MAX_AGGREGATES}.
     * @return this.
     */
    public ResultEncoder wrap(final Bytes<?> out, final int aggregates)
    {
        if (aggregates < 0 || aggregates > MAX_AGGREGATES)
        {
            throw new IllegalArgumentException("a result carries 0 to " + MAX_AGGREGATES + " aggregates: " + aggregates);
        }
        this.out = out;
        this.start = out.writePosition();
        this.aggregates = aggregates;
        out.writeSkip(length(aggregates));
        out.writeByte(start, DocumentType.RESULT);
        return this;
    }

    /**
     * Fill the document with a result's fields (and as many of its aggregates as it was wrapped for).
     *
     * @param result the result.
     * @return this.
     */
    public ResultEncoder copy(final ResultFields result)
    {
        out.writeByte(start, result.kind().documentType());
        out.writeLong(start + WINDOW_START, result.windowStart());
        out.writeLong(start + WINDOW_END, result.windowEnd());
        out.writeLong(start + COUNT, result.count());
        out.writeLong(start + SUM, result.sum());
        out.writeLong(start + MIN, result.min());
        out.writeLong(start + MAX, result.max());
        out.writeLong(start + SOURCE_OFFSET, result.sourceOffset());
        out.writeInt(start + KEY_ID, result.keyId());
        out.writeInt(start + RESULT_VERSION, result.version());
        for (int i = 0; i < aggregates; i++)
        {
            out.writeLong(start + LENGTH + (long)i * Long.BYTES, result.aggregate(i));
        }
        return this;
    }
}
