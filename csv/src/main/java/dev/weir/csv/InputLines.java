package dev.weir.csv;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of an input file as bytes, decoded one line at a time, so that a bad line is that line's
 * problem only:
 * <ul>
 *   <li>a line ends at {@code \n}; a {@code \r} that ends a line is dropped (CRLF files read as LF files,
 *   and a last line cut between its CR and LF has the same length once completed); the last line may
 *   lack its terminator, which {@link #terminated()} tells;</li>
 *   <li>a UTF-8 byte order mark at the very start of the input is dropped;</li>
 *   <li>{@link #text()} decodes the line strictly as UTF-8 and returns null if it is not valid UTF-8;</li>
 *   <li>at most {@value #MAX_LINE_BYTES} bytes of a line are kept: a longer line is skipped to its end and
 *   {@link #tooLong()} tells it, so no line can exhaust memory or exceed a journal document.</li>
 * </ul>
 * The input is read in chunks of {@value #CHUNK_BYTES} bytes; a line that lies within one chunk is not
 * copied: {@link #bytes()}, {@link #start()} and {@link #kept()} show it where it lies, until the next
 * {@link #next()}. Reading such a line allocates nothing.
 * Not thread-safe: one reading thread.
 */
public final class InputLines implements AutoCloseable
{
    /** The longest line kept, in bytes without its terminator; no valid event line comes close. */
    public static final int MAX_LINE_BYTES = 64 * 1024;

    private final InputStream in;
    /** How many bytes of the input are read at a time. */
    static final int CHUNK_BYTES = 1024 * 1024;

    private final byte[] chunk = new byte[CHUNK_BYTES];
    private final CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private int chunkPos;
    private int chunkEnd;
    private byte[] line = new byte[256];
    private byte[] view = line;
    private int viewStart;
    private int kept;
    private long length;
    private boolean terminated;
    private byte lastByte;
    private boolean first = true;
    /** Run before each read of the input, which may block: see {@link #beforeRead}. */
    private Runnable beforeRead;

    /**
     * @param in the input, read to its end and closed with this.
     */
    public InputLines(final InputStream in)
    {
        this.in = in;
    }

    /**
     * Read the next line.
     *
     * @return false at the end of the input.
     * @throws IOException if the input cannot be read.
     */
    public boolean next() throws IOException
    {
        if (!first && nextInChunk())
        {
            return true;
        }
        viewStart = 0;
        kept = 0;
        length = 0;
        lastByte = 0;
        terminated = false;
        boolean any = false;
        while (true)
        {
            if (chunkPos == chunkEnd && !fill())
            {
                break;
            }
            any = true;
            int end = chunkPos;
            while (end < chunkEnd && chunk[end] != '\n')
            {
                end++;
            }
            keep(chunkPos, end - chunkPos);
            if (end < chunkEnd)
            {
                chunkPos = end + 1;
                terminated = true;
                break;
            }
            chunkPos = end;
        }
        if (length > 0 && lastByte == '\r')
        {
            if (kept == length)
            {
                kept--;
            }
            length--;
        }
        if (first && any)
        {
            first = false;
            if (kept >= 3 && (line[0] & 0xFF) == 0xEF && (line[1] & 0xFF) == 0xBB && (line[2] & 0xFF) == 0xBF)
            {
                System.arraycopy(line, 3, line, 0, kept - 3);
                kept -= 3;
                length -= 3;
            }
        }
        view = line; // after keep(), which may have grown it
        return any;
    }

    /**
     * Take the next line where it lies if it ends within the current chunk and is not too long.
     *
     * @return false if it does not (nothing is consumed then).
     */
    private boolean nextInChunk()
    {
        final byte[] bytes = chunk;
        final int from = chunkPos;
        final int limit = chunkEnd;
        int end = from;
        while (end < limit && bytes[end] != '\n')
        {
            end++;
        }
        if (end == limit || end - from > MAX_LINE_BYTES)
        {
            return false;
        }
        final int stop = end > from && bytes[end - 1] == '\r' ? end - 1 : end;
        view = bytes;
        viewStart = from;
        kept = stop - from;
        length = kept;
        terminated = true;
        chunkPos = end + 1;
        return true;
    }

    /**
     * @return the bytes holding the line (valid until the next {@link #next()}), from {@link #start()}.
     */
    public byte[] bytes()
    {
        return view;
    }

    /**
     * @return the offset of the line's first byte in {@link #bytes()}.
     */
    public int start()
    {
        return viewStart;
    }

    /**
     * @return how many bytes of the line are kept in {@link #bytes()}: its {@link #length()} unless
     *         {@link #tooLong()}.
     */
    public int kept()
    {
        return kept;
    }

    /**
     * @return true if the line ended with a terminator; false only for a last line that lacks one.
     */
    public boolean terminated()
    {
        return terminated;
    }

    /**
     * @return the line's length in bytes, without its terminator (counted in full even when too long).
     */
    public long length()
    {
        return length;
    }

    /**
     * @return true if the line is longer than {@value #MAX_LINE_BYTES} bytes (only its start was kept).
     */
    public boolean tooLong()
    {
        return length > MAX_LINE_BYTES;
    }

    /**
     * @return the line, decoded as UTF-8, or null if it is not valid UTF-8.
     */
    public String text()
    {
        try
        {
            return strict.reset().decode(ByteBuffer.wrap(view, viewStart, kept)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            return null;
        }
    }

    /**
     * @param maxChars how many characters to return at most.
     * @return the start of the line, invalid UTF-8 replaced by U+FFFD, for showing it.
     */
    public String shown(final int maxChars)
    {
        final CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(view, viewStart, kept));
        return chars.length() <= maxChars ? chars.toString() : chars.subSequence(0, maxChars).toString();
    }

    private void keep(final int from, final int count)
    {
        if (count > 0)
        {
            lastByte = chunk[from + count - 1];
        }
        length += count;
        final int room = MAX_LINE_BYTES + 1 - kept; // one byte more than the limit: enough to see a trailing CR
        final int n = Math.min(room, count);
        if (n <= 0)
        {
            return;
        }
        if (kept + n > line.length)
        {
            line = Arrays.copyOf(line, Math.max(line.length * 2, kept + n));
        }
        System.arraycopy(chunk, from, line, kept, n);
        kept += n;
    }

    /**
     * Run an action before each read of the input (which may wait for bytes to come): an ingest writes the events it
     * holds in a batch there, so that no event waits on its input.
     *
     * @param action the action, or null for none.
     */
    public void beforeRead(final Runnable action)
    {
        this.beforeRead = action;
    }

    private boolean fill() throws IOException
    {
        if (beforeRead != null)
        {
            beforeRead.run();
        }
        final int n = in.read(chunk);
        if (n <= 0)
        {
            return false;
        }
        chunkPos = 0;
        chunkEnd = n;
        return true;
    }

    @Override
    public void close() throws IOException
    {
        in.close();
    }
}
