package dev.weir.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.files.AtomicTextFile;

/**
 * Results written as date partitions: {@code DIR/date=YYYY-MM-DD/results.csv} (or {@code .jsonl}), by the
 * UTC date of {@code window_start}. Each partition the run produces rows for is written whole to a
 * temporary file and, on {@link #commit()}, forced and renamed over the previous one: a rerun replaces
 * exactly the partitions it touches and leaves the others byte for byte as they were. Rows are in the
 * engine's order within a partition.
 * <p>
 * Given a {@link DayRange}, it keeps only the rows of windows starting on those days, and {@link #commit()}
 * also removes those days' partitions (of this format) that got no row: the caller guarantees the run was a
 * complete recomputation of those days, and a day without rows has no partition.
 * <p>
 * Given a first day, rows of windows starting before it are counted ({@link #skipped()}) and not written, and
 * those days' partitions are left as they are: retention removed some of their input or outputs, so they cannot
 * be recomputed completely.
 * <p>
 * At most {@link #MAX_OPEN} temporary files are open at a time, however many days the rows span: the least
 * recently written is suspended and reopened for appending when its day gets a row again.
 * <p>
 * Not thread-safe: called on the engine thread, committed by the caller after the run.
 */
public final class PartitionedResults implements ResultListener, AutoCloseable
{
    /** The file formats. */
    public enum Format
    {
        /** CSV with the header of the rows ({@link ResultRow#header()}), e.g. {@code window_start,window_end,key,count,sum,min,max,version}. */
        csv,
        /** One JSON object per line with the same fields. */
        jsonl
    }

    /** The most temporary files open at once. */
    static final int MAX_OPEN = 64;

    private static final long DAY_MS = 86_400_000L;

    private final Path dir;
    private final Format format;
    private final ResultRow rowFormat;
    private final DayRange days;
    private final long firstDay;
    private long skipped;
    private final Map<Long, AtomicTextFile> partitions = new TreeMap<>();
    /** The partitions whose temporary files are open, least recently written first. */
    private final LinkedHashMap<Long, AtomicTextFile> open = new LinkedHashMap<>(MAX_OPEN * 2, 0.75f, true);
    private final RowWriter rowWriter;
    private long currentDay = Long.MIN_VALUE;
    private AtomicTextFile current;
    private long rows;
    private int removed;

    /**
     * Partitions for every day the rows fall on.
     */
    PartitionedResults(final Path dir, final Format format, final ResultRow rowFormat)
    {
        this(dir, format, rowFormat, null);
    }

    /**
     * @param days the days to keep rows of and to replace or remove partitions of, or null for all.
     */
    PartitionedResults(final Path dir, final Format format, final ResultRow rowFormat, final DayRange days)
    {
        this(dir, format, rowFormat, days, Long.MIN_VALUE);
    }

    /**
     * @param days     the days to keep rows of and to replace or remove partitions of, or null for all.
     * @param firstDay the first day (epoch days) to write rows of: rows of windows starting before it are counted
     *                 ({@link #skipped()}) but not written, and those days' partitions are left as they are (they
     *                 cannot be recomputed completely: retention removed some of their input or outputs).
     */
    public PartitionedResults(final Path dir, final Format format, final ResultRow rowFormat, final DayRange days, final long firstDay)
    {
        this.firstDay = firstDay;
        this.dir = dir;
        this.format = format;
        this.rowFormat = rowFormat;
        this.rowWriter = rowFormat.writer();
        this.days = days;
    }

    @Override
    public void onResult(final WindowResult r)
    {
        onRow(r);
    }

    /**
     * Write one result into its day's partition, as {@link #onResult} does.
     *
     * @param r the engine's result or a stored one ({@code ResultDecoder}).
     */
    void onRow(final ResultFields r)
    {
        final long day = Math.floorDiv(r.windowStart(), DAY_MS);
        if (days != null && !days.contains(day))
        {
            return;
        }
        if (day < firstDay)
        {
            skipped++;
            return;
        }
        final AtomicTextFile file = day == currentDay ? current : fileOf(day);
        if (format == Format.csv)
        {
            rowWriter.csv(file.row(), r);
        }
        else
        {
            rowWriter.json(file.row(), r);
        }
        rows++;
    }

    /** The partition's file, open for writing, and no more than {@link #MAX_OPEN} open. */
    private AtomicTextFile fileOf(final long day)
    {
        AtomicTextFile file = open.get(day);
        if (file == null)
        {
            if (open.size() == MAX_OPEN)
            {
                final Map.Entry<Long, AtomicTextFile> eldest = open.entrySet().iterator().next();
                eldest.getValue().suspend();
                open.remove(eldest.getKey());
            }
            file = partitions.get(day);
            if (file == null)
            {
                file = new AtomicTextFile(partition(day));
                partitions.put(day, file);
                if (format == Format.csv)
                {
                    file.line(rowFormat.header());
                }
            }
            open.put(day, file);
        }
        currentDay = day;
        current = file;
        return file;
    }

    /**
     * Replace every partition written by this run, one after the other, each atomically; then, given days,
     * remove those days' partitions that got no row (and their date directories, if empty).
     *
     * @return the partitions replaced, in date order.
     */
    public List<Path> commit()
    {
        open.clear();
        currentDay = Long.MIN_VALUE;
        current = null;
        final List<Path> written = new ArrayList<>();
        for (final Map.Entry<Long, AtomicTextFile> partition : partitions.entrySet())
        {
            partition.getValue().commit();
            written.add(partition(partition.getKey()));
        }
        if (days != null)
        {
            removeEmptyDays();
        }
        return written;
    }

    /**
     * @return the partitions of days without rows that {@link #commit()} removed.
     */
    public int removed()
    {
        return removed;
    }

    private void removeEmptyDays()
    {
        if (!Files.isDirectory(dir))
        {
            return;
        }
        try (DirectoryStream<Path> dates = Files.newDirectoryStream(dir, "date=*"))
        {
            for (final Path date : dates)
            {
                final long day = epochDay(date.getFileName().toString().substring("date=".length()));
                if (day == Long.MIN_VALUE || !days.contains(day) || partitions.containsKey(day) || !Files.isDirectory(date))
                {
                    continue;
                }
                if (Files.deleteIfExists(partition(day)))
                {
                    removed++;
                }
                try (DirectoryStream<Path> left = Files.newDirectoryStream(date))
                {
                    if (!left.iterator().hasNext())
                    {
                        Files.delete(date); // a date directory left empty
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot remove a partition of a day without rows in " + dir, ex);
        }
    }

    private static long epochDay(final String date)
    {
        try
        {
            return LocalDate.parse(date).toEpochDay();
        }
        catch (final DateTimeParseException ex)
        {
            return Long.MIN_VALUE; // not a partition of ours
        }
    }

    /**
     * @return the rows not written because their window starts before the first day given.
     */
    public long skipped()
    {
        return skipped;
    }

    /**
     * @return the rows written.
     */
    public long rows()
    {
        return rows;
    }

    /**
     * Drop the temporary files of partitions not committed.
     */
    @Override
    public void close()
    {
        for (final AtomicTextFile file : partitions.values())
        {
            file.close();
        }
    }

    private Path partition(final long day)
    {
        final String date = LocalDate.ofEpochDay(day).toString();
        return dir.resolve("date=" + date).resolve("results." + format.name());
    }
}
