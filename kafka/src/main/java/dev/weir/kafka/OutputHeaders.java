package dev.weir.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The headers Weir puts on the records it produces, so that a consumer (and an instance taking a partition over)
 * knows where each came from. On the output topic: {@value #SOURCE} ("topic:partition" of the source record),
 * {@value #OFFSET} (the source Kafka offset it covers: the event a result's firing followed, or the late event),
 * {@value #SEQUENCE} (the partition's output number, 1, 2, ... over its whole life, whichever instance produced
 * it), {@value #KIND} ({@code result} or {@code late}). On the rejected topic: {@value #SOURCE}, {@value #OFFSET} and
 * {@value #REASON}. Values are UTF-8 text (numbers in decimal), readable by any consumer.
 * <p>
 * Stateless and thread-safe.
 */
public final class OutputHeaders
{
    /** "topic:partition" of the source record. */
    public static final String SOURCE = "weir-source";
    /** The source record's Kafka offset. */
    public static final String OFFSET = "weir-offset";
    /** The partition's output number. */
    public static final String SEQUENCE = "weir-seq";
    /** {@code result} or {@code late}. */
    public static final String KIND = "weir-kind";
    /** Why a record was rejected. */
    public static final String REASON = "weir-reason";

    private OutputHeaders()
    {
    }

    static void put(final Headers headers, final String name, final String value)
    {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param headers a record's headers.
     * @param name    a header's name.
     * @return the last value of that header as text, or null.
     */
    public static String text(final Headers headers, final String name)
    {
        final Header header = headers.lastHeader(name);
        return header == null ? null : StandardCharsets.UTF_8.decode(ByteBuffer.wrap(header.value())).toString();
    }

    /**
     * @param headers a record's headers.
     * @param name    a header's name holding a decimal number.
     * @return its value, or -1 if absent or not a number.
     */
    public static long number(final Headers headers, final String name)
    {
        final String text = text(headers, name);
        if (text == null)
        {
            return -1;
        }
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * @param headers an output record's headers.
     * @return them as {@code weir consume --headers} prints them: {@code topic:partition@offset seq kind} (null for
     *         one absent).
     */
    public static String describe(final Headers headers)
    {
        return text(headers, SOURCE) + "@" + text(headers, OFFSET) + " " + text(headers, SEQUENCE) + " " + text(headers, KIND);
    }
}
