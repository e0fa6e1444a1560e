package dev.weir.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a small file's content atomically: the bytes go to a temporary file beside it, which is renamed
 * over it, so a reader (or a crash) sees the old content or the new, never a mix. With {@code force}, the
 * temporary file is forced before the rename and the directory after it, so the new content also survives a
 * crash of the machine once this returns.
 * <p>
 * Stateless and thread-safe; one writer per file.
 */
final class FileReplacement
{
    private FileReplacement()
    {
    }

    /**
     * @param file  the file to replace (created if missing; its directory must exist).
     * @param bytes its new content.
     * @param force whether to make the replacement durable before returning.
     * @throws IOException if it cannot be written; the old content is then left as it was.
     */
    static void replace(final Path file, final byte[] bytes, final boolean force) throws IOException
    {
        final Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(
            temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))
        {
            final ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining())
            {
                channel.write(buffer);
            }
            if (force)
            {
                channel.force(true);
            }
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (force)
        {
            forceDirectory(file.toAbsolutePath().getParent());
        }
    }

    /**
     * Force a directory's entries to disk (a rename or a file created or deleted in it).
     *
     * @param directory the directory.
     */
    static void forceDirectory(final Path directory)
    {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            channel.force(true);
        }
        catch (final IOException ex)
        {
            // some file systems refuse to open or force a directory: the rename is then as durable as they make it
        }
    }
}
