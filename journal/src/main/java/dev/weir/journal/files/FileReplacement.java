package dev.weir.journal.files;

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
 * crash of the machine once this returns. A write that fails deletes its temporary file and leaves the old
 * content as it was. Every file Weir replaces goes through here: the journal's marker and the files beside its
 * queues, the engine's checkpoints, delivery records, the Kafka status and the command line's exports.
 * <p>
 * Public so the engine, the connectors and the command line share it; not a stable API. Stateless and
 * thread-safe; one writer per file.
 */
public final class FileReplacement
{
    private FileReplacement()
    {
    }

    /**
     * Replace a file through the temporary file {@code <name>.tmp} beside it.
     *
     * @param file  the file to replace (created if missing; its directory must exist).
     * @param bytes its new content.
     * @param force whether to make the replacement durable before returning.
     * @throws IOException if it cannot be written; the old content is then left as it was.
     */
    public static void replace(final Path file, final byte[] bytes, final boolean force) throws IOException
    {
        replace(file, file.resolveSibling(file.getFileName() + ".tmp"), force, ByteBuffer.wrap(bytes));
    }

    /**
     * @param file  the file to replace (created if missing; its directory must exist).
     * @param temp  the temporary file to write first, in the same directory (truncated if left by a crash).
     * @param force whether to make the replacement durable before returning.
     * @param parts its new content: each buffer from its position to its limit, in order (positions are moved).
     * @throws IOException if it cannot be written; the old content is then left as it was.
     */
    public static void replace(final Path file, final Path temp, final boolean force, final ByteBuffer... parts) throws IOException
    {
        try
        {
            try (FileChannel channel = FileChannel.open(
                temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))
            {
                for (final ByteBuffer part : parts)
                {
                    while (part.hasRemaining())
                    {
                        channel.write(part);
                    }
                }
                if (force)
                {
                    channel.force(true);
                }
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            deleteQuietly(temp);
            throw ex;
        }
        if (force)
        {
            forceDirectory(file.toAbsolutePath().getParent());
        }
    }

    /**
     * Durably replace a file with a temporary file written and closed by the caller: force it, rename it over
     * the file, force the directory.
     *
     * @param temp the temporary file, in the same directory as {@code file}.
     * @param file the file to replace.
     * @throws IOException if it cannot be done; the old content is then left as it was (the temporary file too).
     */
    public static void install(final Path temp, final Path file) throws IOException
    {
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE))
        {
            channel.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(file.toAbsolutePath().getParent());
    }

    /**
     * Force a directory's entries to disk (a rename or a file created or deleted in it).
     *
     * @param directory the directory.
     */
    public static void forceDirectory(final Path directory)
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

    private static void deleteQuietly(final Path temp)
    {
        try
        {
            Files.deleteIfExists(temp);
        }
        catch (final IOException ignored)
        {
            // best effort: the next replacement truncates it
        }
    }
}
