package dev.weir.journal.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;


/**
 * A text file that appears whole or not at all: lines go to a temporary file beside the target, which
 * is forced to disk and renamed over the target on {@link #commit()} ({@link FileReplacement#install}). Closing without committing
 * deletes the temporary file (also when the disk is full, so that it does not keep the space a rerun
 * needs) and leaves any previous target untouched. {@link #suspend()} closes the
 * temporary file without committing it (to bound the files a writer of many holds open); the next line
 * reopens it and appends. Lines are formatted into a large byte buffer ({@link #row()}, or {@link #line(String)}
 * as UTF-8) and written to the temporary file in large writes. Not thread-safe: one writer.
 */
public final class AtomicTextFile implements AutoCloseable
{
    private final Path target;
    private final Path temporary;
    private final int capacity;
    private FileChannel out;
    private TextBytes text;
    private boolean committed;
    private long lines;

    public AtomicTextFile(final Path target)
    {
        this(target, TextBytes.DEFAULT_CAPACITY);
    }

    /**
     * @param target   the file to write.
     * @param capacity the size of its write buffer, held while the file is open (not suspended).
     */
    public AtomicTextFile(final Path target, final int capacity)
    {
        this.capacity = capacity;
        this.target = target.toAbsolutePath();
        this.temporary = this.target.resolveSibling("." + this.target.getFileName() + ".tmp");
        try
        {
            final Path parent = this.target.getParent();
            if (parent != null)
            {
                Files.createDirectories(parent);
            }
            open(false);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + target, ex);
        }
    }

    private void open(final boolean append) throws IOException
    {
        out = append ? FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.APPEND)
            : FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        if (text == null)
        {
            text = new TextBytes(target, capacity);
        }
        text.drainTo(out);
    }

    /**
     * @param line a line's text, without its end; written as UTF-8 followed by {@code \n}.
     */
    public void line(final String line)
    {
        row().put(line.getBytes(StandardCharsets.UTF_8)).put((byte)'\n');
    }

    /**
     * Start a line: the caller writes its bytes and its end ({@code \n}) into the returned buffer, which is
     * valid until the next call on this file.
     *
     * @return the file's write buffer.
     */
    public TextBytes row()
    {
        if (out == null)
        {
            try
            {
                open(true);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot write " + target, ex);
            }
        }
        lines++;
        return text;
    }

    /**
     * Close the temporary file, keeping what was written; the next {@link #line(String)} reopens it.
     * Holds no file open until then.
     */
    public void suspend()
    {
        try
        {
            if (out != null)
            {
                text.flush();
                text.drainTo(null);
                text = null; // a suspended file holds no buffer either
                out.close();
                out = null;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + target, ex);
        }
    }

    public long lines()
    {
        return lines;
    }

    public Path target()
    {
        return target;
    }

    public void commit()
    {
        try
        {
            suspend();
            FileReplacement.install(temporary, target);
            committed = true;
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
                    out.close(); // what is still buffered is dropped with the file
                }
            }
            catch (final IOException ignored)
            {
                // the temporary file is deleted all the same
            }
            finally
            {
                out = null;
                text = null;
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
}
