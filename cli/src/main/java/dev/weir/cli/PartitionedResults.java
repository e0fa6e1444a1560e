package dev.weir.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.journal.KeyDictionary;

/**
 * Results written as date partitions: {@code DIR/date=YYYY-MM-DD/results.csv} (or {@code .jsonl}), by the
 * UTC date of {@code window_start}. Each partition the run produces rows for is written whole to a
 * temporary file and, on {@link #commit()}, forced and renamed over the previous one: a rerun replaces
 * exactly the partitions it touches and leaves the others byte for byte as they were. Rows are in the
 * engine's order within a partition. Called on the engine thread; committed by the command afterwards.
 */
final class PartitionedResults implements ResultListener, AutoCloseable
{
    /** The file formats. */
    enum Format
    {
        /** CSV with the header {@code window_start,window_end,key,count,sum,min,max,version} (and {@code aggregate}). */
        csv,
        /** One JSON object per line with the same fields. */
        jsonl
    }

    private final Path dir;
    private final Format format;
    private final KeyDictionary keys;
    private final boolean withAggregate;
    private final Map<Long, AtomicTextFile> partitions = new TreeMap<>();
    private final StringBuilder row = new StringBuilder(160);
    private long rows;

    PartitionedResults(final Path dir, final Format format, final KeyDictionary keys, final boolean withAggregate)
    {
        this.dir = dir;
        this.format = format;
        this.keys = keys;
        this.withAggregate = withAggregate;
    }

    @Override
    public void onResult(final WindowResult r)
    {
        final long day = Math.floorDiv(r.windowStart(), 86_400_000L);
        AtomicTextFile file = partitions.get(day);
        if (file == null)
        {
            file = new AtomicTextFile(partition(day));
            if (format == Format.csv)
            {
                file.line(ResultRow.header(withAggregate));
            }
            partitions.put(day, file);
        }
        row.setLength(0);
        final String key = keys.name(r.keyId());
        if (format == Format.csv)
        {
            ResultRow.csv(row, r.windowStart(), r.windowEnd(), key, r.count(), r.sum(), r.min(), r.max(), r.version(), withAggregate, r.aggregate());
        }
        else
        {
            ResultRow.json(row, r.windowStart(), r.windowEnd(), key, r.count(), r.sum(), r.min(), r.max(), r.version(), withAggregate, r.aggregate());
        }
        file.line(row.toString());
        rows++;
    }

    /**
     * Replace every partition written by this run.
     *
     * @return the partitions replaced, in date order.
     */
    List<Path> commit()
    {
        final List<Path> written = new ArrayList<>();
        for (final Map.Entry<Long, AtomicTextFile> partition : partitions.entrySet())
        {
            partition.getValue().commit();
            written.add(partition(partition.getKey()));
        }
        return written;
    }

    /**
     * @return the rows written.
     */
    long rows()
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
        final String date = Instant.ofEpochMilli(day * 86_400_000L).atZone(ZoneOffset.UTC).toLocalDate().toString();
        return dir.resolve("date=" + date).resolve("results." + format.name());
    }
}
