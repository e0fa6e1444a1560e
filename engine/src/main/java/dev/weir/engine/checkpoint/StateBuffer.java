package dev.weir.engine.checkpoint;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A growable little-endian byte buffer for writing engine state into a checkpoint, and the reader of
 * the same form. Checkpoints are off the hot path: growth allocates. It grows by doubling up to the largest
 * array the JVM allocates ({@link #MAX_CAPACITY}, just under 2 GiB); writing past that throws an
 * {@link IllegalStateException} saying so. Not thread-safe: one owner thread.
 */
public final class StateBuffer
{
    /** The largest byte array the JVM allocates. */
    static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    private final int maxCapacity;
    private ByteBuffer buffer;

    /**
     * @param initialCapacity bytes to start with.
     */
    public StateBuffer(final int initialCapacity)
    {
        this(initialCapacity, MAX_CAPACITY);
    }

    /**
     * @param initialCapacity bytes to start with.
     * @param maxCapacity     the most bytes it may hold (tests use a small one to reach the limit).
     */
    StateBuffer(final int initialCapacity, final int maxCapacity)
    {
        this.maxCapacity = maxCapacity;
        buffer = ByteBuffer.allocate(Math.min(maxCapacity, Math.max(64, initialCapacity))).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Wrap a checkpoint payload for reading.
     *
     * @param payload the payload, read from its position.
     * @return a buffer reading it.
     */
    public static StateBuffer reading(final ByteBuffer payload)
    {
        final StateBuffer b = new StateBuffer(64);
        b.buffer = payload.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        return b;
    }

    /** Start writing from empty. @return this. */
    public StateBuffer clear()
    {
        buffer.clear();
        return this;
    }

    /** @param v a value. @return this. */
    public StateBuffer putLong(final long v)
    {
        ensure(8);
        buffer.putLong(v);
        return this;
    }

    /** @param v a value. @return this. */
    public StateBuffer putInt(final int v)
    {
        ensure(4);
        buffer.putInt(v);
        return this;
    }

    /** @param v a value. @return this. */
    public StateBuffer putByte(final byte v)
    {
        ensure(1);
        buffer.put(v);
        return this;
    }

    /** @param v a string, UTF-8 with an int length. @return this. */
    public StateBuffer putString(final String v)
    {
        final byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
        putInt(bytes.length);
        ensure(bytes.length);
        buffer.put(bytes);
        return this;
    }

    /** @return the next long. */
    public long getLong()
    {
        return buffer.getLong();
    }

    /** @return the next int. */
    public int getInt()
    {
        return buffer.getInt();
    }

    /** @return the next byte. */
    public byte getByte()
    {
        return buffer.get();
    }

    /** @return the next string. */
    public String getString()
    {
        final int length = buffer.getInt();
        if (length < 0 || length > buffer.remaining())
        {
            throw new IllegalStateException("corrupt checkpoint: string of length " + length);
        }
        final byte[] bytes = new byte[length];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** @return bytes left to read. */
    public int remaining()
    {
        return buffer.remaining();
    }

    /**
     * @return the bytes written so far, as a buffer from 0 to the write position (a view, not a copy).
     */
    public ByteBuffer written()
    {
        final ByteBuffer view = buffer.duplicate();
        view.flip();
        return view;
    }

    private void ensure(final int bytes)
    {
        if (buffer.remaining() < bytes)
        {
            final long needed = (long)buffer.position() + bytes;
            if (needed > maxCapacity)
            {
                throw new IllegalStateException("the engine state is too large for a checkpoint: more than " + maxCapacity
                    + " bytes (a checkpoint is one heap buffer, below 2 GiB); fewer open windows or keys, or a smaller allowed lateness, are needed");
            }
            final ByteBuffer bigger = ByteBuffer.allocate(Math.min(maxCapacity, grownCapacity(buffer.capacity(), needed)))
                .order(ByteOrder.LITTLE_ENDIAN);
            buffer.flip();
            bigger.put(buffer);
            buffer = bigger;
        }
    }

    /**
     * @param capacity the current capacity.
     * @param needed   the bytes the buffer must hold, at most {@link #MAX_CAPACITY}.
     * @return the capacity to grow to: double, or what is needed if more, but never past {@link #MAX_CAPACITY}
     *         (computed in long: doubling 1 GiB overflows an int).
     */
    static int grownCapacity(final int capacity, final long needed)
    {
        return (int)Math.min(MAX_CAPACITY, Math.max(2L * capacity, needed));
    }
}
