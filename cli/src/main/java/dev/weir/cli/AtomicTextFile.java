package dev.weir.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A text file that appears whole or not at all: lines go to a temporary file beside the target, which
 * is forced to disk and renamed over the target on {@link #commit()}. Closing without committing
 * deletes the temporary file (also when the disk is full, so that it does not keep the space a rerun
 * needs) and leaves any previous target untouched. {@link #suspend()} closes the
 * temporary file without committing it (to bound the files a writer of many holds open); the next line
 * reopens it and appends. Not thread-safe: one writer.
 */
final class AtomicTextFile implements AutoCloseable
{
    private final Path target;
    private final Path temporary;
    private BufferedWriter out;
    private boolean committed;
    private long lines;

    AtomicTextFile(final Path target)
    {
        this.target = target.toAbsolutePath();
        this.temporary = this.target.resolveSibling("." + this.target.getFileName() + ".tmp");
        try
        {
            final Path parent = this.target.getParent();
            if (parent != null)
            {
                Files.createDirectories(parent);
            }
            this.out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + target, ex);
        }
    }

    void line(final String text)
    {
        try
        {
            if (out == null)
            {
                out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            }
            out.write(text);
            out.write('\n');
            lines++;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + target, ex);
        }
    }

    /**
     * Close the temporary file, keeping what was written; the next {@link #line(String)} reopens it.
     * Holds no file open until then.
     */
    void suspend()
    {
        try
        {
            if (out != null)
            {
                out.close();
                out = null;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + target, ex);
        }
    }

    long lines()
    {
        return lines;
    }

    Path target()
    {
        return target;
    }

    void commit()
    {
        try
        {
            suspend();
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE))
            {
                channel.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            committed = true;
            forceDirectory(target.toAbsolutePath().getParent());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + target, ex);
        }
    }

    @Override
    public void close()
    {
        if (!committed)
        {
            try
            {
                if (out != null)
                {
                    out.close(); // flushes what is buffered: fails again if the disk is full
                }
            }
            catch (final IOException ignored)
            {
                // the temporary file is deleted all the same
            }
            finally
            {
                out = null;
            }
            try
            {
                Files.deleteIfExists(temporary);
            }
            catch (final IOException ignored)
            {
                // best effort: the target was never replaced
            }
        }
    }

    /** The rename is durable once the directory that holds the name is forced too. */
    private static void forceDirectory(final Path directory)
    {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            channel.force(true);
        }
        catch (final IOException ex)
        {
            // some filesystems and platforms refuse to open or force a directory; the rename is then as
            // durable as that platform makes it
        }
    }
}
