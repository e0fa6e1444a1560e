package dev.weir.engine.join;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;

import dev.weir.journal.files.BinaryFields;
import dev.weir.journal.files.ChecksummedFile;

/**
 * The join-state file: a pipeline's {@link TableJoins} state as of a journal offset, so that a resumed run reads
 * only the journal after it. Big-endian ({@link BinaryFields}), written durably and atomically
 * ({@link ChecksummedFile}):
 * <pre>
 * int32  magic 0x574A5354 ("WJST")
 * int32  version 1
 * text   the pipeline's join configuration (int32 length + UTF-8): a file of another one is not read
 * int64  the offset: the state is as after reading the journal up to and including it
 * int64  the greatest event or heartbeat time read ({@link Horizon}), or Long.MIN_VALUE
 * per join, in order:
 *   per string column, in column order: int32 count, then each text (int32 length + UTF-8), in id order
 *   int32 keys, then each key's components as int64s (a string component is its text's id), in index order
 *   per key, in index order: int32 versions, then each, newest first: int64 valid-from, int8 1 for a tombstone
 *     or 0 for a row, then the row's columns as int64s (a string column's text id; zeros for a tombstone)
 * int32  CRC-32 of every byte before it
 * </pre>
 * Ids and indexes are kept as they were, so the state read back answers every lookup as the state written did.
 * <p>
 * Stateless and thread-safe; one writer per file.
 */
public final class JoinStateFile
{
    /** "WJST". */
    public static final int MAGIC = 0x574A5354;
    /** The version this class writes and reads. */
    public static final int VERSION = 1;

    private JoinStateFile()
    {
    }

    /** Why a file cannot be read into a state: the message completes "the join-state file is ...". */
    public static final class Unusable extends Exception
    {
        private static final long serialVersionUID = 1L;

        Unusable(final String why)
        {
            super(why, null, false, false);
        }
    }

    /**
     * Write a state to a file, replacing it durably.
     *
     * @param file          the file.
     * @param configuration the pipeline's join configuration.
     * @param offset        the offset of the last document read into the state.
     * @param state         the state, on its owner thread.
     * @throws IOException if the file cannot be written; it is then left as it was.
     */
    public static void write(final Path file, final String configuration, final long offset, final TableJoins state) throws IOException
    {
        ChecksummedFile.write(file, body(configuration, offset, state));
    }

    /**
     * @return the bytes of a file of this state, before its trailer.
     */
    static byte[] body(final String configuration, final long offset, final TableJoins state) throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);
        writeBody(out, configuration, offset, state);
        out.flush();
        return bytes.toByteArray();
    }

    /** Write a file's bytes before its trailer; allocates nothing but what the stream does to grow. */
    static void writeBody(final DataOutputStream out, final String configuration, final long offset, final TableJoins state) throws IOException
    {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        writeText(out, configuration);
        out.writeLong(offset);
        state.write(out);
    }

    /**
     * Write a text field as {@link BinaryFields#writeText} does (int32 length, then the bytes
     * {@code String.getBytes(UTF_8)} gives: an unpaired surrogate as '?'), without allocating.
     */
    static void writeText(final DataOutputStream out, final String text) throws IOException
    {
        int length = 0;
        for (int i = 0, n = text.length(); i < n; i++)
        {
            final char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1)))
            {
                length += 4;
                i++;
            }
            else
            {
                length += c < 0x80 || Character.isSurrogate(c) ? 1 : c < 0x800 ? 2 : 3;
            }
        }
        out.writeInt(length);
        for (int i = 0, n = text.length(); i < n; i++)
        {
            final char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1)))
            {
                final int code = Character.toCodePoint(c, text.charAt(++i));
                out.writeByte(0xF0 | code >> 18);
                out.writeByte(0x80 | code >> 12 & 0x3F);
                out.writeByte(0x80 | code >> 6 & 0x3F);
                out.writeByte(0x80 | code & 0x3F);
            }
            else if (Character.isSurrogate(c))
            {
                out.writeByte('?');
            }
            else if (c < 0x80)
            {
                out.writeByte(c);
            }
            else if (c < 0x800)
            {
                out.writeByte(0xC0 | c >> 6);
                out.writeByte(0x80 | c & 0x3F);
            }
            else
            {
                out.writeByte(0xE0 | c >> 12);
                out.writeByte(0x80 | c >> 6 & 0x3F);
                out.writeByte(0x80 | c & 0x3F);
            }
        }
    }

    /**
     * Read a file into a new state.
     *
     * @param file          the file.
     * @param configuration the pipeline's join configuration: a file of another one is refused.
     * @param offset        the offset its name gives.
     * @param state         a new state, not read into yet (discard it if this throws).
     * @throws Unusable if it is missing, torn, corrupt, of another version, configuration or offset, or does not hold
     *                  a state of this configuration.
     */
    public static void read(final Path file, final String configuration, final long offset, final TableJoins state) throws Unusable
    {
        final DataInputStream in;
        try
        {
            in = ChecksummedFile.read(file);
        }
        catch (final ChecksummedFile.Damaged damaged)
        {
            throw new Unusable(damaged.getMessage());
        }
        if (in == null)
        {
            throw new Unusable("gone");
        }
        try
        {
            final int magic = in.readInt();
            if (magic != MAGIC)
            {
                throw new Unusable("not a join-state file (magic " + Integer.toHexString(magic) + ")");
            }
            final int version = in.readInt();
            if (version != VERSION)
            {
                throw new Unusable("of version " + version + ", not " + VERSION);
            }
            final String written = BinaryFields.readText(in);
            if (!written.equals(configuration))
            {
                throw new Unusable("of another join configuration (" + written + ")");
            }
            final long at = in.readLong();
            if (at != offset)
            {
                throw new Unusable("of offset " + at + ", not the " + offset + " of its name");
            }
            state.read(in, offset);
            if (in.available() != 0)
            {
                throw new Unusable("longer than its state (" + in.available() + " bytes more)");
            }
        }
        catch (final IOException ex)
        {
            throw new Unusable("not a state of this configuration (" + ex.getMessage() + ")");
        }
    }
}
