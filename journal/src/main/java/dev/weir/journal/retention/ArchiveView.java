package dev.weir.journal.retention;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.weir.journal.HistoryBase;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;

/**
 * A journal read back whole after retention moved its oldest cycles into an archive ({@link CycleRemoval}): a
 * temporary journal directory with the journal's marker (id, columns, roll cycle) whose events queue links the
 * archived cycle files, then the journal's live ones. Chronicle reads linked cycle files with their own indexes, so
 * the view reads as the journal did before retention, at the same offsets. The view has no history base and no
 * dictionary snapshot: its readers start at its first document and rebuild every dictionary and key tuple from the
 * documents themselves, as in a journal never retained.
 * <p>
 * Opening checks the archive against the journal's {@link HistoryBase}: the view's documents before the base's
 * first offset must be exactly those the base says were removed (their number, first and last offsets, counts,
 * greatest event time, string dictionaries and key tuples). An archive of another journal, one missing a cycle
 * (between its newest and the journal's oldest, or because a retention step deleted instead of archiving), or a
 * journal from which retention removed nothing, is refused ({@link JournalRefusedException}).
 * <p>
 * The view holds the cycles present when it was made: documents appended to the journal's newest cycle are read,
 * a cycle the journal rolls to afterwards is not. It only links: {@link #close()} removes the view's directory and
 * its links, never a cycle file. Not thread-safe: one owner opens and closes it; readers opened on
 * {@link #directory()} follow their own rules and must be closed first.
 */
public final class ArchiveView implements AutoCloseable
{
    private static final String CYCLE_SUFFIX = ".cq4";

    private final JournalDirectory directory;

    private ArchiveView(final JournalDirectory directory)
    {
        this.directory = directory;
    }

    /**
     * Make the view of a journal and the archive its removed cycles were moved to.
     *
     * @param journal the journal.
     * @param archive the archive's root directory ({@code weir retain --archive DIR}).
     * @return the view, checked.
     * @throws JournalRefusedException if the archive does not hold exactly what retention removed from the journal.
     * @throws UncheckedIOException    if the view cannot be made.
     */
    public static ArchiveView open(final JournalDirectory journal, final Path archive)
    {
        final HistoryBase base = HistoryBase.load(journal);
        if (base == null)
        {
            throw new JournalRefusedException(journal.root(), "retention removed nothing from it, so it has no archive to read back from "
                + archive);
        }
        final Path archived = CycleRemoval.archivedPath(journal, journal.eventsQueue(), "x", archive).getParent();
        final TreeMap<String, Path> cycles = new TreeMap<>(cycles(archived));
        if (cycles.isEmpty())
        {
            throw new JournalRefusedException(journal.root(), "the archive " + archive + " holds no events cycle (" + archived + "/*"
                + CYCLE_SUFFIX + ")");
        }
        final TreeMap<String, Path> live = cycles(journal.eventsQueue());
        if (!live.isEmpty())
        {
            final String oldest = live.firstKey();
            for (final String name : cycles.keySet())
            {
                if (name.length() != oldest.length() || (name.compareTo(oldest) >= 0 && !live.containsKey(name)))
                {
                    throw new JournalRefusedException(journal.root(), "the archive " + archive + " does not match it: its cycle " + name
                        + " is not a " + journal.rollCycle() + " cycle before the journal's oldest, " + oldest);
                }
            }
        }
        cycles.putAll(live); // a cycle in both (a retention step killed while copying across file systems) is read from the journal
        final Path root = create(journal, cycles);
        final JournalDirectory view;
        try
        {
            view = JournalDirectory.open(root);
            final String difference = base.differenceFrom(view);
            if (difference != null)
            {
                throw new JournalRefusedException(journal.root(), "the archive " + archive + " does not match it: " + difference
                    + " (another journal's cycles, a cycle missing between the archive's newest and the journal's oldest, or cycles a "
                    + "retention step deleted rather than archived)");
            }
        }
        catch (final RuntimeException ex)
        {
            delete(root);
            throw ex;
        }
        return new ArchiveView(view);
    }

    /**
     * @return the view: a journal directory to read (never to write) as the journal before retention.
     */
    public JournalDirectory directory()
    {
        return directory;
    }

    /**
     * Remove the view's directory and links; the cycle files they link are left as they are.
     */
    @Override
    public void close()
    {
        delete(directory.root());
    }

    private static TreeMap<String, Path> cycles(final Path queue)
    {
        final TreeMap<String, Path> cycles = new TreeMap<>();
        if (!Files.isDirectory(queue))
        {
            return cycles;
        }
        try (Stream<Path> files = Files.list(queue))
        {
            files.filter(f -> f.getFileName().toString().endsWith(CYCLE_SUFFIX) && Files.isRegularFile(f))
                .forEach(f -> cycles.put(f.getFileName().toString(), f.toAbsolutePath()));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + queue, ex);
        }
        return cycles;
    }

    private static Path create(final JournalDirectory journal, final TreeMap<String, Path> cycles)
    {
        Path root = null;
        try
        {
            root = Files.createTempDirectory("weir-archive-view-");
            Files.copy(journal.root().resolve(JournalDirectory.MARKER_FILE), root.resolve(JournalDirectory.MARKER_FILE));
            final Path events = Files.createDirectory(root.resolve(journal.root().relativize(journal.eventsQueue())));
            for (final var cycle : cycles.entrySet())
            {
                Files.createSymbolicLink(events.resolve(cycle.getKey()), cycle.getValue());
            }
            return root;
        }
        catch (final IOException ex)
        {
            if (root != null)
            {
                delete(root);
            }
            throw new UncheckedIOException("cannot make the archive view of " + journal, ex);
        }
    }

    private static void delete(final Path root)
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            final List<Path> all = paths.sorted(Comparator.reverseOrder()).toList();
            for (final Path path : all)
            {
                Files.deleteIfExists(path); // a link itself, never what it links
            }
        }
        catch (final IOException ignored)
        {
            // a temporary view left behind holds links only
        }
    }
}
