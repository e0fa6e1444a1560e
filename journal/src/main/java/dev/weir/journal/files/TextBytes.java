package dev.weir.journal.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * A large byte buffer that text rows are formatted into, written to a channel in large writes when it
 * fills: bytes as given, numbers as ASCII digits written straight into the buffer (the text of
 * {@link Long#toString(long)}), decimals at their scale (the text of {@link BigDecimal#toPlainString()}).
 * Nothing is allocated per call in steady state.
 * <p>
 * Not thread-safe: one writer. Its owner sets the channel to drain into ({@link #drainTo}) and
 * {@link #flush()}es it before closing that channel.
 */
public final class TextBytes
{
    /**
     * The default buffer size: 64 KiB, eight times a BufferedWriter's, and small enough to stay in the CPU's
     * cache while rows are formatted into it and copied out (1 MiB was slower: JSON rows 4.1 M/s against
     * 6.3–6.9 M/s at 64 KiB, by CPU time, {@code RowWriterThroughput}).
     */
    public static final int DEFAULT_CAPACITY = 1 << 15;

    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);
    private static final long[] POWERS_OF_TEN = new long[19];
    private static final byte[] TENS = new byte[100];
    private static final byte[] ONES = new byte[100];

    static
    {
        long power = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++)
        {
            POWERS_OF_TEN[i] = power;
            power *= 10;
        }
        for (int i = 0; i < 100; i++)
        {
            TENS[i] = (byte)('0' + i / 10);
            ONES[i] = (byte)('0' + i % 10);
        }
    }

    /** The longest text copied byte by byte. */
    private static final int SHORT = 32;
    /** The most bytes a long's digits and sign take. */
    private static final int MAX_LONG_LENGTH = 20;

    private final Object target;
    private final byte[] bytes;
    private final ByteBuffer view;
    private final byte[] digits = new byte[MAX_LONG_LENGTH];
    private WritableByteChannel channel;
    private int position;

    /**
     * @param target   what the text goes to, for error messages.
     * @param capacity the buffer's size in bytes (at least 64).
     */
    public TextBytes(final Object target, final int capacity)
    {
        this.target = target;
        if (capacity < 64)
        {
            throw new IllegalArgumentException("a text buffer of " + capacity + " bytes is too small");
        }
        this.bytes = new byte[capacity];
        this.view = ByteBuffer.wrap(bytes);
    }

    /**
     * @param channel where full buffers (and {@link #flush()}) go, or null when there is none open; the
     *                buffer must be empty to change it to null.
     */
    public void drainTo(final WritableByteChannel channel)
    {
        assert channel != null || position == 0 : "flushed before its channel is closed";
        this.channel = channel;
    }

    /** @return bytes waiting in the buffer. */
    public int pending()
    {
        return position;
    }

    /**
     * @param b an ASCII byte.
     * @return this.
     */
    public TextBytes put(final byte b)
    {
        if (position == bytes.length)
        {
            flush();
        }
        bytes[position++] = b;
        return this;
    }

    /**
     * @param text bytes to copy.
     * @return this.
     */
    public TextBytes put(final byte[] text)
    {
        final int length = text.length;
        if (position + length > bytes.length)
        {
            flush();
            if (length > bytes.length)
            {
                write(ByteBuffer.wrap(text));
                return this;
            }
        }
        if (length <= SHORT)
        {
            int at = position;
            for (int i = 0; i < length; i++)
            {
                bytes[at++] = text[i]; // a short copy costs less than an arraycopy call
            }
        }
        else
        {
            System.arraycopy(text, 0, bytes, position, length);
        }
        position += length;
        return this;
    }

    /**
     * @param value a number, written as {@link Long#toString(long)} writes it.
     * @return this.
     */
    public TextBytes number(final long value)
    {
        if (value == Long.MIN_VALUE)
        {
            return put(LONG_MIN);
        }
        if (position + MAX_LONG_LENGTH > bytes.length)
        {
            flush();
        }
        long magnitude = value;
        if (value < 0)
        {
            bytes[position++] = '-';
            magnitude = -value;
        }
        final int length = digitCount(magnitude);
        writeDigits(bytes, position + length, magnitude);
        position += length;
        return this;
    }

    /**
     * Write a number's text into an array, as {@link #number(long)} does into the buffer.
     *
     * @param value a number.
     * @param into  where to write: at least 20 bytes from {@code at}.
     * @param at    where its first byte goes.
     * @return the position after its last byte.
     */
    public static int number(final long value, final byte[] into, final int at)
    {
        if (value == Long.MIN_VALUE)
        {
            System.arraycopy(LONG_MIN, 0, into, at, LONG_MIN.length);
            return at + LONG_MIN.length;
        }
        int start = at;
        long magnitude = value;
        if (value < 0)
        {
            into[start++] = '-';
            magnitude = -value;
        }
        final int end = start + digitCount(magnitude);
        writeDigits(into, end, magnitude);
        return end;
    }

    /**
     * @param text   bytes to copy.
     * @param length how many, from the first.
     * @return this.
     */
    public TextBytes put(final byte[] text, final int length)
    {
        if (position + length > bytes.length)
        {
            flush();
            if (length > bytes.length)
            {
                write(ByteBuffer.wrap(text, 0, length));
                return this;
            }
        }
        System.arraycopy(text, 0, bytes, position, length);
        position += length;
        return this;
    }

    /**
     * @param unscaled a decimal's unscaled value.
     * @param scale    its scale: 0 writes {@link #number(long)}; above 0, as
     *                 {@code BigDecimal.valueOf(unscaled, scale).toPlainString()} writes it.
     * @return this.
     */
    public TextBytes scaled(final long unscaled, final int scale)
    {
        if (scale == 0)
        {
            return number(unscaled);
        }
        if (scale < 0 || scale > 64)
        {
            return put(BigDecimal.valueOf(unscaled, scale).toPlainString().getBytes(StandardCharsets.US_ASCII)); // not a column scale
        }
        if (position + MAX_LONG_LENGTH + scale + 3 > bytes.length)
        {
            flush();
        }
        if (unscaled < 0)
        {
            bytes[position++] = '-';
        }
        final int count = magnitudeDigits(unscaled);
        final int start = MAX_LONG_LENGTH - count;
        if (count <= scale)
        {
            bytes[position++] = '0';
            bytes[position++] = '.';
            for (int i = count; i < scale; i++)
            {
                bytes[position++] = '0';
            }
            System.arraycopy(digits, start, bytes, position, count);
            position += count;
        }
        else
        {
            final int whole = count - scale;
            System.arraycopy(digits, start, bytes, position, whole);
            position += whole;
            bytes[position++] = '.';
            System.arraycopy(digits, start + whole, bytes, position, scale);
            position += scale;
        }
        return this;
    }

    /** The digits of |value| right-aligned in {@link #digits}; returns how many. */
    private int magnitudeDigits(final long value)
    {
        if (value == Long.MIN_VALUE)
        {
            System.arraycopy(LONG_MIN, 1, digits, 1, MAX_LONG_LENGTH - 1);
            return MAX_LONG_LENGTH - 1;
        }
        return MAX_LONG_LENGTH - writeDigits(digits, MAX_LONG_LENGTH, Math.abs(value));
    }

    /**
     * Write a non-negative number's digits backwards, the last one just before {@code end}: eight at a time
     * with one long division, then two at a time in int arithmetic.
     *
     * @return where the first digit is.
     */
    private static int writeDigits(final byte[] into, final int end, final long magnitude)
    {
        int at = end;
        long rest = magnitude;
        while (rest > Integer.MAX_VALUE)
        {
            final long quotient = rest / 100_000_000L;
            at = writeEight(into, at, (int)(rest - quotient * 100_000_000L));
            rest = quotient;
        }
        int small = (int)rest;
        while (small >= 100)
        {
            final int quotient = small / 100;
            final int pair = small - quotient * 100;
            small = quotient;
            into[--at] = ONES[pair];
            into[--at] = TENS[pair];
        }
        if (small >= 10)
        {
            into[--at] = ONES[small];
            into[--at] = TENS[small];
        }
        else
        {
            into[--at] = (byte)('0' + small);
        }
        return at;
    }

    /** Eight digits of 0 .. 99,999,999, leading zeros included, backwards from {@code end}. */
    private static int writeEight(final byte[] into, final int end, final int eight)
    {
        int rest = eight;
        int at = end;
        for (int i = 0; i < 4; i++)
        {
            final int quotient = rest / 100;
            final int pair = rest - quotient * 100;
            rest = quotient;
            into[--at] = ONES[pair];
            into[--at] = TENS[pair];
        }
        return at;
    }

    /** The digits of a non-negative number: log10 from its bit length, corrected by one comparison. */
    private static int digitCount(final long magnitude)
    {
        final int estimate = ((64 - Long.numberOfLeadingZeros(magnitude)) * 1233) >>> 12;
        return Math.max(1, estimate + 1 - (magnitude < POWERS_OF_TEN[estimate] ? 1 : 0));
    }

    /** Write what the buffer holds to the channel. */
    public void flush()
    {
        if (position == 0)
        {
            return;
        }
        if (channel == null)
        {
            throw new IllegalStateException("no channel to write the text to");
        }
        view.clear().limit(position);
        write(view);
        position = 0;
    }

    private void write(final ByteBuffer buffer)
    {
        try
        {
            while (buffer.hasRemaining())
            {
                channel.write(buffer);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + target, ex);
        }
    }
}
