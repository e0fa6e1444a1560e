package dev.weir.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * A real, small filesystem for full-disk tests: a tmpfs of a few MiB mounted on a directory (root only),
 * grown by remounting, filled with a ballast file, unmounted on {@link #close()}. Where mounting is not
 * permitted the test is skipped with a message, except under CI ({@code CI=true}), where it fails. Not
 * thread-safe: one test thread.
 */
public final class Tmpfs implements AutoCloseable
{
    private final Path mountPoint;

    private Tmpfs(final Path mountPoint)
    {
        this.mountPoint = mountPoint;
    }

    /**
     * @param mountPoint an empty directory (created if missing).
     * @param sizeKib    the filesystem's size.
     * @return the mounted filesystem.
     */
    public static Tmpfs mount(final Path mountPoint, final long sizeKib) throws IOException, InterruptedException
    {
        Files.createDirectories(mountPoint);
        final String result = command("mount", "-t", "tmpfs", "-o", "size=" + sizeKib + "k", "tmpfs", mountPoint.toString());
        if (result != null)
        {
            final String message = "cannot mount a tmpfs (the full-disk tests need root): " + result;
            if ("true".equals(System.getenv("CI")))
            {
                fail(message + " -- CI=true, so this fails rather than skips");
            }
            Assumptions.abort(message);
        }
        return new Tmpfs(mountPoint);
    }

    /**
     * @param sizeKib the new size (more than what is used, to free space).
     */
    public void resize(final long sizeKib) throws IOException, InterruptedException
    {
        final String result = command("mount", "-o", "remount,size=" + sizeKib + "k", mountPoint.toString());
        assertTrue(result == null, "remount " + mountPoint + ": " + result);
    }

    /**
     * Fill the filesystem with a file of zeros until only {@code leaveKib} are free.
     *
     * @param file     the ballast file, on this filesystem.
     * @param leaveKib the space to leave free.
     */
    public void fill(final Path file, final long leaveKib) throws IOException
    {
        long remaining = Files.getFileStore(mountPoint).getUsableSpace() - leaveKib * 1024;
        assertTrue(remaining > 0, "less than " + leaveKib + " KiB free on " + mountPoint);
        final byte[] zeros = new byte[4096];
        try (OutputStream out = Files.newOutputStream(file))
        {
            while (remaining > 0)
            {
                final int n = (int)Math.min(zeros.length, remaining);
                out.write(zeros, 0, n);
                remaining -= n;
            }
        }
        assertEquals(leaveKib * 1024, Files.getFileStore(mountPoint).getUsableSpace(), "free space after the ballast");
    }

    /**
     * @return the bytes free.
     */
    public long freeBytes() throws IOException
    {
        return Files.getFileStore(mountPoint).getUsableSpace();
    }

    @Override
    public void close() throws IOException, InterruptedException
    {
        if (command("umount", mountPoint.toString()) != null)
        {
            command("umount", "-l", mountPoint.toString());
        }
    }

    /**
     * @return null on success, else the command's output and exit code.
     */
    private static String command(final String... args) throws IOException, InterruptedException
    {
        final Process p;
        try
        {
            p = new ProcessBuilder(List.of(args)).redirectErrorStream(true).start();
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", args) + " did not finish");
        return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + output;
    }
}
