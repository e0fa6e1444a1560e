package dev.weir.engine.checkpoint;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A growable little-endian byte buffer for writing engine state into a checkpoint, and the reader of
 * the same form. Checkpoints are off the hot path: growth allocates. Not thread-safe: one owner thread.
 */
public final class StateBuffer
{
    private ByteBuffer buffer;

    /**
     * @param initialCapacity bytes to start with.
     */
    public StateBuffer(final int initialCapacity)
    {
        buffer = ByteBuffer.allocate(Math.max(64, initialCapacity)).order(ByteOrder.LITTLE_ENDIAN);
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
            final ByteBuffer bigger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + bytes))
                .order(ByteOrder.LITTLE_ENDIAN);
            buffer.flip();
            bigger.put(buffer);
            buffer = bigger;
        }
    }
}
