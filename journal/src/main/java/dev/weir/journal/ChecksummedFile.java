package dev.weir.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.zip.CRC32;

/**
 * The binary files a journal keeps beside its queues ({@code dictionaries.snapshot}, {@code history.base}):
 * big-endian fields ({@link BinaryFields}) with a trailing CRC-32 of every byte before it, written durably and
 * atomically ({@link FileReplacement}).
 * <p>
 * Stateless and thread-safe; one writer per file.
 */
final class ChecksummedFile
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
    static void write(final Path file, final byte[] body) throws IOException
    {
        FileReplacement.replace(file, BinaryFields.withTrailer(body, new CRC32()), true);
    }

    /**
     * @param bytes a whole file as {@link #write} wrote it.
     * @return true if its trailer is the CRC-32 of the bytes before it.
     */
    static boolean checksumMatches(final byte[] bytes)
    {
        return BinaryFields.trailerMatches(bytes, new CRC32());
    }
}
