package dev.weir.journal.retention;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The cycle files removed from a journal (by retention, or by hand) that a process still holds open: their disk
 * space is freed only when the last process lets go of them, and neither {@code du} nor the journal's listing
 * shows them. Found on Linux from {@code /proc/PID/fd}: every open file descriptor whose link names a
 * {@code .cq4} file under the journal's directory and ends in {@code " (deleted)"}; its size is the file's
 * length, read through the link. A file open in several places is counted once. Processes whose descriptors
 * cannot be read (another user's, without privileges) are not seen. Where there is no {@code /proc}, nothing can
 * be known: {@link #scan} returns null.
 * <p>
 * Immutable and thread-safe.
 *
 * @param files     the removed cycle files still open.
 * @param bytes     their total length.
 * @param processes the ids of the processes that hold them, ascending.
 */
public record HeldRemovedCycles(int files, long bytes, TreeSet<Long> processes)
{
    private static final String DELETED = " (deleted)";

    /**
     * @param journal the journal's directory.
     * @return the removed cycle files of the journal still open in a process, or null where this system has no
     *         {@code /proc} to tell.
     */
    public static HeldRemovedCycles scan(final Path journal)
    {
        return scan(journal, Path.of("/proc"));
    }

    /**
     * The removed cycle files of a journal that this process still maps or holds open, from {@code /proc/self/maps}
     * and {@code /proc/self/fd}: for a service's own checks, and for tests. Empty where there is no {@code /proc}.
     *
     * @param journal the journal's directory.
     * @return one entry per mapping or descriptor: {@code "map PATH"} or {@code "fd PATH"}, PATH without the
     *         {@code " (deleted)"} mark.
     */
    public static List<String> inThisProcess(final Path journal)
    {
        final Path self = Path.of("/proc/self");
        final List<String> held = new ArrayList<>();
        try
        {
            final String under = journal.toRealPath() + "/";
            if (Files.isReadable(self.resolve("maps")))
            {
                for (final String line : Files.readAllLines(self.resolve("maps")))
                {
                    final int path = line.indexOf(under);
                    if (path >= 0 && line.endsWith(".cq4" + DELETED))
                    {
                        held.add("map " + line.substring(path, line.length() - DELETED.length()));
                    }
                }
            }
            if (Files.isDirectory(self.resolve("fd")))
            {
                final Map<String, Long> sizes = new HashMap<>();
                scanProcess(self, under, sizes);
                sizes.keySet().forEach(target -> held.add("fd " + target.substring(0, target.length() - DELETED.length())));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read what this process holds of " + journal, ex);
        }
        return held;
    }

    static HeldRemovedCycles scan(final Path journal, final Path proc)
    {
        if (!Files.isDirectory(proc.resolve("self").resolve("fd")))
        {
            return null;
        }
        final String under;
        try
        {
            under = journal.toRealPath() + "/";
        }
        catch (final IOException ex)
        {
            return new HeldRemovedCycles(0, 0, new TreeSet<>());
        }
        final Map<String, Long> sizes = new HashMap<>();
        final TreeSet<Long> processes = new TreeSet<>();
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, p -> p.getFileName().toString().chars().allMatch(Character::isDigit)))
        {
            for (final Path pid : pids)
            {
                if (scanProcess(pid, under, sizes))
                {
                    processes.add(Long.parseLong(pid.getFileName().toString()));
                }
            }
        }
        catch (final IOException ex)
        {
            return null;
        }
        return new HeldRemovedCycles(sizes.size(), sizes.values().stream().mapToLong(Long::longValue).sum(), processes);
    }

    /** Add the removed cycle files one process holds to {@code sizes} (by file); true if it holds any. */
    private static boolean scanProcess(final Path pid, final String under, final Map<String, Long> sizes)
    {
        boolean holds = false;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(pid.resolve("fd")))
        {
            for (final Path fd : fds)
            {
                final String target;
                final long size;
                try
                {
                    target = Files.readSymbolicLink(fd).toString();
                    if (!target.startsWith(under) || !target.endsWith(".cq4" + DELETED))
                    {
                        continue;
                    }
                    size = Files.size(fd); // the link leads to the removed file itself
                }
                catch (final IOException | UnsupportedOperationException closedMeanwhile)
                {
                    continue;
                }
                sizes.merge(target, size, Math::max); // the same file open twice, or in two processes: once
                holds = true;
            }
        }
        catch (final IOException | SecurityException notOurs) // another user's process, or one that ended
        {
            return false;
        }
        return holds;
    }
}
