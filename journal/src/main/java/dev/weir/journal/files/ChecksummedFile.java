package dev.weir.journal.files;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.CRC32;

/**
 * The binary files a journal keeps beside its queues ({@code dictionaries.snapshot}, {@code history.base}):
 * big-endian fields ({@link BinaryFields}) with a trailing CRC-32 of every byte before it, written durably and
 * atomically ({@link FileReplacement}).
 * <p>
 * Public so the journal's other packages write and read these files; not a stable API. Stateless and thread-safe; one
 * writer per file.
 */
public final class ChecksummedFile
{
    private ChecksummedFile()
    {
    }

    /**
     * Replace a file with {@code body} and its CRC-32, forced to disk before this returns.
     *
     * @param file the file.
     * @param body its content before the trailer.
     * @throws IOException if it cannot be written; the previous file is then left as it was.
     */
    public static void write(final Path file, final byte[] body) throws IOException
    {
        FileReplacement.replace(file, BinaryFields.withTrailer(body, new CRC32()), true);
    }

    /** Why a file is not a whole one as {@link #write} wrote it: the message completes "the file is ...". */
    public static final class Damaged extends Exception
    {
        private static final long serialVersionUID = 1L;

        Damaged(final String why, final Throwable cause)
        {
            super(why, cause, false, false);
        }
    }

    /**
     * Read a whole file and check its trailer.
     *
     * @param file the file.
     * @return its fields before the trailer, or null if there is no file.
     * @throws Damaged if it is unreadable, shorter than a magic, a version and a trailer, or its checksum does not match.
     */
    public static DataInputStream read(final Path file) throws Damaged
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final NoSuchFileException missing)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw new Damaged("unreadable (" + ex + ")", ex);
        }
        if (bytes.length < 8 + 4 + 4)
        {
            throw new Damaged("torn (" + bytes.length + " bytes)", null);
        }
        if (!BinaryFields.trailerMatches(bytes, new CRC32()))
        {
            throw new Damaged("corrupt or torn (checksum mismatch)", null);
        }
        return new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - Integer.BYTES));
    }
}
